// The device graph of rabbitpp and its processing order (src/rabbitpp/graph.cpp's build_graph
// and processing_order, equal arrays): the input check, G = pattern(A + A^T) without the
// diagonal, weights, strengths and total; the vertices sorted by (degree, id).
//
// A structurally symmetric A (kernels/common/symmetrize_pattern finds no missing transposed
// entry, and builds nothing) gives G = A minus its diagonal, every weight 2. Otherwise S =
// pattern(A + A^T) is built there (rows sorted, diagonal kept) and G = S minus the diagonal, with
// w(i, j) = [a_ij stored] + [a_ji stored] by a binary search in each of the two rows of A.
// Strengths need no row sums: str(i) = the off-diagonal entries of row i of A plus those of
// column i (column counts by exact integer atomics), and total = 2 * (off-diagonal entries of A).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <stdexcept>
#include <string>

#include "kernels/common/device_csr.hpp"
#include "kernels/rabbitpp/graph_ops.hpp"
#include "kernels/rabbitpp/internal.cuh"

namespace pgk::cuda::rabbitpp_detail {
namespace {

using namespace rabbitpp_ops;

struct GraphRecord {
  Index nnz_g, ndiag;
};

__global__ void init_record_kernel(CsrView a, CsrRecord *rec) { init_record(a, rec); }

// One warp per row: its row pointers, then its columns (range, strict increase).
__global__ void check_rows_kernel(CsrView a, CsrRecord *rec) {
  const int lane = threadIdx.x % 32;
  const Index nnz = rec->nnz;
  PGK_RB_FOR_WARP(i, a.nrows) {
    Index b, e;
    if (!row_extent(a, nnz, i, rec, &b, &e)) continue;
    for (Index k = b + lane; k < e; k += 32) check_entry(a, i, k, b, rec);
  }
}

__global__ void diagonal_kernel(CsrView a, Index *adiag) { PGK_RB_FOR(i, a.nrows) adiag[i] = diagonal_flag(a, i); }

__global__ void degree_kernel(const Index *s_rowptr, const Index *adiag, Index n, Index *count) {
  PGK_RB_FOR(i, n + 1) graph_degree(s_rowptr, adiag, n, i, count);
}

__global__ void graph_record_kernel(const Index *g_rowptr, Index n, GraphRecord *rec) { rec->nnz_g = g_rowptr[n]; }

// One warp per row of S (a hub's long row is shared by 32 lanes).
__global__ void fill_kernel(CsrView a, CsrView sp, const Index *adiag, bool symmetric, const Index *g_rowptr,
                            Index *g_colidx, std::uint8_t *g_weight) {
  const int lane = threadIdx.x % 32;
  PGK_RB_FOR_WARP(i, sp.nrows) {
    for (Index k = sp.rowptr[i] + lane; k < sp.rowptr[i + 1]; k += 32)
      graph_entry(a, sp.rowptr, sp.colidx, adiag, symmetric, i, k, g_rowptr, g_colidx, g_weight);
  }
}

__global__ void indegree_kernel(CsrView a, Index *indeg) {
  const int lane = threadIdx.x % 32;
  PGK_RB_FOR_WARP(i, a.nrows) {
    for (Index k = a.rowptr[i] + lane; k < a.rowptr[i + 1]; k += 32) count_column(a, k, indeg);
  }
}

__global__ void strength_kernel(CsrView a, const Index *adiag, const Index *indeg, Wide *strength) {
  PGK_RB_FOR(i, a.nrows) strength[i] = vertex_strength(a, adiag, indeg, i);
}

__global__ void degree_keys_kernel(const Index *g_rowptr, Index n, UIndex *keys, Index *ids) {
  PGK_RB_FOR(i, n) {
    keys[i] = degree_key(g_rowptr, i);
    ids[i] = i;
  }
}

__global__ void position_kernel(const Index *order, Index n, Index *pos) { PGK_RB_FOR(p, n) pos[order[p]] = p; }

std::string str(long long x) { return std::to_string(x); }

// The input check: one record back (the smallest offending rows). Messages as the host's where
// the host has one; unsorted or duplicate columns are the device backend's own refusal.
CsrRecord check_input(const CsrView &a, cudaStream_t s) {
  const Index n = a.nrows;
  DeviceBuffer<CsrRecord> rec(1, s);
  launch_one(init_record_kernel, s, a, rec.data());
  launch_warps(check_rows_kernel, n, s, a, rec.data());
  const CsrRecord h = read_scalar(rec.data(), s);
  if (h.rowptr0 != 0)
    throw std::invalid_argument("rabbitpp: malformed CSR: rowptr[0] is " + str(h.rowptr0) + ", not 0");
  if (h.first_decrease < n)
    throw std::invalid_argument("rabbitpp: malformed CSR: rowptr decreases at row " + str(h.first_decrease));
  if (h.first_bad_column < n)
    throw std::invalid_argument("rabbitpp: malformed CSR: row " + str(h.first_bad_column) +
                                ": column index outside [0, " + str(a.ncols) + ")");
  if (a.nrows != a.ncols)
    throw std::invalid_argument("rabbitpp: the matrix must be square, got " + str(a.nrows) + " x " + str(a.ncols));
  if (h.first_unsorted < n)
    throw std::invalid_argument("rabbitpp: row " + str(h.first_unsorted) +
                                " of the device matrix is not sorted ascending without duplicates (the gpu backend "
                                "takes PETSc's AIJ storage)");
  return h;
}

} // namespace

DeviceGraph build_graph_device(const CsrView &a, CubTemp &temp) {
  const cudaStream_t s = temp.stream();
  const CsrRecord rec = check_input(a, s);
  const Index n = a.nrows;
  DeviceGraph g;
  g.n = n;
  g.nnz_a = rec.nnz;
  DeviceCsrPattern built;
  const bool symmetric = !symmetrize_pattern(a, built, s); // the 2 scalars of the check
  const CsrView sp = symmetric ? a : built.view();
  const std::size_t un = static_cast<std::size_t>(n);
  DeviceBuffer<Index> adiag(un, s);
  launch(diagonal_kernel, n, s, a, adiag.data());
  g.rowptr = DeviceBuffer<Index>(un + 1, s);
  launch(degree_kernel, n + 1, s, sp.rowptr, adiag.data(), n, g.rowptr.data());
  Index *rowptr = g.rowptr.data();
  temp.run([&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, rowptr, rowptr, n + 1, s); });
  DeviceBuffer<GraphRecord> grec(1, s);
  GraphRecord *grp = grec.data();
  const Index *diag = adiag.data();
  temp.run([&](void *t, std::size_t &b) { return cub::DeviceReduce::Sum(t, b, diag, &grp->ndiag, n, s); });
  launch_one(graph_record_kernel, s, rowptr, n, grp);
  const GraphRecord h = read_scalar(grp, s);
  g.nnz_g = h.nnz_g;
  g.total = 2 * (static_cast<Wide>(rec.nnz) - h.ndiag);
  // gain = w * total - str(v) * str(u) with w, str <= total: total^2 must not overflow.
  if (g.total > 3037000499LL)
    throw std::overflow_error("rabbitpp: the graph's total edge weight " + str(g.total) +
                              " exceeds 3037000499 (the exact modularity-gain comparison needs total^2 < 2^63)");
  g.colidx = DeviceBuffer<Index>(static_cast<std::size_t>(g.nnz_g), s);
  g.weight = DeviceBuffer<std::uint8_t>(static_cast<std::size_t>(g.nnz_g), s);
  launch_warps(fill_kernel, n, s, a, sp, adiag.data(), symmetric, rowptr, g.colidx.data(), g.weight.data());
  g.indeg = DeviceBuffer<Index>(un, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(g.indeg.data(), 0, sizeof(Index) * un, s));
  launch_warps(indegree_kernel, n, s, a, g.indeg.data());
  g.strength = DeviceBuffer<Wide>(un, s);
  launch(strength_kernel, n, s, a, adiag.data(), g.indeg.data(), g.strength.data());
  // `built` (synchronous cudaFree on destruction) outlives the fill kernel's use of it.
  return g;
}

