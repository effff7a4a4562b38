// The scalar trilf apply in four lanes (internal.hpp, LaneOrder): planning, the coefficients in
// lane order, and the scans.
//
// Why: in path order the apply gathers r[perm[k]] in its forward scan and z_i = x[iperm[i]] after
// its backward scan. Where paths run across A's numbering (a 2D grid's columns, 2048 rows apart on
// the issue's 4.2M-row rows) each of those 8-byte loads is a sector of its own: 64 against 49 us
// and 40 against 25 us where paths follow the numbering (ncu, H200, bench/NOTES.md). In lanes,
// path p goes to lane p % 4 and scan position 4 v + q holds row v of lane q, so the four paths
// side by side in A's numbering share each sector, while a path that follows the numbering still
// runs in consecutive rows of its lane. The backward scans then store z in A's numbering
// themselves (whole sectors in both cases), which saves the final gather's pass (20 bytes a row).
//
// The scan is tridiag.cu's (tile scan with zero carry-in, one block over the tiles' maps, a fix of
// the leading rows), with four maps per element, composed lane by lane: fixed association, so
// results are bit-reproducible; they differ from path order's by rounding only (another
// association of the same products).
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "kernels/common/atomics.cuh"
#include "kernels/common/cub_temp.cuh"
#include "kernels/common/pdl.cuh"
#include "kernels/common/transfer.hpp"
#include "kernels/trilf/affine.cuh"
#include "kernels/trilf/internal.hpp"
#include "kernels/trilf/launch.cuh"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

constexpr int kLanes = 4;
static_assert(kScanItems % kLanes == 0 && kTile % kLanes == 0, "a thread's items start at lane 0");

// ---- planning ---------------------------------------------------------------------------------

struct LaneCounts {
  Index v[kLanes];
};
struct LaneSum {
  __device__ LaneCounts operator()(const LaneCounts &x, const LaneCounts &y) const {
    LaneCounts r;
#pragma unroll
    for (int q = 0; q < kLanes; ++q) r.v[q] = x.v[q] + y.v[q];
    return r;
  }
};

// What the host reads: the lanes' lengths and the two locality counts.
struct PlanInfo {
  Index total[kLanes];
  unsigned long long contiguous, neighbours;
};

#define PGK_ROWS(k, n)                                                                                                 \
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < (n); k += Index(gridDim.x) * blockDim.x)

// flag[k] = 1 at path heads (their exclusive sum numbers the paths); plen[h] = the length of the
// path at head h (written by its last row; plen is zeroed before).
__global__ void head_flags(Index n, const Index *path_head, Index *flag) {
  PGK_ROWS(k, n) flag[k] = path_head[k] == k ? 1 : 0;
}
__global__ void path_lengths(Index n, const Index *path_head, Index *plen) {
  PGK_ROWS(k, n) {
    const Index h = path_head[k];
    if (k + 1 == n || path_head[k + 1] != h) plen[h] = k + 1 - h;
  }
}
// At each head, its path's length in the slot of its lane; zeros elsewhere.
__global__ void lane_lengths(Index n, const Index *pidx, const Index *plen, LaneCounts *len) {
  PGK_ROWS(k, n) {
    LaneCounts c;
#pragma unroll
    for (int q = 0; q < kLanes; ++q) c.v[q] = 0;
    const Index l = plen[k]; // 0 but at heads
    if (l > 0) c.v[pidx[k] % kLanes] = l;
    len[k] = c;
  }
}

// Rows of A next to each other (either way: a path may run against the numbering, as the second
// half of a path that turns at a grid's edge does).
__device__ inline bool adjacent(Index i, Index j) { return i == j + 1 || j == i + 1; }

