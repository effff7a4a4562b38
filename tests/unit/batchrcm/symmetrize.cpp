// The host path's symmetric-pattern handling: the parallel symmetrization must equal the serial
// reference array for array, and the symmetry check must say exactly when the input may be
// ordered as is, on the whole test corpus, for every thread count.
#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/symmetrize.hpp"
#include "src/common/csr_build.hpp"
#include "src/common/thread_pool.hpp"
#include "src/matgen/generators.hpp"
#include "tests/support/corpus.hpp"
#include "tests/unit/batchrcm/rcm_suite.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using pgk::Csr;
using pgk::Index;
using pgk::view_of;
namespace rcm = pgk::rcm;

namespace {

// Square corpus matrices and a few large enough to span many row chunks (4096 rows each), among
// them directed ones with unsorted rows and duplicates.
std::vector<Csr> square_graphs() {
  std::vector<Csr> out;
  for (const pgk::test::CorpusEntry *e : pgk::test::corpus())
    if (e->matrix().nrows == e->matrix().ncols) out.push_back(e->matrix());
  for (const char *spec : {"lap3d7:n=24", "powerlaw:n=30000", "hubrow:n=20000"})
    out.push_back(pgk::gen::generate(pgk::gen::parse_spec(spec)));
  std::uint64_t s = 5;
  const auto next = [&s] { return (s = s * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  for (Index n : {9000, 30000}) {
    std::vector<Index> r, c;
    for (Index i = 0; i < n; ++i)
      for (int k = static_cast<int>(next() % 5); k > 0; --k)
        r.push_back(i), c.push_back(static_cast<Index>(next() % n));
    Csr a = pgk::csr_from_coo(n, n, r, c, {});
    for (Index i = 0; i < n; i += 3) std::reverse(a.colidx.begin() + a.rowptr[i], a.colidx.begin() + a.rowptr[i + 1]);
    out.push_back(std::move(a));
  }
  return out;
}

} // namespace

TEST(RcmSymmetrizeParallel, EqualsTheSerialReferenceForAnyThreadCount) {
  for (const Csr &a : square_graphs()) {
    const Csr ref = rcm::symmetrize_pattern(view_of(a));
    for (int threads : {1, 2, 3}) {
      pgk::ThreadPool pool(threads);
      const Csr s = rcm::symmetrize_pattern_parallel(view_of(a), pool);
      EXPECT_EQ(s.nrows, ref.nrows);
      EXPECT_EQ(s.ncols, ref.ncols);
      EXPECT_EQ(s.rowptr, ref.rowptr) << a.nrows << " rows, " << threads << " threads";
      EXPECT_EQ(s.colidx, ref.colidx) << a.nrows << " rows, " << threads << " threads";
      EXPECT_TRUE(s.values.empty());
    }
  }
}

TEST(RcmSymmetrizeParallel, CheckSaysExactlyWhenThePatternIsItsOwnSymmetrization) {
  for (const Csr &a : square_graphs()) {
    const Csr ref = rcm::symmetrize_pattern(view_of(a));
    const bool expect = ref.rowptr == a.rowptr && ref.colidx == a.colidx;
    EXPECT_EQ(rcm::is_sorted_symmetric_pattern(view_of(a)), expect) << a.nrows << " rows";
    for (int threads : {1, 2, 3}) {
      pgk::ThreadPool pool(threads);
      EXPECT_EQ(rcm::is_sorted_symmetric_pattern(view_of(a), &pool), expect) << a.nrows << " rows";
    }
  }
}

TEST(RcmSymmetrizeParallel, CheckRejectsUnsortedDuplicatesAndUnmatchedLowerEntries) {
  const auto graph = [](const std::vector<std::vector<Index>> &rows) { return rcm_suite::from_rows(rows); };
  EXPECT_TRUE(rcm::is_sorted_symmetric_pattern(view_of(graph({{0, 1}, {0, 1}}))));
  EXPECT_FALSE(rcm::is_sorted_symmetric_pattern(view_of(graph({{1, 0}, {0, 1}})))); // unsorted
  EXPECT_FALSE(rcm::is_sorted_symmetric_pattern(view_of(graph({{1, 1}, {0}}))));    // duplicate
  EXPECT_FALSE(rcm::is_sorted_symmetric_pattern(view_of(graph({{}, {0}}))));        // lower only
  EXPECT_FALSE(rcm::is_sorted_symmetric_pattern(view_of(graph({{1}, {}}))));        // upper only
  EXPECT_TRUE(rcm::is_sorted_symmetric_pattern(view_of(graph({}))));
}

// input_is_symmetric = false gives the permutation of the symmetrized pattern whichever way the
// host path went (checked symmetric and ordered as is, or symmetrized), on every backend.
TEST(RcmSymmetrizeParallel, UnflaggedInputIsOrderedAsItsSymmetrization) {
  for (const Csr &a : square_graphs()) {
    if (a.nrows > 40000) continue;
    const Csr s = rcm::symmetrize_pattern(view_of(a));
    const auto ref = rcm::serial_rcm(view_of(s));
    rcm::Options o;
    o.input_is_symmetric = false;
    rcm::Stats st;
    EXPECT_EQ(rcm::serial_rcm(view_of(a), o, &st), ref);
    EXPECT_EQ(st.pattern_symmetrized, !(s.rowptr == a.rowptr && s.colidx == a.colidx));
    o.cpu.threads = 2;
    EXPECT_EQ(rcm::batch_rcm_cpu(view_of(a), o), ref);
  }
}
