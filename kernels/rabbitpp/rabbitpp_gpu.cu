// The device rabbitpp's entry points (rabbitpp_gpu.hpp): the phases in src/rabbitpp's order
// (graph, processing order and rounds, numbering, regrouping), the permutation's one copy back,
// and the figures when asked for. The phase times are CUDA events around each phase (they cover
// its copies and host work too, as the host backends' clocks do).
#include "kernels/rabbitpp/rabbitpp_gpu.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/common/event_timer.hpp"
#include "kernels/rabbitpp/internal.cuh"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/regroup.hpp"

namespace pgk::cuda {
namespace {

using namespace rabbitpp_detail;

// What the host can check without reading device memory; true when there is nothing to order.
bool empty_input(const CsrView &a) {
  if (a.nrows < 0 || a.ncols < 0)
    throw std::invalid_argument("rabbitpp: malformed CSR: negative size " + std::to_string(a.nrows) + " x " +
                                std::to_string(a.ncols));
  if (!a.rowptr) throw std::invalid_argument("rabbitpp: malformed CSR: rowptr is null");
  if (a.nrows != a.ncols && a.nrows == 0)
    throw std::invalid_argument("rabbitpp: the matrix must be square, got " + std::to_string(a.nrows) + " x " +
                                std::to_string(a.ncols));
  return a.nrows == 0;
}

Index batch_for(Index batch, Index n) { return batch > 0 ? batch : rabbitpp::default_batch(n); }

// count entries of a device array into a host vector of a same-sized type (one logged copy).
template <class H, class D> std::vector<H> download(const D *device, Index count, cudaStream_t s) {
  static_assert(sizeof(H) == sizeof(D), "same representation");
  std::vector<H> h(static_cast<std::size_t>(count));
  copy_to_host(h.data(), device, sizeof(H) * h.size(), s);
  return h;
}

} // namespace

std::vector<Index> rabbitpp_gpu(const CsrView &a, const rabbitpp::Options &opt, void *stream, rabbitpp::Info *info) {
  if (info) *info = rabbitpp::Info{};
  rabbitpp::check_regroup_options(opt);
  if (empty_input(a)) {
    if (info) {
      info->insularity = 1.0;        // figures() of an empty graph
      info->regrouped = opt.regroup; // the host's gate: 0 entries >= ceil(min_skew * 0)
    }
    return {};
  }
  const cudaStream_t s = as_stream(stream);
  std::unique_ptr<EventTimer> timer;
  if (info) {
    timer = std::make_unique<EventTimer>(5);
    timer->record(0, stream);
  }
  CubTemp temp(s);
  const DeviceGraph g = build_graph_device(a, temp);
  if (timer) timer->record(1, stream);
  DeviceDendrogram d;
  processing_order_device(g, d, temp);
  detect_communities_device(g, batch_for(opt.batch, g.n), 0, d, temp, info != nullptr);
  if (timer) timer->record(2, stream);
  DeviceBuffer<Index> rabbit, com, regrouped;
  rabbit_permutation_device(d, g.n, rabbit, com, temp);
  if (timer) timer->record(3, stream);
  // The skew gate's count stays on the device: the regrouping's keys read it (no copy).
  const std::int64_t min_entries = rabbitpp::regroup_min_entries(g.nnz_a, opt.min_skew);
  const bool gated = opt.regroup && min_entries > 0;
  DeviceBuffer<RowSum> in_top;
  if (gated || info) {
    in_top = DeviceBuffer<RowSum>(1, s);
    longest_tenth_entries(a, in_top.data(), temp);
  }
  VertexFlags flags;
  if (opt.regroup || info) flags = vertex_flags(g, com.data(), opt.hub_factor, temp);
  if (opt.regroup)
    regroup_device(g, flags, rabbit.data(), opt, gated ? in_top.data() : nullptr, static_cast<RowSum>(min_entries),
                   regrouped, temp);
  if (timer) timer->record(4, stream);
  std::vector<Index> perm = download<Index>((opt.regroup ? regrouped : rabbit).data(), g.n, s);
  if (info) {
    const std::int64_t entries_in_top = figures_device(g, flags, com.data(), in_top.data(), *info, temp);
    info->regrouped = opt.regroup && entries_in_top >= min_entries;
    info->rounds = d.rounds;
    info->deferred = d.deferred;
    info->seconds_graph = timer->ms(0, 1) / 1e3;
    info->seconds_communities = timer->ms(1, 2) / 1e3;
    info->seconds_order = timer->ms(2, 3) / 1e3;
    info->seconds_regroup = timer->ms(3, 4) / 1e3;
    info->seconds_round_begin = d.step_ms[0] / 1e3;
    info->seconds_round_aggregate = d.step_ms[1] / 1e3;
    info->seconds_round_decide = d.step_ms[2] / 1e3;
    info->seconds_round_store = d.step_ms[3] / 1e3;
    info->seconds_round_compact = d.step_ms[4] / 1e3;
    info->seconds_round_apply = d.step_ms[5] / 1e3;
    info->compactions = d.compactions;
  }
  return perm;
}

rabbitpp::Graph rabbitpp_gpu_graph(const CsrView &a, void *stream) {
  rabbitpp::Graph h;
  if (empty_input(a)) return h;
  const cudaStream_t s = as_stream(stream);
  CubTemp temp(s);
  const DeviceGraph g = build_graph_device(a, temp);
  h.n = g.n;
  h.total = g.total;
  h.rowptr = download<Index>(g.rowptr.data(), g.n + 1, s);
  h.colidx = download<Index>(g.colidx.data(), g.nnz_g, s);
  h.weight = download<std::uint8_t>(g.weight.data(), g.nnz_g, s);
  h.strength = download<std::int64_t>(g.strength.data(), g.n, s);
  return h;
}

rabbitpp::Dendrogram rabbitpp_gpu_dendrogram(const CsrView &a, Index batch, void *stream, Index *deferred,
                                             long long arena_capacity, Index *compactions) {
  if (deferred) *deferred = 0;
  if (compactions) *compactions = 0;
  rabbitpp::Dendrogram h;
  if (empty_input(a)) return h;
  const cudaStream_t s = as_stream(stream);
  CubTemp temp(s);
  const DeviceGraph g = build_graph_device(a, temp);
  DeviceDendrogram d;
  processing_order_device(g, d, temp);
  detect_communities_device(g, batch_for(batch, g.n), arena_capacity, d, temp);
  h.parent = download<Index>(d.parent.data(), g.n, s);
  h.round = download<Index>(d.round.data(), g.n, s);
  h.order = download<Index>(d.order.data(), g.n, s);
  h.pos = download<Index>(d.pos.data(), g.n, s);
  h.rounds = d.rounds;
  if (deferred) *deferred = d.deferred;
  if (compactions) *compactions = d.compactions;
  return h;
}

} // namespace pgk::cuda
