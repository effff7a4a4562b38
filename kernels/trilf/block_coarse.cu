// Block trilf, steps 1-2 on the device: pairs along the forest's paths, coarse numbering of the
// pairing and the coarse weight graph (pgk::trilf::pair_along_paths / pair_vertices /
// coarse_graph, src/trilf/block.cpp), bit for bit.
//
// Coarse graph, without per-row serial loops:
//   1. row I of the coarse graph gathers the W rows of its members: length deg(i0) + deg(i1),
//      offsets by a prefix sum;
//   2. every W entry (i, j) with w > 0 and J = coarse_of[j] != I becomes a key
//      (J << 2 | s << 1 | t), s / t = slot of i in I / of j in J, value w; others a sentinel;
//   3. segmented sort by key per coarse row (keys are unique within a row: W rows have unique
//      columns), so each J's (at most 4) terms are adjacent, ordered by (s, t);
//   4. the first entry of each J run is flagged; a prefix sum over the flags gives the output
//      positions and the row pointer; the run's terms are summed in the reference grouping
//      (W(i0,j0) + W(i1,j1)) + (W(i0,j1) + W(i1,j0)), so the weight is the reference's bits.
#include "kernels/common/cub_temp.cuh"
#include "kernels/trilf/block_internal.cuh"
#include "kernels/trilf/launch.cuh"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

namespace pgk::cuda::trilf::blk {
namespace {

constexpr unsigned long long kNoKey = ~0ull; // sorts after every real key

// One thread per position k of the path order: the even offsets from the path head take the
// next position's vertex (when it is on the same path), the odd ones the previous'.
__global__ void partners_along_paths(const Index *perm, const Index *path_head, Index n, Index *partner) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x) {
    const Index h = path_head[k];
    Index mate = -1;
    if ((k - h) % 2 == 1) mate = perm[k - 1];
    else if (k + 1 < n && path_head[k + 1] == h) mate = perm[k + 1];
    partner[perm[k]] = mate;
  }
}

__device__ inline bool is_head(const Index *partner, Index v) {
  const Index u = partner[v];
  return u < 0 || u > v;
}

__global__ void head_flags(const Index *partner, Index n, Index *flag) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < n; v += Index(gridDim.x) * blockDim.x)
    flag[v] = is_head(partner, v) ? 1 : 0;
}

// rank: exclusive prefix sum of the head flags, in place in coarse_of.
__global__ void fill_members(const Index *partner, Index n, Index *coarse_of, Index *members) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < n; v += Index(gridDim.x) * blockDim.x) {
    const Index u = partner[v];
    if (u < 0 || u > v) { // v is the smaller member (or alone): its rank is its coarse id
      const Index I = coarse_of[v];
      members[2 * I] = v;
      members[2 * I + 1] = u;
    } else { // u is a head, whose entry holds its rank and is not written by this kernel
      coarse_of[v] = coarse_of[u];
    }
  }
}

__device__ inline Index row_len(const Index *rowptr, Index i) { return i < 0 ? 0 : rowptr[i + 1] - rowptr[i]; }

__global__ void coarse_row_lengths(const Index *wrow, const Index *members, Index nc, Index *len) {
  for (Index I = blockIdx.x * Index(blockDim.x) + threadIdx.x; I <= nc; I += Index(gridDim.x) * blockDim.x)
    len[I] = I < nc ? row_len(wrow, members[2 * I]) + row_len(wrow, members[2 * I + 1]) : 0;
}

// S lanes per row stride its entries (S from the average row length, lanes_for_rows): a warp per
// row left 27 of 32 lanes idle on 5-entry rows (fill_keys 1.24 ms, emit_coarse 0.61 ms and
// run_heads 0.32 ms on a 4.2M-row 5-point matrix, ncu on an H200, cold caches).
template <int S>
__global__ void fill_keys(CsrView w, const Index *coarse_of, const Index *members, const Index *off,
                          unsigned long long *keys, double *vals) {
  const Index lane = threadIdx.x % S;
  const Index groups = (Index(gridDim.x) * blockDim.x) / S;
  for (Index i = (blockIdx.x * Index(blockDim.x) + threadIdx.x) / S; i < w.nrows; i += groups) {
    const Index I = coarse_of[i];
    const Index i0 = members[2 * I];
    const Index s = i0 == i ? 0 : 1;
    const Index base = off[I] + (s ? row_len(w.rowptr, i0) : 0) - w.rowptr[i];
    for (Index e = w.rowptr[i] + lane; e < w.rowptr[i + 1]; e += S) {
      const Index j = w.colidx[e];
      const double x = w.values[e];
      const Index J = coarse_of[j];
      unsigned long long key = kNoKey;
      if (x > 0 && J != I) {
        const Index t = members[2 * J] == j ? 0 : 1;
        key = (static_cast<unsigned long long>(J) << 2) | static_cast<unsigned long long>(2 * s + t);
      }
      keys[base + e] = key;
      vals[base + e] = x;
    }
  }
}

