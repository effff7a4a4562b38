// Internal interface between the device RCM pieces: validate.cu (input checks, valences),
// start_node.cu (components, start nodes: the plan), reverse.cu (chain list, reversal),
// batch.cu (the persistent batch kernel) and driver.cu (the public entry points). Host
// functions only (and the integer aliases of the batch records); each .cu keeps its kernels.
// Temporaries are stream-ordered DeviceBuffers on the call's stream.
#pragma once

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/batchrcm/rcm_gpu.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>

namespace pgk::cuda::rcm_detail {

using u16 = unsigned short;
using u32 = unsigned int;
using u64 = unsigned long long;

// The batch kernel's two shared-memory scratch sizes, in row entries (GpuTuning::batch_valence up
// to the small one runs the small-scratch kernel, up to the large one the other; batch_block.cuh).
constexpr int kScratchSmallEntries = 2048;
constexpr int kScratchLargeEntries = 4096;

// Throws std::invalid_argument with the host reference's messages unless g is a square CSR
// graph with a well-formed row pointer and every column index in [0, n). With count_missing, the
// same pass counts the entries (i, j), j != i, whose transpose (j, i) is absent (sorted rows, as
// symmetrize_pattern needs): 0 means g is structurally symmetric. Three reads (two when nnz = 0).
struct GraphFacts {
  Index max_row = 0; // the longest row
  Index missing = 0; // counted only when asked
};
GraphFacts validate_graph_device(const CsrView &g, bool count_missing, cudaStream_t s);

// valence[v] = entries of row v, less the diagonal ones unless count_diagonal.
void compute_valence_device(const CsrView &g, bool count_diagonal, Index *valence, cudaStream_t s);

// The component plan of rcm::plan_components, on the device. comp_offset[c] is where
// component c starts in the ordering (ncomp + 1 entries, the last is n).
struct SearchTotals {
  int rounds = 0;     // multi-source BFS rounds of the Peripheral search
  int bfs_levels = 0; // levels over all of them
};
struct DevicePlan {
  Index ncomp = 0;
  DeviceBuffer<Index> root;          // ncomp roots, in plan order
  DeviceBuffer<Index> size;          // ncomp component sizes
  DeviceBuffer<Index> comp_offset;   // ncomp + 1
  DeviceBuffer<SearchTotals> totals; // written by the search kernel; empty when none ran
  int rounds = 0, bfs_levels = 0;    // read_search_totals
};
// Components, sizes, offsets and the decided roots (single vertices, the Given component) with
// three reads; then before_search(plan) (may be empty: where the host reads what it needs of
// the plan without waiting for the search), then the Peripheral search of the other components
// is queued as one kernel, without a wait: plan.root is complete in stream order on return.
DevicePlan plan_components_device(const CsrView &g, const Index *valence, const rcm::Options &opts, cudaStream_t s,
                                  const std::function<void(const DevicePlan &)> &before_search = {});
// plan.rounds and plan.bfs_levels: one read, which waits for the search, when one was queued.
void read_search_totals(DevicePlan &plan, cudaStream_t s);

// Splits a plan into the components the batch kernel orders (two or more vertices: their plan
// indices and output offsets, in plan order) and writes the single-vertex ones straight into
// perm. Reads the roots of single vertices only, so it may run before the search (one read: the
// summary); fill_chain_roots_device then copies the chained components' roots, in stream order.
struct ChainList {
  Index count = 0;
  Index end = 0;                    // output position after the last chained component
  DeviceBuffer<Index> comp, offset; // count entries
  DeviceBuffer<Index> root;         // count entries, set by fill_chain_roots_device
};
ChainList split_singletons_device(const DevicePlan &plan, Index *perm, cudaStream_t s);
void fill_chain_roots_device(const DevicePlan &plan, ChainList &chain, cudaStream_t s);

// *p = v, in stream order.
void set_device_value(Index *p, Index v, cudaStream_t s);

// out[p] for every position p: each component [begin[c], begin[c+1]) reversed in place.
void reverse_components_device(const Index *perm, const Index *comp_begin, Index ncomp, Index n, Index *out,
                               cudaStream_t s);

// The batch kernel over a chain of components: orders every component of roots[0..nroots) one
// after the other into perm (Cuthill-McKee order, not yet reversed). root_offset (may be null)
// places component j at root_offset[j]; otherwise components follow each other from 0.
// comp_begin[j] receives where component j starts. Throws on errors (see rcm_gpu.hpp).
struct ChainRun {
  const Index *roots = nullptr;
  const Index *root_offset = nullptr;
  Index nroots = 0;
  Index chain_end = 0; // output position after the last component
  std::size_t ring_slots = 0;
  // Called on the host once the batch kernel is launched, before the wait for it (rcm_gpu_into's
  // while_ordering); may be empty.
  const std::function<void()> *while_running = nullptr;
};
struct ChainResult {
  int blocks = 0;
  std::uint64_t executed = 0, without_rediscovery = 0, before_sort = 0, after_sort = 0, forwarding = 0, dropped = 0,
                empty = 0, big = 0, histogram_passes = 0;
  std::uint64_t next_root = 0; // roots consumed; fewer than nroots: a root lay in an ordered component
};
ChainResult run_batch_chain_device(const CsrView &g, const Index *valence, bool count_diagonal,
                                   const rcm::GpuTuning &opts, const ChainRun &run, Index *perm, Index *comp_begin,
                                   cudaStream_t s);

// Level-synchronous Cuthill-McKee over the same chain (levels.cu, GpuAlgorithm::Levels), for
// graphs whose rows hold at most kLevelsMaxRow entries (max_row: the longest). max_blocks caps the
// grid (1: one block, block barriers only). Throws like the batch kernel on bad roots.
constexpr Index kLevelsMaxRow = 128;
struct LevelsResult {
  int blocks = 0, lanes = 0;
};
LevelsResult run_levels_chain_device(const CsrView &g, const Index *valence, Index max_row, const ChainRun &run,
                                     Index *perm, Index *comp_begin, int max_blocks, cudaStream_t s);

// Persistent kernels need every block resident at once: the grid for a cooperative launch.
int cooperative_grid(const void *kernel, int block, std::size_t smem, int max_blocks);

} // namespace pgk::cuda::rcm_detail
