// The chain list of the device RCM (the components the batch kernel orders; single vertices
// go straight to the ordering) and the per-component reversal that turns Cuthill-McKee into
// reverse Cuthill-McKee (internal.cuh).
#include "kernels/batchrcm/device_loops.cuh"

namespace pgk::cuda::rcm_detail {
namespace {

__global__ void set_value_kernel(Index *p, Index v) { *p = v; }

__global__ void singletons_kernel(Index ncomp, const Index *root, const Index *size, const Index *offset, Index *perm,
                                  Index *is_chained) {
  for (Index c = global_thread(); c < ncomp; c += global_threads()) {
    if (size[c] == 1) perm[offset[c]] = root[c];
    is_chained[c] = size[c] > 1;
  }
}

struct ChainSummary {
  Index count, end;
};

__global__ void chain_list_kernel(Index ncomp, const Index *size, const Index *offset, const Index *is_chained,
                                  const Index *pos, Index *chain_comp, Index *chain_offset, ChainSummary *summary) {
  for (Index c = global_thread(); c < ncomp; c += global_threads()) {
    if (!is_chained[c]) continue;
    chain_comp[pos[c]] = c;
    chain_offset[pos[c]] = offset[c];
  }
  // The last chained component ends the chain; it is the one at position count - 1.
  const Index count = pos[ncomp - 1] + is_chained[ncomp - 1];
  for (Index c = global_thread(); c < ncomp; c += global_threads())
    if (is_chained[c] && pos[c] == count - 1) summary->end = offset[c] + size[c];
  if (global_thread() == 0) {
    summary->count = count;
    if (count == 0) summary->end = 0;
  }
}

__global__ void chain_roots_kernel(Index count, const Index *comp, const Index *root, Index *chain_root) {
  for (Index k = global_thread(); k < count; k += global_threads()) chain_root[k] = root[comp[k]];
}

__global__ void reverse_kernel(Index n, const Index *perm, const Index *begin, Index ncomp, Index *out) {
  for (Index i = global_thread(); i < n; i += global_threads()) {
    Index lo = 0, hi = ncomp - 1; // the last component starting at or before i
    while (lo < hi) {
      const Index mid = (lo + hi + 1) / 2;
      if (begin[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    out[i] = perm[begin[lo] + begin[lo + 1] - 1 - i];
  }
}

} // namespace

ChainList split_singletons_device(const DevicePlan &plan, Index *perm, cudaStream_t s) {
  ChainList list;
  const Index ncomp = plan.ncomp;
  if (ncomp == 0) return list;
  DeviceBuffer<Index> chained(ncomp, s), pos(ncomp, s);
  DeviceBuffer<ChainSummary> summary(1, s);
  const int grid = grid_for(ncomp, kThreads, kMaxBlocks);
  singletons_kernel<<<grid, kThreads, 0, s>>>(ncomp, plan.root.data(), plan.size.data(), plan.comp_offset.data(), perm,
                                              chained.data());
  PGK_CUDA_CHECK_LAUNCH();
  exclusive_sum(chained.data(), pos.data(), ncomp, s);
  list.comp = DeviceBuffer<Index>(ncomp, s);
  list.offset = DeviceBuffer<Index>(ncomp, s);
  chain_list_kernel<<<grid, kThreads, 0, s>>>(ncomp, plan.size.data(), plan.comp_offset.data(), chained.data(),
                                              pos.data(), list.comp.data(), list.offset.data(), summary.data());
  PGK_CUDA_CHECK_LAUNCH();
  const ChainSummary sum = read_scalar(summary.data(), s);
  list.count = sum.count;
  list.end = sum.end;
  return list;
}

void fill_chain_roots_device(const DevicePlan &plan, ChainList &chain, cudaStream_t s) {
  if (chain.count == 0) return;
  chain.root = DeviceBuffer<Index>(static_cast<std::size_t>(chain.count), s);
  chain_roots_kernel<<<grid_for(chain.count, kThreads, kMaxBlocks), kThreads, 0, s>>>(
      chain.count, chain.comp.data(), plan.root.data(), chain.root.data());
  PGK_CUDA_CHECK_LAUNCH();
}

void reverse_components_device(const Index *perm, const Index *comp_begin, Index ncomp, Index n, Index *out,
                               cudaStream_t s) {
  if (n == 0) return;
  reverse_kernel<<<grid_for(n, kThreads, kMaxBlocks), kThreads, 0, s>>>(n, perm, comp_begin, ncomp, out);
  PGK_CUDA_CHECK_LAUNCH();
}

void set_device_value(Index *p, Index v, cudaStream_t s) {
  set_value_kernel<<<1, 1, 0, s>>>(p, v);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace pgk::cuda::rcm_detail
