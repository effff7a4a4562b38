// The device backend's logic on the host: the element operations of kernels/rabbitpp/*_ops.hpp
// (the very functions the kernels call once per element) run in host loops, in the order the
// device drivers launch them, with the CUB sorts, scans and reductions replaced by their std::
// equivalents. The results must equal the multicore backend's (src/rabbitpp/batch.hpp) on every
// graph and batch size: G, the processing order, the dendrogram, the numbering, the
// communities, the regrouping and the figures. This checks the device algorithm on machines
// without a GPU; the device tests (tests/gpu/rabbitpp) check the kernels themselves, on the same
// corpus with the same batch sizes (DeviceCorpus below).
#include "kernels/rabbitpp/batch_ops.hpp"
#include "kernels/rabbitpp/dendrogram_ops.hpp"
#include "kernels/rabbitpp/graph_ops.hpp"
#include "kernels/rabbitpp/regroup_ops.hpp"
#include "src/common/csr_build.hpp"
#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/dendrogram.hpp"
#include "src/rabbitpp/graph.hpp"
#include "src/rabbitpp/regroup.hpp"
#include "tests/support/corpus.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace {

using pgk::Csr;
using pgk::CsrView;
using pgk::Index;
namespace rb = pgk::rabbitpp;
using namespace pgk::cuda::rabbitpp_ops;

template <class T> void exclusive_scan_in_place(std::vector<T> &v, std::size_t count) {
  T run = 0;
  for (std::size_t i = 0; i < count; ++i) std::swap(v[i], run), run += v[i];
}

// ---- graph.cu ------------------------------------------------------------------------------

rb::Graph emulate_graph(const Csr &a) {
  const CsrView av = pgk::view_of(a);
  const Index n = a.nrows;
  CsrRecord rec;
  init_record(av, &rec);
  for (Index i = 0; i < n; ++i) {
    Index b, e;
    if (row_extent(av, rec.nnz, i, &rec, &b, &e))
      for (Index k = b; k < e; ++k) check_entry(av, i, k, b, &rec);
  }
  EXPECT_EQ(rec.first_decrease, n);
  EXPECT_EQ(rec.first_bad_column, n);
  EXPECT_EQ(rec.first_unsorted, n);
  const Csr s = pgk::symmetrize_pattern(av); // kernels/common/symmetrize_pattern: the same rows
  const bool symmetric = s.nnz() == a.nnz();
  const Csr &sp = symmetric ? a : s;
  std::vector<Index> adiag(n), indeg(n, 0);
  for (Index i = 0; i < n; ++i) adiag[i] = diagonal_flag(av, i);
  rb::Graph g;
  g.n = n;
  g.rowptr.assign(n + 1, 0);
  for (Index i = 0; i <= n; ++i) graph_degree(sp.rowptr.data(), adiag.data(), n, i, g.rowptr.data());
  exclusive_scan_in_place(g.rowptr, n + 1);
  g.colidx.assign(g.rowptr[n], -1);
  g.weight.assign(g.rowptr[n], 0);
  for (Index i = 0; i < n; ++i)
    for (Index k = sp.rowptr[i]; k < sp.rowptr[i + 1]; ++k)
      graph_entry(av, sp.rowptr.data(), sp.colidx.data(), adiag.data(), symmetric, i, k, g.rowptr.data(),
                  g.colidx.data(), g.weight.data());
  for (Index k = 0; k < a.nnz(); ++k) count_column(av, k, indeg.data());
  g.strength.resize(n);
  for (Index i = 0; i < n; ++i) g.strength[i] = vertex_strength(av, adiag.data(), indeg.data(), i);
  const Index ndiag = std::accumulate(adiag.begin(), adiag.end(), Index{0});
  g.total = 2 * (static_cast<std::int64_t>(a.nnz()) - ndiag);
  return g;
}

std::vector<Index> emulate_order(const rb::Graph &g) {
  std::vector<Index> order(g.n);
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](Index x, Index y) { return degree_key(g.rowptr.data(), x) < degree_key(g.rowptr.data(), y); });
  return order;
}

// ---- batch.cu --------------------------------------------------------------------------------

struct Emulated {
  rb::Dendrogram d;
  std::vector<Index> seq;
  Index deferred = 0, compactions = 0;
};

