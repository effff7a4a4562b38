// Public entry points of the device RCM (rcm_gpu.hpp): checks, the device plan, the batch
// kernel over the chained components, the per-component reversal, and the copy of the final
// permutation to the host (the only transfer of the ordering).
#include "kernels/batchrcm/internal.cuh"

#include "kernels/common/device_csr.hpp"
#include "kernels/common/event_timer.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace pgk::cuda {
namespace {

void check_options(const rcm::Options &opts, bool uses_start) {
  if (uses_start && opts.start == rcm::StartNode::GeorgeLiu)
    throw std::invalid_argument("georgeliu start node: use the cpu or serial backend");
  const rcm::GpuTuning &o = opts.gpu;
  if (o.batch_nodes < 0 || o.batch_nodes > 512)
    throw std::invalid_argument("gpu rcm: batch_nodes must be in [1, 512] or 0 (automatic), got " +
                                std::to_string(o.batch_nodes));
  if (o.batch_valence != 0 && (o.batch_valence < 2 || o.batch_valence > rcm_detail::kScratchLargeEntries))
    throw std::invalid_argument("gpu rcm: batch_valence must be in [2, " +
                                std::to_string(rcm_detail::kScratchLargeEntries) + "] or 0 (automatic), got " +
                                std::to_string(o.batch_valence));
  if (o.max_blocks < 0) throw std::invalid_argument("gpu rcm: max_blocks must be >= 0");
  if (o.levels_blocks < 0) throw std::invalid_argument("gpu rcm: levels_blocks must be >= 0");
  if (!(o.watchdog_seconds > 0)) throw std::invalid_argument("gpu rcm: watchdog_seconds must be > 0");
  if (o.queue_slots == 1) throw std::invalid_argument("gpu rcm: queue_slots must be 0 (automatic) or >= 2");
}

void check_square(const CsrView &g) {
  if (g.nrows != g.ncols)
    throw std::invalid_argument("rcm: the matrix must be square (" + std::to_string(g.nrows) + " x " +
                                std::to_string(g.ncols) + ")");
  if (g.nrows < 0) throw std::invalid_argument("rcm: negative dimension");
}

// The automatic batch sizes, from the mean width of the search's BFS levels (0 without a search:
// given roots or start). GpuTuning::batch_nodes = 0: 512 from 4096 vertices a level (16 batches of
// 256), else 256. batch_valence = 0: the large scratch from 8192 vertices a level with 32-bit
// indices, else the small one (rcm.hpp says what was measured).
rcm::GpuTuning with_batch_sizes(const rcm::GpuTuning &o, Index n, int rounds, int bfs_levels) {
  rcm::GpuTuning t = o;
  const double width = bfs_levels > 0 ? static_cast<double>(n) * rounds / bfs_levels : 0.0;
  if (t.batch_nodes == 0) t.batch_nodes = width >= 4096.0 ? 512 : 256;
  if (t.batch_valence == 0)
    t.batch_valence =
        width >= 8192.0 && sizeof(Index) == 4 ? rcm_detail::kScratchLargeEntries : rcm_detail::kScratchSmallEntries;
  return t;
}

struct LevelsUsed {
  bool used = false;
  int lanes = 0;
};

// Whether the Levels kernel orders: asked for, and every row fits it (max_row: the longest).
bool levels_fit(const rcm::GpuTuning &tuning, Index max_row) {
  return tuning.algorithm == rcm::GpuAlgorithm::Levels && max_row <= rcm_detail::kLevelsMaxRow;
}

// The chain on the tuning's algorithm: Levels where levels_fit, else Batch.
rcm_detail::ChainResult run_chain(const CsrView &g, Index max_row, const Index *valence, bool count_diagonal,
                                  const rcm::GpuTuning &tuning, const rcm_detail::ChainRun &run, Index *perm,
                                  Index *comp_begin, cudaStream_t s, LevelsUsed &levels) {
  if (tuning.algorithm == rcm::GpuAlgorithm::Levels) {
    if (levels_fit(tuning, max_row)) {
      const int blocks = tuning.levels_blocks > 0 ? tuning.levels_blocks : tuning.max_blocks;
      const rcm_detail::LevelsResult lr =
          rcm_detail::run_levels_chain_device(g, valence, max_row, run, perm, comp_begin, blocks, s);
      levels.used = true;
      levels.lanes = lr.lanes;
      rcm_detail::ChainResult res;
      res.blocks = lr.blocks;
      res.next_root = static_cast<std::uint64_t>(run.nroots);
      return res;
    }
  }
  levels.used = false;
  return rcm_detail::run_batch_chain_device(g, valence, count_diagonal, tuning, run, perm, comp_begin, s);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void fill_stats(const rcm_detail::ChainResult &r, Index components, rcm::Stats *stats, RcmGpuInfo *info) {
  if (stats) {
    stats->components = components;
    stats->batches_executed = r.executed;
    stats->batches_without_rediscovery = r.without_rediscovery;
    stats->batches_rediscovered_before_sort = r.before_sort;
    stats->batches_rediscovered_after_sort = r.after_sort;
    stats->batches_forwarding_overhang = r.forwarding;
    stats->batches_dropped = r.dropped;
    stats->threads = r.blocks;
  }
  if (info) {
    info->blocks = r.blocks;
    info->empty_batches = r.empty;
    info->big_batches = r.big;
    info->histogram_passes = r.histogram_passes;
  }
}

void fill_plan_info(const rcm::GpuTuning &tuning, const LevelsUsed &levels, const rcm_detail::DevicePlan &plan,
                    double plan_seconds, double order_seconds, RcmGpuInfo *info) {
  info->batch_nodes = tuning.batch_nodes;
  info->batch_valence = tuning.batch_valence;
  info->levels = levels.used;
  info->levels_lanes = levels.lanes;
  info->peripheral_rounds = plan.rounds;
  info->bfs_levels = plan.bfs_levels;
  info->plan_ms = plan_seconds * 1e3;
  info->order_ms = order_seconds * 1e3;
}

// n entries of d, in one logged copy (synchronous).
std::vector<Index> download(const Index *d, Index n, cudaStream_t s) {
  std::vector<Index> h(static_cast<std::size_t>(n));
  copy_to_host(h.data(), d, h.size() * sizeof(Index), s);
  return h;
}

} // namespace

std::vector<Index> rcm_gpu(const CsrView &input, const rcm::Options &opts, void *stream, rcm::Stats *stats,
                           RcmGpuInfo *info) {
  std::vector<Index> result(static_cast<std::size_t>(std::max<Index>(input.nrows, 0))); // rcm_gpu_into checks
  rcm_gpu_into(input, opts, stream, result.data(), stats, info);
  return result;
}

namespace {

// The input checked, with the missing transposes counted in the same pass when the symmetry is
// unknown; only when some are missing is pattern(A + A^T) built (into `symmetric`) and checked.
// Returns the graph to order and its facts; *build_seconds: the build's time.
CsrView checked_graph(const CsrView &input, bool known_symmetric, DeviceCsrPattern &symmetric,
                      rcm_detail::GraphFacts &facts, double *build_seconds, cudaStream_t s) {
  facts = rcm_detail::validate_graph_device(input, !known_symmetric, s);
  *build_seconds = 0;
  if (facts.missing == 0) return input;
  const auto tb = std::chrono::steady_clock::now();
  symmetrize_pattern(input, symmetric, s);
  facts = rcm_detail::validate_graph_device(symmetric.view(), false, s); // its longest row
  *build_seconds = seconds_since(tb);
  return symmetric.view();
}

} // namespace

void rcm_gpu_into(const CsrView &input, const rcm::Options &opts, void *stream, Index *out_host, rcm::Stats *stats,
                  RcmGpuInfo *info, const std::function<void()> &while_ordering) {
  using clock = std::chrono::steady_clock;
  check_options(opts, true);
  check_square(input);
  const Index n = input.nrows;
  if (stats) *stats = rcm::Stats{};
  if (info) *info = RcmGpuInfo{};
  if (n == 0) return;
  if (!out_host) throw std::invalid_argument("rcm: null output array");
  if (opts.start == rcm::StartNode::Given && (opts.given_start < 0 || opts.given_start >= n))
    throw std::invalid_argument("rcm: given start node " + std::to_string(opts.given_start) +
                                " is not a vertex of a graph with " + std::to_string(n) + " vertices");
  cudaStream_t s = static_cast<cudaStream_t>(stream);

  // Marks: 0 the start, 1 the end of the start-node search (in stream order: the host does not
  // wait for the search, so the plan's time is the device's).
  const auto t0 = clock::now();
  EventTimer marks(2);
  marks.record(0, s);
  DeviceCsrPattern symmetric;
  rcm_detail::GraphFacts facts;
  double symmetrize_seconds = 0;
  const CsrView g = checked_graph(input, opts.input_is_symmetric, symmetric, facts, &symmetrize_seconds, s);
  DeviceBuffer<Index> valence(static_cast<std::size_t>(n), s);
  rcm_detail::compute_valence_device(g, opts.count_diagonal_in_valence, valence.data(), s);
  DeviceBuffer<Index> perm(static_cast<std::size_t>(n), s), out(static_cast<std::size_t>(n), s);
  rcm_detail::ChainList chain;
  // The chain list's one read comes before the search is queued, so nothing waits for the search
  // until the ordering behind it is queued too.
  rcm_detail::DevicePlan plan =
      rcm_detail::plan_components_device(g, valence.data(), opts, s, [&](const rcm_detail::DevicePlan &p) {
        chain = rcm_detail::split_singletons_device(p, perm.data(), s);
      });
  marks.record(1, s);
  rcm_detail::fill_chain_roots_device(plan, chain, s);

  rcm_detail::ChainResult res;
  LevelsUsed levels;
  levels.used = opts.gpu.algorithm == rcm::GpuAlgorithm::Levels; // stays so when no chain needs a kernel
  if (chain.count > 0) {
    // The batch kernel sizes its batches by the search's level widths: it waits for the search.
    if (!levels_fit(opts.gpu, facts.max_row)) rcm_detail::read_search_totals(plan, s);
    DeviceBuffer<Index> chain_begin(static_cast<std::size_t>(chain.count), s); // the plan knows them already
    rcm_detail::ChainRun run;
    run.roots = chain.root.data();
    run.root_offset = chain.offset.data();
    run.nroots = chain.count;
    run.chain_end = chain.end;
    run.ring_slots = opts.gpu.queue_slots; // 0: sized by run_batch_chain_device
    run.while_running = &while_ordering;
    res = run_chain(g, facts.max_row, valence.data(), opts.count_diagonal_in_valence,
                    with_batch_sizes(opts.gpu, n, plan.rounds, plan.bfs_levels), run, perm.data(), chain_begin.data(),
                    s, levels);
  }
  rcm_detail::reverse_components_device(perm.data(), plan.comp_offset.data(), plan.ncomp, n, out.data(), s);
  if (chain.count == 0 && while_ordering) while_ordering();      // no batch kernel ran to overlap it with
  if (plan.rounds == 0) rcm_detail::read_search_totals(plan, s); // not read yet: the levels path does not wait for them
  copy_to_host(out_host, out.data(), static_cast<std::size_t>(n) * sizeof(Index), s); // one logged copy
  const double total_seconds = seconds_since(t0) - symmetrize_seconds;
  const double plan_seconds = std::min(total_seconds, std::max(0.0, marks.ms(0, 1) * 1e-3 - symmetrize_seconds));
  const double order_seconds = total_seconds - plan_seconds;

  fill_stats(res, plan.ncomp, stats, info);
  if (stats) {
    stats->symmetrize_seconds = symmetrize_seconds;
    stats->start_node_seconds = plan_seconds;
    stats->ordering_seconds = order_seconds;
  }
  if (info)
    fill_plan_info(with_batch_sizes(opts.gpu, n, plan.rounds, plan.bfs_levels), levels, plan, plan_seconds,
                   order_seconds, info);
}

std::vector<Index> rcm_gpu_from_roots(const CsrView &g, const std::vector<Index> &roots, const rcm::Options &opts,
                                      void *stream, rcm::Stats *stats, RcmGpuInfo *info) {
  check_options(opts, false);
  const bool count_diagonal = opts.count_diagonal_in_valence;
  check_square(g);
  const Index n = g.nrows;
  if (stats) *stats = rcm::Stats{};
  if (info) *info = RcmGpuInfo{};
  for (const Index r : roots)
    if (r < 0 || r >= n) throw std::invalid_argument("rcm: root " + std::to_string(r) + " is out of range");
  if (n == 0) return {};
  if (roots.empty()) throw std::invalid_argument("rcm: the roots reach 0 of " + std::to_string(n) + " vertices");
  cudaStream_t s = static_cast<cudaStream_t>(stream);

  const auto t0 = std::chrono::steady_clock::now();
  const Index max_row = rcm_detail::validate_graph_device(g, false, s).max_row;
  const Index nroots = static_cast<Index>(roots.size());
  DeviceBuffer<Index> valence(static_cast<std::size_t>(n), s), d_roots(roots.size(), s);
  DeviceBuffer<Index> perm(static_cast<std::size_t>(n), s), out(static_cast<std::size_t>(n), s);
  DeviceBuffer<Index> comp_begin(roots.size() + 1, s);
  copy_to_device(d_roots.data(), roots.data(), roots.size() * sizeof(Index), s);
  rcm_detail::compute_valence_device(g, count_diagonal, valence.data(), s);

  rcm_detail::ChainRun run;
  run.roots = d_roots.data();
  run.nroots = nroots;
  run.chain_end = n;
  run.ring_slots = opts.gpu.queue_slots;
  const rcm::GpuTuning tuning = with_batch_sizes(opts.gpu, n, 0, 0);
  LevelsUsed levels;
  const rcm_detail::ChainResult res =
      run_chain(g, max_row, valence.data(), count_diagonal, tuning, run, perm.data(), comp_begin.data(), s, levels);
  if (res.next_root != static_cast<std::uint64_t>(nroots))
    throw std::invalid_argument("rcm: root " + std::to_string(roots[static_cast<std::size_t>(res.next_root)]) +
                                " lies in a component that is already ordered");
  rcm_detail::set_device_value(comp_begin.data() + nroots, n, s);
  rcm_detail::reverse_components_device(perm.data(), comp_begin.data(), nroots, n, out.data(), s);
  std::vector<Index> result = download(out.data(), n, s);

  fill_stats(res, nroots, stats, info);
  if (info) {
    info->batch_nodes = tuning.batch_nodes;
    info->batch_valence = tuning.batch_valence;
    info->levels = levels.used;
    info->levels_lanes = levels.lanes;
  }
  if (stats) stats->ordering_seconds = seconds_since(t0);
  if (info) info->order_ms = seconds_since(t0) * 1e3;
  return result;
}

rcm::ComponentPlan plan_components_gpu(const CsrView &g, const rcm::Options &opts, void *stream) {
  check_options(opts, true);
  check_square(g);
  rcm::ComponentPlan out;
  const Index n = g.nrows;
  if (n == 0) return out;
  if (opts.start == rcm::StartNode::Given && (opts.given_start < 0 || opts.given_start >= n))
    throw std::invalid_argument("rcm: given start node " + std::to_string(opts.given_start) +
                                " is not a vertex of a graph with " + std::to_string(n) + " vertices");
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  rcm_detail::validate_graph_device(g, false, s);
  DeviceBuffer<Index> valence(static_cast<std::size_t>(n), s);
  rcm_detail::compute_valence_device(g, opts.count_diagonal_in_valence, valence.data(), s);
  rcm_detail::DevicePlan plan = rcm_detail::plan_components_device(g, valence.data(), opts, s);
  out.roots = download(plan.root.data(), plan.ncomp, s);
  out.sizes = download(plan.size.data(), plan.ncomp, s);
  return out;
}

} // namespace pgk::cuda
