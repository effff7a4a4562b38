// Block trilf, steps 3-4 on the device: block order (pgk::trilf::order_blocks) and the 2x2
// block tridiagonal T from the device CSR of A (pgk::trilf::assemble_block), plus the
// coverage sums of the setup (pgk::trilf::coverage_identity / coverage(a, BlockOrder)).
//
// Assembly is a scatter without atomics: row i of A is row r of block k (pos[i] = 2k + r) and
// column j is column c of block l, so entry (i, j) owns exactly one destination (block k,
// entry (r, c)) of D_k, L_k or U_k, and no two entries share one; T's entries are A's values
// unchanged, the same bits as the reference's "+=" into zeros.
#include "kernels/common/cub_temp.cuh"
#include "kernels/trilf/block_internal.cuh"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgk::cuda::trilf::blk {
namespace {

__global__ void order_blocks_kernel(const Index *members, const Index *perm, Index nb, Index *slots, Index *pos) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < nb; k += Index(gridDim.x) * blockDim.x) {
    const Index I = perm[k];
    const Index i0 = members[2 * I], i1 = members[2 * I + 1];
    slots[2 * k] = i0;
    slots[2 * k + 1] = i1;
    pos[i0] = 2 * k;
    if (i1 >= 0) pos[i1] = 2 * k + 1;
  }
}

// Zero blocks; the ghost equation of an unmatched vertex has diagonal 1.
__global__ void init_blocks(const Index *slots, Index nb, double *lower, double *diag, double *upper) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < nb; k += Index(gridDim.x) * blockDim.x) {
    for (int q = 0; q < 4; ++q) {
      lower[4 * k + q] = 0;
      diag[4 * k + q] = 0;
      upper[4 * k + q] = 0;
    }
    if (slots[2 * k + 1] < 0) diag[4 * k + 3] = 1.0;
  }
}

struct Sums {
  double total, kept, ident;
};
struct AddSums {
  __host__ __device__ Sums operator()(const Sums &x, const Sums &y) const {
    return {x.total + y.total, x.kept + y.kept, x.ident + y.ident};
  }
};

// kRowLanes lanes per row of A stride the row: a warp per row left 27 of 32 lanes idle on 5-entry
// rows (1.30 ms at set-up, 1.03 ms at a re-set-up on a 4.2M-row 5-point matrix, ncu on an H200,
// cold caches). A's entry count is not read back for a choice: that would be one more transfer.
constexpr int kRowLanes = 8;

template <bool Coverage>
__global__ void scatter_rows(CsrView a, const Index *pos, const Index *path_head, double *lower, double *diag,
                             double *upper, unsigned long long *bad, Sums *row_sums) {
  const Index lane = threadIdx.x % kRowLanes;
  const unsigned group_mask = subwarp_mask<kRowLanes>();
  const Index groups = (Index(gridDim.x) * blockDim.x) / kRowLanes;
  for (Index i = (blockIdx.x * Index(blockDim.x) + threadIdx.x) / kRowLanes; i < a.nrows; i += groups) {
    const Index pi = pos[i];
    const Index k = pi >> 1, r = pi & 1;
    Sums s{0, 0, 0};
    for (Index e = a.rowptr[i] + lane; e < a.rowptr[i + 1]; e += kRowLanes) {
      const Index j = a.colidx[e];
      const double v = a.values ? a.values[e] : 1.0;
      if (!isfinite(v)) atomicMin(bad, static_cast<unsigned long long>(e)); // the first entry in row-major order
      const Index pj = pos[j];
      const Index l = pj >> 1, c = pj & 1;
      const Index q = 4 * k + 2 * r + c;
      bool kept = false;
      if (l == k) {
        diag[q] = v;
        kept = true;
      } else if (l + 1 == k && path_head[k] != k) { // k - 1 on the same coarse path
        lower[q] = v;
        kept = true;
      } else if (l == k + 1 && path_head[l] != l) {
        upper[q] = v;
        kept = true;
      }
      if (Coverage && j != i) {
        const double m = fabs(v);
        s.total += m;
        if (kept) s.kept += m;
        if (j == i - 1 || j == i + 1) s.ident += m;
      }
    }
    if (Coverage) {
      // Fixed butterfly: the same summation order on every run.
      for (int d = kRowLanes / 2; d > 0; d >>= 1) {
        s.total += __shfl_xor_sync(group_mask, s.total, d, kRowLanes);
        s.kept += __shfl_xor_sync(group_mask, s.kept, d, kRowLanes);
        s.ident += __shfl_xor_sync(group_mask, s.ident, d, kRowLanes);
      }
      if (lane == 0) row_sums[i] = s;
    }
  }
}

} // namespace

