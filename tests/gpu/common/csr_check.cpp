// Device CSR validation (kernels/common/csr_check.cu) against the host reference
// (src/common/csr_check.cpp) on every corpus matrix with planted defects: every count must match.
#include "kernels/common/kernels.hpp"
#include "src/common/csr_check.hpp"
#include "src/common/rng.hpp"
#include "tests/support/corpus.hpp"
#include "tests/support/device.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

namespace {

using pgk::Csr;
using pgk::Index;

std::string counts(const pgk::CsrCheck &c) {
  std::ostringstream os;
  os << "(bad_rowptr " << c.bad_rowptr << ", bad_colidx " << c.bad_colidx << ", unsorted " << c.unsorted_rows
     << ", nonfinite " << c.nonfinite << ", empty " << c.empty_rows << ", missing diagonal " << c.missing_diagonal
     << ")";
  return os.str();
}

const char *const kDefects[] = {
    "none", "NaN value", "-Inf value", "column out of range", "unsorted or duplicate column", "pattern (no values)"};

// Plants defect `defect` at a random entry; false when the matrix cannot hold it (no entries,
// or a value defect on a pattern).
bool plant(Csr &a, int defect, pgk::SplitMix64 &rng) {
  const Index nnz = a.nnz();
  if (defect == 0) return true;
  if (nnz == 0) return false;
  const bool value_defect = defect == 1 || defect == 2 || defect == 5;
  if (value_defect && a.values.empty()) return false;
  const Index k = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(nnz)));
  switch (defect) {
  case 1: a.values[k] = std::numeric_limits<double>::quiet_NaN(); break;
  case 2: a.values[k] = -std::numeric_limits<double>::infinity(); break;
  case 3: a.colidx[k] = a.ncols + 3; break;                           // out of range
  case 4: a.colidx[k] = a.colidx[k] > 0 ? a.colidx[k] - 1 : 1; break; // unsorted or duplicate
  default: a.values.clear(); break;                                   // a pattern: no values to check
  }
  return true;
}

class GpuCsrCheck : public pgk::test::GpuTest {};

TEST_F(GpuCsrCheck, PlantedDefectsMatchReference) {
  int cases = 0;
  for (const pgk::test::CorpusEntry *e : pgk::test::corpus()) {
    SCOPED_TRACE(e->label());
    pgk::SplitMix64 rng(2026 + static_cast<std::uint64_t>(e->variant()));
    for (int defect = 0; defect < 6; ++defect) {
      Csr a = e->matrix();
      if (!plant(a, defect, rng)) continue;
      SCOPED_TRACE(std::string("defect: ") + kDefects[defect]);
      const pgk::CsrCheck ref = pgk::check_csr(pgk::view_of(a));
      const pgk::test::DeviceCsr d(a);
      const pgk::CsrCheck got = pgk::cuda::check_csr(d.view, nullptr);
      EXPECT_TRUE(got == ref) << "device " << counts(got) << ", reference " << counts(ref);
      ++cases;
    }
  }
  std::printf("csr_check: %d cases\n", cases);
}

} // namespace
