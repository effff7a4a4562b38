// Reference operations (src/aijcompound/ops.hpp) against the expanded scalar CSR.
#include "src/aijcompound/ops.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pgk::aijcompound::test {
namespace {

const Index kSizes[][2] = {{0, 0}, {1, 1}, {2, 5}, {19, 19}, {31, 12}, {70, 70}};

std::string name(Shape sh, Index n) {
  return std::string(kind_name(sh.kind)) + " bs " + std::to_string(sh.bs) + " n " + std::to_string(n);
}

// Bit for bit with the scalar product of the expansion (same operations in the same order),
// hence also within the relative 1e-13.
TEST(AijCompoundOps, MultEqualsExpandedScalarProduct) {
  for (const Shape &sh : all_shapes())
    for (const auto &sz : kSizes) {
      const CompoundCsr a = random_compound(sh, sz[0], sz[1], 200 + sh.bs + sz[0]);
      const Vector x = random_vector(sz[1] * sh.bs, 1), z = random_vector(sz[0] * sh.bs, 2);
      Vector y(static_cast<std::size_t>(sz[0] * sh.bs), 7.0);
      mult(a, x.data(), y.data());
      const Vector ref = scalar_mult(expand(a), x);
      EXPECT_TRUE(same_bits(y, ref)) << name(sh, sz[0]);
      EXPECT_LE(rel_error(y, ref), 1e-13);
      Vector w(y.size());
      mult_add(a, x.data(), z.data(), w.data());
      for (std::size_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], ref[i] + z[i]) << name(sh, sz[0]);
      Vector alias = z; // z == y
      mult_add(a, x.data(), alias.data(), alias.data());
      EXPECT_TRUE(same_bits(alias, w));
    }
}

TEST(AijCompoundOps, TransposeIsTheExplicitTranspose) {
  for (const Shape &sh : all_shapes())
    for (const auto &sz : kSizes) {
      const CompoundCsr a = random_compound(sh, sz[0], sz[1], 300 + sh.bs + sz[0]);
      const Transpose t = transpose(a);
      ASSERT_NO_THROW(validate(t.at));
      const Csr st = scalar_transpose(expand(a)), et = expand(t.at);
      EXPECT_EQ(et.rowptr, st.rowptr) << name(sh, sz[0]);
      EXPECT_EQ(et.colidx, st.colidx);
      EXPECT_EQ(et.values, st.values);
      EXPECT_TRUE(same(transpose(t.at).at, a));
      const Vector x = random_vector(sz[0] * sh.bs, 3), z = random_vector(sz[1] * sh.bs, 4);
      Vector y(static_cast<std::size_t>(sz[1] * sh.bs)), w(y.size());
      mult_transpose(t, x.data(), y.data());
      const Vector ref = scalar_mult(st, x);
      EXPECT_TRUE(same_bits(y, ref)) << name(sh, sz[0]);
      EXPECT_LE(rel_error(y, ref), 1e-13);
      mult_transpose_add(t, x.data(), z.data(), w.data());
      for (std::size_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], ref[i] + z[i]);
    }
}

TEST(AijCompoundOps, TransposeRefreshesValues) {
  for (const Shape &sh : all_shapes()) {
    CompoundCsr a = random_compound(sh, 25, 25, 17);
    Transpose t = transpose(a);
    scale(a, -3.0);
    refresh_values(a, t);
    EXPECT_TRUE(same(t.at, transpose(a).at)) << name(sh, 25);
  }
}

TEST(AijCompoundOps, DiagonalIsTheExpandedDiagonal) {
  for (const Shape &sh : all_shapes())
    for (const auto &sz : kSizes) {
      const CompoundCsr a = random_compound(sh, sz[0], sz[1], 400 + sz[0], 6, sz[0] % 2 == 1);
      Vector d(static_cast<std::size_t>(sz[0] * sh.bs), 9.0), ref(d.size(), 0.0);
      diagonal(a, d.data());
      const Vector full = dense(expand(a));
      const Index n = sz[1] * sh.bs;
      for (Index i = 0; i < static_cast<Index>(ref.size()) && i < n; ++i) ref[i] = full[i * n + i];
      EXPECT_EQ(d, ref) << name(sh, sz[0]);
    }
}

TEST(AijCompoundOps, InvertBlockDiagonal) {
  for (const Shape &sh : all_shapes())
    for (Index n : {0, 1, 30}) {
      const CompoundCsr a = random_compound(sh, n, n, 500 + n, 5, true);
      const int bs = sh.bs;
      Vector inv(static_cast<std::size_t>(n * bs * bs));
      invert_block_diagonal(a, inv.data());
      const Vector full = dense(expand(a));
      for (Index b = 0; b < n; ++b)
        for (int i = 0; i < bs; ++i)
          for (int j = 0; j < bs; ++j) {
            double s = 0; // (A_bb * inv_b)(i, j), inv column-major
            for (int k = 0; k < bs; ++k) s += full[(b * bs + i) * n * bs + b * bs + k] * inv[b * bs * bs + j * bs + k];
            ASSERT_NEAR(s, i == j ? 1.0 : 0.0, 1e-12) << name(sh, n) << " block " << b;
          }
    }
}

