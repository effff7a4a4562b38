#include "tests/support/compare.hpp"

#include "src/common/rng.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace pgk::test {

bool same_bits(const std::vector<double> &x, const std::vector<double> &y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0);
}

double rel_diff(const std::vector<double> &x, const std::vector<double> &y) {
  if (x.size() != y.size()) return std::numeric_limits<double>::infinity();
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    num += (x[i] - y[i]) * (x[i] - y[i]);
    den += y[i] * y[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

std::vector<double> random_vector(std::size_t n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<double> v(n);
  for (double &x : v) x = 2 * rng.uniform() - 1;
  return v;
}

namespace {

template <class T> std::size_t first_difference(const std::vector<T> &x, const std::vector<T> &y) {
  std::size_t k = 0;
  while (k < x.size() && k < y.size() && std::memcmp(&x[k], &y[k], sizeof(T)) == 0) ++k;
  return k;
}

template <class T>
::testing::AssertionResult same(const std::vector<T> &got, const std::vector<T> &want, const std::string &what) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << what << ": " << got.size() << " entries, reference " << want.size();
  const std::size_t k = first_difference(got, want);
  if (k == got.size()) return ::testing::AssertionSuccess();
  std::ostringstream os;
  os.precision(17);
  os << what << ": first difference at " << k << " of " << got.size() << ":";
  for (std::size_t j = k; j < got.size() && j < k + 6; ++j) os << " " << got[j] << "/" << want[j];
  os << " (device/reference)";
  return ::testing::AssertionFailure() << os.str();
}

} // namespace

::testing::AssertionResult SameBits(const std::vector<double> &got, const std::vector<double> &want,
                                    const std::string &what) {
  return same(got, want, what);
}

::testing::AssertionResult SameIndices(const std::vector<Index> &got, const std::vector<Index> &want,
                                       const std::string &what) {
  return same(got, want, what);
}

::testing::AssertionResult Close(const std::vector<double> &got, const std::vector<double> &want, double tol,
                                 const std::string &what) {
  const double e = rel_diff(got, want);
  if (e <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << ": relative difference " << e << " > " << tol;
}

} // namespace pgk::test
