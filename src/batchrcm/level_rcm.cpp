// Level-synchronous Cuthill-McKee with the fused start-node search (level_rcm.hpp).
#include "src/batchrcm/level_rcm.hpp"

#include "src/batchrcm/children_sort.hpp"
#include "src/batchrcm/driver.hpp"
#include "src/batchrcm/parallel_levels.hpp"
#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace pgk::rcm {
namespace {

// A vertex's claim: (position of its parent in the Cuthill-McKee order, offset of the vertex in
// the parent's row). The smallest claim is the serial order's parent and row position.
using Key = std::uint64_t;
constexpr Key kUnclaimed = ~Key{0};
constexpr Index kMinTimedComponent = 1024; // smaller components are not timed apart (clock cost)

inline Key claim_key(Index parent_position, Index offset) {
  return (static_cast<Key>(parent_position) << 32) | static_cast<Key>(offset);
}
inline Index parent_of(Key k) { return static_cast<Index>(k >> 32); }
inline std::uint32_t offset_of(Key k) { return static_cast<std::uint32_t>(k); }

struct Pass {
  Index root = 0;
  Index end = 0;        // the component is perm[begin, end)
  Index levels = 0;     // number of BFS levels
  Index last_begin = 0; // the last level is perm[last_begin, end)
};

class LevelOrderer {
public:
  // valence: compute_valence(g, ...), by the caller (on its pool's threads).
  LevelOrderer(const CsrView &g, std::vector<Index> valence, LevelPool *pool, Index min_parallel_level)
      : g_(g), n_(g.nrows), pool_(pool), min_parallel_level_(std::max<Index>(min_parallel_level, 1)),
        grain_(std::min<Index>(kSliceGrain, min_parallel_level_)), key_(new Key[static_cast<std::size_t>(g.nrows)]),
        valence_(std::move(valence)), perm_(static_cast<std::size_t>(g.nrows)) {
    const int nt = pool_ ? pool_->threads() : 1;
    found_.resize(static_cast<std::size_t>(nt));
    slice_total_.resize(static_cast<std::size_t>(nt) + 1);
    lowest_.resize(static_cast<std::size_t>(nt));
    for_slices(0, n_, [&](int, Index lo, Index hi) { // first touch on every thread
      for (Index i = lo; i < hi; ++i) key_[i] = kUnclaimed;
    });
  }

  bool claimed(Index v) const { return key_[v] != kUnclaimed; }
  std::vector<Index> take_perm() { return std::move(perm_); }

  // True when v has no neighbour but itself: its component is v alone.
  bool isolated(Index v) const {
    for (Index e = g_.rowptr[v]; e < g_.rowptr[v + 1]; ++e)
      if (g_.colidx[e] != v) return false;
    return true;
  }

  void place_alone(Index v, Index begin) {
    key_[v] = claim_key(begin, 0);
    perm_[static_cast<std::size_t>(begin)] = v;
  }

  // The Cuthill-McKee order of root's component, written to perm[begin, ...). With sorted false,
  // a plain BFS: the same level sets, the order inside each level arbitrary (cheaper: a pass the
  // search will not keep).
  Pass order(Index root, Index begin, bool sorted = true) {
    place_alone(root, begin);
    Pass pass;
    pass.root = root;
    Index b = begin, e = begin + 1;
    while (b < e) {
      ++pass.levels;
      pass.last_begin = b;
      const bool parallel = pool_ && e - b >= min_parallel_level_;
      const Index tail =
          parallel ? (sorted ? expand_parallel(b, e) : visit_parallel(b, e)) : expand_serial(b, e, sorted);
      b = e;
      e = tail;
    }
    pass.end = e;
    return pass;
  }

  // Unclaims the vertices of perm[begin, end), so that another pass can order them.
  void forget(Index begin, Index end) {
    for_slices(begin, end, [&](int, Index lo, Index hi) {
      for (Index i = lo; i < hi; ++i) key_[perm_[static_cast<std::size_t>(i)]] = kUnclaimed;
    });
  }