// The lanes' totals (from the last row) and, per row, whether a row of A next to it is its next
// row in path order (contiguous; then it is also the next row of its lane) or the same row of the
// path beside it in the next lane (the path after it, when that path starts at the same lane row).
// Every lane of a warp runs the same iterations (warp_counter_add's shuffle).
__global__ void plan_counts(Index n, const Index *perm, const Index *path_head, const Index *pidx, const Index *plen,
                            const LaneCounts *off, const LaneCounts *len, PlanInfo *info) {
  const Index stride = Index(gridDim.x) * blockDim.x;
  for (Index k0 = blockIdx.x * Index(blockDim.x); k0 < n; k0 += stride) {
    const Index k = k0 + threadIdx.x;
    if (k >= n) {
      warp_counter_add(&info->contiguous, 0);
      warp_counter_add(&info->neighbours, 0);
      continue;
    }
    const Index h = path_head[k], u = k - h, l = plen[h], p = pidx[h];
    const int q = static_cast<int>(p % kLanes);
    const Index i = perm[k];
    const bool contiguous = u + 1 < l && adjacent(perm[k + 1], i);
    bool beside = false;
    const Index h2 = h + l; // the next path's head
    if (!contiguous && q + 1 < kLanes && h2 < n)
      beside = off[h2].v[q + 1] == off[h].v[q] && u < plen[h2] && adjacent(perm[h2 + u], i);
    if (k + 1 == n) {
#pragma unroll
      for (int c = 0; c < kLanes; ++c) info->total[c] = off[k].v[c] + len[k].v[c];
    }
    warp_counter_add(&info->contiguous, contiguous ? 1 : 0);
    warp_counter_add(&info->neighbours, contiguous || beside ? 1 : 0);
  }
}

// Scan position of row k: 4 (lane offset of its path + k - head) + lane.
__global__ void place_rows(Index n, const Index *perm, const Index *path_head, const Index *pidx,
                           const LaneCounts *off, Index *row, Index *arow) {
  PGK_ROWS(k, n) {
    const Index h = path_head[k];
    const int q = static_cast<int>(pidx[h] % kLanes);
    const Index pos = kLanes * (off[h].v[q] + k - h) + q;
    row[pos] = k;
    arow[pos] = perm[k];
  }
}

// The path-order coefficients of coefficients_kernel (tridiag.cu), the same operations, stored at
// scan positions; zeros at padding (a restart with value 0 in every scan).
__global__ void lane_coefficients_kernel(Index rows, const Index *row, const double *pivot, const double *ueff,
                                         const double *mult, double *dinv, double *cu, double *cl, double *lmult) {
  PGK_ROWS(s, rows) {
    const Index k = row[s];
    if (k < 0) {
      dinv[s] = cu[s] = cl[s] = lmult[s] = 0.0;
      continue;
    }
    const double d = pivot[k], inv = 1.0 / d;
    dinv[s] = inv;
    cu[s] = -ueff[k] / d;
    cl[s] = k > 0 ? -ueff[k - 1] * inv : 0.0;
    lmult[s] = mult[k];
  }
}

// ---- scans ------------------------------------------------------------------------------------

struct Affine4 {
  double a[kLanes], b[kLanes];
};
__device__ inline Affine4 identity4() {
  Affine4 r;
#pragma unroll
  for (int q = 0; q < kLanes; ++q) r.a[q] = 1.0, r.b[q] = 0.0;
  return r;
}
__device__ inline void compose_lane(Affine4 &run, int q, double a, double b) {
  const Affine c = compose(Affine{run.a[q], run.b[q]}, Affine{a, b});
  run.a[q] = c.a;
  run.b[q] = c.b;
}
struct Compose4 {
  __device__ Affine4 operator()(const Affine4 &f, const Affine4 &s) const {
    Affine4 r = f;
#pragma unroll
    for (int q = 0; q < kLanes; ++q) compose_lane(r, q, s.a[q], s.b[q]);
    return r;
  }
};

