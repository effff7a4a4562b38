// The host start-node search with parallel BFS levels must plan exactly what the serial one
// plans (same roots, same sizes), whatever the thread count, and the CPU batch backend that
// uses it must still equal the serial reference.
#include <gtest/gtest.h>

#include "src/matgen/generators.hpp"
#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/start_node.hpp"
#include "tests/unit/batchrcm/rcm_suite.hpp"

TEST(RcmParallelStart, SamePlanAsSerialForAnyThreadCount) {
  for (const char *spec : rcm_suite::kCorpusSpecs) {
    const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    for (bool diag : {true, false}) {
      pgk::rcm::Options o;
      o.count_diagonal_in_valence = diag;
      const auto ref = pgk::rcm::plan_components(pgk::view_of(a), o);
      for (int threads : {2, 3, 8})
        for (pgk::Index min_level : {1, 3, 4096}) {
          const auto got = pgk::rcm::plan_components(pgk::view_of(a), o, threads, min_level);
          EXPECT_EQ(got.roots, ref.roots) << spec << " threads " << threads << " min level " << min_level;
          EXPECT_EQ(got.sizes, ref.sizes) << spec;
        }
    }
  }
}

TEST(RcmParallelStart, GivenStartAndRepeatedRuns) {
  const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec("disconnected:n=4000,parts=5,seed=3"));
  pgk::rcm::Options o;
  o.start = pgk::rcm::StartNode::Given;
  o.given_start = 1234;
  const auto ref = pgk::rcm::plan_components(pgk::view_of(a), o);
  for (int rep = 0; rep < 20; ++rep) {
    const auto got = pgk::rcm::plan_components(pgk::view_of(a), o, 4, 1);
    ASSERT_EQ(got.roots, ref.roots);
    ASSERT_EQ(got.sizes, ref.sizes);
  }
}

TEST(RcmParallelStart, BatchBackendEndToEndEqualsReference) {
  for (const char *spec : rcm_suite::kCorpusSpecs) {
    const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    const auto ref = pgk::rcm::serial_rcm(pgk::view_of(a));
    pgk::rcm::Options o;
    o.cpu.threads = 4;
    EXPECT_EQ(pgk::rcm::batch_rcm_cpu(pgk::view_of(a), o), ref) << spec;
  }
}