  // The vertex of perm[begin, end) of lowest valence, ties to the smallest id (the Peripheral rule).
  Index lowest_valence(Index begin, Index end) {
    const auto better = [&](Index x, Index y) {
      return valence_[x] < valence_[y] || (valence_[x] == valence_[y] && x < y);
    };
    std::fill(lowest_.begin(), lowest_.end(), Index{-1});
    for_slices(begin, end, [&](int t, Index lo, Index hi) {
      Index best = perm_[static_cast<std::size_t>(lo)];
      for (Index i = lo + 1; i < hi; ++i)
        if (better(perm_[static_cast<std::size_t>(i)], best)) best = perm_[static_cast<std::size_t>(i)];
      lowest_[static_cast<std::size_t>(t)] = best;
    });
    Index best = -1;
    for (const Index x : lowest_)
      if (x >= 0 && (best < 0 || better(x, best))) best = x;
    return best;
  }

  void reverse(Index begin, Index end) {
    const Index half = (end - begin) / 2;
    for_slices(0, half, [&](int, Index lo, Index hi) {
      for (Index i = lo; i < hi; ++i)
        std::swap(perm_[static_cast<std::size_t>(begin + i)], perm_[static_cast<std::size_t>(end - 1 - i)]);
    });
  }

private:
  // f(t, lo, hi) on consecutive slices of [begin, end): on all threads when long, else on this one.
  template <class F> void for_slices(Index begin, Index end, F &&f) {
    pgk::for_slices(pool_, begin, end, grain_, [&](int t, std::int64_t lo, std::int64_t hi) {
      f(t, static_cast<Index>(lo), static_cast<Index>(hi));
    });
  }

  // Children of perm[b, e) in order, appended at e; returns the new tail. The serial rule: the
  // first parent to meet an unclaimed vertex takes it, children by valence, stable.
  Index expand_serial(Index b, Index e, bool sorted) {
    const auto by_valence = [&](Index x) { return valence_[x]; };
    Index tail = e;
    for (Index h = b; h < e; ++h) {
      const Index p = perm_[static_cast<std::size_t>(h)];
      const Index first = tail, row = g_.rowptr[p];
      for (Index j = row; j < g_.rowptr[p + 1]; ++j) {
        const Index c = g_.colidx[j];
        if (key_[c] != kUnclaimed) continue;
        key_[c] = claim_key(h, j - row);
        perm_[static_cast<std::size_t>(tail++)] = c;
      }
      if (sorted) detail::stable_sort_by_key(perm_.begin() + first, perm_.begin() + tail, by_valence);
    }
    return tail;
  }

  Index expand_parallel(Index b, Index e);
  Index visit_parallel(Index b, Index e);
  void claim_children(Index b, Index e, int t, int nt);
  void sort_children(Index *first, Index *last) const;

