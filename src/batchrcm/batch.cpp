// Multicore batch RCM (batch.hpp): one run = checks, batch 0 (the first root), the workers
// (batch_worker.cpp: the life of one batch), then the per-component reversal and the Stats.
#include "src/batchrcm/batch.hpp"

#include "src/batchrcm/batch_worker.hpp"
#include "src/batchrcm/driver.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/batchrcm/symmetrize.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace pgk::rcm {
namespace {

using detail::BatchCounters;
using detail::BatchId;
using detail::BatchShared;

void check_options(const CpuTuning &o) {
  if (o.threads < 0) throw std::invalid_argument("batch rcm: threads must be >= 0");
  if (o.max_batch_nodes < 1) throw std::invalid_argument("batch rcm: max_batch_nodes must be >= 1");
  if (o.max_batch_valence < 1) throw std::invalid_argument("batch rcm: max_batch_valence must be >= 1");
  if (o.queue_slots < 2) throw std::invalid_argument("batch rcm: queue_slots must be >= 2");
  if (o.batches_per_worker < 1) throw std::invalid_argument("batch rcm: batches_per_worker must be >= 1");
}

void check_roots(const std::vector<Index> &roots, Index n) {
  for (const Index r : roots)
    if (r < 0 || r >= n) throw std::invalid_argument("rcm: root " + std::to_string(r) + " is out of range");
  if (n > 0 && roots.empty())
    throw std::invalid_argument("rcm: the roots reach 0 of " + std::to_string(n) + " vertices");
}

// The Cuthill-McKee order of a nonempty graph by `threads` workers, each component reversed in
// place; `components` receives their number.
std::vector<Index> run_batches(const CsrView &g, const std::vector<Index> &roots, bool count_diagonal_in_valence,
                               const CpuTuning &bopts, int threads, std::vector<BatchCounters> &counters,
                               Index &components) {
  const Index n = g.nrows;
  const std::vector<Index> valence = compute_valence(g, count_diagonal_in_valence);
  // At most n batch ids are ever used (every batch but the empty tail dropped at the end
  // has parents of its own, and each vertex is a parent in one batch), so a ring of n + 1
  // slots is never reused and a larger one would only cost memory (64 bytes a slot). The
  // overflow rule gives the same answer for both sizes, since no batch reserves beyond n.
  const BatchId slots = std::min<BatchId>(bopts.queue_slots, static_cast<BatchId>(n) + 1);
  BatchShared sh(g, valence, roots, bopts, slots);

  // Batch 0: the first root, as if a predecessor had counted and completed.
  const Index root = roots[0];
  sh.mark[root].store(0, std::memory_order_relaxed);
  sh.perm[0] = root;
  detail::Slot &first = sh.ring[0];
  first.offset = 1;
  first.followup = 1;
  sh.ring.publish(0, 0, 1);
  sh.ring.send_signal(0, detail::kCompleted);

  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads - 1));
  try {
    for (int t = 1; t < threads; ++t)
      pool.emplace_back(detail::batch_worker, std::ref(sh), bopts.batches_per_worker,
                        std::ref(counters[static_cast<std::size_t>(t)]));
  } catch (...) {
    sh.fail(std::current_exception()); // no thread: stop the ones already started
  }
  detail::batch_worker(sh, bopts.batches_per_worker, counters[0]);
  for (std::thread &t : pool) t.join();
  if (sh.error) std::rethrow_exception(sh.error);
  if (sh.next_root != roots.size())
    throw std::invalid_argument("rcm: root " + std::to_string(roots[sh.next_root]) +
                                " lies in a component that is already ordered");

  // Per-component reversal, as in the serial reference.
  sh.component_begin.push_back(n);
  for (std::size_t c = 0; c + 1 < sh.component_begin.size(); ++c)
    std::reverse(sh.perm.begin() + sh.component_begin[c], sh.perm.begin() + sh.component_begin[c + 1]);
  components = static_cast<Index>(sh.component_begin.size() - 1);
  return std::move(sh.perm);
}

void fill_stats(double seconds, Index components, int threads, const std::vector<BatchCounters> &counters,
                Stats &stats) {
  stats = Stats{};
  stats.ordering_seconds = seconds;
  stats.components = components;
  stats.threads = threads;
  for (const BatchCounters &c : counters) {
    stats.batches_executed += c.executed;
    stats.batches_without_rediscovery += c.without_rediscovery;
    stats.batches_rediscovered_before_sort += c.rediscovered_before_sort;
    stats.batches_rediscovered_after_sort += c.rediscovered_after_sort;
    stats.batches_forwarding_overhang += c.forwarding;
    stats.batches_dropped += c.dropped;
  }
}

} // namespace

std::vector<Index> batch_rcm_cpu_from_roots(const CsrView &g, const std::vector<Index> &roots, const Options &opts,
                                            Stats *stats) {
  const CpuTuning &bopts = opts.cpu;
  const auto t0 = std::chrono::steady_clock::now();
  validate_graph(g);
  check_options(bopts);
  const Index n = g.nrows;
  check_roots(roots, n);

  int threads = bopts.threads;
  if (threads == 0) threads = usable_cores();

  std::vector<Index> perm;
  std::vector<BatchCounters> counters(static_cast<std::size_t>(threads));
  Index components = 0;
  if (n > 0) perm = run_batches(g, roots, opts.count_diagonal_in_valence, bopts, threads, counters, components);
  else if (!roots.empty()) throw std::invalid_argument("rcm: root " + std::to_string(roots[0]) + " is out of range");

  if (stats)
    fill_stats(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), components, threads,
               counters, *stats);
  return perm;
}

std::vector<Index> batch_rcm_cpu(const CsrView &g, const Options &opts, Stats *stats) {
  // The start-node search runs on the same threads as the batches (it dominates end to end).
  const int threads = opts.cpu.threads > 0 ? opts.cpu.threads : usable_cores();
  return order_with_plan(
      g, opts, stats,
      [&](const CsrView &graph, const std::vector<Index> &roots) {
        return batch_rcm_cpu_from_roots(graph, roots, opts, stats);
      },
      threads);
}

} // namespace pgk::rcm
