#include "src/common/csr_build.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "src/common/thread_pool.hpp"

namespace pgk {

namespace {

constexpr Index kIndexMax = std::numeric_limits<Index>::max();

std::string str(std::int64_t v) { return std::to_string(v); }

// Turns per-row counts stored at rowptr[i + 1] into offsets.
void counts_to_offsets(std::vector<Index> &rowptr) {
  for (std::size_t i = 1; i < rowptr.size(); ++i) rowptr[i] += rowptr[i - 1];
}

} // namespace

Csr csr_from_coo(Index nrows, Index ncols, const std::vector<Index> &rows, const std::vector<Index> &cols,
                 const std::vector<double> &values) {
  if (nrows < 0 || ncols < 0) throw std::invalid_argument("csr_from_coo: negative matrix size");
  if (rows.size() != cols.size()) throw std::invalid_argument("csr_from_coo: rows and cols differ in length");
  const bool with_values = !values.empty();
  if (with_values && values.size() != rows.size())
    throw std::invalid_argument("csr_from_coo: values and rows differ in length");
  if (rows.size() > static_cast<std::size_t>(kIndexMax))
    throw std::length_error("csr_from_coo: entry count exceeds the Index range");
  const auto n = static_cast<Index>(rows.size());
  for (Index k = 0; k < n; ++k) {
    if (rows[k] < 0 || rows[k] >= nrows || cols[k] < 0 || cols[k] >= ncols)
      throw std::invalid_argument("csr_from_coo: entry " + str(k) + " at (" + str(rows[k]) + ", " + str(cols[k]) +
                                  ") lies outside the " + str(nrows) + " x " + str(ncols) + " matrix");
  }

  // Stable counting sort by row: within a row, entries keep their input order.
  std::vector<Index> start(static_cast<std::size_t>(nrows) + 1, 0);
  for (Index k = 0; k < n; ++k) ++start[rows[k] + 1];
  counts_to_offsets(start);
  std::vector<Index> order(static_cast<std::size_t>(n));
  {
    std::vector<Index> next(start.begin(), start.end() - 1);
    for (Index k = 0; k < n; ++k) order[next[rows[k]]++] = k;
  }

  Csr a;
  a.nrows = nrows;
  a.ncols = ncols;
  a.rowptr.assign(static_cast<std::size_t>(nrows) + 1, 0);
  a.colidx.reserve(static_cast<std::size_t>(n));
  if (with_values) a.values.reserve(static_cast<std::size_t>(n));
  for (Index i = 0; i < nrows; ++i) {
    const auto first = order.begin() + start[i];
    const auto last = order.begin() + start[i + 1];
    // Ties on the column are broken by input position, so duplicates are summed in input
    // order and the rounding of the sum is reproducible.
    std::sort(first, last, [&](Index p, Index q) { return cols[p] != cols[q] ? cols[p] < cols[q] : p < q; });
    for (auto it = first; it != last; ++it) {
      const Index c = cols[*it];
      const bool duplicate = it != first && cols[*(it - 1)] == c;
      if (duplicate) {
        if (with_values) a.values.back() += values[*it];
        continue;
      }
      a.colidx.push_back(c);
      if (with_values) a.values.push_back(values[*it]);
    }
    a.rowptr[i + 1] = static_cast<Index>(a.colidx.size());
  }
  return a;
}

Csr symmetrize_pattern(const CsrView &a) {
  if (a.nrows != a.ncols)
    throw std::invalid_argument("symmetrize_pattern: matrix is " + str(a.nrows) + " x " + str(a.ncols) +
                                ", not square");
  const Index nnz = a.nnz_host();
  if (nnz > kIndexMax / 2) throw std::length_error("symmetrize_pattern: 2 * nnz exceeds the Index range");
  std::vector<Index> rows, cols;
  rows.reserve(2 * static_cast<std::size_t>(nnz));
  cols.reserve(2 * static_cast<std::size_t>(nnz));
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      rows.push_back(i);
      cols.push_back(a.colidx[k]);
      rows.push_back(a.colidx[k]);
      cols.push_back(i);
    }
  }
  return csr_from_coo(a.nrows, a.ncols, rows, cols, {});
}

