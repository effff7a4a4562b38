#include "src/batchrcm/start_node.hpp"

#include "src/batchrcm/parallel_levels.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

namespace pgk::rcm {
namespace {

// Repeated BFS over one component. `seen` holds a per-run stamp, so a run costs only the
// size of the component it visits: graphs with many tiny components stay linear overall.
class RootFinder {
public:
  struct Levels {
    Index count = 0;      // vertices reached; queue_[0, count) holds them in BFS order
    Index levels = 0;     // number of BFS levels
    Index last_begin = 0; // the last level is queue_[last_begin, count)
  };

  RootFinder(const CsrView &g, const std::vector<Index> &valence, bool count_diagonal, const char *excluded,
             LevelPool *pool = nullptr, Index min_parallel_level = 0)
      : g_(g), valence_(valence), count_diagonal_(count_diagonal), excluded_(excluded),
        queue_(static_cast<std::size_t>(g.nrows)), seen_(static_cast<std::size_t>(g.nrows), 0), pool_(pool),
        min_parallel_level_(min_parallel_level) {
    if (pool_) local_.resize(static_cast<std::size_t>(pool_->threads()));
  }

  Levels bfs(Index root) {
    if (++stamp_ == 0) { // wrapped: forget every old stamp
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
    Levels L;
    Index tail = 0;
    queue_[static_cast<std::size_t>(tail++)] = root;
    seen_[static_cast<std::size_t>(root)] = stamp_;
    Index head = 0;
    while (head < tail) {
      L.last_begin = head;
      ++L.levels;
      const Index level_end = tail;
      if (pool_ && level_end - head >= min_parallel_level_) {
        tail = expand_parallel(head, level_end);
        head = level_end;
        continue;
      }
      for (; head < level_end; ++head) {
        const Index p = queue_[static_cast<std::size_t>(head)];
        for (Index e = g_.rowptr[p]; e < g_.rowptr[p + 1]; ++e) {
          const Index nb = g_.colidx[e];
          if (seen_[static_cast<std::size_t>(nb)] == stamp_) continue;
          if (excluded_ && excluded_[nb]) continue;
          seen_[static_cast<std::size_t>(nb)] = stamp_;
          queue_[static_cast<std::size_t>(tail++)] = nb;
        }
      }
    }
    L.count = tail;
    last_count_ = tail;
    return L;
  }

  // The paper's finder; see the header for the rule.
  Index peripheral(Index seed) {
    Index root = seed;
    Levels L = bfs(root);
    for (;;) {
      Index best = queue_[static_cast<std::size_t>(L.last_begin)];
      for (Index j = L.last_begin + 1; j < L.count; ++j) {
        const Index x = queue_[static_cast<std::size_t>(j)];
        const Index vx = valence_[static_cast<std::size_t>(x)];
        const Index vb = valence_[static_cast<std::size_t>(best)];
        if (vx < vb || (vx == vb && x < best)) best = x;
      }
      const Levels next = bfs(best);
      if (next.levels <= L.levels) return best;
      root = best;
      L = next;
    }
  }

  // SPARSPAK FNROOT; see the header for the rule.
  Index george_liu(Index seed) {
    Index root = seed;
    Levels L = bfs(root);
    const Index ccsize = L.count;
    if (L.levels == 1 || L.levels == ccsize) return root;
    for (;;) {
      Index mindeg = ccsize;
      root = queue_[static_cast<std::size_t>(L.last_begin)];
      for (Index j = L.last_begin; j < L.count; ++j) {
        const Index x = queue_[static_cast<std::size_t>(j)];
        const Index d = masked_degree(x);
        if (d < mindeg) {
          mindeg = d;
          root = x;
        }
      }
      const Levels next = bfs(root);
      if (next.levels <= L.levels) return root;
      L = next;
      if (L.levels >= ccsize) return root;
    }
  }

  // After a finder returns, its last BFS was rooted at its answer, so queue_[0, last_count())
  // is exactly that root's component: no extra pass is needed to collect it.
  const Index *component() const { return queue_.data(); }
  Index last_count() const { return last_count_; }

private:
  // One level on all pool threads: each claims unseen neighbours of its slice of the frontier
  // with a compare-and-swap on the stamp and collects them locally; the slices are then
  // appended in thread order. The order inside the new level differs from the serial BFS, but
  // the Peripheral rule reads only level sets (minimum valence, then minimum id), so the root
  // found is the same. (George-Liu reads the BFS order and never runs here.) Returns the tail.
  Index expand_parallel(Index begin, Index end) {
    const std::uint32_t stamp = stamp_;
    pool_->run([&](int t, int nt) {
      std::vector<Index> &out = local_[static_cast<std::size_t>(t)];
      out.clear();
      const Index len = end - begin;
      const Index lo = begin + len * t / nt, hi = begin + len * (t + 1) / nt;
      for (Index h = lo; h < hi; ++h) {
        const Index p = queue_[static_cast<std::size_t>(h)];
        for (Index e = g_.rowptr[p]; e < g_.rowptr[p + 1]; ++e) {
          const Index nb = g_.colidx[e];
          std::uint32_t *slot = &seen_[static_cast<std::size_t>(nb)];
          std::uint32_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
          if (cur == stamp) continue;
          if (excluded_ && excluded_[nb]) continue;
          if (__atomic_compare_exchange_n(slot, &cur, stamp, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            out.push_back(nb);
        }
      }
    });
    Index tail = end;
    for (const auto &out : local_) {
      std::copy(out.begin(), out.end(), queue_.begin() + tail);
      tail += static_cast<Index>(out.size());
    }
    return tail;
  }

  Index masked_degree(Index x) const {
    Index d = 0;
    for (Index e = g_.rowptr[x]; e < g_.rowptr[x + 1]; ++e) {
      const Index nb = g_.colidx[e];
      if (excluded_ && excluded_[nb]) continue;
      if (nb == x && !count_diagonal_) continue;
      ++d;
    }
    return d;
  }

  const CsrView &g_;
  const std::vector<Index> &valence_;
  bool count_diagonal_;
  const char *excluded_;
  std::vector<Index> queue_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
  Index last_count_ = 0;
  LevelPool *pool_;
  Index min_parallel_level_;
  std::vector<std::vector<Index>> local_;
};

void check_vertex(const CsrView &g, Index v, const char *what) {
  if (v < 0 || v >= g.nrows)
    throw std::invalid_argument(std::string("rcm: ") + what + " " + std::to_string(v) +
                                " is not a vertex of a graph with " + std::to_string(g.nrows) + " vertices");
}

} // namespace

Index find_start_node(const CsrView &g, Index seed, StartNode method, bool count_diagonal,
                      const std::vector<char> *excluded) {
  validate_graph(g);
  check_vertex(g, seed, "seed");
  if (excluded && static_cast<Index>(excluded->size()) != g.nrows)
    throw std::invalid_argument("rcm: excluded mask must have one entry per vertex");
  const char *mask = excluded ? excluded->data() : nullptr;
  if (mask && mask[seed]) throw std::invalid_argument("rcm: the seed is excluded");
  if (method == StartNode::Given) return seed;
  const std::vector<Index> valence = compute_valence(g, count_diagonal);
  RootFinder f(g, valence, count_diagonal, mask);
  return method == StartNode::GeorgeLiu ? f.george_liu(seed) : f.peripheral(seed);
}

ComponentPlan plan_components(const CsrView &g, const Options &opts, int threads, Index min_parallel_level) {
  validate_graph(g);
  ComponentPlan plan;
  const Index n = g.nrows;
  if (n == 0) return plan;
  const std::vector<Index> valence = compute_valence(g, opts.count_diagonal_in_valence);
  std::vector<char> planned(static_cast<std::size_t>(n), 0);
  // George-Liu's rule reads the BFS visiting order: it stays serial.
  std::unique_ptr<LevelPool> pool;
  if (threads > 1 && opts.start != StartNode::GeorgeLiu) pool = std::make_unique<LevelPool>(threads);
  RootFinder f(g, valence, opts.count_diagonal_in_valence, planned.data(), pool.get(), min_parallel_level);

  auto add = [&](Index root, Index size) {
    for (Index j = 0; j < size; ++j) planned[static_cast<std::size_t>(f.component()[j])] = 1;
    plan.roots.push_back(root);
    plan.sizes.push_back(size);
  };

  if (opts.start == StartNode::Given) {
    check_vertex(g, opts.given_start, "given start node");
    f.bfs(opts.given_start);
    add(opts.given_start, f.last_count());
  }
  for (Index i = 0; i < n; ++i) {
    if (planned[static_cast<std::size_t>(i)]) continue;
    const Index root = opts.start == StartNode::GeorgeLiu ? f.george_liu(i) : f.peripheral(i);
    add(root, f.last_count());
  }
  return plan;
}

} // namespace pgk::rcm
