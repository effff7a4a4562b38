// Helpers shared by the trilf unit tests: deterministic random test matrices, structure
// checks of factors, forests and path orders, and a dense solver to compare against.
#pragma once

#include "src/common/csr.hpp"
#include "src/common/csr_build.hpp"
#include "src/matgen/generators.hpp"
#include "src/common/rng.hpp"
#include "src/trilf/block.hpp"
#include "src/trilf/coverage.hpp"
#include "src/trilf/factor.hpp"
#include "src/trilf/paths.hpp"
#include "src/trilf/tridiag.hpp"
#include "src/trilf/weights.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pgk::trilf::test {

struct RandomMatrix {
  Index n = 50;
  int deg = 4; // random off-diagonal partners drawn per row
  std::uint64_t seed = 1;
  bool symmetric_pattern = true;
  bool symmetric_values = true;
  int levels = 0;         // > 0: |values| in {1..levels} (many ties); 0: continuous
  double dominance = 1.0; // diagonal = dominance * (row sum of |a_ij|) + 1, sign random
  bool negative_diag = false;
};

// Deterministic square matrix with sorted unique rows and a stored diagonal.
inline Csr random_matrix(const RandomMatrix &r) {
  SplitMix64 rng(r.seed);
  std::set<std::pair<Index, Index>> entries; // (i, j), i != j
  for (Index i = 0; i < r.n; ++i)
    for (int d = 0; d < r.deg && r.n > 1; ++d) {
      Index j = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(r.n)));
      if (j == i) continue;
      entries.insert({i, j});
      if (r.symmetric_pattern) entries.insert({j, i});
    }
  auto value = [&](Index i, Index j) {
    // Symmetric values: a function of the unordered pair only.
    std::uint64_t key = r.symmetric_values ? (static_cast<std::uint64_t>(std::min(i, j)) << 32) ^
                                                 static_cast<std::uint64_t>(std::max(i, j))
                                           : (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint64_t>(j);
    SplitMix64 h(derive_seed(r.seed, key));
    const std::uint64_t u = h.next_u64();
    const double mag = r.levels > 0 ? static_cast<double>(1 + u % static_cast<std::uint64_t>(r.levels))
                                    : 0.05 + static_cast<double>(u >> 11) * 0x1.0p-53;
    return (u >> 7) & 1 ? -mag : mag;
  };
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  std::vector<double> rowsum(static_cast<std::size_t>(r.n), 0.0);
  for (const auto &[i, j] : entries) {
    rows.push_back(i);
    cols.push_back(j);
    vals.push_back(value(i, j));
    rowsum[static_cast<std::size_t>(i)] += std::fabs(vals.back());
  }
  for (Index i = 0; i < r.n; ++i) {
    rows.push_back(i);
    cols.push_back(i);
    const double d = r.dominance * rowsum[static_cast<std::size_t>(i)] + 1.0;
    vals.push_back(r.negative_diag && (rng.next_u64() & 1) ? -d : d);
  }
  return csr_from_coo(r.n, r.n, rows, cols, vals);
}

inline Csr spec(const std::string &s) { return gen::generate(gen::parse_spec(s)); }

// a(i, j) of a CSR matrix with sorted rows, 0 when not stored.
inline double entry(const Csr &a, Index i, Index j) {
  for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
    if (a.colidx[e] == j) return a.values.empty() ? 1.0 : a.values[e];
  return 0.0;
}

// Valid symmetric [0,n]-factor of w: degree <= n, slots canonical (ascending, -1 last), no
// self loops, no repeats, every edge symmetric and an edge of w with positive weight.
inline ::testing::AssertionResult valid_factor(const std::vector<Index> &nbr, int n, const Csr &w) {
  const Index nv = w.nrows;
  if (nbr.size() != static_cast<std::size_t>(nv) * static_cast<std::size_t>(n))
    return ::testing::AssertionFailure() << "size";
  for (Index v = 0; v < nv; ++v) {
    const Index *s = nbr.data() + static_cast<std::size_t>(v) * n;
    for (int k = 0; k < n; ++k) {
      const Index j = s[k];
      if (j < 0) {
        for (int l = k + 1; l < n; ++l)
          if (s[l] >= 0) return ::testing::AssertionFailure() << "vertex " << v << ": -1 before a neighbour";
        break;
      }
      if (k > 0 && s[k - 1] >= j) return ::testing::AssertionFailure() << "vertex " << v << ": slots not ascending";
      if (j >= nv || j == v) return ::testing::AssertionFailure() << "vertex " << v << ": bad neighbour " << j;
      const Index *t = nbr.data() + static_cast<std::size_t>(j) * n;
      if (std::find(t, t + n, v) == t + n)
        return ::testing::AssertionFailure() << "edge " << v << "-" << j << " not symmetric";
      if (!(edge_weight(view_of(w), v, j) > 0))
        return ::testing::AssertionFailure() << "edge " << v << "-" << j << " not in W";
    }
  }
  return ::testing::AssertionSuccess();
}

