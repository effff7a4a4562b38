// Block trilf apply on the device: z = T~^-1 r and z = T~^-T r without a serial loop per path.
//
// Both block substitutions are affine recurrences in R^2, y_k = A_k y_{k-1} + c_k:
//   M^-1,  forward   y_k = r_k + (-M_k) y_{k-1}                 output  D'_k^-1 y_k
//          backward  x_k = D'_k^-1 y_k + (-D'_k^-1 U~_k) x_{k+1}   (reverse order)
//   M^-T,  forward   v_k = r_k + (-D'_{k-1}^-1 U~_{k-1})^T v_{k-1}  output  D'_k^-T v_k
//          backward  x_k = w_k + (-M_{k+1})^T x_{k+1}               (reverse order)
// (the transposed forward runs on v_k = D'_k^T w_k so it reuses the same stored matrices).
// Composition of affine maps is associative, so each recurrence is an inclusive scan with
// the operator (A2, c2) o (A1, c1) = (A2 A1, A2 c1 + c2). A_k = 0 (path start, split, path end)
// makes the map constant: the operator then drops everything before it, which also keeps
// overflowed products of one path from reaching the next (no 0 * Inf).
//
// The scan is deterministic by construction (fixed shape, no look-back whose grouping depends
// on timing, as CUB's single-pass DeviceScan has): (A) every tile of TILE blocks reduces to its
// composite map; (B) one CTA scans the tile composites into exclusive tile prefixes; (C) every
// tile re-reads its blocks, scans them from its prefix and writes its outputs. Gather of r and
// scatter of z through the slots are fused into the loads/stores (ghost rows: r = 0, result
// dropped). Bytes per block and apply: 56 + 104 (forward), 48 + 72 (backward).
#include "kernels/trilf/block_internal.cuh"

#include <cub/block/block_scan.cuh>