  const CsrView &g_;
  Index n_;
  LevelPool *pool_;
  Index min_parallel_level_;
  Index grain_; // flat passes (initialization, forget, lowest valence, reversal) shorter than this stay serial
  std::unique_ptr<Key[]> key_;
  std::vector<Index> valence_;
  std::vector<Index> perm_;
  std::unique_ptr<std::uint32_t[]> count_; // children per parent of the level being expanded
  std::vector<std::vector<Index>> found_;  // per thread: the vertices it claimed first
  std::vector<Index> slice_total_;         // per thread: children of its parents, then their prefix
  std::vector<Index> slice_begin_;         // per thread: its first parent (relative to the level)
  std::vector<Index> lowest_;
};

// Phase 1 on thread t: every neighbour of this thread's parents is offered the parent's key; the
// thread that takes a vertex from unclaimed keeps it in found_[t] (each vertex is kept once).
void LevelOrderer::claim_children(Index b, Index e, int t, int nt) {
  std::vector<Index> &out = found_[static_cast<std::size_t>(t)];
  out.clear();
  const std::int64_t len = e - b;
  const Index lo = b + static_cast<Index>(len * t / nt), hi = b + static_cast<Index>(len * (t + 1) / nt);
  for (Index h = lo; h < hi; ++h) {
    count_[h - b] = 0;
    const Index p = perm_[static_cast<std::size_t>(h)], row = g_.rowptr[p];
    for (Index j = row; j < g_.rowptr[p + 1]; ++j) {
      Key *slot = &key_[g_.colidx[j]];
      const Key mine = claim_key(h, j - row);
      Key cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
      while (cur > mine) { // vertices of this level and the one before hold smaller keys
        if (__atomic_compare_exchange_n(slot, &cur, mine, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
          if (cur == kUnclaimed) out.push_back(g_.colidx[j]);
          break;
        }
      }
    }
  }
}

// One BFS level on all threads: every neighbour is claimed by phase 1 (the keys are those of the
// sorted pass, so a later sorted level finds them as it expects), then the threads' finds are
// appended in thread order.
Index LevelOrderer::visit_parallel(Index b, Index e) {
  if (!count_) count_.reset(new std::uint32_t[static_cast<std::size_t>(n_)]);
  pool_->run([&](int t, int n) { claim_children(b, e, t, n); });
  Index total = 0;
  for (std::size_t t = 0; t < found_.size(); ++t) {
    slice_total_[t] = total;
    total += static_cast<Index>(found_[t].size());
  }
  pool_->run([&](int t, int) {
    const std::vector<Index> &f = found_[static_cast<std::size_t>(t)];
    std::copy(f.begin(), f.end(), perm_.begin() + e + slice_total_[static_cast<std::size_t>(t)]);
  });
  return e + total;
}

// Children of one parent by (valence, offset in the parent's row): the serial rule, as a total order.
void LevelOrderer::sort_children(Index *first, Index *last) const {
  const auto less = [&](Index x, Index y) {
    return valence_[x] < valence_[y] || (valence_[x] == valence_[y] && offset_of(key_[x]) < offset_of(key_[y]));
  };
  if (last - first <= 16) {
    for (Index *i = first + 1; i < last; ++i) {
      const Index x = *i;
      Index *j = i;
      for (; j != first && less(x, *(j - 1)); --j) *j = *(j - 1);
      *j = x;
    }
    return;
  }
  std::sort(first, last, less);
}

// One level on all threads: claim (phase 1), count children per parent, scan the counts within
// each thread's parents, scatter the children to their parent's group, sort each group.
Index LevelOrderer::expand_parallel(Index b, Index e) {
  if (!count_) count_.reset(new std::uint32_t[static_cast<std::size_t>(n_)]);
  const int nt = pool_->threads();
  const std::int64_t len = e - b;
  slice_begin_.resize(static_cast<std::size_t>(nt) + 1);
  for (int t = 0; t <= nt; ++t) slice_begin_[static_cast<std::size_t>(t)] = static_cast<Index>(len * t / nt);
  pool_->run([&](int t, int n) { claim_children(b, e, t, n); });
  pool_->run([&](int t, int) {
    for (const Index c : found_[static_cast<std::size_t>(t)])
      __atomic_fetch_add(&count_[parent_of(key_[c]) - b], 1u, __ATOMIC_RELAXED);
  });
  pool_->run([&](int t, int) {
    std::uint32_t sum = 0;
    for (Index i = slice_begin_[static_cast<std::size_t>(t)]; i < slice_begin_[static_cast<std::size_t>(t) + 1]; ++i) {
      const std::uint32_t c = count_[i];
      count_[i] = sum;
      sum += c;
    }
    slice_total_[static_cast<std::size_t>(t)] = sum;
  });
  Index total = 0;
  for (int t = 0; t < nt; ++t) {
    const Index s = slice_total_[static_cast<std::size_t>(t)];
    slice_total_[static_cast<std::size_t>(t)] = total;
    total += s;
  }
  pool_->run([&](int t, int) {
    for (const Index c : found_[static_cast<std::size_t>(t)]) {
      const Index i = parent_of(key_[c]) - b;
      const auto owner = std::upper_bound(slice_begin_.begin(), slice_begin_.end(), i) - slice_begin_.begin() - 1;
      const Index slot = __atomic_fetch_add(&count_[i], 1u, __ATOMIC_RELAXED);
      perm_[static_cast<std::size_t>(e + slice_total_[static_cast<std::size_t>(owner)] + slot)] = c;
    }
  });
  pool_->run([&](int t, int) {
    Index *base = perm_.data() + e + slice_total_[static_cast<std::size_t>(t)];
    Index start = 0;
    for (Index i = slice_begin_[static_cast<std::size_t>(t)]; i < slice_begin_[static_cast<std::size_t>(t) + 1]; ++i) {
      const Index end = count_[i]; // after the scatter: the end of parent i's group in the slice
      sort_children(base + start, base + end);
      start = end;
    }
  });
  return e + total;
}

} // namespace

bool level_rcm_supports(const CsrView &g, const Options &opts) {
  if (opts.start == StartNode::GeorgeLiu) return false;
  if (sizeof(Index) <= 4) return true;
  constexpr std::int64_t kLimit = std::numeric_limits<std::uint32_t>::max() - 1;
  if (static_cast<std::int64_t>(g.nrows) >= kLimit) return false;
  for (Index i = 0; g.rowptr && i < g.nrows; ++i)
    if (static_cast<std::int64_t>(g.rowptr[i + 1] - g.rowptr[i]) >= kLimit) return false;
  return true;
}

std::vector<Index> level_rcm(const CsrView &g, const Options &opts, int threads, Stats *stats,
                             Index min_parallel_level) {
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point a) { return std::chrono::duration<double>(clock::now() - a).count(); };
  if (!level_rcm_supports(g, opts))
    throw std::invalid_argument("rcm: level_rcm orders with the Peripheral or Given start node and fewer than "
                                "2^32 - 1 vertices and row entries");
  if (threads <= 0) threads = usable_cores();
  const auto t0 = clock::now();
  Csr storage;
  bool symmetrized = false;
  CsrView graph;
  std::vector<Index> valence;
  double symmetrize_seconds = 0;
  {
    // Sleeps between steps; gone before the spinning pool starts.
    ThreadPool checks(g.nrows >= kSliceGrain ? threads : 1);
    validate_graph(g, &checks);
    graph = symmetric_graph(g, opts, checks, storage, symmetrized);
    symmetrize_seconds = since(t0);
    valence = compute_valence(graph, opts.count_diagonal_in_valence, &checks);
  }
  const Index n = graph.nrows;
  if (opts.start == StartNode::Given && (opts.given_start < 0 || opts.given_start >= n))
    throw std::invalid_argument("rcm: given start node " + std::to_string(opts.given_start) +
                                " is not a vertex of a graph with " + std::to_string(n) + " vertices");

