// Device pattern(A + A^T) (kernels/common/symmetrize_pattern.cu) against the host reference
// (pgk::rcm::symmetrize_pattern): identical rows on nonsymmetric patterns, and "already
// symmetric" reported, with nothing built, on symmetric ones. Every corpus matrix with sorted
// rows, as generated and with entries dropped at random (twice).
#include "kernels/common/device_csr.hpp"
#include "src/batchrcm/symmetrize.hpp"
#include "src/common/rng.hpp"
#include "tests/support/compare.hpp"
#include "tests/support/corpus.hpp"
#include "tests/support/device.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

using pgk::Csr;
using pgk::Index;

// The pattern of `full` with each off-diagonal entry kept with probability 3/4 (drop > 0), or
// all of it (drop == 0).
Csr pattern_with_drops(const Csr &full, int drop, pgk::SplitMix64 &rng) {
  Csr a;
  a.nrows = a.ncols = full.nrows;
  a.rowptr.assign(1, 0);
  for (Index i = 0; i < full.nrows; ++i) {
    for (Index k = full.rowptr[i]; k < full.rowptr[i + 1]; ++k)
      if (drop == 0 || full.colidx[k] == i || rng.bounded(4) != 0) a.colidx.push_back(full.colidx[k]);
    a.rowptr.push_back(static_cast<Index>(a.colidx.size()));
  }
  return a;
}

class GpuSymmetrizePattern : public pgk::test::GpuTest {};

TEST_F(GpuSymmetrizePattern, MatchesReference) {
  pgk::test::Needs needs;
  needs.sorted_unique = true;
  int cases = 0, built_count = 0;
  for (const pgk::test::CorpusEntry *e : pgk::test::corpus(needs)) {
    SCOPED_TRACE(e->label());
    pgk::SplitMix64 rng(99 + static_cast<std::uint64_t>(e->variant()));
    for (int drop = 0; drop < 3; ++drop) { // 0: as generated; 1, 2: entries dropped at random
      SCOPED_TRACE("drop " + std::to_string(drop));
      const Csr a = pattern_with_drops(e->matrix(), drop, rng);
      const pgk::test::DeviceCsr d(a, false);
      pgk::cuda::DeviceCsrPattern out;
      const bool built = pgk::cuda::symmetrize_pattern(d.view, out, nullptr);
      const bool symmetric = pgk::rcm::is_structurally_symmetric(pgk::view_of(a));
      EXPECT_EQ(built, !symmetric) << "built " << built << ", reference symmetric " << symmetric;
      if (built) {
        const Csr ref = pgk::rcm::symmetrize_pattern(pgk::view_of(a));
        const Csr got = pgk::test::download(out.view());
        EXPECT_TRUE(pgk::test::SameIndices(got.rowptr, ref.rowptr, "rowptr"));
        EXPECT_TRUE(pgk::test::SameIndices(got.colidx, ref.colidx, "colidx"));
        ++built_count;
      }
      ++cases;
    }
  }
  std::printf("symmetrize_pattern: %d cases, %d built\n", cases, built_count);
}

} // namespace
