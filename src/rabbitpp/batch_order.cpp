// The multicore backend after community detection: communities, the Rabbit numbering and the
// RABBIT++ regrouping on a thread pool (the same results as dendrogram.cpp and regroup.cpp).
#include <algorithm>
#include <array>
#include <chrono>
#include <utility>

#include "src/common/csr_build.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/regroup.hpp"

namespace pgk::rabbitpp {
namespace {

// A vertex's merge key: the round it was processed in, then its place in the processing order
// (unique per vertex). Earlier merges compare less.
struct MergeKey {
  Index round, pos;
  bool operator<(const MergeKey &o) const { return round != o.round ? round < o.round : pos < o.pos; }
};
MergeKey merge_key(const Dendrogram &d, Index v) { return {d.round[v], d.pos[v]}; }

bool key_less(const Dendrogram &d, Index x, Index y) { return merge_key(d, x) < merge_key(d, y); }

// Start of thread t's slice of [0, n) among `parts`; 64-bit, as n * t overflows a 32-bit Index
// past 134M vertices at 16 threads.
Index slice_bound(Index n, int t, int parts) { return static_cast<Index>(std::int64_t{n} * t / parts); }

// Post-order DFS of one community from its top, children newest first, appended to `out`; com[v]
// = top for each vertex met. On entering a vertex its children's row pointers are prefetched:
// they are read soon (the first at once), and each is a miss at a random place; on descending into
// a child, the next sibling's children (their place is known by then): walks 12% faster at 8M
// vertices on 2 threads (bench/NOTES.md).
void number_community(Index top, const std::vector<Index> &first, const std::vector<Index> &kids,
                      std::vector<Index> &out, Index *com) {
  const auto enter = [&](Index v) {
    for (Index j = first[v]; j < first[v + 1]; ++j) prefetch(&first[kids[j]]);
  };
  std::vector<std::pair<Index, Index>> stack{{top, first[top]}};
  enter(top);
  while (!stack.empty()) {
    auto &[v, next] = stack.back();
    if (next < first[v + 1]) {
      const Index child = kids[next++];
      if (next < first[v + 1]) prefetch(&kids[first[kids[next]]]); // the next sibling's children
      stack.emplace_back(child, first[child]);
      enter(child);
    } else {
      out.push_back(v);
      com[v] = top;
      stack.pop_back();
    }
  }
}

// hub_flags (regroup.hpp) on the pool. indeg(v) counts the stored entries of column v. Where
// A's pattern is symmetric (every weight of G is 2: total == 2 nnz(G)) and its rows strictly
// increasing (PETSc's are), that is row v's length, read in one pass; otherwise the columns are
// counted by atomic increments (exact integers), a random read-modify-write per entry that took
// most of the regrouping (1 of 1.5 s at 8M vertices on 2 threads).
std::vector<std::uint8_t> hub_flags_parallel(const CsrView &a, const GraphView &g, int hub_factor, ThreadPool &pool) {
  const Index n = a.nrows, nnz = a.rowptr[n];
  std::vector<std::uint8_t> hub(static_cast<std::size_t>(n));
  const bool symmetric = g.total == 2 * g.edges;
  if (symmetric && (g.diagonal_stored || rows_sorted_unique(a, nullptr, pool))) { // a borrowed G: rows checked
    pool.parallel_for(0, n, 4096,
                      [&](std::int64_t v) { hub[v] = is_hub(a.rowptr[v + 1] - a.rowptr[v], n, nnz, hub_factor); });
    return hub;
  }
  std::vector<Index> indeg(static_cast<std::size_t>(n), 0);
  pool.parallel_for(0, n, 1024, [&](std::int64_t i) {
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
      __atomic_fetch_add(&indeg[a.colidx[k]], Index{1}, __ATOMIC_RELAXED);
  });
  pool.parallel_for(0, n, 4096, [&](std::int64_t v) { hub[v] = is_hub(indeg[v], n, nnz, hub_factor); });
  return hub;
}

// Each vertex's children sorted by merge key, newest first. The keys of a vertex's children are
// read once each, into the thread's buffer, and sorted there (children are at random places: a
// sort comparing through key_less reads two of them per comparison; 25% off at 8M vertices).
void sort_children_newest_first(const Dendrogram &d, const std::vector<Index> &first, std::vector<Index> &kids,
                                ThreadPool &pool) {
  struct Keyed {
    MergeKey key;
    Index id;
  };
  std::vector<std::vector<Keyed>> keyed(static_cast<std::size_t>(pool.threads()));
  pool.parallel_dynamic(0, static_cast<std::int64_t>(first.size()) - 1, 1024, [&](int t, std::int64_t v) {
    const Index b = first[v], e = first[v + 1];
    if (e - b < 2) return;
    std::vector<Keyed> &k = keyed[static_cast<std::size_t>(t)];
    k.clear();
    for (Index j = b; j < e; ++j) k.push_back({merge_key(d, kids[j]), kids[j]});
    std::sort(k.begin(), k.end(), [](const Keyed &x, const Keyed &y) { return y.key < x.key; }); // newest first
    for (Index j = b; j < e; ++j) kids[j] = k[static_cast<std::size_t>(j - b)].id;
  });
}

} // namespace

std::vector<Index> rabbit_permutation_parallel(const Dendrogram &d, std::vector<Index> &com, ThreadPool &pool) {
  const Index n = static_cast<Index>(d.parent.size());
  // Children CSR (by parent). Thread t owns the parents in its slice of ids and streams all of
  // d.parent for them: plain increments and stores, no atomics (a locked increment to a random
  // address waits for its cache miss: with atomics the numbering took 1.6x the serial loops' time
  // on one thread, 2M vertices), and the children land in ascending id order as in the serial
  // loop whatever the thread count. (Serial, these loops made the numbering the one step of the
  // multicore backend that got slower from 2 to 16 threads.)
  std::vector<Index> first(static_cast<std::size_t>(n) + 1, 0);
  pool.run([&](int t, int parts) {
    const Index lo = slice_bound(n, t, parts), hi = slice_bound(n, t + 1, parts);
    for (Index v = 0; v < n; ++v) {
      const Index p = d.parent[v];
      if (p >= lo && p < hi) ++first[p + 1];
    }
  });
  for (Index v = 0; v < n; ++v) first[v + 1] += first[v];
  std::vector<Index> kids(static_cast<std::size_t>(n));
  pool.run([&](int t, int parts) {
    const Index lo = slice_bound(n, t, parts), hi = slice_bound(n, t + 1, parts);
    std::vector<Index> fill(first.begin() + lo, first.begin() + hi);
    for (Index v = 0; v < n; ++v) {
      const Index p = d.parent[v];
      if (p >= lo && p < hi) kids[fill[p - lo]++] = v;
    }
  });
  sort_children_newest_first(d, first, kids, pool);
  // The tops (roots), gathered per contiguous part in order, then sorted by merge key.
  const int parts = pool.threads();
  std::vector<std::vector<Index>> part_tops(static_cast<std::size_t>(parts));
  pool.run([&](int t, int) {
    const Index lo = slice_bound(n, t, parts), hi = slice_bound(n, t + 1, parts);
    for (Index v = lo; v < hi; ++v)
      if (d.parent[v] < 0) part_tops[static_cast<std::size_t>(t)].push_back(v);
  });
  std::vector<Index> tops;
  for (const auto &p : part_tops) tops.insert(tops.end(), p.begin(), p.end());
  std::sort(tops.begin(), tops.end(), [&d](Index x, Index y) { return key_less(d, x, y); });
  // One community at a time to whichever thread is free (a few hundred communities of very
  // different sizes, 16 to 58,072 vertices at 8M, balance badly in fixed chunks), each walked into
  // its thread's buffer; then the walks are placed in the order of the tops. The walks also give
  // com, where pointer jumping over the dendrogram took a fifth of the numbering (bench/NOTES.md).
  const std::size_t m = tops.size();
  com.resize(static_cast<std::size_t>(n));
  std::vector<std::vector<Index>> walked(static_cast<std::size_t>(parts));
  std::vector<int> walker(m);
  std::vector<Index> begin(m), offset(m + 1, 0);
  pool.parallel_dynamic(0, static_cast<std::int64_t>(m), 1, [&](int t, std::int64_t c) {
    std::vector<Index> &out = walked[static_cast<std::size_t>(t)];
    walker[c] = t;
    begin[c] = static_cast<Index>(out.size());
    number_community(tops[c], first, kids, out, com.data());
    offset[c + 1] = static_cast<Index>(out.size()) - begin[c];
  });
  for (std::size_t c = 0; c < m; ++c) offset[c + 1] += offset[c];
  std::vector<Index> perm(static_cast<std::size_t>(n));
  pool.parallel_dynamic(0, static_cast<std::int64_t>(m), 1, [&](int, std::int64_t c) {
    const Index *from = walked[static_cast<std::size_t>(walker[c])].data() + begin[c];
    std::copy(from, from + (offset[c + 1] - offset[c]), perm.data() + offset[c]);
  });
  return perm;
}

namespace {

// The skew gate's count: the entries of A's ceil(n/10) longest rows (regroup.hpp), each thread
// tallying a slice of the rows.
std::int64_t entries_in_longest_tenth_parallel(const CsrView &a, ThreadPool &pool) {
  const Index n = a.nrows;
  const int parts = pool.threads();
  std::vector<LengthTally> tally(static_cast<std::size_t>(parts));
  pool.run(
      [&](int t, int) { tally[t] = tally_row_lengths(a, slice_bound(n, t, parts), slice_bound(n, t + 1, parts)); });
  for (int t = 1; t < parts; ++t) merge_tally(tally[0], tally[t]);
  return entries_in_longest(tally[0], longest_tenth(n));
}

} // namespace

std::vector<Index> regroup_parallel(const CsrView &a, const GraphView &g, const std::vector<Index> &com,
                                    const std::vector<Index> &perm_rabbit, const Options &opt, ThreadPool &pool) {
  const Index n = g.n;
  std::vector<std::uint8_t> place(static_cast<std::size_t>(n));
  const std::vector<std::uint8_t> hub = hub_flags_parallel(a, g, opt.hub_factor, pool);
  const int rank_of_group[2][3] = {{0, 1, 2}, {1, 2, 0}};
  pool.parallel_for(0, n, 1024, [&](std::int64_t v) {
    bool insular = true;
    for (Index e = g.rowptr[v]; e < g.rowptr[v + 1] && insular; ++e) insular = com[g.colidx[e]] == com[v];
    const int group = (opt.hub_scope == HubScope::All && hub[v]) ? 0 : insular ? 2 : hub[v] ? 0 : 1;
    place[v] = static_cast<std::uint8_t>(rank_of_group[opt.insular_first ? 1 : 0][group]);
  });
  // Stable three-way partition of perm_rabbit: counts per contiguous part, then each part
  // scatters its vertices behind those of the earlier parts (independent of the part count).
  const int parts = pool.threads();
  std::vector<std::array<Index, 3>> count(static_cast<std::size_t>(parts), {0, 0, 0});
  pool.run([&](int t, int) {
    for (Index k = n * t / parts; k < n * (t + 1) / parts; ++k) ++count[t][place[perm_rabbit[k]]];
  });
  std::vector<std::array<Index, 3>> start(static_cast<std::size_t>(parts));
  Index at = 0;
  for (int p = 0; p < 3; ++p)
    for (int t = 0; t < parts; ++t) start[t][p] = at, at += count[t][p];
  std::vector<Index> perm(static_cast<std::size_t>(n));
  pool.run([&](int t, int) {
    std::array<Index, 3> cur = start[t];
    for (Index k = n * t / parts; k < n * (t + 1) / parts; ++k) perm[cur[place[perm_rabbit[k]]]++] = perm_rabbit[k];
  });
  return perm;
}

std::vector<Index> rabbitpp_batch(const CsrView &a, const Options &opt, Info *info) {
  using clock = std::chrono::steady_clock;
  const auto seconds = [](clock::time_point x, clock::time_point y) {
    return std::chrono::duration<double>(y - x).count();
  };
  check_regroup_options(opt);
  ThreadPool pool(opt.threads);
  const auto t0 = clock::now();
  const BatchGraph graph(a, pool, opt.input_is_symmetric);
  const GraphView &g = graph.view();
  const auto t1 = clock::now();
  Index deferred = 0;
  Index compactions = 0;
  const Dendrogram d = detect_communities_batch(g, opt.batch > 0 ? opt.batch : default_batch(g.n), pool, &deferred, 0,
                                                &compactions, opt.huge_pages ? Pages::huge : Pages::base);
  const auto t2 = clock::now();
  std::vector<Index> com;
  const std::vector<Index> rabbit = rabbit_permutation_parallel(d, com, pool);
  const auto t3 = clock::now();
  const bool regrouped = opt.regroup && entries_in_longest_tenth_parallel(a, pool) >=
                                            regroup_min_entries(a.rowptr[a.nrows], opt.min_skew); // the skew gate
  std::vector<Index> perm = regrouped ? regroup_parallel(a, g, com, rabbit, opt, pool) : rabbit;
  const auto t4 = clock::now();
  if (info) {
    *info = figures(a, g, com, d, opt.hub_factor);
    info->regrouped = regrouped;
    info->deferred = deferred;
    info->compactions = compactions;
    info->seconds_graph = seconds(t0, t1);
    info->seconds_communities = seconds(t1, t2);
    info->seconds_order = seconds(t2, t3);
    info->seconds_regroup = seconds(t3, t4);
  }
  return perm;
}

} // namespace pgk::rabbitpp