  std::unique_ptr<LevelPool> pool;
  if (threads > 1 && n > min_parallel_level) pool = std::make_unique<LevelPool>(threads);
  const auto t1 = clock::now();
  LevelOrderer lo(graph, std::move(valence), pool.get(), min_parallel_level);
  double kept_seconds = 0;
  Index begin = 0, components = 0;
  // One component: passes from the seed until the Peripheral rule stops; the last pass is kept.
  const auto order_component = [&](Index seed, bool given) {
    ++components;
    if (lo.isolated(seed)) {
      lo.place_alone(seed, begin++);
      return;
    }
    auto mark = clock::now();
    // The pass from the seed is kept only for a given start: a Peripheral search always moves on
    // (the seed is in its own last level only when it is alone, handled above), so a BFS will do.
    Pass pass = lo.order(seed, begin, given);
    const bool timed = pass.end - begin >= kMinTimedComponent;
    bool sorted = given;
    while (!given) {
      const Index best = lo.lowest_valence(pass.last_begin, pass.end);
      const bool same_root = best == pass.root; // the same levels again: the search stops here
      if (same_root && sorted) break;
      lo.forget(begin, pass.end);
      if (timed) mark = clock::now();
      const Pass next = lo.order(best, begin);
      sorted = true;
      const bool stop = same_root || next.levels <= pass.levels;
      pass = next;
      if (stop) break;
    }
    lo.reverse(begin, pass.end);
    if (timed) kept_seconds += since(mark);
    begin = pass.end;
  };
  if (opts.start == StartNode::Given) order_component(opts.given_start, true);
  for (Index i = 0; i < n; ++i)
    if (!lo.claimed(i)) order_component(i, false);
  // On a symmetric graph every vertex is placed once. A graph promised symmetric that is not lets a
  // later pass of the peripheral search miss vertices an earlier one forgot, below the scan's i.
  if (begin != n)
    throw NotSymmetric("rcm: the levels reach " + std::to_string(begin) + " of " + std::to_string(n) +
                       " vertices: the graph is not symmetric, though input_is_symmetric promised it");
  const double plan_and_order_seconds = since(t1);
  if (stats) {
    *stats = Stats{};
    stats->symmetrize_seconds = opts.input_is_symmetric ? 0.0 : symmetrize_seconds;
    stats->pattern_symmetrized = symmetrized;
    stats->start_node_seconds = std::max(0.0, plan_and_order_seconds - kept_seconds);
    stats->ordering_seconds = kept_seconds;
    stats->components = components;
    stats->threads = threads;
  }
  return lo.take_perm();
}

} // namespace pgk::rcm
