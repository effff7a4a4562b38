#include <gtest/gtest.h>

#include "src/common/csr_build.hpp"
#include "src/matgen/generators.hpp"
#include "src/common/permute_pattern.hpp"
#include "src/common/rng.hpp"

TEST(PermutePattern, ScatterOfValuesEqualsPermuteSymmetric) {
  pgk::SplitMix64 rng(11);
  for (const char *spec :
       {"lap3d7:n=5", "elast3d:n=3", "convdiff2d:n=7", "random:n=300,deg=6", "empty:n=1", "empty:n=0"}) {
    const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    std::vector<pgk::Index> perm(a.nrows);
    for (pgk::Index i = 0; i < a.nrows; ++i) perm[i] = i;
    pgk::shuffle(perm, rng);
    const pgk::PermutedPattern p = pgk::permute_pattern_symmetric(pgk::view_of(a), perm);
    const pgk::Csr ref = pgk::permute_symmetric(a, perm);
    EXPECT_EQ(p.pattern.rowptr, ref.rowptr) << spec;
    EXPECT_EQ(p.pattern.colidx, ref.colidx) << spec;
    std::vector<double> values(a.nnz());
    for (pgk::Index e = 0; e < a.nnz(); ++e) values[p.dst[e]] = a.values[e];
    EXPECT_EQ(values, ref.values) << spec;
  }
}

TEST(PermutePattern, RejectsBadInput) {
  const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec("path:n=3"));
  EXPECT_THROW(pgk::permute_pattern_symmetric(pgk::view_of(a), {0, 1}), std::invalid_argument);
  EXPECT_THROW(pgk::permute_pattern_symmetric(pgk::view_of(a), {0, 1, 1}), std::invalid_argument);
}
