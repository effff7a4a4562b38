// The skew gate of the RABBIT++ regrouping (Options::min_skew, src/rabbitpp/README.md section 4):
// the exact count of the longest rows' entries, the integer threshold, and the same decision on
// the serial reference and the multicore backend (the device's is tests/gpu/rabbitpp).
#include "src/common/csr_build.hpp"
#include "src/common/rng.hpp"
#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/regroup.hpp"
#include "src/rabbitpp/serial.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

using pgk::Csr;
using pgk::Index;
using namespace pgk::rabbitpp;

// A pattern with the given row lengths (columns 0, 1, ... of each row; n >= the longest row).
Csr with_row_lengths(const std::vector<Index> &len) {
  const Index n =
      std::max<Index>(static_cast<Index>(len.size()), len.empty() ? 0 : *std::max_element(len.begin(), len.end()));
  std::vector<Index> r, c;
  for (std::size_t i = 0; i < len.size(); ++i)
    for (Index j = 0; j < len[i]; ++j) r.push_back(static_cast<Index>(i)), c.push_back(j);
  return pgk::csr_from_coo(n, n, r, c, {});
}

// The definition: sort the lengths, longest first, and add the first k.
std::int64_t by_sorting(const Csr &a, Index k) {
  std::vector<Index> len(static_cast<std::size_t>(a.nrows));
  for (Index v = 0; v < a.nrows; ++v) len[v] = a.rowptr[v + 1] - a.rowptr[v];
  std::sort(len.begin(), len.end(), std::greater<Index>());
  return std::accumulate(len.begin(), len.begin() + k, std::int64_t{0});
}

// Lengths on both sides of the tally's cap, with ties, in every proportion of long rows to k:
// all of the k longest listed, some of them, none.
TEST(RabbitppSkewGate, LongestRowsCountedExactly) {
  pgk::SplitMix64 rng(2026);
  for (int long_share : {0, 2, 10, 50}) // percent of rows at or above the cap
    for (Index rows : {1, 9, 10, 11, 400}) {
      std::vector<Index> len(static_cast<std::size_t>(rows));
      for (Index &l : len)
        l = static_cast<int>(rng.bounded(100)) < long_share
                ? LengthTally::kCap + static_cast<Index>(rng.bounded(3)) // ties at and above the cap
                : static_cast<Index>(rng.bounded(40));
      const Csr a = with_row_lengths(len);
      for (Index k : {Index{0}, Index{1}, longest_tenth(a.nrows), a.nrows}) {
        LengthTally whole = tally_row_lengths(pgk::view_of(a), 0, a.nrows);
        LengthTally parts = tally_row_lengths(pgk::view_of(a), 0, a.nrows / 3);
        merge_tally(parts, tally_row_lengths(pgk::view_of(a), a.nrows / 3, a.nrows));
        SCOPED_TRACE("rows " + std::to_string(rows) + ", long " + std::to_string(long_share) + "%, k " +
                     std::to_string(k));
        EXPECT_EQ(entries_in_longest(whole, k), by_sorting(a, k));
        EXPECT_EQ(entries_in_longest(parts, k), by_sorting(a, k));
      }
    }
  LengthTally none = tally_row_lengths(pgk::view_of(pgk::csr_from_coo(0, 0, {}, {}, {})), 0, 0);
  EXPECT_EQ(entries_in_longest(none, longest_tenth(0)), 0);
}

// ceil(min_skew * nnz): the fewest entries that pass; 0 always passes; out of [0, 1] is refused.
TEST(RabbitppSkewGate, ThresholdIsTheCeilingAndOptionsAreChecked) {
  EXPECT_EQ(regroup_min_entries(28, 0.25), 7);
  EXPECT_EQ(regroup_min_entries(30, 0.25), 8); // 7.5 rounds up: 7 entries are below a quarter
  EXPECT_EQ(regroup_min_entries(28, 0.0), 0);
  EXPECT_EQ(regroup_min_entries(28, 1.0), 28);
  EXPECT_EQ(regroup_min_entries(0, 0.25), 0);
  Options o;
  EXPECT_EQ(o.min_skew, 0.25); // the documented default
  for (double bad : {-0.01, 1.01, std::numeric_limits<double>::quiet_NaN()}) {
    o.min_skew = bad;
    EXPECT_THROW(check_regroup_options(o), std::invalid_argument) << bad;
    EXPECT_THROW(rabbitpp_serial(pgk::view_of(with_row_lengths({1, 2})), o), std::invalid_argument) << bad;
    EXPECT_THROW(rabbitpp_batch(pgk::view_of(with_row_lengths({1, 2})), o), std::invalid_argument) << bad;
  }
}

// Below the gate rabbitpp is rabbit's permutation; at or above it (and with min_skew 0) it is the
// regrouping; the serial reference and the multicore backend (1 and 3 threads, K = 1 and the
// default) decide alike, and Info says which it was.
TEST(RabbitppSkewGate, BackendsDecideAlike) {
  for (const char *spec : {"communities:n=3000", "rgg2d:n=3000", "powerlaw:n=3000,communities=12", "hubrow:n=2000"}) {
    const Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    Options plain;
    plain.regroup = false;
    plain.batch = 1;
    const std::vector<Index> rabbit = rabbitpp_serial(pgk::view_of(a), plain);
    Info info;
    rabbitpp_serial(pgk::view_of(a), plain, &info);
    const double skew = info.skew;
    EXPECT_FALSE(info.regrouped);
    for (double min_skew : {0.0, 0.25, skew, std::nextafter(skew, 1.0), 1.0}) {
      Options o;
      o.batch = 1;
      o.min_skew = min_skew;
      const std::vector<Index> serial = rabbitpp_serial(pgk::view_of(a), o, &info);
      const bool pass = min_skew == 0.0 || skew >= min_skew;
      SCOPED_TRACE(std::string(spec) + ", skew " + std::to_string(skew) + ", min_skew " + std::to_string(min_skew));
      EXPECT_EQ(info.regrouped, pass);
      Options always = o;
      always.min_skew = 0;
      if (!pass) EXPECT_EQ(serial, rabbit);
      else EXPECT_EQ(serial, rabbitpp_serial(pgk::view_of(a), always));
      for (int threads : {1, 3})
        for (Index batch : {Index{1}, Index{0}}) {
          o.threads = threads;
          o.batch = batch;
          Info multicore;
          const std::vector<Index> p = rabbitpp_batch(pgk::view_of(a), o, &multicore);
          EXPECT_EQ(multicore.regrouped, pass);
          if (batch == 1) EXPECT_EQ(p, serial);
        }
    }
  }
}

// The gate's verdict on the corpus kinds of bench/rabbitpp: near-uniform degrees stay as rabbit
// orders them, power-law degrees are regrouped (skews as in bench/NOTES.md, at a small size).
TEST(RabbitppSkewGate, PlantedStaysRabbitPowerLawRegroups) {
  const auto regrouped = [](const char *spec) {
    Info info;
    rabbitpp_serial(pgk::view_of(pgk::gen::generate(pgk::gen::parse_spec(spec))), Options{}, &info);
    return info.regrouped;
  };
  EXPECT_FALSE(regrouped("communities:n=20000"));
  EXPECT_FALSE(regrouped("communities:n=20000,intra=4,inter=8"));
  EXPECT_FALSE(regrouped("rgg2d:n=20000"));
  EXPECT_TRUE(regrouped("powerlaw:n=20000,communities=50,mixing=0.3"));
}

} // namespace
