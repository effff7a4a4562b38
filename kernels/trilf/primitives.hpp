// Building blocks of the device trilf pipeline (kernels/trilf/pc_gpu.hpp), shared by the scalar
// and the block variant. Plain C++; every pointer in a CsrView or a DeviceBuffer
// (kernels/common/device_buffer.hpp) is a device pointer; `stream` is a cudaStream_t as void*.
// Each function's result is identical to the host reference function it names
// (src/trilf/*.hpp); the tests compare them.
#pragma once

#include "kernels/common/device_buffer.hpp"
#include "src/common/csr.hpp"
#include "src/trilf/factor.hpp"
#include "src/trilf/weights.hpp"

#include <cstddef>

namespace pgk::cuda::trilf {

// W on the device: the symmetric weight graph of pgk::trilf::weight_graph, but stored on the
// pattern of A (when A is structurally symmetric) or of pattern(A + A^T), diagonal included.
// Entries that are not edges of the reference W (the diagonal, weight 0) hold weight 0; every
// primitive below treats w <= 0 as "no edge", so the results equal those on the reference W.
struct DeviceWeightGraph {
  DeviceBuffer<Index> rowptr, colidx; // empty when A's own pattern is used
  DeviceBuffer<double> w;             // one per entry of the pattern
  CsrView view{};                     // pattern + values = w.data()
  Index a_nnz = 0;                    // A's entry count (A's, even where W is on pattern(A + A^T))
};
// Checks A like pgk::trilf::check_matrix (NaN/Inf -> std::domain_error naming (row, col)).
// Reads (n > 0): nnz of A and the pass's counters; 4 more for a nonsymmetric pattern.
void build_weight_graph(const CsrView &a, pgk::trilf::Weight kind, DeviceWeightGraph &out, void *stream);

// [0,n]-factor of a weight graph (Algorithm 2): equals pgk::trilf::parallel_factor.
// Reads (nvertices > 0): nnz of w, one flag per uncharged round run, the edge count.
struct DeviceFactor {
  int n = 0;
  Index nvertices = 0;
  DeviceBuffer<Index> nbr; // n slots per vertex, ascending, -1 padded (Factor::nbr)
  int rounds_run = 0;
  bool maximal = false;
  Index edges = 0; // undirected edges
};
void parallel_factor(const CsrView &w, const pgk::trilf::FactorOptions &opt, DeviceFactor &out, void *stream);

// Cycle breaking by the bidirectional scan (Algorithm 3 with the min-edge-key operator):
// f.n == 2, in place; equals pgk::trilf::break_cycles. Returns the number of cycles broken.
// Reads (nvertices > 0): the splitter count and the cycle count.
Index break_cycles(DeviceFactor &f, const CsrView &w, void *stream);

// Path id/position scan + O(N) offsets: equals pgk::trilf::order_paths. Reads (nvertices > 0):
// the splitter count, the path statistics, the cycle flag.
struct DevicePathOrder {
  DeviceBuffer<Index> perm, iperm; // perm[new] = old
  DeviceBuffer<Index> path_head;   // per new position: new position of its path's first vertex
  Index npaths = 0, longest = 0;
};
void order_paths(const DeviceFactor &forest, DevicePathOrder &out, void *stream);

} // namespace pgk::cuda::trilf