namespace pgk::cuda::trilf::blk {
namespace {

constexpr int kScanThreads = 256, kItems = 2, kTile = kScanThreads * kItems, kTopThreads = 1024;

enum : int { kGeneral = 0, kConstant = 1, kIdentity = 2 };

struct Aff {
  double a[4]; // row-major 2x2
  double c[2];
  int kind;
};

__device__ inline Aff identity() { return Aff{{1, 0, 0, 1}, {0, 0}, kIdentity}; }

// e first, then l.
struct Compose {
  __device__ Aff operator()(const Aff &e, const Aff &l) const {
    if (l.kind == kIdentity) return e;
    if (e.kind == kIdentity || l.kind == kConstant) return l;
    Aff r;
    r.c[0] = l.a[0] * e.c[0] + l.a[1] * e.c[1] + l.c[0];
    r.c[1] = l.a[2] * e.c[0] + l.a[3] * e.c[1] + l.c[1];
    if (e.kind == kConstant) {
      r.a[0] = r.a[1] = r.a[2] = r.a[3] = 0;
      r.kind = kConstant;
    } else {
      r.a[0] = l.a[0] * e.a[0] + l.a[1] * e.a[2];
      r.a[1] = l.a[0] * e.a[1] + l.a[1] * e.a[3];
      r.a[2] = l.a[2] * e.a[0] + l.a[3] * e.a[2];
      r.a[3] = l.a[2] * e.a[1] + l.a[3] * e.a[3];
      r.kind = kGeneral;
    }
    return r;
  }
};

__device__ inline void load4(const double *p, Index k, double (&m)[4], bool transpose) {
  const double2 x = reinterpret_cast<const double2 *>(p)[2 * k], y = reinterpret_cast<const double2 *>(p)[2 * k + 1];
  m[0] = x.x;
  m[1] = transpose ? y.x : x.y;
  m[2] = transpose ? x.y : y.x;
  m[3] = y.y;
}

__device__ inline Aff make(const double (&m)[4], double c0, double c1) {
  const bool zero = m[0] == 0 && m[1] == 0 && m[2] == 0 && m[3] == 0;
  return Aff{{m[0], m[1], m[2], m[3]}, {c0, c1}, zero ? kConstant : kGeneral};
}

// Forward scans: position i = block k, c_k = r gathered through the slots.
struct ForwardSrc {
  const double *mat; // -M_k, or (transpose) -D'^-1 U~ of block k-1, transposed
  const Index *slots;
  const double *r;
  bool transpose;
  __device__ Aff operator()(Index k) const {
    double m[4] = {0, 0, 0, 0};
    if (!transpose) load4(mat, k, m, false);
    else if (k > 0) load4(mat, k - 1, m, true);
    const Index s1 = slots[2 * k + 1];
    return make(m, r[slots[2 * k]], s1 >= 0 ? r[s1] : 0.0);
  }
};
struct ForwardDst { // tmp_k = D'_k^-1 y_k (or D'_k^-T v_k)
  const double *inv;
  double *tmp;
  bool transpose;
  __device__ void operator()(Index k, double y0, double y1) const {
    double m[4];
    load4(inv, k, m, transpose);
    reinterpret_cast<double2 *>(tmp)[k] = make_double2(m[0] * y0 + m[1] * y1, m[2] * y0 + m[3] * y1);
  }
};
// Backward scans: position i = block nb-1-i.
struct BackwardSrc {
  const double *mat; // -D'^-1 U~ of block k, or (transpose) -M of block k+1, transposed
  const double *tmp;
  Index nb;
  bool transpose;
  __device__ Aff operator()(Index i) const {
    const Index k = nb - 1 - i;
    double m[4] = {0, 0, 0, 0};
    if (!transpose) load4(mat, k, m, false);
    else if (k + 1 < nb) load4(mat, k + 1, m, true);
    const double2 c = reinterpret_cast<const double2 *>(tmp)[k];
    return make(m, c.x, c.y);
  }
};
struct BackwardDst {
  const Index *slots;
  double *z;
  Index nb;
  __device__ void operator()(Index i, double y0, double y1) const {
    const Index k = nb - 1 - i;
    z[slots[2 * k]] = y0;
    const Index s1 = slots[2 * k + 1];
    if (s1 >= 0) // a ghost's value is dropped
      z[s1] = y1;
  }
};

using TileScan = cub::BlockScan<Aff, kScanThreads, cub::BLOCK_SCAN_WARP_SCANS>;

// Loads the tile striped (coalesced) into shared memory; returns this thread's composite of
// its kItems consecutive blocks.
template <class Src> __device__ Aff load_tile(const Src &src, Index n, Aff (&buf)[kTile]) {
  const Index base = Index(blockIdx.x) * kTile;
  for (int q = 0; q < kItems; ++q) {
    const int idx = q * kScanThreads + threadIdx.x;
    buf[idx] = base + idx < n ? src(base + idx) : identity();
  }
  __syncthreads();
  Aff x = identity();
  const Compose op;
  for (int q = 0; q < kItems; ++q) x = op(x, buf[threadIdx.x * kItems + q]);
  return x;
}

template <class Src> __global__ __launch_bounds__(kScanThreads) void tile_reduce(Src src, Index n, Aff *tiles) {
  __shared__ Aff buf[kTile];
  __shared__ typename TileScan::TempStorage ts;
  const Aff x = load_tile(src, n, buf);
  Aff incl, total;
  TileScan(ts).InclusiveScan(x, incl, Compose(), total);
  if (threadIdx.x == 0) tiles[blockIdx.x] = total;
}

// One CTA: tiles[j] <- composite of tiles 0..j-1 (identity for j = 0).
__global__ __launch_bounds__(kTopThreads) void tile_prefixes(Aff *tiles, Index ntiles) {
  using TopScan = cub::BlockScan<Aff, kTopThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename TopScan::TempStorage ts;
  const Index per = (ntiles + kTopThreads - 1) / kTopThreads;
  const Index lo = threadIdx.x * per, hi = lo + per < ntiles ? lo + per : ntiles;
  const Compose op;
  Aff x = identity();
  for (Index j = lo; j < hi; ++j) x = op(x, tiles[j]);
  Aff run;
  TopScan(ts).ExclusiveScan(x, run, identity(), op);
  for (Index j = lo; j < hi; ++j) {
    const Aff t = tiles[j];
    tiles[j] = run;
    run = op(run, t);
  }
}

template <class Src, class Dst>
__global__ __launch_bounds__(kScanThreads) void tile_apply(Src src, Dst dst, Index n, const Aff *prefix) {
  __shared__ Aff buf[kTile];
  __shared__ double2 out[kTile];
  __shared__ typename TileScan::TempStorage ts;
  const Aff x = load_tile(src, n, buf);
  const Compose op;
  Aff ex;
  TileScan(ts).ExclusiveScan(x, ex, identity(), op);
  const Aff start = op(prefix[blockIdx.x], ex);
  double y0 = start.kind == kIdentity ? 0.0 : start.c[0], y1 = start.kind == kIdentity ? 0.0 : start.c[1];
  for (int q = 0; q < kItems; ++q) {
    const int idx = threadIdx.x * kItems + q;
    const Aff &e = buf[idx];
    if (e.kind == kConstant) {
      y0 = e.c[0];
      y1 = e.c[1];
    } else if (e.kind == kGeneral) {
      const double t0 = e.a[0] * y0 + e.a[1] * y1 + e.c[0];
      y1 = e.a[2] * y0 + e.a[3] * y1 + e.c[1];
      y0 = t0;
    }
    out[idx] = make_double2(y0, y1);
  }
  __syncthreads();
  const Index base = Index(blockIdx.x) * kTile;
  for (int q = 0; q < kItems; ++q) {
    const int idx = q * kScanThreads + threadIdx.x;
    if (base + idx < n) dst(base + idx, out[idx].x, out[idx].y);
  }
}

template <class Src, class Dst> void scan(const Src &src, const Dst &dst, Index n, Aff *tiles, cudaStream_t s) {
  const Index ntiles = (n + kTile - 1) / kTile;
  tile_reduce<<<static_cast<unsigned>(ntiles), kScanThreads, 0, s>>>(src, n, tiles);
  PGK_CUDA_CHECK_LAUNCH();
  tile_prefixes<<<1, kTopThreads, 0, s>>>(tiles, ntiles);
  PGK_CUDA_CHECK_LAUNCH();
  tile_apply<<<static_cast<unsigned>(ntiles), kScanThreads, 0, s>>>(src, dst, n, tiles);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace

std::size_t scan_workspace_bytes(Index nb) { return static_cast<std::size_t>((nb + kTile - 1) / kTile) * sizeof(Aff); }

void solve(bool transpose, Index nb, const Index *slots, const double *neg_mult, const double *inv, const double *back,
           const double *r, double *z, double *tmp, unsigned char *tiles_bytes, cudaStream_t s) {
  if (nb == 0) return;
  Aff *tiles = reinterpret_cast<Aff *>(tiles_bytes);
  scan(ForwardSrc{transpose ? back : neg_mult, slots, r, transpose}, ForwardDst{inv, tmp, transpose}, nb, tiles, s);
  scan(BackwardSrc{transpose ? neg_mult : back, tmp, nb, transpose}, BackwardDst{slots, z, nb}, nb, tiles, s);
}

} // namespace pgk::cuda::trilf::blk
