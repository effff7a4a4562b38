// The worker side of the multicore batch RCM (internal to batch.cpp and batch_worker.cpp): the
// state the workers of one run share, and the worker loop. batch.cpp sets a run up (batch 0,
// the threads) and collects its result; batch_worker.cpp holds the life of one batch.
#pragma once

#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/batch_queue.hpp"

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

namespace pgk::rcm::detail {

// Per-vertex claim: the smallest id of a batch that discovered the vertex. Only batches that
// were generated discover, and there are at most n of them (ids 0..n-1), so the unsigned type
// of Index's width always suffices (the digest's 64-bit advice is for the GPU mark, which
// packs a slot number beside the id). Half the bytes of a 64-bit mark: discovery is bound by
// cache misses on this array.
using Mark = std::make_unsigned_t<Index>;
constexpr Mark kUnclaimed = ~Mark{0};

// Per-worker tallies for Stats, one cache line each.
struct alignas(64) BatchCounters {
  std::uint64_t executed = 0, without_rediscovery = 0, rediscovered_before_sort = 0, rediscovered_after_sort = 0,
                forwarding = 0, dropped = 0;
};

// State shared by the workers of one run.
struct BatchShared {
  BatchShared(const CsrView &graph, const std::vector<Index> &val, const std::vector<Index> &r, const CpuTuning &o,
              BatchId ring_slots)
      : g(graph), valence(val.data()), n(graph.nrows), B(static_cast<std::uint64_t>(o.max_batch_nodes)),
        T(static_cast<std::uint64_t>(o.max_batch_valence)), stress(o.stress_seed), ring(ring_slots),
        mark(new std::atomic<Mark>[static_cast<std::size_t>(graph.nrows)]), perm(static_cast<std::size_t>(graph.nrows)),
        roots(r) {
    for (Index i = 0; i < n; ++i) mark[i].store(kUnclaimed, std::memory_order_relaxed);
  }

  void fail(std::exception_ptr e) {
    {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = e;
    }
    abort.store(true, std::memory_order_release);
  }

  CsrView g;
  const Index *valence;
  Index n;
  std::uint64_t B, T;
  std::uint64_t stress;
  Ring ring;
  std::unique_ptr<std::atomic<Mark>[]> mark; // smallest batch id that claimed the vertex
  std::vector<Index> perm;                   // Cuthill-McKee order; disjoint writes
  std::atomic<BatchId> next_ticket{0};
  std::atomic<BatchId> end_id{kNoBatch}; // the batch whose output completed the permutation
  std::atomic<bool> abort{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  // Touched only by the batch that closes a component (and the main thread before and after
  // the run); those batches follow one another down the signal chain, which orders them.
  const std::vector<Index> &roots;
  std::size_t next_root = 1;
  std::vector<Index> component_begin{0};
};

// One worker: holds up to `per_worker` batches, steps each until it blocks, takes a new batch
// when all it holds are blocked, and returns when the permutation is complete or a worker
// failed (the exception is stored in sh.error). Never throws.
void batch_worker(BatchShared &sh, int per_worker, BatchCounters &ctr);

} // namespace pgk::rcm::detail
