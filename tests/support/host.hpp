// Small helpers shared by the unit tests: dense views of tiny matrices and CSR checks.
#pragma once

#include "src/common/csr.hpp"
#include "src/common/csr_build.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace pgk::test {

using Dense = std::vector<std::vector<double>>;

// Dense copy of a small matrix; duplicates are summed, a pattern reads as 1.
inline Dense to_dense(const Csr &a) {
  Dense d(static_cast<std::size_t>(a.nrows), std::vector<double>(static_cast<std::size_t>(a.ncols), 0.0));
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) d[i][a.colidx[k]] += a.values.empty() ? 1.0 : a.values[k];
  return d;
}

// Valid CSR with sorted, unique columns; reports the reason on failure.
inline ::testing::AssertionResult well_formed(const Csr &a) {
  std::string why;
  if (a.rowptr.size() != static_cast<std::size_t>(a.nrows) + 1)
    return ::testing::AssertionFailure() << "rowptr has " << a.rowptr.size() << " entries";
  if (!validate_csr(view_of(a), &why)) return ::testing::AssertionFailure() << "invalid: " << why;
  if (!rows_sorted_unique(view_of(a), &why)) return ::testing::AssertionFailure() << "unsorted: " << why;
  if (a.colidx.size() != static_cast<std::size_t>(a.nnz()))
    return ::testing::AssertionFailure() << "colidx size " << a.colidx.size();
  if (!a.values.empty() && a.values.size() != a.colidx.size())
    return ::testing::AssertionFailure() << "values size " << a.values.size();
  return ::testing::AssertionSuccess();
}

// Bitwise equality of two CSR matrices (values compared by bit pattern).
inline ::testing::AssertionResult same_csr(const Csr &a, const Csr &b) {
  if (a.nrows != b.nrows || a.ncols != b.ncols) return ::testing::AssertionFailure() << "sizes differ";
  if (a.rowptr != b.rowptr) return ::testing::AssertionFailure() << "rowptr differs";
  if (a.colidx != b.colidx) return ::testing::AssertionFailure() << "colidx differs";
  if (a.values.size() != b.values.size() ||
      (!a.values.empty() && std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) != 0))
    return ::testing::AssertionFailure() << "values differ";
  return ::testing::AssertionSuccess();
}

// FNV-1a over the matrix as 64-bit integers (index width independent) and value bits:
// a fingerprint for golden tests of generator output.
inline std::uint64_t fingerprint(const Csr &a) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](std::uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xff;
      h *= 0x100000001b3ull;
    }
  };
  mix(static_cast<std::uint64_t>(a.nrows));
  mix(static_cast<std::uint64_t>(a.ncols));
  for (const Index r : a.rowptr) mix(static_cast<std::uint64_t>(r));
  for (const Index c : a.colidx) mix(static_cast<std::uint64_t>(c));
  for (const double v : a.values) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    mix(bits);
  }
  return h;
}

} // namespace pgk::test