// Acyclic: every connected component of the forest has (vertices - 1) edges.
inline bool acyclic(const LinearForest &f) {
  const Index nv = f.nvertices();
  std::vector<Index> comp(static_cast<std::size_t>(nv), -1);
  for (Index s = 0; s < nv; ++s) {
    if (comp[static_cast<std::size_t>(s)] >= 0) continue;
    std::vector<Index> stack{s};
    comp[static_cast<std::size_t>(s)] = s;
    Index verts = 0, twice_edges = 0;
    while (!stack.empty()) {
      const Index v = stack.back();
      stack.pop_back();
      ++verts;
      for (int k = 0; k < 2; ++k) {
        const Index j = f.nbr[2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(k)];
        if (j < 0) continue;
        ++twice_edges;
        if (comp[static_cast<std::size_t>(j)] < 0) {
          comp[static_cast<std::size_t>(j)] = s;
          stack.push_back(j);
        }
      }
    }
    if (twice_edges / 2 != verts - 1) return false;
  }
  return true;
}

// The path order of `forest`: a valid permutation with inverse, every forest edge joins
// consecutive positions of the same path, consecutive positions of one path are forest
// edges (paths contiguous), paths are ordered by their smaller end and start there.
inline ::testing::AssertionResult valid_order(const PathOrder &o, const LinearForest &f) {
  const Index nv = f.nvertices();
  if (!is_permutation(o.perm, nv)) return ::testing::AssertionFailure() << "perm is not a permutation";
  for (Index k = 0; k < nv; ++k)
    if (o.iperm[static_cast<std::size_t>(o.perm[static_cast<std::size_t>(k)])] != k)
      return ::testing::AssertionFailure() << "iperm is not the inverse";
  if (o.path_start.empty() || o.path_start.front() != 0 || o.path_start.back() != nv)
    return ::testing::AssertionFailure() << "path_start";
  std::vector<Index> path_of(static_cast<std::size_t>(nv));
  Index longest = 0, prev_id = -1;
  for (Index p = 0; p < o.npaths(); ++p) {
    const Index b = o.path_start[static_cast<std::size_t>(p)];
    const Index e = o.path_start[static_cast<std::size_t>(p) + 1];
    if (e <= b) return ::testing::AssertionFailure() << "empty path " << p;
    longest = std::max(longest, e - b);
    const Index first = o.perm[static_cast<std::size_t>(b)];
    const Index last = o.perm[static_cast<std::size_t>(e) - 1];
    if (first > last) return ::testing::AssertionFailure() << "path " << p << " does not start at its smaller end";
    if (first <= prev_id) return ::testing::AssertionFailure() << "paths not ordered by their ID";
    prev_id = first;
    for (Index k = b; k < e; ++k) {
      path_of[static_cast<std::size_t>(k)] = p;
      if (k + 1 < e) {
        const Index u = o.perm[static_cast<std::size_t>(k)];
        const Index v = o.perm[static_cast<std::size_t>(k) + 1];
        const Index *s = f.nbr.data() + 2 * static_cast<std::size_t>(u);
        if (s[0] != v && s[1] != v)
          return ::testing::AssertionFailure()
                 << "positions " << k << "," << k + 1 << " of a path are not a forest edge";
      }
    }
  }
  if (longest != o.longest) return ::testing::AssertionFailure() << "longest " << o.longest << " != " << longest;
  for (Index v = 0; v < nv; ++v)
    for (int k = 0; k < 2; ++k) {
      const Index j = f.nbr[2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(k)];
      if (j < 0) continue;
      const Index a = o.iperm[static_cast<std::size_t>(v)], b = o.iperm[static_cast<std::size_t>(j)];
      if ((a - b != 1 && b - a != 1) || path_of[static_cast<std::size_t>(a)] != path_of[static_cast<std::size_t>(b)])
        return ::testing::AssertionFailure() << "forest edge " << v << "-" << j << " not adjacent";
    }
  return ::testing::AssertionSuccess();
}

using Dense = std::vector<std::vector<double>>;

// x = M^-1 b by Gaussian elimination with partial pivoting (M copied).
inline std::vector<double> dense_solve(Dense m, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[p][c])) p = r;
    std::swap(m[c], m[p]);
    std::swap(b[c], b[p]);
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = m[r][c] / m[c][c];
      if (f == 0) continue;
      for (std::size_t k = c; k < n; ++k) m[r][k] -= f * m[c][k];
      b[r] -= f * b[c];
    }
  }
  std::vector<double> x(n);
  for (std::size_t c = n; c-- > 0;) {
    double s = b[c];
    for (std::size_t k = c + 1; k < n; ++k) s -= m[c][k] * x[k];
    x[c] = s / m[c][c];
  }
  return x;
}

inline Dense dense_of(const Tridiagonal &t) {
  const std::size_t n = t.diag.size();
  Dense d(n, std::vector<double>(n, 0.0));
  for (std::size_t k = 0; k < n; ++k) {
    d[k][k] = t.diag[k];
    if (k > 0) d[k][k - 1] = t.lower[k];
    if (k + 1 < n) d[k][k + 1] = t.upper[k];
  }
  return d;
}

inline double rel_diff(const std::vector<double> &x, const std::vector<double> &y) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    num += (x[i] - y[i]) * (x[i] - y[i]);
    den += y[i] * y[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

inline std::vector<double> random_vector(std::size_t n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<double> v(n);
  for (double &x : v) x = 2 * rng.uniform() - 1;
  return v;
}

} // namespace pgk::trilf::test