class RoundEmulator {
public:
  RoundEmulator(const rb::Graph &g, const std::vector<Index> &order, Index batch, Wide capacity)
      : g_(g), n_(g.n), batch_(std::max<Index>(1, batch)) {
    const std::size_t n = n_, kb = std::min(batch_, std::max<Index>(n_, 1));
    root_.resize(n);
    std::iota(root_.begin(), root_.end(), Index{0});
    owner_.assign(n, -1), slot_.assign(n, -1), parent_.assign(n, -1), round_.assign(n, -1), seq_.assign(n, -1);
    strength_.assign(g.strength.begin(), g.strength.end());
    list_begin_.assign(n, 0), list_len_.assign(n, 0), offset_.assign(n + 1, 0);
    active_.assign(kb, -1), target_.assign(kb, -1), deferred_list_.assign(kb, -1);
    seg_begin_.assign(kb + 1, 0), dpos_.assign(kb + 1, 0), store_off_.assign(kb + 1, 0);
    target_w_.assign(kb, 0), action_.assign(kb, 0), inner_.assign(kb, 0);
    arena_root_.assign(capacity, -1), arena_w_.assign(capacity, 0);
    r_.n = n_, r_.batch = batch_, r_.total = g.total;
    r_.g_rowptr = g.rowptr.data(), r_.g_colidx = g.colidx.data(), r_.g_weight = g.weight.data(),
    r_.order = order.data();
    r_.root = root_.data(), r_.owner = owner_.data(), r_.slot = slot_.data(), r_.parent = parent_.data();
    r_.round = round_.data(), r_.seq = seq_.data(), r_.strength = strength_.data();
    r_.list_begin = list_begin_.data(), r_.list_len = list_len_.data(), r_.offset = offset_.data();
    r_.active = active_.data(), r_.target = target_.data(), r_.deferred_list = deferred_list_.data();
    r_.seg_begin = seg_begin_.data(), r_.dpos = dpos_.data(), r_.store_off = store_off_.data();
    r_.target_w = target_w_.data(), r_.action = action_.data(), r_.inner = inner_.data();
    r_.arena_root = arena_root_.data(), r_.arena_w = arena_w_.data(), r_.arena_capacity = capacity;
    r_.state = &state_;
  }

  Emulated run() {
    Emulated out;
    Index rounds = 0;
    for (Index round = 0;; ++round) {
      begin_round(r_);
      for (Index s = 0; s < static_cast<Index>(active_.size()); ++s) fill_slot(r_, s);
      for (Index x = 0; x <= n_; ++x) gather_length(r_, x);
      exclusive_scan_in_place(offset_, n_ + 1);
      record_gathered(r_);
      const RoundState st = state_;
      EXPECT_EQ(st.error, 0) << "round " << round;
      if (st.m == 0 || st.error) break;
      ++rounds;
      aggregate(st.m, static_cast<Index>(st.gathered));
      decide_round(st.m);
      store(st.m, static_cast<Index>(st.gathered), st.arena_top, out.compactions);
      apply(st.m, round);
    }
    out.d.parent = parent_;
    out.d.round = round_;
    out.d.rounds = rounds;
    out.seq = seq_;
    out.deferred = static_cast<Index>(state_.deferred_total);
    return out;
  }

private:
  void aggregate(Index m, Index T) {
    const int rbits = bits_for(static_cast<unsigned long long>(n_ - 1));
    std::vector<Index> head(T, -1);
    for (Index x = 0; x < n_; ++x) mark_head(r_, head.data(), x);
    for (Index e = 1; e < T; ++e) head[e] = std::max(head[e], head[e - 1]); // inclusive max-scan
    std::vector<Key> keys(T);
    std::vector<Weight> vals(T);
    for (Index e = 0; e < T; ++e) expand_entry(r_, head.data(), keys.data(), vals.data(), e, m, rbits);
    std::vector<std::pair<Key, Weight>> kv(T);
    for (Index e = 0; e < T; ++e) kv[e] = {keys[e], vals[e]};
    std::sort(kv.begin(), kv.end()); // the reduction sums, so the order of equal keys is free
    ukeys_.clear(), usums_.clear();
    for (const auto &[k, w] : kv) {
      if (!ukeys_.empty() && ukeys_.back() == k) usums_.back() += w;
      else ukeys_.push_back(k), usums_.push_back(w);
    }
    state_.unique = static_cast<long long>(ukeys_.size());
    for (Index s = 0; s <= m; ++s) segment_begin(r_, ukeys_.data(), s, rbits);
    // The device's reduce-by-key on the slot over all T places, in place order.
    for (Index s = 0; s < m; ++s) clear_target(r_, s);
    const EntrySlot slot_of{ukeys_.data(), &state_, rbits, m};
    const EntryCandidate candidate_at{r_, ukeys_.data(), usums_.data(), rbits, m};
    std::vector<Index> run_slot;
    std::vector<Candidate> run_best;
    for (Index i = 0; i < T; ++i) {
      const Index s = slot_of(i);
      if (!run_slot.empty() && run_slot.back() == s) run_best.back() = BetterOf{}(run_best.back(), candidate_at(i));
      else run_slot.push_back(s), run_best.push_back(candidate_at(i));
    }
    const Index runs = static_cast<Index>(run_slot.size());
    for (Index j = 0; j <= m; ++j) scatter_target(r_, run_slot.data(), run_best.data(), &runs, j, m);
  }