void processing_order_device(const DeviceGraph &g, DeviceDendrogram &d, CubTemp &temp) {
  const cudaStream_t s = temp.stream();
  const Index n = g.n;
  const std::size_t un = static_cast<std::size_t>(n);
  DeviceBuffer<UIndex> k0(un, s), k1(un, s);
  DeviceBuffer<Index> ids(un, s);
  d.order = DeviceBuffer<Index>(un, s);
  d.pos = DeviceBuffer<Index>(un, s);
  launch(degree_keys_kernel, n, s, g.rowptr.data(), n, k0.data(), ids.data());
  // LSD radix sort: stable, so equal degrees keep ascending ids. Degrees are < n < 2^bits_for(n).
  cub::DoubleBuffer<UIndex> keys(k0.data(), k1.data());
  cub::DoubleBuffer<Index> vals(ids.data(), d.order.data());
  const int end_bit = bits_for(static_cast<unsigned long long>(n));
  temp.run(
      [&](void *t, std::size_t &b) { return cub::DeviceRadixSort::SortPairs(t, b, keys, vals, n, 0, end_bit, s); });
  if (vals.Current() != d.order.data())
    PGK_CUDA_CHECK(cudaMemcpyAsync(d.order.data(), vals.Current(), sizeof(Index) * un, cudaMemcpyDeviceToDevice, s));
  launch(position_kernel, n, s, d.order.data(), n, d.pos.data());
}

} // namespace pgk::cuda::rabbitpp_detail