void order_blocks(const Index *members, const Index *perm, Index nb, Index *slots, Index *pos, cudaStream_t s) {
  if (nb == 0) return;
  order_blocks_kernel<<<grid_for(nb, kThreads, kMaxBlocks), kThreads, 0, s>>>(members, perm, nb, slots, pos);
  PGK_CUDA_CHECK_LAUNCH();
}

void assemble(const CsrView &a, const Index *slots, const Index *pos, const Index *path_head, Index nb, double *lower,
              double *diag, double *upper, Coverage *cov, DeviceBuffer<unsigned char> &scratch, cudaStream_t s) {
  if (cov) *cov = Coverage();
  if (nb == 0) return;
  init_blocks<<<grid_for(nb, kThreads, kMaxBlocks), kThreads, 0, s>>>(slots, nb, lower, diag, upper);
  PGK_CUDA_CHECK_LAUNCH();
  const auto n = static_cast<std::size_t>(a.nrows);
  // bad: the smallest entry index holding NaN/Inf (~0: none).
  DeviceBuffer<unsigned long long> bad(1);
  DeviceBuffer<double> sums(cov ? 3 * n + 3 : 0); // per-row Sums, then the total
  PGK_CUDA_CHECK(cudaMemsetAsync(bad.data(), 0xff, sizeof(unsigned long long), s));
  Sums *row_sums = reinterpret_cast<Sums *>(sums.data());
  const int grid_rows = grid_for(kRowLanes * static_cast<long long>(a.nrows), kThreads, kMaxBlocks);
  if (cov)
    scatter_rows<true><<<grid_rows, kThreads, 0, s>>>(a, pos, path_head, lower, diag, upper, bad.data(), row_sums);
  else scatter_rows<false><<<grid_rows, kThreads, 0, s>>>(a, pos, path_head, lower, diag, upper, bad.data(), nullptr);
  PGK_CUDA_CHECK_LAUNCH();
  if (cov) {
    // CUB's device reduction has a fixed shape for a given size: run-to-run deterministic.
    Sums *total = row_sums + n;
    cub_run(scratch, [&](void *t, std::size_t &b) {
      return cub::DeviceReduce::Reduce(t, b, row_sums, total, static_cast<long long>(n), AddSums(), Sums{0, 0, 0}, s);
    });
    double t[3];
    copy_to_host(t, sums.data() + 3 * n, sizeof t, s);
    cov->total = t[0];
    cov->kept = t[1];
    cov->ident = t[2];
  }
  const unsigned long long e = bad.get(0, s);
  if (e != ~0ull) {
    // Error path only: name (row, column) like check_matrix.
    std::vector<Index> rp(n + 1);
    copy_to_host(rp.data(), a.rowptr, sizeof(Index) * (n + 1), s);
    const Index row =
        static_cast<Index>(std::upper_bound(rp.begin(), rp.end(), static_cast<Index>(e)) - rp.begin()) - 1;
    const Index col = read_scalar(a.colidx + e, s);
    const double v = read_scalar(a.values + e, s);
    throw std::domain_error("trilf assemble_block: non-finite value " + std::to_string(v) + " at (" +
                            std::to_string(row) + ", " + std::to_string(col) + ")");
  }
}

} // namespace pgk::cuda::trilf::blk