  void decide_round(Index m) {
    for (Index s = 0; s < m; ++s) decide(r_, s);
    const int sbits = bits_for(static_cast<unsigned long long>(m - 1));
    std::vector<Key> keys(m);
    for (Index s = 0; s < m; ++s) keys[s] = acceptance_key(r_, s, sbits);
    std::sort(keys.begin(), keys.end());
    for (Index i = 0; i < m; ++i) accept_run(r_, keys.data(), i, m, sbits);
  }

  void store(Index m, Index T, long long top, Index &compactions) {
    for (Index s = 0; s <= m; ++s) store_length(r_, s, m);
    exclusive_scan_in_place(store_off_, m + 1);
    if (top + T > r_.arena_capacity) {
      ++compactions;
      std::vector<Index> count(n_ + 1);
      for (Index x = 0; x <= n_; ++x) compact_length(r_, count.data(), x);
      exclusive_scan_in_place(count, n_ + 1);
      std::vector<Index> to_root(arena_root_.size(), -1);
      std::vector<Weight> to_w(arena_w_.size(), 0);
      for (Index x = 0; x < n_; ++x)
        if (list_live(r_, x))
          for (Index k = 0; k < list_len_[x]; ++k) compact_entry(r_, count.data(), to_root.data(), to_w.data(), x, k);
      for (Index x = 0; x < n_; ++x) compact_meta(r_, count.data(), x);
      end_compact(r_, count.data());
      arena_root_.swap(to_root), arena_w_.swap(to_w);
      r_.arena_root = arena_root_.data(), r_.arena_w = arena_w_.data();
    }
    const int rbits = bits_for(static_cast<unsigned long long>(n_ - 1));
    for (Index i = 0; i < T; ++i) store_entry(r_, ukeys_.data(), usums_.data(), i, m, rbits);
    for (Index s = 0; s < m; ++s) store_meta(r_, s, m);
    end_store(r_, m);
  }

  void apply(Index m, Index round) {
    std::vector<Index> next[2] = {std::vector<Index>(m), std::vector<Index>(m)};
    std::vector<Index> fin[2] = {std::vector<Index>(m), std::vector<Index>(m)};
    for (Index s = 0; s < m; ++s) chain_init(r_, next[0].data(), fin[0].data(), s);
    const int steps = ceil_log2(m);
    for (int t = 0; t < steps; ++t)
      for (Index s = 0; s < m; ++s)
        chain_jump(next[t % 2].data(), fin[t % 2].data(), next[1 - t % 2].data(), fin[1 - t % 2].data(), s);
    const std::vector<Index> &nx = next[steps % 2], &fr = fin[steps % 2];
    for (Index s = 0; s < m; ++s) apply_merge(r_, nx.data(), fr.data(), s);
    for (Index y = 0; y < n_; ++y) move_root(r_, fr.data(), y);
    for (Index s = 0; s <= m; ++s) defer_flag(r_, s, m);
    exclusive_scan_in_place(dpos_, m + 1);
    for (Index s = 0; s < m; ++s) finish_slot(r_, s, round);
    end_round(r_);
  }

  const rb::Graph &g_;
  Index n_, batch_;
  Rounds r_;
  RoundState state_;
  std::vector<Index> root_, owner_, slot_, parent_, round_, seq_, list_len_, offset_;
  std::vector<Index> active_, target_, deferred_list_, seg_begin_, dpos_, arena_root_;
  std::vector<Wide> strength_, list_begin_, store_off_;
  std::vector<Weight> target_w_, arena_w_, usums_;
  std::vector<std::uint8_t> action_, inner_;
  std::vector<Key> ukeys_;
};