// The four recurrences at scan position t (lane t % 4). Forward scans gather r through arow and
// write y in lane order; backward scans run the positions backwards (s = rows - 1 - t: lane
// 3 - t % 4, each lane reversed) and store x into z in A's numbering. Padding: arow < 0, zero
// coefficients: a constant map 0, nothing loaded or stored.
struct LaneForward { // L y = Q^T r
  const double *mult, *r;
  const Index *arow;
  double *y;
  __device__ Affine load(Index t) const {
    const Index i = arow[t];
    return Affine{-mult[t], i >= 0 ? r[i] : 0.0};
  }
  __device__ void store(Index t, double x) const { y[t] = x; }
  __device__ void fix(Index t, double d) const { y[t] += d; }
};
struct LaneForwardT { // U^T w = Q^T r
  const double *cl, *dinv, *r;
  const Index *arow;
  double *y;
  __device__ Affine load(Index t) const {
    const Index i = arow[t];
    return Affine{cl[t], dinv[t] * (i >= 0 ? r[i] : 0.0)};
  }
  __device__ void store(Index t, double x) const { y[t] = x; }
  __device__ void fix(Index t, double d) const { y[t] += d; }
};
struct LaneStoreZ {
  const Index *arow;
  double *z;
  Index rows;
  __device__ void store(Index t, double x) const {
    const Index i = arow[rows - 1 - t];
    if (i >= 0) z[i] = x;
  }
  __device__ void fix(Index t, double d) const {
    const Index i = arow[rows - 1 - t];
    if (i >= 0) z[i] += d;
  }
};
struct LaneBackward : LaneStoreZ { // U x = y
  const double *cu, *dinv, *y;
  __device__ Affine load(Index t) const {
    const Index s = rows - 1 - t;
    return Affine{cu[s], dinv[s] * y[s]};
  }
};
// L^T x = w: the multiplier of the row after s in path order, which is the next row of its lane
// (s + 4) within a path; after a path's last row the next path's head has m = 0, as has the
// next path of the lane or padding.
struct LaneBackwardT : LaneStoreZ {
  const double *mult, *y;
  __device__ Affine load(Index t) const {
    const Index s = rows - 1 - t;
    return Affine{s + kLanes < rows ? -mult[s + kLanes] : 0.0, y[s]};
  }
};

template <class Op>
__global__ void __launch_bounds__(kScanThreads)
    lane_tile_scan(Op op, Index rows, double *agg_a, double *agg_b, Index *fixlen, double *sens) {
  pdl_prologue();
  using Exchange = cub::BlockExchange<double, kScanThreads, kScanItems>;
  using Scan = cub::BlockScan<Affine4, kScanThreads>;
  using Count = cub::BlockReduce<Index, kScanThreads>;
  __shared__ union {
    typename Exchange::TempStorage exchange;
    typename Scan::TempStorage scan;
    typename Count::TempStorage count;
  } temp;
  __shared__ Index kept;
  const Index base = static_cast<Index>(blockIdx.x) * kTile;
  double a[kScanItems], b[kScanItems];
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    const Index t = base + j * kScanThreads + threadIdx.x;
    const Affine f = t < rows ? op.load(t) : Affine{1.0, 0.0};
    a[j] = f.a;
    b[j] = f.b;
  }
  Exchange(temp.exchange).StripedToBlocked(a, a);
  __syncthreads();
  Exchange(temp.exchange).StripedToBlocked(b, b);
  __syncthreads();
  // Blocked: thread tid owns positions base + tid * 8 + j, lane j % 4.
  Affine4 agg = identity4();
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) compose_lane(agg, j % kLanes, a[j], b[j]);
  Affine4 excl, total;
  Scan(temp.scan).ExclusiveScan(agg, excl, identity4(), Compose4(), total);
  __syncthreads();
  Index last = 0;
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    const int q = j % kLanes;
    compose_lane(excl, q, a[j], b[j]);
    a[j] = excl.a[q]; // sensitivity to the lane's carry-in
    b[j] = excl.b[q]; // value for carry-in 0
    if (fabs(a[j]) > kSensitivityDrop) last = static_cast<Index>(threadIdx.x) * kScanItems + j + 1;
  }
  const Index len = Count(temp.count).Reduce(last, MaxIndex());
  if (threadIdx.x == 0) kept = len;
  __syncthreads();
  Exchange(temp.exchange).BlockedToStriped(b, b);
  __syncthreads();
  Exchange(temp.exchange).BlockedToStriped(a, a);
  // Every position before the last kept one gets its sensitivity, zeros included: a lane's run
  // may end before another lane's.
  const Index fix_rows = kept;
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    const Index off = j * kScanThreads + threadIdx.x, t = base + off;
    if (t < rows) {
      op.store(t, b[j]);
      if (off < fix_rows) sens[t] = a[j];
    }
  }
  if (threadIdx.x == 0) {
#pragma unroll
    for (int q = 0; q < kLanes; ++q) {
      agg_a[kLanes * blockIdx.x + q] = total.a[q];
      agg_b[kLanes * blockIdx.x + q] = total.b[q];
    }
    fixlen[blockIdx.x] = fix_rows;
  }
}

