// Multicore batch RCM, the worker side. The life of one batch b (BatchRun::step, paper Alg. 5):
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
#include "src/batchrcm/batch_worker.hpp"

#include "src/batchrcm/batch_plan.hpp"
#include "src/batchrcm/children_sort.hpp"

#include <stdexcept>
#include <string>
#include <thread>

namespace pgk::rcm::detail {
namespace {

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
  while (cur > id && !mark.compare_exchange_weak(cur, id, std::memory_order_relaxed)) {}
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
    sent_ = kEmpty;
    exact_ = counted_ = forwarded_ = is_end_ = false;
    gen_count_ = gen_done_ = 0;
  }

  Step step(BatchShared &sh, BatchCounters &ctr) {
    if (id_ > sh.end_id.load(std::memory_order_acquire)) {
      // Queued after the permutation was complete: all its children belong to earlier batches.
      phase_ = Phase::Idle;
      ++ctr.dropped;
      return Step::Done;
    }
    Ring &ring = sh.ring;
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
    case Phase::Discover:
      discover_and_sort(sh);
      phase_ = Phase::AwaitDiscovered;
      [[fallthrough]];
    case Phase::AwaitDiscovered:
      if (!exact_) {
        if (ring.signal_of(id_) < kDiscovered) break;
        path_ = Path::AfterSort;
        pause(sh, 2);
        signal(ring, kDiscovered);
        rediscover(sh); // after the sort: removal keeps each parent's children sorted
        count(sh, ring.signal_of(id_));
      }
      phase_ = Phase::AwaitCounted;
      [[fallthrough]];
    case Phase::AwaitCounted:
      if (!counted_) {
        const unsigned s = ring.signal_of(id_);
        if (s < kCounted) break;
        pause(sh, 3);
        count(sh, s);
      }
      pause(sh, 4);
      for (std::size_t i = 0; i < cand_.size(); ++i) sh.perm[static_cast<std::size_t>(out_offset_) + i] = cand_[i].node;
      if (is_end_) return finish(ring, ctr); // nothing after this batch is needed
      phase_ = Phase::AwaitCompleted;
      [[fallthrough]];
    case Phase::AwaitCompleted:
      if (ring.signal_of(id_) < kCompleted) break;
      pause(sh, 5);
      if (forwarded_) signal(ring, kCompleted); // the forwarded overhang is now written
      plan_generation(sh);
      phase_ = Phase::Generate;
      [[fallthrough]];
    case Phase::Generate:
      if (!generate(sh)) break;
      return finish(ring, ctr);
    case Phase::Idle: return Step::Done;
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

  void pause(const BatchShared &sh, std::uint64_t point) const {
    if (sh.stress) stress_pause(sh.stress, id_, point);
  }

  Step finish(Ring &ring, BatchCounters &ctr) {
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
  void signal(Ring &ring, unsigned s) {
    if (s <= sent_) return;
    ring.send_signal(id_ + 1, s);
    sent_ = s;
  }

  // Phase Discover: claim the children; count at once when the claims are final already (or
  // become final meanwhile, after a rediscovery), then sort each parent's children.
  void discover_and_sort(BatchShared &sh) {
    Ring &ring = sh.ring;
    pause(sh, 0);
    const unsigned early = ring.signal_of(id_);
    discover(sh);
    pause(sh, 1);
    const unsigned mid = ring.signal_of(id_);
    if (early >= kDiscovered) {
      // Every predecessor had finished marking before this batch began: claims are final.
      exact_ = true;
      path_ = Path::NoRediscovery;
      signal(ring, kDiscovered);
      count(sh, mid);
    } else if (mid >= kDiscovered) {
      // Predecessors finished while this batch discovered: its own marks are placed, so the
      // chain may go on; drop lost candidates before sorting them.
      path_ = Path::BeforeSort;
      signal(ring, kDiscovered);
      rediscover(sh);
      count(sh, mid);
    }
    for (std::size_t s = 0, begin = 0; s < seg_end_.size(); begin = seg_end_[s++])
      stable_sort_by_key(cand_.begin() + static_cast<std::ptrdiff_t>(begin),
                         cand_.begin() + static_cast<std::ptrdiff_t>(seg_end_[s]),
                         [](const Candidate &c) { return c.valence; });
  }

  void discover(BatchShared &sh) {
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
          weight_ += batch_weight(v, sh.T);
        }
      }
      seg_end_.push_back(cand_.size());
      if (sh.stress) stress_pause(sh.stress, id_, 16 + static_cast<std::uint64_t>(i - in_begin_));
    }
  }

  void rediscover(BatchShared &sh) {
    std::size_t out = 0, begin = 0;
    for (std::size_t &end : seg_end_) {
      const std::size_t old_end = end;
      for (std::size_t i = begin; i < old_end; ++i) {
        const Candidate c = cand_[i];
        if (sh.mark[c.node].load(std::memory_order_relaxed) == static_cast<Mark>(id_)) cand_[out++] = c;
        else weight_ -= batch_weight(c.valence, sh.T);
      }
      begin = old_end;
      end = out;
    }
    cand_.resize(out);
    exact_ = true;
  }

  // signalCount (Alg. 5): runs once, as soon as the counts are exact and b-1 has counted.
  void count(BatchShared &sh, unsigned s) {
    if (counted_ || !exact_ || s < kCounted) return;
    Ring &ring = sh.ring;
    Slot &me = ring[id_];
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
    Slot &next = ring[id_ + 1];
    if (nodes > 0 && 2 * nodes < sh.B && 2 * weight < sh.T && followup > id_ + 1) {
      // Overhang: too little for a batch of its own; b+1 (which exists, since followup > b+1)
      // adds it to its first batch.
      forwarded_ = true;
      next.offset = next_offset;
      next.followup = followup;
      next.combine_nodes = static_cast<Index>(nodes);
      next.combine_weight = weight;
      signal(ring, kCounted);
      return;
    }
    gen_first_ = followup;
    gen_count_ = batch_count(nodes, weight, sh.B, sh.T);
    gen_begin_ = offset - combine_nodes;
    gen_nodes_ = nodes;
    gen_weight_ = weight;
    const BatchId next_followup = followup + gen_count_;
    // Ids up to next_followup - 1 now exist; each must find its slot's previous occupant older
    // than this batch, or this batch could end up waiting on a batch that waits on it.
    if (next_followup - id_ > ring.size())
      throw BatchQueueOverflow("batch rcm: batch " + std::to_string(id_) + " needs " +
                               std::to_string(next_followup - id_) + " queue slots ahead of it but queue_slots is " +
                               std::to_string(ring.size()) + "; raise Options::cpu.queue_slots");
    next.combine_nodes = 0;
    next.combine_weight = 0;
    if (next_followup == id_ + 1) {
      seed_next_component(sh, next_offset);
    } else {
      next.offset = next_offset;
      next.followup = next_followup;
    }
    signal(ring, kCompleted); // nothing forwarded: b+1 need not wait for our writes
  }

  // This batch's component is exhausted: no output, and no batch reserved after it. The next
  // root becomes batch b+1, set up like batch 0 (parent range = the root alone).
  void seed_next_component(BatchShared &sh, Index offset) {
    if (sh.next_root >= sh.roots.size())
      throw std::invalid_argument("rcm: the roots reach " + std::to_string(offset) + " of " + std::to_string(sh.n) +
                                  " vertices");
    const Index root = sh.roots[sh.next_root++];
    // Every batch up to this one has finished marking and no later one exists, so a mark
    // here can only come from an earlier component.
    if (sh.mark[root].load(std::memory_order_relaxed) != kUnclaimed)
      throw std::invalid_argument("rcm: root " + std::to_string(root) + " lies in a component that is already ordered");
    const BatchId s = id_ + 1;
    sh.mark[root].store(static_cast<Mark>(s), std::memory_order_relaxed);
    sh.perm[static_cast<std::size_t>(offset)] = root;
    sh.component_begin.push_back(offset);
    Slot &next = sh.ring[s];
    next.offset = offset + 1;
    next.followup = s + 1;
    sh.ring.publish(s, offset, offset + 1);
  }

  void plan_generation(BatchShared &sh) {
    gen_done_ = 0;
    if (forwarded_ || gen_count_ == 0) {
      gen_count_ = 0;
      return;
    }
    const Index *perm = sh.perm.data() + gen_begin_;
    split_batches(
        gen_nodes_, gen_weight_, gen_count_, sh.B, sh.T,
        [&](std::uint64_t i) { return batch_weight(sh.valence[perm[i]], sh.T); }, bounds_);
  }

  bool generate(BatchShared &sh) {
    Ring &ring = sh.ring;
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
  unsigned sent_ = kEmpty;
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

} // namespace

void batch_worker(BatchShared &sh, int per_worker, BatchCounters &ctr) {
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

} // namespace pgk::rcm::detail
