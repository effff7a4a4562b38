#include <gtest/gtest.h>

#include "src/common/csr_build.hpp"
#include "src/common/envelope.hpp"
#include "src/matgen/generators.hpp"
#include "src/common/rng.hpp"

TEST(Envelope, IdentityMatchesBandwidthAndProfile) {
  for (const char *spec : {"lap2d5:n=9", "random:n=500,deg=7,seed=2", "hubrow:n=300", "empty:n=4"}) {
    const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    const pgk::Envelope e = pgk::envelope(pgk::view_of(a));
    EXPECT_EQ(e.bandwidth, pgk::bandwidth(pgk::view_of(a))) << spec;
    EXPECT_EQ(e.profile, pgk::profile(pgk::view_of(a))) << spec;
  }
}

TEST(Envelope, PermutedEqualsEnvelopeOfPermutedMatrix) {
  pgk::SplitMix64 rng(7);
  for (const char *spec : {"lap3d7:n=6", "random:n=400,deg=5,seed=9", "disconnected:n=300,parts=3"}) {
    const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    std::vector<pgk::Index> perm(a.nrows);
    for (pgk::Index i = 0; i < a.nrows; ++i) perm[i] = i;
    pgk::shuffle(perm, rng);
    const pgk::Csr b = pgk::permute_symmetric(a, perm);
    const pgk::Envelope e = pgk::envelope(pgk::view_of(a), perm);
    EXPECT_EQ(e.bandwidth, pgk::bandwidth(pgk::view_of(b))) << spec;
    EXPECT_EQ(e.profile, pgk::profile(pgk::view_of(b))) << spec;
  }
}

TEST(Envelope, RejectsWrongPermutationSize) {
  const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec("path:n=5"));
  EXPECT_THROW(pgk::envelope(pgk::view_of(a), {0, 1}), std::invalid_argument);
}

TEST(Envelope, ChangeEqualsBothEnvelopesForAnyThreadCount) {
  pgk::SplitMix64 rng(11);
  for (const char *spec : {"lap3d7:n=9", "random:n=3000,deg=5,seed=4", "hubrow:n=700", "empty:n=3"}) {
    const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    std::vector<pgk::Index> perm(a.nrows);
    for (pgk::Index i = 0; i < a.nrows; ++i) perm[i] = i;
    pgk::shuffle(perm, rng);
    const pgk::Envelope before = pgk::envelope(pgk::view_of(a)), after = pgk::envelope(pgk::view_of(a), perm);
    for (int threads : {1, 2, 3, 5}) {
      const pgk::EnvelopeChange c = pgk::envelope_change(pgk::view_of(a), perm, threads);
      EXPECT_EQ(c.before.bandwidth, before.bandwidth) << spec << " threads " << threads;
      EXPECT_EQ(c.before.profile, before.profile) << spec << " threads " << threads;
      EXPECT_EQ(c.after.bandwidth, after.bandwidth) << spec << " threads " << threads;
      EXPECT_EQ(c.after.profile, after.profile) << spec << " threads " << threads;
    }
  }
  EXPECT_THROW(pgk::envelope_change(pgk::view_of(pgk::gen::generate(pgk::gen::parse_spec("path:n=5"))), {0, 1}, 2),
               std::invalid_argument);
}
