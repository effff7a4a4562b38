// The compound CSR (src/aijcompound/compound.hpp): entry algebra, construction from and expansion
// to scalar CSR, structure detection.
#include "src/aijcompound/compound.hpp"
#include "src/aijcompound/entry.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace pgk::aijcompound::test {
namespace {

const Index kSizes[][2] = {{0, 0}, {1, 1}, {1, 3}, {17, 17}, {23, 9}, {64, 64}};

TEST(AijCompoundEntry, KindsAndBlockSizes) {
  EXPECT_NO_THROW(check_kind(EntryKind::block, 2));
  EXPECT_NO_THROW(check_kind(EntryKind::block, 8));
  EXPECT_THROW(check_kind(EntryKind::block, 1), std::invalid_argument);
  EXPECT_THROW(check_kind(EntryKind::block, 9), std::invalid_argument);
  EXPECT_THROW(check_kind(EntryKind::complex, 4), std::invalid_argument);
  EXPECT_THROW(check_kind(EntryKind::quaternion, 2), std::invalid_argument);
  EXPECT_EQ(entry_size(EntryKind::block, 3), 9);
  EXPECT_EQ(entry_size(EntryKind::complex, 2), 2);
  EXPECT_EQ(entry_size(EntryKind::quaternion, 4), 4);
}

// The complex entry is multiplication by a + b i.
TEST(AijCompoundEntry, ComplexIsComplexMultiplication) {
  const double z[2] = {1.5, -0.25}, x[2] = {0.75, 2.0};
  double acc[2] = {0, 0};
  apply_entry(EntryKind::complex, 2, z, 1, x, acc);
  EXPECT_EQ(acc[0], 1.5 * 0.75 - (-0.25) * 2.0);
  EXPECT_EQ(acc[1], -0.25 * 0.75 + 1.5 * 2.0);
}

// Hamilton product q p written out (w, x, y, z order), against the entry's product L(q) p.
TEST(AijCompoundEntry, QuaternionIsTheHamiltonProduct) {
  const double q[4] = {0.5, -1.25, 2.0, 0.75}, p[4] = {-0.5, 1.0, 0.25, -2.0};
  const double hp[4] = {
      q[0] * p[0] - q[1] * p[1] - q[2] * p[2] - q[3] * p[3], q[0] * p[1] + q[1] * p[0] + q[2] * p[3] - q[3] * p[2],
      q[0] * p[2] - q[1] * p[3] + q[2] * p[0] + q[3] * p[1], q[0] * p[3] + q[1] * p[2] - q[2] * p[1] + q[3] * p[0]};
  double acc[4] = {0, 0, 0, 0};
  apply_entry(EntryKind::quaternion, 4, q, 1, p, acc);
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(acc[i], hp[i]) << i;
  // Units: i j = k, j k = i, k i = j, i^2 = -1.
  auto mul = [](const double *a, const double *b, double *out) {
    for (int i = 0; i < 4; ++i) out[i] = 0;
    apply_entry(EntryKind::quaternion, 4, a, 1, b, out);
  };
  const double I[4] = {0, 1, 0, 0}, J[4] = {0, 0, 1, 0}, K[4] = {0, 0, 0, 1};
  double out[4];
  mul(I, J, out);
  EXPECT_EQ(Vector(out, out + 4), Vector(K, K + 4));
  mul(J, K, out);
  EXPECT_EQ(Vector(out, out + 4), Vector(I, I + 4));
  mul(K, I, out);
  EXPECT_EQ(Vector(out, out + 4), Vector(J, J + 4));
  mul(I, I, out);
  EXPECT_EQ(Vector(out, out + 4), Vector({-1, 0, 0, 0}));
}

// The 4x4 matrix of the header comment (seed eq. 1), entry by entry.
TEST(AijCompoundEntry, QuaternionMatrixIsEquationOne) {
  const double q[4] = {1, 2, 3, 4}; // w x y z
  const double L[4][4] = {{1, -2, -3, -4}, {2, 1, -4, 3}, {3, 4, 1, -2}, {4, -3, 2, 1}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(expanded(EntryKind::quaternion, 4, q, 1, i, j), L[i][j]) << i << j;
  const double z[2] = {5, 6};
  EXPECT_EQ(expanded(EntryKind::complex, 2, z, 1, 0, 1), -6);
  EXPECT_EQ(expanded(EntryKind::complex, 2, z, 1, 1, 0), 6);
  const double b[4] = {1, 2, 3, 4}; // column-major 2x2: [1 3; 2 4]
  EXPECT_EQ(expanded(EntryKind::block, 2, b, 1, 0, 1), 3);
}

TEST(AijCompound, RoundTripThroughScalarCsr) {
  for (const Shape &sh : all_shapes())
    for (const auto &sz : kSizes) {
      const CompoundCsr c = random_compound(sh, sz[0], sz[1], 100 + sh.bs);
      ASSERT_NO_THROW(validate(c));
      const Csr s = expand(c);
      EXPECT_EQ(s.nrows, sz[0] * sh.bs);
      EXPECT_EQ(s.nnz(), c.nnzb() * sh.bs * sh.bs);
      const CompoundCsr back = from_scalar(view_of(s), sh.kind, sh.bs);
      EXPECT_TRUE(same(back, c)) << kind_name(sh.kind) << " bs " << sh.bs << " n " << sz[0];
      const Csr again = expand(back);
      EXPECT_EQ(again.rowptr, s.rowptr);
      EXPECT_EQ(again.colidx, s.colidx);
      EXPECT_EQ(again.values, s.values);
    }
}

// expand_into (the arrays a PETSc matrix is built on): each scalar is the entry's expanded value at
// its place, the same arrays for 1, 2 and 5 threads (block rows split over them; 4000 block rows,
// past the size below which one thread does it all).
TEST(AijCompound, ExpandIntoIsTheSameForAnyThreadCount) {
  for (const Shape &sh : all_shapes()) {
    const CompoundCsr c = random_compound(sh, 4000, 3900, 300 + sh.bs, 9);
    const Index n = c.nbrows * sh.bs, nnz = expanded_nnz(c);
    ASSERT_GT(nnz, Index(1) << 16);
    std::vector<Index> rowptr1(n + 1), colidx1(nnz);
    std::vector<double> values1(nnz);
    expand_into(c, rowptr1.data(), colidx1.data(), values1.data(), 1);
    for (Index bi = 0; bi < c.nbrows; bi += 397)
      for (int i = 0; i < sh.bs; ++i) {
        Index p = rowptr1[bi * sh.bs + i];
        for (Index e = c.rowptr[bi]; e < c.rowptr[bi + 1]; ++e)
          for (int j = 0; j < sh.bs; ++j, ++p) {
            ASSERT_EQ(colidx1[p], c.colidx[e] * sh.bs + j);
            ASSERT_EQ(values1[p], expanded(sh.kind, sh.bs, c.entry(e), 1, i, j));
          }
        ASSERT_EQ(p, rowptr1[bi * sh.bs + i + 1]);
      }
    for (int threads : {2, 5}) {
      std::vector<Index> rowptr(n + 1), colidx(nnz);
      std::vector<double> values(nnz);
      expand_into(c, rowptr.data(), colidx.data(), values.data(), threads);
      EXPECT_EQ(rowptr, rowptr1) << kind_name(sh.kind) << " bs " << sh.bs << ", " << threads << " threads";
      EXPECT_EQ(colidx, colidx1) << kind_name(sh.kind) << " bs " << sh.bs << ", " << threads << " threads";
      EXPECT_EQ(values, values1) << kind_name(sh.kind) << " bs " << sh.bs << ", " << threads << " threads";
    }
  }
}

// A scalar CSR whose blocks are partly stored: missing scalars come back as explicit zeros.
TEST(AijCompound, PartialBlocksFillWithZeros) {
  for (int bs = 2; bs <= 8; ++bs) {
    const Csr full = expand(random_compound({EntryKind::block, bs}, 13, 11, 7 * bs));
    const Csr part = drop_every_third(full);
    const CompoundCsr c = from_scalar(view_of(part), EntryKind::block, bs);
    EXPECT_EQ(dense(expand(c)), dense(part)) << bs;
  }
}

TEST(AijCompound, FromScalarRejectsBadInput) {
  const Csr s = expand(random_compound({EntryKind::block, 3}, 5, 5, 1));
  EXPECT_THROW(from_scalar(view_of(s), EntryKind::block, 2), std::invalid_argument); // 15 % 2
  EXPECT_THROW(from_scalar(view_of(s), EntryKind::block, 9), std::invalid_argument);
  const Csr b2 = expand(random_compound({EntryKind::block, 2}, 6, 6, 2));
  EXPECT_THROW(from_scalar(view_of(b2), EntryKind::complex, 2), std::invalid_argument);
  Csr unsorted = b2;
  std::swap(unsorted.colidx[0], unsorted.colidx[1]);
  EXPECT_THROW(from_scalar(view_of(unsorted), EntryKind::block, 2), std::invalid_argument);
  CompoundCsr bad = random_compound({EntryKind::block, 2}, 4, 4, 3);
  bad.values.pop_back();
  EXPECT_THROW(validate(bad), std::invalid_argument);
}

TEST(AijCompound, DetectPositive) {
  for (const auto &sz : kSizes) {
    EXPECT_TRUE(detect_complex(view_of(expand(random_compound({EntryKind::complex, 2}, sz[0], sz[1], 5)))));
    EXPECT_TRUE(detect_quaternion(view_of(expand(random_compound({EntryKind::quaternion, 4}, sz[0], sz[1], 6)))));
  }
  // Missing scalars count as 0: complex entries with b == 0 stored as their diagonal only, and
  // explicit signed zeros (-0 == 0).
  CompoundCsr real = random_compound({EntryKind::complex, 2}, 9, 9, 8);
  for (std::size_t k = 1; k < real.values.size(); k += 2) real.values[k] = 0.0;
  const Csr s = expand(real);
  Csr d;
  d.nrows = s.nrows;
  d.ncols = s.ncols;
  for (Index i = 0; i < s.nrows; ++i) {
    for (Index p = s.rowptr[i]; p < s.rowptr[i + 1]; ++p)
      if (s.values[p] != 0.0) d.colidx.push_back(s.colidx[p]), d.values.push_back(s.values[p]);
    d.rowptr.push_back(static_cast<Index>(d.colidx.size()));
  }
  ASSERT_LT(d.nnz(), s.nnz());
  EXPECT_TRUE(detect_complex(view_of(d)));
  CompoundCsr z = random_compound({EntryKind::quaternion, 4}, 6, 6, 9);
  for (std::size_t k = 0; k < z.values.size(); k += 3) z.values[k] = 0.0;
  Csr zs = expand(z);
  for (double &v : zs.values)
    if (v == 0.0) v = -0.0;
  EXPECT_TRUE(detect_quaternion(view_of(zs)));
}

TEST(AijCompound, DetectNegative) {
  EXPECT_FALSE(detect_complex(view_of(expand(random_compound({EntryKind::block, 2}, 8, 8, 10)))));
  EXPECT_FALSE(detect_quaternion(view_of(expand(random_compound({EntryKind::block, 4}, 8, 8, 11)))));
  EXPECT_FALSE(detect_quaternion(view_of(expand(random_compound({EntryKind::complex, 2}, 8, 8, 12)))));
  // One perturbed scalar, one missing scalar, an odd size.
  for (int which = 0; which < 2; ++which) {
    const CompoundCsr q = random_compound({EntryKind::quaternion, 4}, 10, 10, 13);
    Csr s = expand(q);
    ASSERT_GT(s.nnz(), 40);
    if (which == 0) {
      s.values[37] = std::nextafter(s.values[37], 2.0);
    } else { // remove scalar 37 (a nonzero, so its block loses the form)
      s.colidx.erase(s.colidx.begin() + 37);
      s.values.erase(s.values.begin() + 37);
      for (Index i = 0; i < s.nrows; ++i)
        if (s.rowptr[i + 1] > 37) --s.rowptr[i + 1];
    }
    EXPECT_FALSE(detect_quaternion(view_of(s))) << which;
  }
  Csr odd = expand(random_compound({EntryKind::block, 3}, 3, 3, 14));
  EXPECT_FALSE(detect_complex(view_of(odd)));
  Csr nan = expand(random_compound({EntryKind::complex, 2}, 4, 4, 15));
  ASSERT_GT(nan.nnz(), 0);
  nan.values[0] = std::nan("");
  EXPECT_FALSE(detect_complex(view_of(nan)));
}

} // namespace
} // namespace pgk::aijcompound::test
