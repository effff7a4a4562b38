// Multicore batch RCM. The life of one batch b (BatchRun::step, paper Alg. 5):
//
//   AwaitPublish     the generator has written b's parent range [in_begin, in_end)
//   AwaitNextSlot    slot b+1 is free for b+1 (b will write its signals there)
//   Discover         claim every neighbour of every parent with atomic-min(mark, b); those
//                    whose previous mark was larger are b's candidates, in row order per
//                    parent. If b-1 had signalled Discovered before this started, the claims
//                    are final; if it has by now, rediscover at once. Then sort per parent.
//   AwaitDiscovered  otherwise wait for Discovered, then rediscover: keep the candidates whose
//                    mark is still b (a smaller mark means an earlier batch owns the vertex).
//   AwaitCounted     wait for Counted: output offset, followup id and incoming overhang are
//                    known; signalCount forwards to b+1 either Counted with an overhang or
//                    Completed with b's batch count (done as early as the counts are exact).
//                    Write the children to the permutation.
//   AwaitCompleted   every overhang chained into b is written; pass Completed on if b
//                    forwarded its own output.
//   Generate         cut [offset - overhang, offset + k) into the reserved batches and publish
//                    them; retire b's slot.
// A step never blocks: it returns Blocked at the first unmet condition, and the worker polls
// its other batches or takes a new one. The batch with the smallest unfinished id can always
// advance (all its predecessors are finished, its generator has published it, the slots it
// needs belonged to finished batches), so the run cannot deadlock.
#include "src/batchrcm/batch.hpp"

#include "src/batchrcm/driver.hpp"

