// Comparisons of device results with their host references, and the deterministic input
// vectors of the apply checks. The Assertion forms report the first difference only (a
// failing vector of a million entries must not flood the log).
#pragma once

#include "src/common/csr.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pgk::test {

// Bitwise equality: same length and the same bit patterns (so a NaN equals the same NaN, and
// 0.0 differs from -0.0).
bool same_bits(const std::vector<double> &x, const std::vector<double> &y);

// ||x - y||_2 / ||y||_2 (the absolute norm when y == 0); infinity when the lengths differ, NaN
// when a value is not finite (so that `rel_diff(...) <= tol` fails).
double rel_diff(const std::vector<double> &x, const std::vector<double> &y);

// Uniform in [-1, 1): entry k from SplitMix64(seed), the same on every platform.
std::vector<double> random_vector(std::size_t n, std::uint64_t seed);

// EXPECT_TRUE(SameBits(device, reference, "pivots")): equal bit for bit, or the first
// difference with its position.
::testing::AssertionResult SameBits(const std::vector<double> &got, const std::vector<double> &want,
                                    const std::string &what);
// Equal integer arrays (permutations, slots, forests), or the first difference.
::testing::AssertionResult SameIndices(const std::vector<Index> &got, const std::vector<Index> &want,
                                       const std::string &what);
// rel_diff(got, want) <= tol, or the difference.
::testing::AssertionResult Close(const std::vector<double> &got, const std::vector<double> &want, double tol,
                                 const std::string &what);

} // namespace pgk::test
