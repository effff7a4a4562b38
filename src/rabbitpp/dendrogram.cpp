#include "src/rabbitpp/dendrogram.hpp"

#include <algorithm>
#include <utility>

namespace pgk::rabbitpp {
namespace {

bool key_less(const Dendrogram &d, Index x, Index y) {
  return d.round[x] != d.round[y] ? d.round[x] < d.round[y] : d.pos[x] < d.pos[y];
}

} // namespace

std::vector<Index> rabbit_permutation(const Dendrogram &d) {
  const Index n = static_cast<Index>(d.parent.size());
  // Children of every vertex, newest merge first (CSR by parent).
  std::vector<Index> first(static_cast<std::size_t>(n) + 1, 0), kids(static_cast<std::size_t>(n));
  for (Index v = 0; v < n; ++v)
    if (d.parent[v] >= 0) ++first[d.parent[v] + 1];
  for (Index v = 0; v < n; ++v) first[v + 1] += first[v];
  std::vector<Index> fill(first.begin(), first.end() - 1);
  std::vector<Index> tops;
  for (Index v = 0; v < n; ++v) {
    if (d.parent[v] >= 0) kids[fill[d.parent[v]]++] = v;
    else tops.push_back(v);
  }
  for (Index v = 0; v < n; ++v)
    std::sort(kids.begin() + first[v], kids.begin() + first[v + 1],
              [&d](Index x, Index y) { return key_less(d, y, x); });
  std::sort(tops.begin(), tops.end(), [&d](Index x, Index y) { return key_less(d, x, y); });
  // Post-order DFS with an explicit stack of (vertex, next child).
  std::vector<Index> perm;
  perm.reserve(static_cast<std::size_t>(n));
  std::vector<std::pair<Index, Index>> stack;
  for (Index top : tops) {
    stack.emplace_back(top, first[top]);
    while (!stack.empty()) {
      auto &[v, next] = stack.back();
      if (next < first[v + 1]) {
        const Index child = kids[next++];
        stack.emplace_back(child, first[child]);
      } else {
        perm.push_back(v);
        stack.pop_back();
      }
    }
  }
  return perm;
}

std::vector<Index> community_of(const Dendrogram &d) {
  const Index n = static_cast<Index>(d.parent.size());
  std::vector<Index> com(static_cast<std::size_t>(n), -1);
  std::vector<Index> path;
  for (Index v = 0; v < n; ++v) {
    Index x = v;
    while (com[x] < 0 && d.parent[x] >= 0) {
      path.push_back(x);
      x = d.parent[x];
    }
    const Index top = com[x] >= 0 ? com[x] : x;
    com[x] = top;
    for (Index y : path) com[y] = top;
    path.clear();
  }
  return com;
}

} // namespace pgk::rabbitpp