#include "src/batchrcm/batch_plan.hpp"
#include "src/batchrcm/batch_queue.hpp"
#include "src/batchrcm/children_sort.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/batchrcm/symmetrize.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace pgk::rcm {
namespace {

using detail::BatchId;
using detail::kNoBatch;

// Per-vertex claim: the smallest id of a batch that discovered the vertex. Only batches that
// were generated discover, and there are at most n of them (ids 0..n-1), so the unsigned type
// of Index's width always suffices (the digest's 64-bit advice is for the GPU mark, which
// packs a slot number beside the id). Half the bytes of a 64-bit mark: discovery is bound by
// cache misses on this array.
using Mark = std::make_unsigned_t<Index>;
constexpr Mark kUnclaimed = ~Mark{0};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spin briefly, then yield: workers may outnumber cores, and a spinning worker must not
// starve the one that would send the signal it is waiting for.
void back_off(unsigned &idle_rounds) {
  if (++idle_rounds < 64) cpu_relax();
  else std::this_thread::yield();
}

// Atomic minimum; returns the previous value. Relaxed is enough: a claim only needs to be seen
// by a later batch's rediscovery, which is ordered after it by the release/acquire chain of
// Discovered signals, and a min can only ever lower the value.
Mark claim(std::atomic<Mark> &mark, Mark id) {
  Mark cur = mark.load(std::memory_order_relaxed);
  while (cur > id && !mark.compare_exchange_weak(cur, id, std::memory_order_relaxed)) {
  }
  return cur;
}

// CpuTuning::stress_seed: a pause chosen by hashing (seed, batch, point), so that different
// batches stall at different places.
void stress_pause(std::uint64_t seed, BatchId id, std::uint64_t point) {
  std::uint64_t h = seed ^ (id * 0x9e3779b97f4a7c15ull) ^ (point * 0xbf58476d1ce4e5b9ull);
  h = (h ^ (h >> 31)) * 0x94d049bb133111ebull;
  h ^= h >> 29;
  switch (h & 7u) {
  case 0:
  case 1: std::this_thread::yield(); break;
  case 2:
  case 3:
    for (std::uint64_t i = 0, e = (h >> 8) & 2047u; i < e; ++i) cpu_relax();
    break;
  default: break;
  }
}

struct alignas(64) Counters {
  std::uint64_t executed = 0, without_rediscovery = 0, rediscovered_before_sort = 0,
                rediscovered_after_sort = 0, forwarding = 0, dropped = 0;
};

// State shared by the workers of one run.
struct Shared {
  Shared(const CsrView &graph, const std::vector<Index> &val, const std::vector<Index> &r,
         const CpuTuning &o, BatchId ring_slots)
      : g(graph), valence(val.data()), n(graph.nrows),
        B(static_cast<std::uint64_t>(o.max_batch_nodes)),
        T(static_cast<std::uint64_t>(o.max_batch_valence)), stress(o.stress_seed), ring(ring_slots),
        mark(new std::atomic<Mark>[static_cast<std::size_t>(graph.nrows)]),
        perm(static_cast<std::size_t>(graph.nrows)), roots(r) {
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
  detail::Ring ring;
  std::unique_ptr<std::atomic<Mark>[]> mark; // smallest batch id that claimed the vertex
  std::vector<Index> perm;                      // Cuthill-McKee order; disjoint writes
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

struct Candidate {
  Index node;
  Index valence;
};

class BatchRun {
public:
  enum class Step { Blocked, Advanced, Done };

  bool active() const { return phase_ != Phase::Idle; }

  void start(BatchId id) {
    id_ = id;
    phase_ = Phase::AwaitPublish;
    sent_ = detail::kEmpty;
    exact_ = counted_ = forwarded_ = is_end_ = false;
    gen_count_ = gen_done_ = 0;
  }

  Step step(Shared &sh, Counters &ctr) {
    if (id_ > sh.end_id.load(std::memory_order_acquire)) {
      // Queued after the permutation was complete: all its children belong to earlier batches.
      phase_ = Phase::Idle;
      ++ctr.dropped;
      return Step::Done;
    }
    detail::Ring &ring = sh.ring;
    const Phase entry = phase_;
    switch (phase_) {
    case Phase::AwaitPublish:
      if (!ring.is_published(id_)) break;
      in_begin_ = ring[id_].in_begin;
      in_end_ = ring[id_].in_end;
      phase_ = Phase::AwaitNextSlot;
      [[fallthrough]];
    case Phase::AwaitNextSlot:
      if (!ring.is_free_for(id_ + 1)) break;
      phase_ = Phase::Discover;
      [[fallthrough]];
    case Phase::Discover: {
      pause(sh, 0);
      const unsigned early = ring.signal_of(id_);
      discover(sh);
      pause(sh, 1);
      const unsigned mid = ring.signal_of(id_);
      if (early >= detail::kDiscovered) {
        // Every predecessor had finished marking before this batch began: claims are final.
        exact_ = true;
        path_ = Path::NoRediscovery;
        signal(ring, detail::kDiscovered);
        count(sh, mid);
      } else if (mid >= detail::kDiscovered) {
        // Predecessors finished while this batch discovered: its own marks are placed, so the
        // chain may go on; drop lost candidates before sorting them.
        path_ = Path::BeforeSort;
        signal(ring, detail::kDiscovered);
        rediscover(sh);
        count(sh, mid);
      }
      for (std::size_t s = 0, begin = 0; s < seg_end_.size(); begin = seg_end_[s++])
        detail::stable_sort_by_key(cand_.begin() + static_cast<std::ptrdiff_t>(begin),
                                   cand_.begin() + static_cast<std::ptrdiff_t>(seg_end_[s]),
                                   [](const Candidate &c) { return c.valence; });
      phase_ = Phase::AwaitDiscovered;
      [[fallthrough]];
    }
    case Phase::AwaitDiscovered:
      if (!exact_) {
        if (ring.signal_of(id_) < detail::kDiscovered) break;
        path_ = Path::AfterSort;
        pause(sh, 2);
        signal(ring, detail::kDiscovered);
        rediscover(sh); // after the sort: removal keeps each parent's children sorted
        count(sh, ring.signal_of(id_));
      }
      phase_ = Phase::AwaitCounted;
      [[fallthrough]];
    case Phase::AwaitCounted:
      if (!counted_) {
        const unsigned s = ring.signal_of(id_);
        if (s < detail::kCounted) break;
        pause(sh, 3);
        count(sh, s);
      }
      pause(sh, 4);
      for (std::size_t i = 0; i < cand_.size(); ++i)
        sh.perm[static_cast<std::size_t>(out_offset_) + i] = cand_[i].node;
      if (is_end_) return finish(ring, ctr); // nothing after this batch is needed
      phase_ = Phase::AwaitCompleted;
      [[fallthrough]];
    case Phase::AwaitCompleted:
      if (ring.signal_of(id_) < detail::kCompleted) break;
      pause(sh, 5);
      if (forwarded_) signal(ring, detail::kCompleted); // the forwarded overhang is now written
      plan_generation(sh);
      phase_ = Phase::Generate;
      [[fallthrough]];
    case Phase::Generate:
      if (!generate(sh)) break;
      return finish(ring, ctr);
    case Phase::Idle:
      return Step::Done;
    }
    return phase_ != entry ? Step::Advanced : Step::Blocked;
  }

private:
  enum class Phase {
    Idle,
    AwaitPublish,
    AwaitNextSlot,
    Discover,
    AwaitDiscovered,
    AwaitCounted,
    AwaitCompleted,
    Generate
  };

  void pause(const Shared &sh, std::uint64_t point) const {
    if (sh.stress) stress_pause(sh.stress, id_, point);
  }

  Step finish(detail::Ring &ring, Counters &ctr) {
    ring.retire(id_);
    phase_ = Phase::Idle;
    ++ctr.executed;
    ctr.forwarding += forwarded_;
    ctr.without_rediscovery += path_ == Path::NoRediscovery;
    ctr.rediscovered_before_sort += path_ == Path::BeforeSort;
    ctr.rediscovered_after_sort += path_ == Path::AfterSort;
    return Step::Done;
  }

  // Signals are monotone: a weaker one after a stronger one would undo it.
  void signal(detail::Ring &ring, unsigned s) {
    if (s <= sent_) return;
    ring.send_signal(id_ + 1, s);
    sent_ = s;
  }

  void discover(Shared &sh) {
    cand_.clear();
    seg_end_.clear();
    weight_ = 0;
    const CsrView &g = sh.g;
    const Mark me = static_cast<Mark>(id_); // id_ < n: see Mark
    for (Index i = in_begin_; i < in_end_; ++i) {
      const Index p = sh.perm[static_cast<std::size_t>(i)];
      for (Index e = g.rowptr[p]; e < g.rowptr[p + 1]; ++e) {
        const Index c = g.colidx[e];
        // Previous mark == id_: an earlier parent of this batch took it; < id_: an earlier batch.
        if (claim(sh.mark[c], me) > me) {
          const Index v = sh.valence[c];
          cand_.push_back({c, v});
          weight_ += detail::batch_weight(v, sh.T);
        }
      }
      seg_end_.push_back(cand_.size());
      if (sh.stress) stress_pause(sh.stress, id_, 16 + static_cast<std::uint64_t>(i - in_begin_));
    }
  }

  void rediscover(Shared &sh) {
    std::size_t out = 0, begin = 0;
    for (std::size_t &end : seg_end_) {
      const std::size_t old_end = end;
      for (std::size_t i = begin; i < old_end; ++i) {
        const Candidate c = cand_[i];
        if (sh.mark[c.node].load(std::memory_order_relaxed) == static_cast<Mark>(id_)) cand_[out++] = c;
        else weight_ -= detail::batch_weight(c.valence, sh.T);
      }
      begin = old_end;
      end = out;
    }
    cand_.resize(out);
    exact_ = true;
  }

  // signalCount (Alg. 5): runs once, as soon as the counts are exact and b-1 has counted.
  void count(Shared &sh, unsigned s) {
    if (counted_ || !exact_ || s < detail::kCounted) return;
    detail::Ring &ring = sh.ring;
    detail::Slot &me = ring[id_];
    const Index offset = me.offset;
    const BatchId followup = me.followup;
    const Index combine_nodes = me.combine_nodes;
    const std::uint64_t combine_weight = me.combine_weight;
    counted_ = true;
    out_offset_ = offset;
    const Index next_offset = offset + static_cast<Index>(cand_.size());
    if (next_offset == sh.n) {
      // Early termination: the permutation is complete once this batch writes.
      is_end_ = true;
      sh.end_id.store(id_, std::memory_order_release);
      return;
    }
    const std::uint64_t nodes = static_cast<std::uint64_t>(combine_nodes) + cand_.size();
    const std::uint64_t weight = combine_weight + weight_;
    detail::Slot &next = ring[id_ + 1];
    if (nodes > 0 && 2 * nodes < sh.B && 2 * weight < sh.T && followup > id_ + 1) {
      // Overhang: too little for a batch of its own; b+1 (which exists, since followup > b+1)
      // adds it to its first batch.
      forwarded_ = true;
      next.offset = next_offset;
      next.followup = followup;
      next.combine_nodes = static_cast<Index>(nodes);
      next.combine_weight = weight;
      signal(ring, detail::kCounted);
      return;
    }
    gen_first_ = followup;
    gen_count_ = detail::batch_count(nodes, weight, sh.B, sh.T);
    gen_begin_ = offset - combine_nodes;
    gen_nodes_ = nodes;
    gen_weight_ = weight;
    const BatchId next_followup = followup + gen_count_;
    // Ids up to next_followup - 1 now exist; each must find its slot's previous occupant older
    // than this batch, or this batch could end up waiting on a batch that waits on it.
    if (next_followup - id_ > ring.size())
      throw BatchQueueOverflow("batch rcm: batch " + std::to_string(id_) + " needs " +
                               std::to_string(next_followup - id_) +
                               " queue slots ahead of it but queue_slots is " +
                               std::to_string(ring.size()) + "; raise Options::cpu.queue_slots");
    next.combine_nodes = 0;
    next.combine_weight = 0;
    if (next_followup == id_ + 1) {
      seed_next_component(sh, next_offset);
    } else {
      next.offset = next_offset;
      next.followup = next_followup;
    }
    signal(ring, detail::kCompleted); // nothing forwarded: b+1 need not wait for our writes
  }

  // This batch's component is exhausted: no output, and no batch reserved after it. The next
  // root becomes batch b+1, set up like batch 0 (parent range = the root alone).
  void seed_next_component(Shared &sh, Index offset) {
    if (sh.next_root >= sh.roots.size())
      throw std::invalid_argument("rcm: the roots reach " + std::to_string(offset) + " of " +
                                  std::to_string(sh.n) + " vertices");
    const Index root = sh.roots[sh.next_root++];
    // Every batch up to this one has finished marking and no later one exists, so a mark
    // here can only come from an earlier component.
    if (sh.mark[root].load(std::memory_order_relaxed) != kUnclaimed)
      throw std::invalid_argument("rcm: root " + std::to_string(root) +
                                  " lies in a component that is already ordered");
    const BatchId s = id_ + 1;
    sh.mark[root].store(static_cast<Mark>(s), std::memory_order_relaxed);
    sh.perm[static_cast<std::size_t>(offset)] = root;
    sh.component_begin.push_back(offset);
    detail::Slot &next = sh.ring[s];
    next.offset = offset + 1;
    next.followup = s + 1;
    sh.ring.publish(s, offset, offset + 1);
  }

  void plan_generation(Shared &sh) {
    gen_done_ = 0;
    if (forwarded_ || gen_count_ == 0) {
      gen_count_ = 0;
      return;
    }
    const Index *perm = sh.perm.data() + gen_begin_;
    detail::split_batches(
        gen_nodes_, gen_weight_, gen_count_, sh.B, sh.T,
        [&](std::uint64_t i) { return detail::batch_weight(sh.valence[perm[i]], sh.T); }, bounds_);
  }

  bool generate(Shared &sh) {
    detail::Ring &ring = sh.ring;
    for (; gen_done_ < gen_count_; ++gen_done_) {
      const BatchId x = gen_first_ + gen_done_;
      if (!ring.is_free_for(x)) return false;
      pause(sh, 8 + gen_done_ % 8);
      ring.publish(x, gen_begin_ + static_cast<Index>(bounds_[gen_done_]),
                   gen_begin_ + static_cast<Index>(bounds_[gen_done_ + 1]));
    }
    return true;
  }

  enum class Path { NoRediscovery, BeforeSort, AfterSort }; // for Stats only

  Phase phase_ = Phase::Idle;
  Path path_ = Path::NoRediscovery;
  BatchId id_ = 0;
  Index in_begin_ = 0, in_end_ = 0;
  unsigned sent_ = detail::kEmpty;
  bool exact_ = false;     // candidates are final (no rediscovery pending)
  bool counted_ = false;   // signalCount has run
  bool forwarded_ = false; // output forwarded to b+1 as an overhang
  bool is_end_ = false;
  Index out_offset_ = 0;
  std::uint64_t weight_ = 0; // clamped valence sum of the candidates
  std::vector<Candidate> cand_;
  std::vector<std::size_t> seg_end_; // cand_ end of each parent's children
  BatchId gen_first_ = 0, gen_count_ = 0, gen_done_ = 0;
  Index gen_begin_ = 0;
  std::uint64_t gen_nodes_ = 0, gen_weight_ = 0;
  std::vector<std::uint64_t> bounds_;
};

void worker(Shared &sh, int per_worker, Counters &ctr) {
  try {
    std::vector<BatchRun> runs(static_cast<std::size_t>(per_worker));
    unsigned idle = 0;
    while (!sh.abort.load(std::memory_order_acquire)) {
      bool progressed = false, any_active = false;
      BatchRun *free_run = nullptr;
      for (BatchRun &r : runs) {
        if (r.active() && r.step(sh, ctr) != BatchRun::Step::Blocked) progressed = true;
        if (r.active()) any_active = true;
        else if (!free_run) free_run = &r;
      }
      if (!progressed) {
        if (sh.end_id.load(std::memory_order_acquire) != kNoBatch) {
          if (!any_active) break;
        } else if (free_run) {
          // Everything held is blocked: take the next batch rather than wait (multi-batch).
          free_run->start(sh.next_ticket.fetch_add(1, std::memory_order_relaxed));
          progressed = true;
        }
      }
      if (progressed) idle = 0;
      else back_off(idle);
    }
  } catch (...) {
    sh.fail(std::current_exception());
  }
}

void check_options(const CpuTuning &o) {
  if (o.threads < 0) throw std::invalid_argument("batch rcm: threads must be >= 0");
  if (o.max_batch_nodes < 1) throw std::invalid_argument("batch rcm: max_batch_nodes must be >= 1");
  if (o.max_batch_valence < 1)
    throw std::invalid_argument("batch rcm: max_batch_valence must be >= 1");
  if (o.queue_slots < 2) throw std::invalid_argument("batch rcm: queue_slots must be >= 2");
  if (o.batches_per_worker < 1)
    throw std::invalid_argument("batch rcm: batches_per_worker must be >= 1");
}

} // namespace

std::vector<Index> batch_rcm_cpu_from_roots(const CsrView &g, const std::vector<Index> &roots,
                                            const Options &opts, Stats *stats) {
  const CpuTuning &bopts = opts.cpu;
  const auto t0 = std::chrono::steady_clock::now();
  validate_graph(g);
  check_options(bopts);
  const Index n = g.nrows;
  for (const Index r : roots)
    if (r < 0 || r >= n)
      throw std::invalid_argument("rcm: root " + std::to_string(r) + " is out of range");
  if (n > 0 && roots.empty())
    throw std::invalid_argument("rcm: the roots reach 0 of " + std::to_string(n) + " vertices");

  int threads = bopts.threads;
  if (threads == 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  std::vector<Index> perm;
  std::vector<Counters> counters(static_cast<std::size_t>(threads));
  Index components = 0;
  if (n > 0) {
    const std::vector<Index> valence = compute_valence(g, opts.count_diagonal_in_valence);
    // At most n batch ids are ever used (every batch but the empty tail dropped at the end
    // has parents of its own, and each vertex is a parent in one batch), so a ring of n + 1
    // slots is never reused and a larger one would only cost memory (64 bytes a slot). The
    // overflow rule gives the same answer for both sizes, since no batch reserves beyond n.
    const BatchId slots = std::min<BatchId>(bopts.queue_slots, static_cast<BatchId>(n) + 1);
    Shared sh(g, valence, roots, bopts, slots);

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
        pool.emplace_back(worker, std::ref(sh), bopts.batches_per_worker,
                          std::ref(counters[static_cast<std::size_t>(t)]));
    } catch (...) {
      sh.fail(std::current_exception()); // no thread: stop the ones already started
    }
    worker(sh, bopts.batches_per_worker, counters[0]);
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
    perm = std::move(sh.perm);
  } else if (!roots.empty()) {
    throw std::invalid_argument("rcm: root " + std::to_string(roots[0]) + " is out of range");
  }

  if (stats) {
    *stats = Stats{};
    stats->ordering_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stats->components = components;
    stats->threads = threads;
    for (const Counters &c : counters) {
      stats->batches_executed += c.executed;
      stats->batches_without_rediscovery += c.without_rediscovery;
      stats->batches_rediscovered_before_sort += c.rediscovered_before_sort;
      stats->batches_rediscovered_after_sort += c.rediscovered_after_sort;
      stats->batches_forwarding_overhang += c.forwarding;
      stats->batches_dropped += c.dropped;
    }
  }
  return perm;
}

std::vector<Index> batch_rcm_cpu(const CsrView &g, const Options &opts, Stats *stats) {
  // The start-node search runs on the same threads as the batches (it dominates end to end).
  const int threads = opts.cpu.threads > 0 ? opts.cpu.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return order_with_plan(
      g, opts, stats,
      [&](const CsrView &graph, const std::vector<Index> &roots) {
        return batch_rcm_cpu_from_roots(graph, roots, opts, stats);
      },
      threads);
}

} // namespace pgk::rcm
