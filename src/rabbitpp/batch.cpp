// Community detection in rounds of K vertices (README.md section 2) on a thread pool.
#include "src/rabbitpp/batch.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "src/common/prefault.hpp"
#include "src/rabbitpp/graph.hpp"

namespace pgk::rabbitpp {
namespace {

// w <= the graph's total weight, which build_graph keeps below 3037000499 < 2^32.
struct Entry {
  Index to;
  std::uint32_t w;
};

enum class Action : std::uint8_t { Defer, Top, Merge };

// Union-find parents are read and path-halved by every thread of a round while no merge
// happens: any value a thread writes is an ancestor, so the roots never change. Relaxed atomic
// accesses keep those benign races defined.
Index load_relaxed(const Index *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
void store_relaxed(Index *p, Index v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

// A vertex's union-find parent and its community's strength (meaningful at roots) share a cache
// line: best_target reads the strengths of the roots that aggregate has just found, and the phase
// is bound by such random reads (bench/NOTES.md). A strength is at most the graph's total weight,
// which build_graph keeps below 2^32: with 32-bit indices a record is 8 bytes (64 MB at 8M
// vertices, against 128 MB with a 64-bit strength: 4% off the phase on 16 threads with the table).
struct Node {
  Index parent;
  std::uint32_t strength;
};

Index find_root(Node *uf, Index x) {
  for (;;) {
    const Index p = load_relaxed(&uf[x].parent);
    if (p < 0) return x;
    const Index gp = load_relaxed(&uf[p].parent);
    if (gp < 0) return p;
    store_relaxed(&uf[x].parent, gp);
    x = gp;
  }
}

constexpr Index kPrefetch = 8;

// A thread's buffers for building one vertex's list: the entries gathered, and the table that sums
// them per root (all slots empty between calls).
struct GatherScratch {
  std::vector<Entry> staged, table;
};

class BatchDetector {
public:
  BatchDetector(const GraphView &g, Index batch, std::int64_t arena_capacity, Pages arena_pages, int cycle_walk,
                ThreadPool &pool)
      : g_(g), batch_(std::max<Index>(1, batch)), cycle_walk_(std::max(0, cycle_walk)), pool_(pool) {
    const std::size_t n = static_cast<std::size_t>(g.n);
    // The n-sized state, its pages faulted in on every thread (one thread faulting in some
    // hundred MB took 0.2 s, serial, at 8M vertices on the 2-core development machine).
    const auto filled = [&](Index value) { return prefaulted_vector<Index>(n, value, pool); };
    d_.order = processing_order(g);
    d_.pos = filled(0);
    pool.parallel_for(0, g.n, 4096, [&](std::int64_t p) { d_.pos[d_.order[p]] = static_cast<Index>(p); });
    d_.parent = filled(-1);
    d_.round = filled(-1);
    uf_.reserve(n);
    prefault(uf_.data(), n * sizeof(Node), pool);
    uf_.resize(n);
    pool.parallel_for(0, g.n, 4096, [&](std::int64_t v) { uf_[v] = {-1, static_cast<std::uint32_t>(g.strength[v])}; });
    first_child_ = filled(-1);
    next_sibling_ = filled(-1);
    // The stored lists are disjoint subtrees' boundaries: at most nnz(G) entries live at once,
    // and as many more stored in one round; the arena is compacted when a round would overflow it.
    const std::int64_t nnz = g.edges;
    arena_capacity_ = arena_capacity > 0 ? std::max(arena_capacity, nnz) : 2 * nnz + 1024;
    // A round's stored lists would fault in fresh pages one at a time, inside the rounds; the
    // pages are faulted in on the pool up front (the runs fill the arena about once at 8M
    // vertices, so this commits little that would stay untouched). Huge pages (Options::huge_pages)
    // go on the arena only: on an H200 node the community phase took 1.517 s against 1.567 s with
    // them on the union-find records and the n-sized arrays too (medians of 5, bench/NOTES.md).
    arena_.reset(new Entry[static_cast<std::size_t>(arena_capacity_)]);
    prefault(arena_.get(), static_cast<std::size_t>(arena_capacity_) * sizeof(Entry), pool, arena_pages);
    list_begin_ = prefaulted_vector<std::int64_t>(n, 0, pool);
    list_len_ = filled(0);
    slot_of_ = filled(-1);
    sources_ = filled(0);
    group_head_ = filled(-1);
  }

  Dendrogram run(Index *deferred_total, Index *compactions) {
    Index frontier = 0, deferred_sum = 0;
    std::vector<Index> deferred;
    for (Index round = 0; frontier < g_.n || !deferred.empty(); ++round) {
      active_ = deferred;
      while (static_cast<Index>(active_.size()) < batch_ && frontier < g_.n) active_.push_back(d_.order[frontier++]);
      decide_round();
      deferred.clear();
      apply_round(round, deferred);
      deferred_sum += static_cast<Index>(deferred.size());
      d_.rounds = round + 1;
    }
    if (deferred_total) *deferred_total = deferred_sum;
    if (compactions) *compactions = compactions_;
    return std::move(d_);
  }

private:
  // The second step of x's lookup, once uf_[x] has arrived: its parent's entry.
  void prefetch_parent(Index x) const {
    const Index p = load_relaxed(&uf_[x].parent);
    if (p >= 0) prefetch(&uf_[p].parent);
  }

  // The edges of c's subtree appended at `o`: L(c) as c stored it when it merged (every merged
  // vertex stores its list, and it lives until c's parent is processed), which covers the children
  // merged into c before c's round; the children merged into c in c's own round (a chain of
  // merges decided together) are not in it and are walked recursively.
  void copy_subtree(Index c, Entry *&o) const {
    const Entry *list = arena_.get() + list_begin_[c];
    o = std::copy(list, list + list_len_[c], o);
    for (Index x = first_child_[c]; x >= 0; x = next_sibling_[x])
      if (d_.round[x] == d_.round[c]) copy_subtree(x, o);
  }

  // The number of entries aggregate(v) gathers: v's row and its children's subtrees. The walk also
  // serves the copies that follow: it touches each child's links and length, and starts the read
  // of its list (12% off the phase at 2M vertices on 2 threads, bench/NOTES.md).
  std::size_t gathered_count(Index v) const {
    std::size_t sum = static_cast<std::size_t>(g_.rowptr[v + 1] - g_.rowptr[v]);
    for (Index c = first_child_[v]; c >= 0; c = next_sibling_[c]) sum += subtree_count(c);
    return sum;
  }
  std::size_t subtree_count(Index c) const {
    prefetch(arena_.get() + list_begin_[c]);
    std::size_t sum = static_cast<std::size_t>(list_len_[c]);
    for (Index x = first_child_[c]; x >= 0; x = next_sibling_[x])
      if (d_.round[x] == d_.round[c]) sum += subtree_count(x);
    return sum;
  }

  // v's edges and its children's subtrees, copied one after another into `staged`: the lookups
  // then run over one array with the prefetches a fixed distance ahead, where per list (most are
  // short) each began unprefetched (15% off the phase at 2M vertices on 2 threads, bench/NOTES.md).
  const Entry *stage(Index v, std::size_t size, std::vector<Entry> &staged) const {
    if (staged.size() < size) staged.resize(size);
    Entry *o = staged.data();
    const Index b = g_.rowptr[v], e = g_.rowptr[v + 1];
    if (g_.weight)
      for (Index k = b; k < e; ++k) *o++ = {g_.colidx[k], g_.weight[k]};
    else // every weight 2; a stored diagonal entry is staged too, and aggregate drops it (root v)
      for (Index k = b; k < e; ++k) *o++ = {g_.colidx[k], 2u};
    for (Index c = first_child_[v]; c >= 0; c = next_sibling_[c]) copy_subtree(c, o);
    if (o != staged.data() + size)
      throw std::logic_error("rabbitpp: a gather's count and copy disagree (internal error)");
    return staged.data();
  }

  // L(v) into `out`: v's gathered entries mapped to roots, v's own community dropped, equal roots
  // summed in a per-thread open-addressing table of at least twice the entries gathered (it stays
  // in the core's caches, where an n-sized map per thread, 32 MB at 8M vertices, 512 MB on 16
  // threads, did not: 10% off the phase on 16 threads, bench/NOTES.md), then moved to `out` in the
  // order they were first met (each new root's slot is noted in `out` until the sums are final: no
  // scan of the table's empty slots, whose test mispredicts). The union-find parents of the entries
  // a few places ahead are prefetched: each lookup is a dependent chain of cache misses. v is
  // unprocessed, so all its children merged in earlier rounds. Nothing may depend on the order of
  // the entries (sums are exact integers, ties in best_target go to the smallest root).
  void aggregate(Index v, std::vector<Entry> &out, GatherScratch &scratch) {
    out.clear();
    const std::size_t size = gathered_count(v);
    std::size_t cap = 16;
    int shift = 60; // the hash's top log2(cap) bits
    for (; cap < 2 * size; cap *= 2) --shift;
    // A new root's slot is noted in the 32-bit weight of its entry in `out`; a table past 2^32 slots
    // (a vertex gathering over 2^31 entries, 16 GB of lists) is refused rather than mis-noted.
    if (cap > (std::size_t{1} << 32))
      throw std::length_error("rabbitpp: one vertex gathers more than 2^31 list entries");
    std::vector<Entry> &table = scratch.table;
    if (table.size() < cap) table.assign(cap, Entry{-1, 0});
    const std::size_t mask = cap - 1;
    const Entry *list = stage(v, size, scratch.staged);
    for (std::size_t k = 0; k < size; ++k) {
      if (k + 2 * kPrefetch < size) prefetch(&uf_[list[k + 2 * kPrefetch].to].parent);
      if (k + kPrefetch < size) prefetch_parent(list[k + kPrefetch].to);
      const Index r = find_root(uf_.data(), list[k].to);
      if (r == v) continue;
      for (std::size_t h = (static_cast<std::uint64_t>(r) * 0x9E3779B97F4A7C15ull) >> shift;; h = (h + 1) & mask) {
        Entry &e = table[h];
        if (e.to == r) {
          e.w += list[k].w;
          break;
        }
        if (e.to < 0) {
          e = {r, list[k].w};
          out.push_back({r, static_cast<std::uint32_t>(h)}); // its slot, until the sums are final
          break;
        }
      }
    }
    for (Entry &x : out) {
      Entry &slot = table[x.w];
      x.w = slot.w;
      slot.to = -1;
    }
  }

  // The neighbour community of largest positive gain (ties: smallest root) and its weight.
  std::pair<Index, std::int64_t> best_target(const std::vector<Entry> &list, Index v) const {
    Index best = -1;
    std::int64_t best_gain = 0, best_w = 0;
    for (const Entry &x : list) {
      const std::int64_t gain = x.w * g_.total - static_cast<std::int64_t>(uf_[v].strength) * uf_[x.to].strength;
      if (gain > best_gain || (gain == best_gain && gain > 0 && x.to < best))
        best_gain = gain, best = x.to, best_w = x.w;
    }
    return {best, best_w};
  }

  // Several vertices of a round may pick the same target t, each against t's strength at the
  // start of the round. Taken in processing order, each must still gain with the strength of
  // the ones accepted before it (as if merged one after another); the others are deferred.
  // Every pass is parallel: the sources of a target with several of them are chained through
  // group_head_ (in any order), and the source at the head of the chain sorts it and decides.
  void limit_merges_per_target() {
    const Index m = static_cast<Index>(active_.size());
    pool_.parallel_for(0, m, 1024, [&](std::int64_t s) {
      if (action_[s] == Action::Merge) __atomic_fetch_add(&sources_[target_[s]], Index{1}, __ATOMIC_RELAXED);
    });
    grouped_.assign(static_cast<std::size_t>(m), 0);
    next_in_group_.resize(static_cast<std::size_t>(m));
    pool_.parallel_for(0, m, 1024, [&](std::int64_t s) {
      if (action_[s] != Action::Merge || sources_[target_[s]] < 2) return;
      grouped_[s] = 1;
      next_in_group_[s] = __atomic_exchange_n(&group_head_[target_[s]], static_cast<Index>(s), __ATOMIC_RELAXED);
    });
    if (static_cast<int>(members_.size()) < pool_.threads()) members_.resize(static_cast<std::size_t>(pool_.threads()));
    pool_.parallel_dynamic(0, m, 256, [&](int thread, std::int64_t head) {
      if (!grouped_[head] || group_head_[target_[head]] != head) return;
      std::vector<Index> &members = members_[thread];
      members.clear();
      for (Index s = static_cast<Index>(head); s >= 0; s = next_in_group_[s]) members.push_back(s);
      std::sort(members.begin(), members.end()); // slot order = processing order
      std::int64_t joined = uf_[target_[head]].strength;
      for (const Index s : members) {
        const std::int64_t str = uf_[active_[s]].strength;
        if (target_w_[s] * g_.total - str * joined > 0) joined += str;
        else action_[s] = Action::Defer; // only this group's owner writes its members' actions
      }
    });
    pool_.parallel_for(0, m, 1024, [&](std::int64_t s) {
      if (target_[s] < 0) return;
      store_relaxed(&sources_[target_[s]], 0);
      store_relaxed(&group_head_[target_[s]], -1);
    });
  }

  // A round's merges form chains (v -> t -> x). Where G is symmetric a pair's gain is the same
  // from both sides, so no chain of three or more closes on itself (each link would need a larger
  // gain than the one before it), and a pair's cycle is broken in decide_round. A false symmetry
  // promise (Options::input_is_symmetric on an unsymmetric pattern) reads each pair's weight from
  // one side only; a longer cycle would then close the union-find on itself (find_root never
  // returns). Each such cycle's latest slot waits for a later round instead, as a pair's does; the
  // others still merge, so the rounds end. Nothing changes where G is symmetric. Run only where
  // G was taken on the caller's word (GraphView::symmetry_promised).
  void break_merge_cycles() {
    const Index m = static_cast<Index>(active_.size());
    const auto next = [&](Index s) { // the slot s merges into where that one merges too, else -1
      const Index ts = target_slot_[s];
      return action_[s] == Action::Merge && ts >= 0 && action_[ts] == Action::Merge ? ts : Index{-1};
    };
    // Each slot walks its chain while the slots stay below its own: back at itself, it is its
    // cycle's latest. A walk longer than cycle_walk_ (a long chain, or a cycle it does not lie on)
    // leaves the round to the serial walk, which decides the same.
    closes_cycle_.assign(static_cast<std::size_t>(m), 0);
    std::uint8_t undecided = 0, any = 0;
    pool_.parallel_for(0, m, 1024, [&](std::int64_t slot) {
      const Index s = static_cast<Index>(slot);
      Index u = next(s);
      for (int step = 0; u >= 0 && u < s; ++step, u = next(u))
        if (step == cycle_walk_) return __atomic_store_n(&undecided, std::uint8_t{1}, __ATOMIC_RELAXED);
      if (u == s) closes_cycle_[s] = 1, __atomic_store_n(&any, std::uint8_t{1}, __ATOMIC_RELAXED);
    });
    if (undecided) return break_merge_cycles_serially(next);
    if (any)
      for (Index s = 0; s < m; ++s)
        if (closes_cycle_[s]) action_[s] = Action::Defer;
  }

  template <class Next> void break_merge_cycles_serially(const Next &next) {
    const Index m = static_cast<Index>(active_.size());
    walk_of_.assign(static_cast<std::size_t>(m), -1);
    for (Index start = 0; start < m; ++start) {
      if (walk_of_[start] >= 0 || next(start) < 0) continue;
      Index s = start;
      while (s >= 0 && walk_of_[s] < 0) {
        walk_of_[s] = start;
        s = next(s);
      }
      if (s < 0 || walk_of_[s] != start) continue; // the chain ends, or joins an earlier walk
      Index latest = s;                            // s is on a cycle this walk closed
      for (Index u = next(s); u != s; u = next(u)) latest = std::max(latest, u);
      action_[latest] = Action::Defer;
    }
  }

  // Aggregation, targets, receiving flags and actions of the active vertices: every value read
  // is the state at the start of the round.
  void decide_round() {
    const Index m = static_cast<Index>(active_.size());
    if (static_cast<Index>(lists_.size()) < m) lists_.resize(static_cast<std::size_t>(m));
    target_.assign(static_cast<std::size_t>(m), -1);
    action_.assign(static_cast<std::size_t>(m), Action::Defer);
    pool_.parallel_for(0, m, 4096, [&](std::int64_t s) { slot_of_[active_[s]] = static_cast<Index>(s); });
    target_w_.assign(static_cast<std::size_t>(m), 0);
    if (scratch_.size() < static_cast<std::size_t>(pool_.threads()))
      scratch_.resize(static_cast<std::size_t>(pool_.threads()));
    pool_.parallel_dynamic(0, m, 16, [&](int t, std::int64_t s) {
      aggregate(active_[s], lists_[s], scratch_[t]);
      std::tie(target_[s], target_w_[s]) = best_target(lists_[s], active_[s]);
    });
    target_slot_.resize(static_cast<std::size_t>(m));
    pool_.parallel_for(0, m, 1024, [&](std::int64_t s) {
      const Index t = target_[s], ts = t >= 0 ? slot_of_[t] : -1;
      target_slot_[s] = ts;
      if (t < 0) action_[s] = Action::Top;
      else if (ts >= 0 && target_[ts] == active_[s] && ts < s)
        action_[s] = Action::Defer; // mutual pair: the later one waits
      else action_[s] = Action::Merge;
    });
    limit_merges_per_target();
    if (g_.symmetry_promised) break_merge_cycles(); // a G symmetrized here has no such cycle
  }

  // Where the lists the round stores go in the arena (slot s: [at[s], at[s + 1]); merged vertices
  // only), after a compaction when they would not fit behind the ones in use.
  std::vector<std::int64_t> place_stored_lists() {
    const Index m = static_cast<Index>(active_.size());
    std::vector<std::int64_t> at(static_cast<std::size_t>(m) + 1, 0);
    for (Index s = 0; s < m; ++s)
      at[s + 1] = at[s] + (action_[s] == Action::Merge ? static_cast<std::int64_t>(lists_[s].size()) : 0);
    if (arena_top_ + at[m] > arena_capacity_) compact_arena();
    if (arena_top_ + at[m] > arena_capacity_) // live lists and new ones bound disjoint subtrees: <= nnz(G)
      throw std::logic_error("rabbitpp: the list arena overflowed after a compaction (internal error)");
    for (std::int64_t &x : at) x += arena_top_;
    arena_top_ = at[m];
    return at;
  }

  // Whether v's stored list will still be read: v merged, and the first of its ancestors processed
  // in another round than v (those of v's round are the chain merged with it, whose lists are read
  // together) is not processed yet. Once it is, it has read the list; where there is no such
  // ancestor, or it was processed before v merged into it (a top), nobody reads it.
  bool list_is_live(Index v) const {
    if (d_.parent[v] < 0) return false;
    const Index r = d_.round[v];
    Index a = d_.parent[v];
    while (d_.round[a] == r && d_.parent[a] >= 0) a = d_.parent[a];
    return d_.round[a] < 0;
  }

  // The lists in use moved to the front of a fresh arena, in vertex order (parallel: per-part
  // sizes, their scan, then each part copies its lists). Lists of different vertices never overlap.
  void compact_arena() {
    const Index n = g_.n;
    const int parts = pool_.threads();
    std::vector<std::int64_t> start(static_cast<std::size_t>(parts) + 1, 0);
    pool_.run([&](int t, int) {
      std::int64_t sum = 0;
      for (Index v = n * t / parts; v < n * (t + 1) / parts; ++v) sum += list_is_live(v) ? list_len_[v] : 0;
      start[t + 1] = sum;
    });
    for (int t = 0; t < parts; ++t) start[t + 1] += start[t];
    // Not faulted in beforehand: the copies below touch its front on every thread, and the old
    // arena is still held (peak memory).
    std::unique_ptr<Entry[]> fresh(new Entry[static_cast<std::size_t>(arena_capacity_)]);
    pool_.run([&](int t, int) {
      std::int64_t to = start[t];
      for (Index v = n * t / parts; v < n * (t + 1) / parts; ++v) {
        if (!list_is_live(v)) continue;
        std::copy(arena_.get() + list_begin_[v], arena_.get() + list_begin_[v] + list_len_[v], fresh.get() + to);
        list_begin_[v] = to;
        to += list_len_[v];
      }
    });
    arena_ = std::move(fresh);
    arena_top_ = start[parts];
    ++compactions_;
  }

  // Applies the round's decisions in three parallel passes (the order of the merges is free:
  // links and strengths are order-independent). A community's strength goes to the root it
  // ends in: a chain v -> t -> x of one round adds both v's and t's strength to x.
  void apply_round(Index round, std::vector<Index> &deferred) {
    const Index m = static_cast<Index>(active_.size());
    // 1. Before any link of this round (and any compaction): the round of each vertex processed. L(v)
    //    holds the subtrees of v's children, whose lists are now dead (list_is_live).
    pool_.parallel_for(0, m, 4096, [&](std::int64_t s) {
      if (action_[s] != Action::Defer) d_.round[active_[s]] = round;
    });
    // 2. Parents and child links; a merged vertex keeps its list for its parent, in the arena. A
    //    leaf's too: its parent then reads its row's entries already mapped to roots and summed,
    //    instead of the row again (2% off the phase on 16 cores at 8M vertices, bench/NOTES.md).
    const std::vector<std::int64_t> at = place_stored_lists();
    pool_.parallel_for(0, m, 256, [&](std::int64_t s) {
      if (action_[s] != Action::Merge) return;
      const Index v = active_[s], t = target_[s];
      d_.parent[v] = t;
      store_relaxed(&uf_[v].parent, t);
      Index head = __atomic_load_n(&first_child_[t], __ATOMIC_RELAXED);
      do next_sibling_[v] = head;
      while (!__atomic_compare_exchange_n(&first_child_[t], &head, v, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
      list_begin_[v] = at[s];
      list_len_[v] = static_cast<Index>(at[s + 1] - at[s]);
      std::copy(lists_[s].begin(), lists_[s].end(), arena_.get() + at[s]);
    });
    // 3. Strengths to the final roots (v is no root now, so nobody adds to v's strength).
    pool_.parallel_for(0, m, 256, [&](std::int64_t s) {
      const Index v = active_[s];
      slot_of_[v] = -1;
      if (action_[s] != Action::Merge) return;
      __atomic_fetch_add(&uf_[find_root(uf_.data(), v)].strength, uf_[v].strength, __ATOMIC_RELAXED);
    });
    for (Index s = 0; s < m; ++s)
      if (action_[s] == Action::Defer) deferred.push_back(active_[s]);
  }

  const GraphView g_;
  const Index batch_;
  const int cycle_walk_;
  ThreadPool &pool_;
  Dendrogram d_;
  std::vector<Node> uf_;
  std::vector<Index> first_child_, next_sibling_, slot_of_, active_, target_;
  // Targets with several sources in a round: per vertex the count and the head of the chain, per
  // slot the link and whether it is in a chain; per thread a group being decided.
  std::vector<Index> sources_, group_head_, next_in_group_;
  std::vector<Index> target_slot_, walk_of_; // per slot: the target's slot (-1: not in the round); the walk that met it
  std::vector<std::uint8_t> closes_cycle_;   // per slot: the latest slot of a cycle of merges
  std::vector<std::uint8_t> grouped_;
  std::vector<std::vector<Index>> members_;
  std::vector<std::int64_t> target_w_;
  std::vector<std::vector<Entry>> lists_; // per slot, capacity kept from round to round
  std::unique_ptr<Entry[]> arena_;        // the stored lists (list_begin_, list_len_ of a vertex)
  std::int64_t arena_capacity_ = 0, arena_top_ = 0;
  std::vector<std::int64_t> list_begin_;
  std::vector<Index> list_len_;
  Index compactions_ = 0;
  std::vector<GatherScratch> scratch_; // per thread
  std::vector<Action> action_;
};

} // namespace

Index default_batch(Index n) { return std::max<Index>(1, std::min<Index>(65536, n / 64)); }

Dendrogram detect_communities_batch(const GraphView &g, Index batch, ThreadPool &pool, Index *deferred,
                                    std::int64_t arena_capacity, Index *compactions, Pages arena_pages,
                                    int cycle_walk) {
  BatchDetector detector(g, batch, arena_capacity, arena_pages, cycle_walk, pool);
  return detector.run(deferred, compactions);
}

} // namespace pgk::rabbitpp