TEST(AijCompoundOps, InvertBlockDiagonalReportsTheSingularBlockRow) {
  CompoundCsr a = random_compound({EntryKind::block, 2}, 6, 6, 600, 3, true);
  double *v =
      a.entry(std::lower_bound(a.colidx.begin() + a.rowptr[4], a.colidx.begin() + a.rowptr[5], 4) - a.colidx.begin());
  v[0] = 1, v[1] = 2, v[2] = 2, v[3] = 4; // [1 2; 2 4]: rank 1
  Vector inv(6 * 4);
  try {
    invert_block_diagonal(a, inv.data());
    FAIL() << "no error";
  } catch (const std::domain_error &e) {
    EXPECT_NE(std::string(e.what()).find("block row 4"), std::string::npos) << e.what();
  }
  // A missing diagonal block, a zero quaternion, a non-square matrix.
  const CompoundCsr missing = random_compound({EntryKind::complex, 2}, 6, 6, 601, 0, false);
  EXPECT_THROW(invert_block_diagonal(missing, inv.data()), std::domain_error);
  CompoundCsr q = random_compound({EntryKind::quaternion, 4}, 1, 1, 602, 0, true);
  q.values.assign(4, 0.0);
  EXPECT_THROW(invert_block_diagonal(q, inv.data()), std::domain_error);
  EXPECT_THROW(invert_block_diagonal(random_compound({EntryKind::block, 2}, 3, 4, 603), inv.data()),
               std::invalid_argument);
}

TEST(AijCompoundOps, ScaleAndShift) {
  for (const Shape &sh : all_shapes()) {
    CompoundCsr a = random_compound(sh, 12, 12, 700 + sh.bs, 4, true);
    Csr ref = expand(a);
    scale(a, 0.375);
    shift(a, -1.25);
    for (Index i = 0; i < ref.nrows; ++i)
      for (Index p = ref.rowptr[i]; p < ref.rowptr[i + 1]; ++p) {
        ref.values[p] *= 0.375;
        if (ref.colidx[p] == i) ref.values[p] += -1.25;
      }
    EXPECT_EQ(expand(a).values, ref.values) << name(sh, 12);
  }
  CompoundCsr gap = random_compound({EntryKind::block, 3}, 8, 8, 710, 0, false); // no diagonal blocks
  const CompoundCsr before = gap;
  EXPECT_THROW(shift(gap, 1.0), std::invalid_argument);
  EXPECT_TRUE(same(gap, before));
}

TEST(AijCompoundOps, DiagonalScale) {
  for (const Shape &sh : all_shapes()) {
    const Index m = 14, n = 9;
    CompoundCsr a = random_compound(sh, m, n, 800 + sh.bs);
    Vector l = random_vector(m * sh.bs, 5), r = random_vector(n * sh.bs, 6);
    if (sh.kind != EntryKind::block) { // one factor per block keeps the form
      for (Index i = 0; i < m * sh.bs; ++i) l[i] = l[i / sh.bs * sh.bs];
      for (Index j = 0; j < n * sh.bs; ++j) r[j] = r[j / sh.bs * sh.bs];
    }
    Csr ref = expand(a);
    for (Index i = 0; i < ref.nrows; ++i)
      for (Index p = ref.rowptr[i]; p < ref.rowptr[i + 1]; ++p)
        ref.values[p] = (l[i] * ref.values[p]) * r[ref.colidx[p]];
    diagonal_scale(a, l.data(), r.data());
    EXPECT_EQ(expand(a).values, ref.values) << name(sh, m);
    diagonal_scale(a, nullptr, nullptr); // no-op
    EXPECT_EQ(expand(a).values, ref.values);
  }
  CompoundCsr c = random_compound({EntryKind::complex, 2}, 4, 4, 810);
  const CompoundCsr before = c;
  const Vector l = random_vector(8, 7);
  EXPECT_THROW(diagonal_scale(c, l.data(), nullptr), std::invalid_argument);
  EXPECT_TRUE(same(c, before));
}

TEST(AijCompoundOps, Axpy) {
  for (const Shape &sh : all_shapes()) {
    CompoundCsr y = random_compound(sh, 16, 16, 900 + sh.bs);
    CompoundCsr x = y;
    for (double &v : x.values) v = v * 0.5 + 0.125;
    Csr ref = expand(y);
    const Csr xs = expand(x);
    for (std::size_t p = 0; p < ref.values.size(); ++p) ref.values[p] += -2.5 * xs.values[p];
    axpy(y, -2.5, x);
    EXPECT_EQ(expand(y).values, ref.values) << name(sh, 16);
  }
  CompoundCsr y = random_compound({EntryKind::block, 3}, 10, 10, 910);
  EXPECT_THROW(axpy(y, 1.0, random_compound({EntryKind::block, 3}, 10, 10, 911)), std::invalid_argument);
  CompoundCsr other_kind = random_compound({EntryKind::complex, 2}, 10, 10, 912);
  CompoundCsr same_pattern_block = other_kind;
  same_pattern_block.kind = EntryKind::block;
  same_pattern_block.values.resize(same_pattern_block.values.size() * 2, 0.0);
  EXPECT_THROW(axpy(other_kind, 1.0, same_pattern_block), std::invalid_argument);
}

} // namespace
} // namespace pgk::aijcompound::test