// ---- dendrogram.cu -------------------------------------------------------------------------

void emulate_numbering(const std::vector<Index> &parent, const std::vector<Index> &seq, std::vector<Index> &perm,
                       std::vector<Index> &com) {
  const Index n = static_cast<Index>(parent.size());
  perm.assign(n, -1), com.assign(n, -1);
  if (n == 0) return;
  const int qbits = bits_for(static_cast<unsigned long long>(n - 1));
  std::vector<std::pair<Key, Index>> kv(n);
  for (Index v = 0; v < n; ++v) kv[v] = {child_key(parent.data(), seq.data(), n, qbits, v), v};
  std::stable_sort(kv.begin(), kv.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
  std::vector<Key> keys(n);
  std::vector<Index> kids(n), first_child(n + 1, -1), next_sibling(n, -2);
  for (Index i = 0; i < n; ++i) keys[i] = kv[i].first, kids[i] = kv[i].second;
  for (Index i = 0; i < n; ++i)
    link_children(keys.data(), kids.data(), n, qbits, i, first_child.data(), next_sibling.data());
  const Index nodes = 2 * n;
  std::vector<Index> next(nodes);
  for (Index k = 0; k < nodes; ++k) next[k] = tour_next(parent.data(), first_child.data(), next_sibling.data(), k);
  Index head = -1;
  tour_head(first_child.data(), n, &head);
  std::vector<Index> number(nodes + 1);
  for (Index k = 0; k <= nodes; ++k) splitter_flag(nodes, &head, k, number.data());
  exclusive_scan_in_place(number, nodes + 1);
  const Index count = number[nodes];
  std::vector<Index> splitter(count), owner(nodes, -1), local(nodes, -1);
  for (Index k = 0; k < nodes; ++k) place_splitter(&head, number.data(), k, splitter.data());
  std::vector<Index> seg[2] = {std::vector<Index>(count), std::vector<Index>(count)};
  std::vector<Index> snext[2] = {std::vector<Index>(count), std::vector<Index>(count)};
  for (Index c = 0; c < count; ++c)
    walk_segment(next.data(), number.data(), splitter.data(), &head, nodes, c, owner.data(), local.data(),
                 seg[0].data(), snext[0].data());
  const int steps = ceil_log2(count);
  for (int t = 0; t < steps; ++t)
    for (Index c = 0; c < count; ++c)
      rank_jump(seg[t % 2].data(), snext[t % 2].data(), seg[1 - t % 2].data(), snext[1 - t % 2].data(), c);
  for (Index v = 0; v < n; ++v) place_vertex(owner.data(), local.data(), seg[steps % 2].data(), n, v, perm.data());
  std::vector<Index> cid(n), top_of(n, -1);
  for (Index p = 0; p < n; ++p) community_start(perm.data(), parent.data(), p, cid.data());
  std::partial_sum(cid.begin(), cid.end(), cid.begin());
  for (Index p = 0; p < n; ++p) community_top(perm.data(), parent.data(), cid.data(), p, top_of.data());
  for (Index p = 0; p < n; ++p) community_of(perm.data(), cid.data(), top_of.data(), p, com.data());
}

// ---- regroup.cu ------------------------------------------------------------------------------

std::vector<Index> emulate_regroup(const Csr &a, const rb::Graph &g, const std::vector<Index> &com,
                                   const std::vector<Index> &perm, const rb::Options &o, rb::Info &info) {
  const Index n = g.n;
  std::vector<Index> insular(n), hub(n), indeg(n, 0);
  for (Index k = 0; k < a.nnz(); ++k) count_column(pgk::view_of(a), k, indeg.data());
  for (Index v = 0; v < n; ++v) insular[v] = insular_flag(g.rowptr.data(), g.colidx.data(), com.data(), v);
  for (Index v = 0; v < n; ++v) hub[v] = hub_flag(indeg.data(), n, a.nnz(), o.hub_factor, v);
  std::vector<std::pair<std::uint8_t, Index>> kv(n);
  for (Index p = 0; p < n; ++p)
    kv[p] = {place_at(perm.data(), insular.data(), hub.data(), o.hub_scope == rb::HubScope::All, o.insular_first, p),
             perm[p]};
  std::stable_sort(kv.begin(), kv.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
  std::vector<Index> out(n);
  for (Index p = 0; p < n; ++p) out[p] = kv[p].second;
  // Figures: per-community sums, then the host's summation order (ascending top id).
  std::vector<CommunitySums> sums(n, CommunitySums{0, 0, 0});
  std::vector<Wide> strength(g.strength.begin(), g.strength.end());
  for (Index v = 0; v < n; ++v)
    community_sums(g.rowptr.data(), g.colidx.data(), g.weight.data(), strength.data(), com.data(), v, sums.data());
  info = rb::Info{};
  const double total = static_cast<double>(g.total);
  std::int64_t inside_all = 0;
  for (Index c = 0; c < n; ++c) {
    if (sums[c].size == 0) continue;
    ++info.communities;
    info.largest_community = std::max(info.largest_community, static_cast<Index>(sums[c].size));
    inside_all += sums[c].inside;
    const std::int64_t in = sums[c].inside, tot = sums[c].tot;
    if (g.total > 0) info.modularity += in / total - (tot / total) * (tot / total);
  }
  info.insularity = g.total > 0 ? inside_all / total : 1.0;
  info.insular = std::accumulate(insular.begin(), insular.end(), Index{0});
  info.hubs = std::accumulate(hub.begin(), hub.end(), Index{0});
  std::vector<std::make_unsigned_t<Index>> len(n);
  for (Index v = 0; v < n; ++v) len[v] = row_length(pgk::view_of(a), v);
  std::sort(len.begin(), len.end(), std::greater<>());
  const Index top = (n + 9) / 10;
  const std::int64_t in_top = std::accumulate(len.begin(), len.begin() + top, std::int64_t{0});
  info.skew = a.nnz() > 0 ? static_cast<double>(in_top) / static_cast<double>(a.nnz()) : 0.0;
  return out;
}

// ---- the graphs ------------------------------------------------------------------------------

// Sorted unique rows (what the device accepts): a directed random pattern with empty rows, self
// loops, a hub row and a hub column.
Csr directed(Index n, std::uint64_t seed) {
  std::vector<Index> r, c;
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
  auto next = [&s]() {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return s;
  };
  for (Index i = 0; i < n; ++i) {
    if (next() % 5 == 0) continue;
    const int k = static_cast<int>(next() % 5);
    for (int t = 0; t < k; ++t) r.push_back(i), c.push_back(static_cast<Index>(next() % n));
  }
  for (Index j = 0; j < n; j += 3) r.push_back(1), c.push_back(j);     // hub row
  for (Index i = 0; i < n; i += 4) r.push_back(i), c.push_back(n - 1); // hub column
  return pgk::csr_from_coo(n, n, r, c, {});
}

std::vector<std::pair<std::string, Csr>> graphs() {
  std::vector<std::pair<std::string, Csr>> out;
  for (const char *spec : {"communities:n=3000", "communities:n=2000,inter=8", "powerlaw:n=3000,communities=12",
                           "random:n=1500,deg=4", "disconnected:n=1200,parts=9", "hubrow:n=1500", "rgg2d:n=2000,deg=6",
                           "path:n=300", "path:n=2", "empty:n=7", "lap2d5:n=17", "lap3d27:n=6", "convdiff3d:n=6"})
    out.emplace_back(spec, pgk::gen::generate(pgk::gen::parse_spec(spec)));
  for (std::uint64_t seed = 1; seed <= 5; ++seed)
    out.emplace_back("directed " + std::to_string(seed), directed(200 + 173 * static_cast<Index>(seed), seed));
  out.emplace_back("n = 0", pgk::csr_from_coo(0, 0, {}, {}, {}));
  out.emplace_back("n = 1", pgk::csr_from_coo(1, 1, {0}, {0}, {}));
  out.emplace_back("n = 1, empty", pgk::csr_from_coo(1, 1, {}, {}, {}));
  out.emplace_back("star", pgk::csr_from_coo(400, 400, std::vector<Index>(399, 0),
                                             [] {
                                               std::vector<Index> c(399);
                                               std::iota(c.begin(), c.end(), Index{1});
                                               return c;
                                             }(),
                                             {}));
  return out;
}

void expect_same_graph(const rb::Graph &x, const rb::Graph &y) {
  EXPECT_EQ(x.rowptr, y.rowptr);
  EXPECT_EQ(x.colidx, y.colidx);
  EXPECT_EQ(x.weight, y.weight);
  EXPECT_EQ(x.strength, y.strength);
  EXPECT_EQ(x.total, y.total);
}

TEST(RabbitppGpuEmulation, GraphAndOrderEqualTheReference) {
  for (const auto &[name, a] : graphs()) {
    SCOPED_TRACE(name);
    const rb::Graph ref = rb::build_graph(pgk::view_of(a));
    const rb::Graph g = emulate_graph(a);
    expect_same_graph(g, ref);
    EXPECT_EQ(emulate_order(g), rb::processing_order(ref));
  }
}

// K values: the serial one, tiny ones (many rounds, long chains, deferrals), the default; the
// arena at its smallest safe capacity (nnz(G): compactions in most rounds) and a roomy one.
TEST(RabbitppGpuEmulation, RoundsEqualTheMulticoreBackend) {
  Index compactions = 0, runs = 0;
  for (const auto &[name, a] : graphs()) {
    const rb::Graph g = rb::build_graph(pgk::view_of(a));
    const std::vector<Index> order = rb::processing_order(g);
    for (Index batch : {Index{1}, Index{2}, Index{3}, Index{7}, Index{64}, rb::default_batch(g.n)}) {
      if (batch <= 2 && g.n > 1600) continue; // n rounds of O(n) host loops
      for (Wide capacity : {std::max<Wide>(g.rowptr[g.n], 1), 2 * static_cast<Wide>(g.rowptr[g.n]) + 1024}) {
        SCOPED_TRACE(name + ", K " + std::to_string(batch) + ", arena " + std::to_string(capacity));
        pgk::ThreadPool pool(1);
        Index ref_deferred = 0;
        const rb::Dendrogram ref = rb::detect_communities_batch(g, batch, pool, &ref_deferred);
        const Emulated got = RoundEmulator(g, order, batch, capacity).run();
        EXPECT_EQ(got.d.parent, ref.parent);
        EXPECT_EQ(got.d.round, ref.round);
        EXPECT_EQ(got.d.rounds, ref.rounds);
        EXPECT_EQ(got.deferred, ref_deferred);
        // seq: the rank of (round, pos)
        std::vector<Index> by_key(g.n);
        std::iota(by_key.begin(), by_key.end(), Index{0});
        std::sort(by_key.begin(), by_key.end(), [&](Index x, Index y) {
          return ref.round[x] != ref.round[y] ? ref.round[x] < ref.round[y] : ref.pos[x] < ref.pos[y];
        });
        std::vector<Index> seq(g.n);
        for (Index k = 0; k < g.n; ++k) seq[by_key[k]] = k;
        EXPECT_EQ(got.seq, seq);
        compactions += got.compactions;
        ++runs;
      }
    }
  }
  std::printf("%d emulated runs, %d arena compactions\n", static_cast<int>(runs), static_cast<int>(compactions));
  EXPECT_GT(compactions, 0);
}

TEST(RabbitppGpuEmulation, NumberingRegroupingAndFiguresEqualTheReference) {
  for (const auto &[name, a] : graphs()) {
    const rb::Graph g = rb::build_graph(pgk::view_of(a));
    for (Index batch : {Index{3}, Index{64}, rb::default_batch(g.n)}) {
      SCOPED_TRACE(name + ", K " + std::to_string(batch));
      pgk::ThreadPool pool(1);
      const rb::Dendrogram d = rb::detect_communities_batch(g, batch, pool);
      const Emulated e =
          RoundEmulator(g, rb::processing_order(g), batch, 2 * static_cast<Wide>(g.rowptr[g.n]) + 1024).run();
      std::vector<Index> perm, com;
      emulate_numbering(e.d.parent, e.seq, perm, com);
      const std::vector<Index> ref_perm = rb::rabbit_permutation(d), ref_com = rb::community_of(d);
      EXPECT_EQ(perm, ref_perm);
      EXPECT_EQ(com, ref_com);
      for (bool first : {false, true})
        for (rb::HubScope scope : {rb::HubScope::NonInsular, rb::HubScope::All}) {
          rb::Options o;
          o.insular_first = first;
          o.hub_scope = scope;
          o.hub_factor = first ? 2 : 1;
          rb::Info info;
          EXPECT_EQ(emulate_regroup(a, g, com, perm, o, info), rb::regroup(pgk::view_of(a), g, ref_com, ref_perm, o));
          rb::Info ref = rb::figures(pgk::view_of(a), g, ref_com, d, o.hub_factor);
          EXPECT_EQ(info.communities, ref.communities);
          EXPECT_EQ(info.largest_community, ref.largest_community);
          EXPECT_EQ(info.modularity, ref.modularity); // bit for bit: the same sums in the same order
          EXPECT_EQ(info.insularity, ref.insularity);
          EXPECT_EQ(info.insular, ref.insular);
          EXPECT_EQ(info.hubs, ref.hubs);
          EXPECT_EQ(info.skew, ref.skew);
        }
    }
  }
}

// The device tests' corpus (tests/support/corpus.hpp, rows made sorted and unique as
// tests/gpu/rabbitpp does) with their batch sizes: K in {1, 2, 7, 64} up to 800 rounds and the
// default, each with the smallest safe arena and the default one.
TEST(RabbitppGpuEmulation, DeviceCorpus) {
  Index runs = 0, compactions = 0;
  for (const pgk::test::CorpusEntry *e : pgk::test::corpus()) {
    const Csr &m = e->matrix();
    if (m.nrows != m.ncols) continue;
    Csr a;
    a.nrows = a.ncols = m.nrows;
    a.rowptr.assign(static_cast<std::size_t>(m.nrows) + 1, 0);
    for (Index i = 0; i < m.nrows; ++i) {
      std::vector<Index> row(m.colidx.begin() + m.rowptr[i], m.colidx.begin() + m.rowptr[i + 1]);
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
      a.colidx.insert(a.colidx.end(), row.begin(), row.end());
      a.rowptr[i + 1] = static_cast<Index>(a.colidx.size());
    }
    SCOPED_TRACE(e->label());
    const rb::Graph g = rb::build_graph(pgk::view_of(a));
    expect_same_graph(emulate_graph(a), g);
    const std::vector<Index> order = rb::processing_order(g);
    EXPECT_EQ(emulate_order(g), order);
    std::vector<Index> batches;
    for (Index k : {Index{1}, Index{2}, Index{7}, Index{64}})
      if (g.n <= 800 * k) batches.push_back(k);
    batches.push_back(rb::default_batch(g.n));
    for (Index batch : batches) {
      pgk::ThreadPool pool(1);
      Index ref_deferred = 0;
      const rb::Dendrogram ref = rb::detect_communities_batch(g, batch, pool, &ref_deferred);
      for (Wide capacity : {std::max<Wide>(g.rowptr[g.n], 1), 2 * static_cast<Wide>(g.rowptr[g.n]) + 1024}) {
        SCOPED_TRACE("K " + std::to_string(batch) + ", arena " + std::to_string(capacity));
        const Emulated got = RoundEmulator(g, order, batch, capacity).run();
        ASSERT_EQ(got.d.parent, ref.parent);
        ASSERT_EQ(got.d.round, ref.round);
        EXPECT_EQ(got.d.rounds, ref.rounds);
        EXPECT_EQ(got.deferred, ref_deferred);
        compactions += got.compactions;
        ++runs;
        if (capacity == std::max<Wide>(g.rowptr[g.n], 1)) continue;
        std::vector<Index> perm, com;
        emulate_numbering(got.d.parent, got.seq, perm, com);
        const std::vector<Index> ref_perm = rb::rabbit_permutation(ref), ref_com = rb::community_of(ref);
        EXPECT_EQ(perm, ref_perm);
        EXPECT_EQ(com, ref_com);
        rb::Options o;
        o.insular_first = batch % 2 == 1;
        o.hub_scope = batch % 3 == 0 ? rb::HubScope::NonInsular : rb::HubScope::All;
        o.hub_factor = 1 + static_cast<int>(batch % 4);
        rb::Info info;
        EXPECT_EQ(emulate_regroup(a, g, com, perm, o, info), rb::regroup(pgk::view_of(a), g, ref_com, ref_perm, o));
        const rb::Info want = rb::figures(pgk::view_of(a), g, ref_com, ref, o.hub_factor);
        EXPECT_EQ(info.modularity, want.modularity);
        EXPECT_EQ(info.insularity, want.insularity);
        EXPECT_EQ(info.skew, want.skew);
        EXPECT_EQ(info.communities, want.communities);
      }
    }
  }
  std::printf("%d emulated runs on the device corpus, %d arena compactions\n", static_cast<int>(runs),
              static_cast<int>(compactions));
}

} // namespace