// S lanes per coarse row: flag[p] = 1 at the first entry of every neighbour's run.
template <int S> __global__ void run_heads(const unsigned long long *keys, const Index *off, Index nc, Index *flag) {
  const Index lane = threadIdx.x % S;
  const Index groups = (Index(gridDim.x) * blockDim.x) / S;
  for (Index I = (blockIdx.x * Index(blockDim.x) + threadIdx.x) / S; I < nc; I += groups)
    for (Index p = off[I] + lane; p < off[I + 1]; p += S) {
      const unsigned long long k = keys[p];
      flag[p] = k != kNoKey && (p == off[I] || (keys[p - 1] >> 2) != (k >> 2)) ? 1 : 0;
    }
}

__global__ void coarse_rowptr(const Index *off, const Index *pos, Index nc, Index *rowptr) {
  for (Index I = blockIdx.x * Index(blockDim.x) + threadIdx.x; I <= nc; I += Index(gridDim.x) * blockDim.x)
    rowptr[I] = pos[off[I]];
}

template <int S>
__global__ void emit_coarse(const unsigned long long *keys, const double *vals, const Index *off, const Index *pos,
                            Index nc, Index *colidx, double *values) {
  const Index lane = threadIdx.x % S;
  const Index groups = (Index(gridDim.x) * blockDim.x) / S;
  for (Index I = (blockIdx.x * Index(blockDim.x) + threadIdx.x) / S; I < nc; I += groups) {
    const Index end = off[I + 1];
    for (Index p = off[I] + lane; p < end; p += S) {
      if (pos[p + 1] == pos[p]) // not a run head (flags were scanned in place)
        continue;
      const unsigned long long J = keys[p] >> 2;
      double t[4] = {0, 0, 0, 0}; // absent terms are 0, as in the reference
      for (Index q = p; q < end && q < p + 4 && (keys[q] >> 2) == J; ++q) t[keys[q] & 3] = vals[q];
      colidx[pos[p]] = static_cast<Index>(J);
      // (W(i0,j0) + W(i1,j1)) + (W(i0,j1) + W(i1,j0)): the reference's grouping, exactly.
      values[pos[p]] = __dadd_rn(__dadd_rn(t[0], t[3]), __dadd_rn(t[1], t[2]));
    }
  }
}

} // namespace

void pair_along_paths(const Index *perm, const Index *path_head, Index n, Index *partner, cudaStream_t s) {
  if (n == 0) return;
  partners_along_paths<<<grid_for(n, kThreads, kMaxBlocks), kThreads, 0, s>>>(perm, path_head, n, partner);
  PGK_CUDA_CHECK_LAUNCH();
}

Index number_coarse(const Index *partner, Index n, DeviceBuffer<Index> &coarse_of, DeviceBuffer<Index> &members,
                    DeviceBuffer<unsigned char> &scratch, cudaStream_t s) {
  coarse_of.allocate(static_cast<std::size_t>(n));
  if (n == 0) {
    members.allocate(0);
    return 0;
  }
  const int grid_n = grid_for(n, kThreads, kMaxBlocks);
  head_flags<<<grid_n, kThreads, 0, s>>>(partner, n, coarse_of.data());
  PGK_CUDA_CHECK_LAUNCH();
  Index *rank = coarse_of.data();
  cub_run(scratch, [&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, rank, n, s); });
  // Coarse vertices = rank of the last vertex + its own flag.
  const Index last[2] = {read_scalar(rank + n - 1, s), read_scalar(partner + n - 1, s)};
  const Index nc = last[0] + (last[1] < 0 || last[1] > n - 1 ? 1 : 0);
  members.allocate(2 * static_cast<std::size_t>(nc));
  fill_members<<<grid_n, kThreads, 0, s>>>(partner, n, coarse_of.data(), members.data());
  PGK_CUDA_CHECK_LAUNCH();
  return nc;
}

