// Shared by the phases of the device rabbitpp (graph.cu, batch.cu, dendrogram.cu, regroup.cu,
// rabbitpp_gpu.cu): launch helpers, the CUB temporary storage, the device graph and dendrogram,
// and the phase entry points. Every phase runs on one stream; its temporaries are stream-ordered
// (DeviceBuffer(n, stream)) and allocated once per call, never per round.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/common/cub_temp.cuh"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/launch.cuh"
#include "kernels/common/transfer.hpp"
#include "kernels/rabbitpp/ops_common.hpp"
#include "src/rabbitpp/rabbitpp.hpp"

// Grid-stride loops over items and over warps (one warp per item; the warp's lanes agree on it).
#define PGK_RB_FOR(i, count)                                                                                           \
  for (::pgk::Index i = ::pgk::Index(blockIdx.x) * ::pgk::Index(blockDim.x) + ::pgk::Index(threadIdx.x); i < (count);  \
       i += ::pgk::Index(gridDim.x) * ::pgk::Index(blockDim.x))
#define PGK_RB_FOR_WARP(w, count)                                                                                      \
  for (::pgk::Index w = (::pgk::Index(blockIdx.x) * ::pgk::Index(blockDim.x) + ::pgk::Index(threadIdx.x)) / 32;        \
       w < (count); w += ::pgk::Index(gridDim.x) * ::pgk::Index(blockDim.x) / 32)

namespace pgk::cuda::rabbitpp_detail {

using rabbitpp_ops::Key;
using rabbitpp_ops::Weight;
using rabbitpp_ops::Wide;

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 8192; // grid cap of the grid-stride loops (no result depends on it)

// kernel over `items` elements (one thread each, grid-stride), on stream s.
template <class Kernel, class... Args> void launch(Kernel kernel, long long items, cudaStream_t s, Args... args) {
  kernel<<<grid_for(items, kThreads, kMaxBlocks), kThreads, 0, s>>>(args...);
  PGK_CUDA_CHECK_LAUNCH();
}
// kernel over `items` elements, one warp each (PGK_RB_FOR_WARP).
template <class Kernel, class... Args> void launch_warps(Kernel kernel, long long items, cudaStream_t s, Args... args) {
  kernel<<<grid_for(items, kThreads / 32, kMaxBlocks), kThreads, 0, s>>>(args...);
  PGK_CUDA_CHECK_LAUNCH();
}
// A one-thread kernel (a record's bookkeeping between device-wide steps).
template <class Kernel, class... Args> void launch_one(Kernel kernel, cudaStream_t s, Args... args) {
  kernel<<<1, 1, 0, s>>>(args...);
  PGK_CUDA_CHECK_LAUNCH();
}

// G on the device (src/rabbitpp/graph.hpp's Graph) and what the later phases need of A.
struct DeviceGraph {
  Index n = 0;
  Index nnz_a = 0, nnz_g = 0;
  Wide total = 0;
  DeviceBuffer<Index> rowptr, colidx; // G: n + 1, nnz_g (at least one entry allocated)
  DeviceBuffer<std::uint8_t> weight;  // nnz_g
  DeviceBuffer<Wide> strength;        // n
  DeviceBuffer<Index> indeg;          // n: column counts of A (hubs)
};

// The result of community detection (src/rabbitpp/rabbitpp.hpp's Dendrogram, plus seq: the
// rank of every vertex in (round, pos) order, which the numbering sorts by).
struct DeviceDendrogram {
  DeviceBuffer<Index> order, pos, parent, round, seq;
  Index rounds = 0, deferred = 0, compactions = 0;
  // Milliseconds of each round step summed over the rounds (begin, aggregate, decide, store, of it
  // compact, apply), when detect_communities_device was asked to time them.
  double step_ms[6] = {0, 0, 0, 0, 0, 0};
};

// graph.cu: the input check (1 scalar copy: the check record), symmetrize_pattern (2), the G
// record (1). Throws std::invalid_argument / std::overflow_error like build_graph.
DeviceGraph build_graph_device(const CsrView &a, CubTemp &temp);
// graph.cu: d.order and d.pos by a stable radix sort of the degrees (no copy).
void processing_order_device(const DeviceGraph &g, DeviceDendrogram &d, CubTemp &temp);

// batch.cu: the merge rounds into d.parent, d.round, d.seq (needs d.order). One copy per round
// and one more at the end (the round record). arena_capacity: entries of the list arena (0:
// 2 nnz(G) + 1024; at least nnz(G) is always used).
// time_steps: CUDA events around each step of every round into d.step_ms (the host then waits for
// each round's end before it launches the next: a little slower).
void detect_communities_device(const DeviceGraph &g, Index batch, long long arena_capacity, DeviceDendrogram &d,
                               CubTemp &temp, bool time_steps = false);

// dendrogram.cu: perm_rabbit[new] = old and com[v] = v's top (1 copy: the splitter count).
void rabbit_permutation_device(const DeviceDendrogram &d, Index n, DeviceBuffer<Index> &perm, DeviceBuffer<Index> &com,
                               CubTemp &temp);

// regroup.cu: insular and hub flags (per vertex, 0/1) and the regrouped permutation (no copy).
struct VertexFlags {
  DeviceBuffer<Index> insular, hub;
};
VertexFlags vertex_flags(const DeviceGraph &g, const Index *com, int hub_factor, CubTemp &temp);
// regroup.cu: the skew gate's count (README.md section 4), the entries of A's ceil(n/10) longest
// rows, into the device scalar *in_top (no copy).
using RowSum = std::make_unsigned_t<Index>;
void longest_tenth_entries(const CsrView &a, RowSum *in_top, CubTemp &temp);
// The regrouping where *in_top >= min_entries (the skew gate; in_top null: always), else out holds
// perm_rabbit itself (every key equal, and the sort is stable): no copy either way.
void regroup_device(const DeviceGraph &g, const VertexFlags &flags, const Index *perm_rabbit,
                    const rabbitpp::Options &opt, const RowSum *in_top, RowSum min_entries, DeviceBuffer<Index> &out,
                    CubTemp &temp);
// regroup.cu: the figures of README.md section 5 into info (2 copies: a record of counts, then
// the per-community sums), rounds and times left to the caller; in_top: longest_tenth_entries'.
// Returns *in_top, read with the record.
std::int64_t figures_device(const DeviceGraph &g, const VertexFlags &flags, const Index *com, const RowSum *in_top,
                            rabbitpp::Info &info, CubTemp &temp);

} // namespace pgk::cuda::rabbitpp_detail