__device__ inline Affine4 load4(const double *agg_a, const double *agg_b, Index i) {
  Affine4 f;
#pragma unroll
  for (int q = 0; q < kLanes; ++q) f.a[q] = agg_a[kLanes * i + q], f.b[q] = agg_b[kLanes * i + q];
  return f;
}

// Each lane's carry-in of every tile, as tridiag.cu's tile_carries (runs of tiles per thread, one
// block scan), lane by lane.
__global__ void __launch_bounds__(kScanThreads)
    lane_tile_carries(Index ntiles, const double *agg_a, const double *agg_b, double *carry) {
  using Scan = cub::BlockScan<Affine4, kScanThreads>;
  __shared__ typename Scan::TempStorage temp;
  pdl_prologue();
  const Index per = (ntiles + kScanThreads - 1) / kScanThreads;
  const Index lo = min(ntiles, static_cast<Index>(threadIdx.x) * per), hi = min(ntiles, lo + per);
  const Compose4 op;
  Affine4 run = identity4();
  for (Index i = lo; i < hi; ++i) run = op(run, load4(agg_a, agg_b, i));
  Scan(temp).ExclusiveScan(run, run, identity4(), op);
  for (Index i = lo; i < hi; ++i) {
#pragma unroll
    for (int q = 0; q < kLanes; ++q) carry[kLanes * i + q] = run.b[q];
    run = op(run, load4(agg_a, agg_b, i));
  }
}

template <class Op>
__global__ void lane_fix_tiles(Op op, Index rows, const Index *fixlen, const double *carry, const double *sens) {
  pdl_prologue();
  const Index tile = blockIdx.x + 1; // tile 0 has carry-in 0
  const Index base = tile * kTile, len = fixlen[tile];
  for (Index t = base + threadIdx.x; t < base + len && t < rows; t += blockDim.x) {
    const double c = carry[kLanes * tile + t % kLanes];
    if (c != 0) op.fix(t, sens[t] * c);
  }
}

template <class Op> void lane_scan(const Op &op, Index rows, ScanWorkspace &ws, cudaStream_t s) {
  const Index ntiles = (rows + kTile - 1) / kTile;
  launch_dependent(lane_tile_scan<Op>, dim3(static_cast<unsigned>(ntiles)), dim3(kScanThreads), s, op, rows,
                   ws.agg_a.data(), ws.agg_b.data(), ws.fixlen.data(), ws.sens.data());
  if (ntiles < 2) return;
  launch_dependent(lane_tile_carries, dim3(1), dim3(kScanThreads), s, ntiles, ws.agg_a.data(), ws.agg_b.data(),
                   ws.carry.data());
  launch_dependent(lane_fix_tiles<Op>, dim3(static_cast<unsigned>(ntiles - 1)), dim3(128), s, op, rows,
                   ws.fixlen.data(), ws.carry.data(), ws.sens.data());
}

void release(LaneOrder &out) {
  out.rows = 0;
  out.row = DeviceBuffer<Index>();
  out.arow = DeviceBuffer<Index>();
}

} // namespace