void contract_graph(const CsrView &w, const Index *coarse_of, const Index *members, Index nc,
                    DeviceBuffer<Index> &rowptr, DeviceBuffer<Index> &colidx, DeviceBuffer<double> &values,
                    DeviceBuffer<unsigned char> &scratch, cudaStream_t s) {
  rowptr.allocate(static_cast<std::size_t>(nc) + 1);
  DeviceBuffer<Index> off(static_cast<std::size_t>(nc) + 1);
  const int grid_nc = grid_for(nc + 1, kThreads, kMaxBlocks);
  coarse_row_lengths<<<grid_nc, kThreads, 0, s>>>(w.rowptr, members, nc, off.data());
  PGK_CUDA_CHECK_LAUNCH();
  Index *offp = off.data();
  cub_run(scratch, [&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, offp, nc + 1, s); });
  const Index len = read_scalar(offp + nc, s);
  if (len == 0) {
    PGK_CUDA_CHECK(cudaMemsetAsync(rowptr.data(), 0, sizeof(Index) * (static_cast<std::size_t>(nc) + 1), s));
    colidx.allocate(0);
    values.allocate(0);
    PGK_CUDA_CHECK(cudaStreamSynchronize(s));
    return;
  }
  const auto L = static_cast<std::size_t>(len);
  DeviceBuffer<unsigned long long> kin(L), kout(L);
  DeviceBuffer<double> vin(L), vout(L);
  DeviceBuffer<Index> pos(L + 1);
  with_lanes(detail::lanes_for_rows(len, w.nrows), [&](auto lanes) {
    constexpr int S = decltype(lanes)::value;
    fill_keys<S><<<grid_for(S * static_cast<long long>(w.nrows), kThreads, kMaxBlocks), kThreads, 0, s>>>(
        w, coarse_of, members, offp, kin.data(), vin.data());
  });
  PGK_CUDA_CHECK_LAUNCH();
  const unsigned long long *ki = kin.data();
  unsigned long long *ko = kout.data();
  const double *vi = vin.data();
  double *vo = vout.data();
  // Keys are unique within a segment, so stable or not, the result is one permutation.
  cub_run(scratch, [&](void *t, std::size_t &b) {
    return cub::DeviceSegmentedSort::SortPairs(t, b, ki, ko, vi, vo, static_cast<long long>(len), nc, offp, offp + 1,
                                               s);
  });
  PGK_CUDA_CHECK(cudaMemsetAsync(pos.data() + len, 0, sizeof(Index), s));
  const int coarse_lanes = detail::lanes_for_rows(len, nc);
  with_lanes(coarse_lanes, [&](auto lanes) {
    constexpr int S = decltype(lanes)::value;
    run_heads<S>
        <<<grid_for(S * static_cast<long long>(nc), kThreads, kMaxBlocks), kThreads, 0, s>>>(ko, offp, nc, pos.data());
  });
  PGK_CUDA_CHECK_LAUNCH();
  Index *pp = pos.data();
  cub_run(scratch, [&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, pp, len + 1, s); });
  const Index nnz = read_scalar(pp + len, s);
  colidx.allocate(static_cast<std::size_t>(nnz));
  values.allocate(static_cast<std::size_t>(nnz));
  coarse_rowptr<<<grid_nc, kThreads, 0, s>>>(offp, pp, nc, rowptr.data());
  PGK_CUDA_CHECK_LAUNCH();
  with_lanes(coarse_lanes, [&](auto lanes) {
    constexpr int S = decltype(lanes)::value;
    emit_coarse<S><<<grid_for(S * static_cast<long long>(nc), kThreads, kMaxBlocks), kThreads, 0, s>>>(
        ko, vo, offp, pp, nc, colidx.data(), values.data());
  });
  PGK_CUDA_CHECK_LAUNCH();
  // The temporaries are freed on return: finish using them first.
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
}

} // namespace pgk::cuda::trilf::blk