Csr transpose(const CsrView &a) {
  const Index nnz = a.nnz_host();
  const bool with_values = a.values != nullptr;
  Csr t;
  t.nrows = a.ncols;
  t.ncols = a.nrows;
  t.rowptr.assign(static_cast<std::size_t>(a.ncols) + 1, 0);
  for (Index k = 0; k < nnz; ++k) ++t.rowptr[a.colidx[k] + 1];
  counts_to_offsets(t.rowptr);
  t.colidx.resize(static_cast<std::size_t>(nnz));
  if (with_values) t.values.resize(static_cast<std::size_t>(nnz));
  std::vector<Index> next(t.rowptr.begin(), t.rowptr.end() - 1);
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const Index dst = next[a.colidx[k]]++;
      t.colidx[dst] = i;
      if (with_values) t.values[dst] = a.values[k];
    }
  }
  return t;
}

Csr row_slice(const Csr &a, Index begin, Index end) {
  if (begin < 0 || begin > end || end > a.nrows)
    throw std::invalid_argument("row_slice: range [" + str(begin) + ", " + str(end) + ") is not inside [0, " +
                                str(a.nrows) + ")");
  Csr s;
  s.nrows = end - begin;
  s.ncols = a.ncols;
  const Index lo = a.rowptr[begin];
  const Index hi = a.rowptr[end];
  s.rowptr.resize(static_cast<std::size_t>(s.nrows) + 1);
  for (Index i = 0; i <= s.nrows; ++i) s.rowptr[i] = a.rowptr[begin + i] - lo;
  s.colidx.assign(a.colidx.begin() + lo, a.colidx.begin() + hi);
  if (!a.values.empty()) s.values.assign(a.values.begin() + lo, a.values.begin() + hi);
  return s;
}

bool validate_csr(const CsrView &a, std::string *why) {
  auto fail = [why](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (a.nrows < 0 || a.ncols < 0) return fail("negative size " + str(a.nrows) + " x " + str(a.ncols));
  if (!a.rowptr) return fail("rowptr is null");
  if (a.rowptr[0] != 0) return fail("rowptr[0] is " + str(a.rowptr[0]) + ", not 0");
  for (Index i = 0; i < a.nrows; ++i) {
    if (a.rowptr[i + 1] < a.rowptr[i])
      return fail("rowptr decreases at row " + str(i) + ": rowptr[" + str(i) + "] = " + str(a.rowptr[i]) +
                  " > rowptr[" + str(i + 1) + "] = " + str(a.rowptr[i + 1]));
  }
  if (a.rowptr[a.nrows] > 0 && !a.colidx) return fail("colidx is null but nnz is " + str(a.rowptr[a.nrows]));
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      if (a.colidx[k] < 0 || a.colidx[k] >= a.ncols)
        return fail("row " + str(i) + ": column index " + str(a.colidx[k]) + " (entry " + str(k) + ") outside [0, " +
                    str(a.ncols) + ")");
    }
  }
  return true;
}

bool validate_csr(const CsrView &a, std::string *why, ThreadPool &pool) {
  if (a.nrows < 0 || a.ncols < 0 || !a.rowptr || a.rowptr[0] != 0) return validate_csr(a, why);
  std::atomic<bool> bad{false};
  pool.parallel_ranges(a.nrows, 1 << 14, [&](int, std::int64_t lo, std::int64_t hi) {
    bool ok = true;
    for (std::int64_t i = lo; i < hi && ok; ++i) ok = a.rowptr[i + 1] >= a.rowptr[i];
    if (ok && a.rowptr[hi] > a.rowptr[lo] && !a.colidx) ok = false;
    if (ok)
      for (Index k = a.rowptr[lo]; k < a.rowptr[hi] && ok; ++k) ok = a.colidx[k] >= 0 && a.colidx[k] < a.ncols;
    if (!ok) bad.store(true, std::memory_order_relaxed);
  });
  // A failure anywhere: the serial pass names the first one, as validate_csr(a, why) does.
  return bad.load() ? validate_csr(a, why) : true;
}