void plan_lanes(const DevicePathOrder &order, Index n, ApplyLayout want, LaneOrder &out, void *stream) {
  release(out);
  out.contiguous = out.lane_neighbours = 0;
  if (n == 0 || want == ApplyLayout::Path) return;
  cudaStream_t s = as_stream(stream);
  const auto un = static_cast<std::size_t>(n);
  const int grid = grid_for(n, kThreads, kMaxBlocks);
  DeviceBuffer<Index> flag(un, s), pidx(un, s), plen(un, s);
  DeviceBuffer<LaneCounts> len(un, s), off(un, s);
  DeviceBuffer<PlanInfo> info(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(plen.data(), 0, sizeof(Index) * un, s));
  PGK_CUDA_CHECK(cudaMemsetAsync(info.data(), 0, sizeof(PlanInfo), s));
  head_flags<<<grid, kThreads, 0, s>>>(n, order.path_head.data(), flag.data());
  PGK_CUDA_CHECK_LAUNCH();
  path_lengths<<<grid, kThreads, 0, s>>>(n, order.path_head.data(), plen.data());
  PGK_CUDA_CHECK_LAUNCH();
  CubTemp(s).run(
      [&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, flag.data(), pidx.data(), n, s); });
  lane_lengths<<<grid, kThreads, 0, s>>>(n, pidx.data(), plen.data(), len.data());
  PGK_CUDA_CHECK_LAUNCH();
  const LaneCounts zero{};
  CubTemp(s).run([&](void *t, std::size_t &b) {
    return cub::DeviceScan::ExclusiveScan(t, b, len.data(), off.data(), LaneSum(), zero, n, s);
  });
  plan_counts<<<grid, kThreads, 0, s>>>(n, order.perm.data(), order.path_head.data(), pidx.data(), plen.data(),
                                        off.data(), len.data(), info.data());
  PGK_CUDA_CHECK_LAUNCH();
  PlanInfo h;
  copy_to_host(&h, info.data(), sizeof h, s);
  const Index longest = *std::max_element(h.total, h.total + kLanes);
  out.contiguous = double(h.contiguous) / double(n);
  out.lane_neighbours = double(h.neighbours) / double(n);
  const Index rows = kLanes * longest;
  const bool padded = rows - n > n / 8;
  if (want == ApplyLayout::Auto && (padded || 2 * h.neighbours < static_cast<unsigned long long>(n))) return;
  out.rows = rows;
  out.row.allocate(static_cast<std::size_t>(rows));
  out.arow.allocate(static_cast<std::size_t>(rows));
  PGK_CUDA_CHECK(cudaMemsetAsync(out.row.data(), 0xff, sizeof(Index) * rows, s)); // -1: padding
  PGK_CUDA_CHECK(cudaMemsetAsync(out.arow.data(), 0xff, sizeof(Index) * rows, s));
  place_rows<<<grid, kThreads, 0, s>>>(n, order.perm.data(), order.path_head.data(), pidx.data(), off.data(),
                                       out.row.data(), out.arow.data());
  PGK_CUDA_CHECK_LAUNCH();
}

void lane_coefficients(DeviceTridiagonal &t, const LaneOrder &lanes, const double *ueff, void *stream) {
  cudaStream_t s = as_stream(stream);
  lane_coefficients_kernel<<<grid_for(lanes.rows, kThreads, kMaxBlocks), kThreads, 0, s>>>(
      lanes.rows, lanes.row.data(), t.pivot.data(), ueff, t.mult.data(), t.dinv.data(), t.cu.data(), t.cl.data(),
      t.lane_mult.data());
  PGK_CUDA_CHECK_LAUNCH();
}

void solve_lanes(const DeviceTridiagonal &t, const LaneOrder &lanes, ScanWorkspace &ws, const double *r, double *z,
                 bool transpose, void *stream) {
  const Index rows = lanes.rows;
  cudaStream_t s = as_stream(stream);
  if (ws.y.size() < static_cast<std::size_t>(rows)) ws.reserve(rows);
  double *y = ws.y.data();
  const Index *arow = lanes.arow.data();
  if (!transpose) {
    lane_scan(LaneForward{t.lane_mult.data(), r, arow, y}, rows, ws, s);
    lane_scan(LaneBackward{{arow, z, rows}, t.cu.data(), t.dinv.data(), y}, rows, ws, s);
  } else {
    lane_scan(LaneForwardT{t.cl.data(), t.dinv.data(), r, arow, y}, rows, ws, s);
    lane_scan(LaneBackwardT{{arow, z, rows}, t.lane_mult.data(), y}, rows, ws, s);
  }
}

#undef PGK_ROWS

} // namespace pgk::cuda::trilf
