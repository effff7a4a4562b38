#include "src/rabbitpp/regroup.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace pgk::rabbitpp {

std::vector<std::uint8_t> insular_flags(const GraphView &g, const std::vector<Index> &com) {
  std::vector<std::uint8_t> insular(static_cast<std::size_t>(g.n), 1);
  for (Index v = 0; v < g.n; ++v)
    for (Index e = g.rowptr[v]; e < g.rowptr[v + 1]; ++e)
      if (com[g.colidx[e]] != com[v]) {
        insular[v] = 0;
        break;
      }
  return insular;
}

std::vector<std::uint8_t> hub_flags(const CsrView &a, int hub_factor) {
  const Index n = a.nrows, nnz = a.rowptr[n];
  std::vector<std::int64_t> indeg(static_cast<std::size_t>(n), 0);
  for (Index k = 0; k < nnz; ++k) ++indeg[a.colidx[k]];
  std::vector<std::uint8_t> hub(static_cast<std::size_t>(n));
  for (Index v = 0; v < n; ++v) hub[v] = is_hub(indeg[v], n, nnz, hub_factor);
  return hub;
}

void check_regroup_options(const Options &opt) {
  if (opt.hub_factor < 1 || opt.hub_factor > kMaxHubFactor)
    throw std::invalid_argument("rabbitpp: hub_factor must be in [1, " + std::to_string(kMaxHubFactor) + "], got " +
                                std::to_string(opt.hub_factor));
  if (!(opt.min_skew >= 0.0 && opt.min_skew <= 1.0)) // NaN too
    throw std::invalid_argument("rabbitpp: min_skew must be in [0, 1], got " + std::to_string(opt.min_skew));
}

LengthTally tally_row_lengths(const CsrView &a, Index begin, Index end) {
  LengthTally t;
  for (Index v = begin; v < end; ++v) {
    const Index len = a.rowptr[v + 1] - a.rowptr[v];
    if (len < LengthTally::kCap) ++t.count[static_cast<std::size_t>(len)];
    else t.long_rows.push_back(len);
  }
  return t;
}

void merge_tally(LengthTally &into, const LengthTally &from) {
  for (std::size_t l = 0; l < into.count.size(); ++l) into.count[l] += from.count[l];
  into.long_rows.insert(into.long_rows.end(), from.long_rows.begin(), from.long_rows.end());
}

std::int64_t entries_in_longest(LengthTally &tally, Index k) {
  std::vector<Index> &longer = tally.long_rows;
  const auto k_long = static_cast<std::size_t>(k);
  if (longer.size() >= k_long) { // the k longest are all listed
    std::nth_element(longer.begin(), longer.begin() + static_cast<std::ptrdiff_t>(k_long), longer.end(),
                     [](Index x, Index y) { return x > y; });
    return std::accumulate(longer.begin(), longer.begin() + static_cast<std::ptrdiff_t>(k_long), std::int64_t{0});
  }
  std::int64_t sum = std::accumulate(longer.begin(), longer.end(), std::int64_t{0});
  std::int64_t left = static_cast<std::int64_t>(k_long - longer.size());
  for (Index len = LengthTally::kCap - 1; len >= 0 && left > 0; --len) {
    const std::int64_t take = std::min(left, tally.count[static_cast<std::size_t>(len)]);
    sum += take * len;
    left -= take;
  }
  return sum;
}

std::int64_t regroup_min_entries(std::int64_t nnz, double min_skew) {
  return min_skew > 0.0 ? static_cast<std::int64_t>(std::ceil(min_skew * static_cast<double>(nnz))) : 0;
}

std::vector<Index> regroup(const CsrView &a, const Graph &g, const std::vector<Index> &com,
                           const std::vector<Index> &perm_rabbit, const Options &opt) {
  const std::vector<std::uint8_t> insular = insular_flags(g, com), hub = hub_flags(a, opt.hub_factor);
  // Group of a vertex in the layout H | R | I: 0, 1, 2.
  const auto group = [&](Index v) {
    if (opt.hub_scope == HubScope::All && hub[v]) return 0;
    if (insular[v]) return 2;
    return hub[v] ? 0 : 1;
  };
  const int rank_of_group[2][3] = {{0, 1, 2}, {1, 2, 0}}; // [insular_first][group]: place in layout
  std::vector<Index> perm;
  perm.reserve(perm_rabbit.size());
  for (int place = 0; place < 3; ++place)
    for (Index v : perm_rabbit)
      if (rank_of_group[opt.insular_first ? 1 : 0][group(v)] == place) perm.push_back(v);
  return perm;
}

Info figures(const CsrView &a, const GraphView &g, const std::vector<Index> &com, const Dendrogram &d, int hub_factor) {
  const Index n = g.n;
  Info info;
  info.rounds = d.rounds;
  std::vector<std::int64_t> inside(static_cast<std::size_t>(n), 0), tot(static_cast<std::size_t>(n), 0);
  std::vector<Index> size(static_cast<std::size_t>(n), 0);
  for (Index v = 0; v < n; ++v) {
    ++size[com[v]];
    tot[com[v]] += g.strength[v];
    for (Index e = g.rowptr[v]; e < g.rowptr[v + 1]; ++e)
      if (com[g.colidx[e]] == com[v] && g.colidx[e] != v)
        inside[com[v]] += g.weight_at(e); // a stored diagonal: no edge
  }
  std::int64_t inside_all = 0;
  const double total = static_cast<double>(g.total);
  for (Index c = 0; c < n; ++c) {
    if (com[c] != c) continue; // c is a top: one community
    ++info.communities;
    info.largest_community = std::max(info.largest_community, size[c]);
    inside_all += inside[c];
    if (g.total > 0) info.modularity += inside[c] / total - (tot[c] / total) * (tot[c] / total);
  }
  info.insularity = g.total > 0 ? inside_all / total : 1.0;
  const std::vector<std::uint8_t> insular = insular_flags(g, com), hub = hub_flags(a, hub_factor);
  info.insular = std::accumulate(insular.begin(), insular.end(), Index{0});
  info.hubs = std::accumulate(hub.begin(), hub.end(), Index{0});
  // Skew: share of nnz(A) in the 10% rows with the most entries.
  LengthTally lengths = tally_row_lengths(a, 0, n);
  const std::int64_t in_top = entries_in_longest(lengths, longest_tenth(n)), nnz = a.rowptr[n];
  info.skew = nnz > 0 ? static_cast<double>(in_top) / static_cast<double>(nnz) : 0.0;
  return info;
}

} // namespace pgk::rabbitpp