bool rows_sorted_unique(const CsrView &a, std::string *why) {
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index k = a.rowptr[i] + 1; k < a.rowptr[i + 1]; ++k) {
      if (a.colidx[k] <= a.colidx[k - 1]) {
        if (why)
          *why = "row " + str(i) + ": column " + str(a.colidx[k]) + " (entry " + str(k) + ") follows column " +
                 str(a.colidx[k - 1]) + (a.colidx[k] == a.colidx[k - 1] ? " (duplicate)" : " (unsorted)");
        return false;
      }
    }
  }
  return true;
}

bool rows_sorted_unique(const CsrView &a, std::string *why, ThreadPool &pool) {
  std::atomic<bool> bad{false};
  pool.parallel_ranges(a.nrows, 1 << 14, [&](int, std::int64_t lo, std::int64_t hi) {
    bool ok = true;
    for (std::int64_t i = lo; i < hi && ok; ++i)
      for (Index k = a.rowptr[i] + 1; k < a.rowptr[i + 1] && ok; ++k) ok = a.colidx[k] > a.colidx[k - 1];
    if (!ok) bad.store(true, std::memory_order_relaxed);
  });
  // A failure anywhere: the serial pass names the first one.
  return bad.load() ? rows_sorted_unique(a, why) : true;
}

Index count_nonfinite(const CsrView &a) {
  if (!a.values) return 0;
  Index count = 0;
  for (Index k = 0; k < a.nnz_host(); ++k) count += std::isfinite(a.values[k]) ? 0 : 1;
  return count;
}

Index bandwidth(const CsrView &a) {
  Index band = 0;
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const Index j = a.colidx[k];
      band = std::max(band, j > i ? j - i : i - j);
    }
  }
  return band;
}

std::int64_t profile(const CsrView &a) {
  std::int64_t total = 0;
  for (Index i = 0; i < a.nrows; ++i) {
    Index first = i;
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) first = std::min(first, a.colidx[k]);
    total += static_cast<std::int64_t>(i) - first;
  }
  return total;
}

bool is_permutation(const std::vector<Index> &perm, Index n) {
  if (n < 0 || perm.size() != static_cast<std::size_t>(n)) return false;
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (const Index p : perm) {
    if (p < 0 || p >= n || seen[p]) return false;
    seen[p] = 1;
  }
  return true;
}

Csr permute_symmetric(const Csr &a, const std::vector<Index> &perm) {
  if (a.nrows != a.ncols)
    throw std::invalid_argument("permute_symmetric: matrix is " + str(a.nrows) + " x " + str(a.ncols) + ", not square");
  if (!is_permutation(perm, a.nrows))
    throw std::invalid_argument("permute_symmetric: perm is not a permutation of 0.." + str(a.nrows - 1));
  const Index n = a.nrows;
  const bool with_values = !a.values.empty();
  std::vector<Index> inverse(static_cast<std::size_t>(n)); // inverse[old] = new
  for (Index k = 0; k < n; ++k) inverse[perm[k]] = k;

  Csr b;
  b.nrows = n;
  b.ncols = n;
  b.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  b.colidx.resize(a.colidx.size());
  if (with_values) b.values.resize(a.values.size());
  std::vector<std::pair<Index, double>> row;
  for (Index k = 0; k < n; ++k) {
    const Index old = perm[k];
    row.clear();
    for (Index p = a.rowptr[old]; p < a.rowptr[old + 1]; ++p)
      row.emplace_back(inverse[a.colidx[p]], with_values ? a.values[p] : 0.0);
    // Stable, so that duplicate columns (if A has any) keep their relative order.
    std::stable_sort(row.begin(), row.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
    Index dst = b.rowptr[k];
    for (const auto &[col, val] : row) {
      b.colidx[dst] = col;
      if (with_values) b.values[dst] = val;
      ++dst;
    }
    b.rowptr[k + 1] = dst;
  }
  return b;
}

} // namespace pgk
