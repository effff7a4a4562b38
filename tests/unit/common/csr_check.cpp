// pgk::check_csr, the reference for the device validation kernel (kernels/common/csr_check.cu).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "src/common/csr_check.hpp"

using pgk::Csr;
using pgk::CsrCheck;
using pgk::Index;

namespace {
// 4x4: row 0 {0,1}, row 1 {1}, row 2 {} (empty), row 3 {1,3}
Csr small() {
  Csr a;
  a.nrows = a.ncols = 4;
  a.rowptr = {0, 2, 3, 3, 5};
  a.colidx = {0, 1, 1, 1, 3};
  a.values = {4, -1, 4, -1, 4};
  return a;
}
} // namespace

TEST(CsrCheck, WellFormedCountsEmptyRowsAndMissingDiagonals) {
  const CsrCheck c = pgk::check_csr(pgk::view_of(small()));
  EXPECT_TRUE(c.structure_ok());
  EXPECT_EQ(c.empty_rows, 1);
  EXPECT_EQ(c.missing_diagonal, 1); // row 2
  EXPECT_EQ(c.nonfinite, 0);
}

TEST(CsrCheck, NonFiniteValues) {
  Csr a = small();
  a.values[1] = std::numeric_limits<double>::quiet_NaN();
  a.values[4] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(pgk::check_csr(pgk::view_of(a)).nonfinite, 2);
  a.values.clear(); // a pattern has no values to check
  EXPECT_EQ(pgk::check_csr(pgk::view_of(a)).nonfinite, 0);
}

TEST(CsrCheck, StructureDefects) {
  Csr a = small();
  a.colidx[4] = 7; // out of range
  EXPECT_EQ(pgk::check_csr(pgk::view_of(a)).bad_colidx, 1);
  a = small();
  a.colidx = {1, 0, 1, 1, 3}; // row 0 unsorted
  EXPECT_EQ(pgk::check_csr(pgk::view_of(a)).unsorted_rows, 1);
  a = small();
  a.colidx = {0, 0, 1, 1, 3}; // duplicate column counts as unsorted
  EXPECT_EQ(pgk::check_csr(pgk::view_of(a)).unsorted_rows, 1);
  a = small();
  a.rowptr = {0, 2, 1, 3, 5}; // decreasing
  const CsrCheck c = pgk::check_csr(pgk::view_of(a));
  EXPECT_GE(c.bad_rowptr, 1);
  EXPECT_FALSE(c.structure_ok());
}

TEST(CsrCheck, EmptyMatrix) {
  Csr a;
  EXPECT_TRUE(pgk::check_csr(pgk::view_of(a)).structure_ok());
  EXPECT_EQ(pgk::check_csr(pgk::view_of(a)), CsrCheck());
}
