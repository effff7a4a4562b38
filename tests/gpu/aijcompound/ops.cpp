// Device compound CSR operations (kernels/aijcompound/ops.hpp) against the src/aijcompound
// reference, bit for bit (memcmp of every double), on random compound matrices of every kind
// (block k = 2..8, complex, quaternion; tests/unit/aijcompound/support.hpp: every 5th block row
// empty, long rows), square and rectangular, n = 0 and 1 included:
//   * upload / upload_pattern / download_values and their logged copies, diagpos;
//   * mult and mult_add (z separate and z == y), and the transpose through transpose_values;
//   * diagonal; invert_block_diagonal (well conditioned; ties for the pivot; missing diagonal
//     blocks; exact zero pivots: the lowest bad block row, 1 download); scale, shift (missing diagonal refused,
//     values unchanged), axpy, diagonal_scale (block kind; complex/quaternion with block-constant
//     and varying scalings: refused, unchanged, 1 download);
//   * has_form against ac::detect_complex / detect_quaternion (perturbed blocks, NaN, signed
//     zeros) and compress against from_scalar;
//   * coo_assemble (insert and add) against the host coo_assemble of src/aijcompound/coo.hpp on
//     COO input with duplicates and ignored entries.
#include "kernels/aijcompound/ops.hpp"
#include "kernels/common/transfer.hpp"
#include "src/aijcompound/coo.hpp"
#include "src/aijcompound/ops.hpp"
#include "tests/support/corpus.hpp"
#include "tests/support/device.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace ac = pgk::aijcompound;
namespace dc = pgk::cuda::aijcompound;
using ac::CompoundCsr;
using ac::EntryKind;
using ac::test::random_compound;
using ac::test::random_vector;
using ac::test::same_bits;
using ac::test::Shape;
using ac::test::Vector;
using pgk::Index;
using pgk::cuda::DeviceBuffer;

// {nbrows, nbcols}: empty, one block, rectangular both ways, square with several thread blocks.
std::vector<std::array<Index, 2>> sizes() {
  std::vector<std::array<Index, 2>> s = {{0, 0}, {1, 1}, {2, 5}, {19, 19}, {31, 12}, {70, 70}};
  if (!pgk::test::small_corpus()) s.push_back({700, 700});
  return s;
}

std::string name(Shape sh, Index nbrows, Index nbcols) {
  return std::string(ac::kind_name(sh.kind)) + " bs " + std::to_string(sh.bs) + " " + std::to_string(nbrows) + "x" +
         std::to_string(nbcols);
}

dc::DeviceCompoundCsr upload(const CompoundCsr &a) {
  dc::DeviceCompoundCsr d;
  d.upload(a, nullptr);
  return d;
}

CompoundCsr download(const dc::DeviceCompoundCsr &d, CompoundCsr like) {
  d.download_values(like, nullptr);
  return like;
}

template <class T> DeviceBuffer<T> device(const std::vector<T> &h) {
  DeviceBuffer<T> b;
  b.upload(h.data(), h.size(), nullptr);
  return b;
}

template <class T> std::vector<T> host(const DeviceBuffer<T> &b) { return b.download(nullptr); }

// Counts the logged copies (kernels/common/transfer.hpp) while alive.
struct CopyCounter {
  static int to_device, to_host;
  static void log(pgk::cuda::CopyDirection d, std::size_t) {
    if (d == pgk::cuda::CopyDirection::HostToDevice) ++to_device;
    else ++to_host;
  }
  CopyCounter() {
    to_device = to_host = 0;
    pgk::cuda::set_transfer_logger(&CopyCounter::log);
  }
  ~CopyCounter() { pgk::cuda::set_transfer_logger(nullptr); }
};
int CopyCounter::to_device = 0, CopyCounter::to_host = 0;

class GpuAijCompoundOps : public pgk::test::GpuTest {};

TEST_F(GpuAijCompoundOps, UploadDownloadAndDiagonalPositions) {
  for (const Shape &sh : ac::test::all_shapes())
    for (const auto &sz : sizes()) {
      const std::string what = name(sh, sz[0], sz[1]);
      const CompoundCsr a = random_compound(sh, sz[0], sz[1], 11 + sz[0] + sh.bs, 6, sz[0] % 2 == 1);
      dc::DeviceCompoundCsr d;
      {
        CopyCounter count;
        d.upload(a, nullptr);
        EXPECT_EQ(CopyCounter::to_device, 1 + (a.nbrows > 0) + 2 * (a.nnzb() > 0)) << what; // empty arrays: no copy
        const CompoundCsr back = download(d, a);
        EXPECT_TRUE(same_bits(back.values, a.values)) << what;
        EXPECT_EQ(CopyCounter::to_host, a.nnzb() > 0 ? 1 : 0);
      }
      EXPECT_EQ(d.nnzb, a.nnzb());
      EXPECT_EQ(host(d.rowptr), std::vector<int>(a.rowptr.begin(), a.rowptr.end())) << what;
      EXPECT_EQ(host(d.colidx), std::vector<int>(a.colidx.begin(), a.colidx.end())) << what;
      std::vector<int> diag(static_cast<std::size_t>(a.nbrows), -1);
      Index missing = -1;
      for (Index bi = 0; bi < a.nbrows; ++bi) {
        for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e)
          if (a.colidx[e] == bi) diag[bi] = static_cast<int>(e);
        if (bi < a.nbcols && diag[bi] < 0 && missing < 0) missing = bi;
      }
      EXPECT_EQ(host(d.diagpos), diag) << what;
      EXPECT_EQ(d.missing_diagonal, missing) << what;
      dc::DeviceCompoundCsr p;
      p.upload_pattern(a, nullptr);
      CompoundCsr zeros = a;
      for (double &v : zeros.values) v = 0.0;
      EXPECT_TRUE(same_bits(download(p, a).values, zeros.values)) << what;
      CompoundCsr other = random_compound(sh, sz[0] + 1, sz[1], 3);
      EXPECT_THROW(d.download_values(other, nullptr), std::invalid_argument);
    }
}

TEST_F(GpuAijCompoundOps, MultAndTransposeEqualReference) {
  for (const Shape &sh : ac::test::all_shapes())
    for (const auto &sz : sizes()) {
      const std::string what = name(sh, sz[0], sz[1]);
      const CompoundCsr a = random_compound(sh, sz[0], sz[1], 100 + sz[0] + sh.bs);
      const Vector x = random_vector(sz[1] * sh.bs, 1), z = random_vector(sz[0] * sh.bs, 2);
      Vector y(z.size()), w(z.size());
      ac::mult(a, x.data(), y.data());
      ac::mult_add(a, x.data(), z.data(), w.data());
      const dc::DeviceCompoundCsr d = upload(a);
      auto dx = device(x), dz = device(z);
      DeviceBuffer<double> dy(z.size());
      CopyCounter count;
      dc::mult(d, dx.data(), nullptr, dy.data(), nullptr);
      EXPECT_TRUE(same_bits(host(dy), y)) << what << ": mult";
      dc::mult(d, dx.data(), dz.data(), dy.data(), nullptr);
      EXPECT_TRUE(same_bits(host(dy), w)) << what << ": mult_add";
      dc::mult(d, dx.data(), dz.data(), dz.data(), nullptr); // z == y
      EXPECT_TRUE(same_bits(host(dz), w)) << what << ": mult_add in place";
      EXPECT_EQ(CopyCounter::to_device, 0);
      EXPECT_EQ(CopyCounter::to_host, 3 * (z.empty() ? 0 : 1)); // the three checks above
      // The transpose: pattern and source map from the host, values on the device.
      const ac::Transpose t = ac::transpose(a);
      dc::DeviceCompoundCsr dt;
      dt.upload_pattern(t.at, nullptr);
      const auto src = device(std::vector<int>(t.source.begin(), t.source.end()));
      dc::transpose_values(d, src.data(), dt, nullptr);
      EXPECT_TRUE(same_bits(download(dt, t.at).values, t.at.values)) << what << ": transpose_values";
      const Vector xt = random_vector(sz[0] * sh.bs, 3);
      Vector yt(static_cast<std::size_t>(sz[1] * sh.bs));
      ac::mult_transpose(t, xt.data(), yt.data());
      auto dxt = device(xt);
      DeviceBuffer<double> dyt(yt.size());
      dc::mult(dt, dxt.data(), nullptr, dyt.data(), nullptr);
      EXPECT_TRUE(same_bits(host(dyt), yt)) << what << ": transpose mult";
      dc::DeviceCompoundCsr wrong = upload(random_compound(sh, sz[1] + 1, sz[0], 3));
      EXPECT_THROW(dc::transpose_values(d, src.data(), wrong, nullptr), std::invalid_argument) << what;
    }
}

// The first block row ac::invert_block_diagonal refuses: its block (zeros when missing) through
// the reference's invert_block; -1 when none.
Index first_bad_row(const CompoundCsr &a) {
  for (Index bi = 0; bi < a.nbrows; ++bi) {
    Vector block(static_cast<std::size_t>(a.bs * a.bs), 0.0);
    for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e)
      if (a.colidx[e] == bi)
        for (int j = 0; j < a.bs; ++j)
          for (int i = 0; i < a.bs; ++i) block[j * a.bs + i] = ac::expanded(a.kind, a.bs, a.entry(e), 1, i, j);
    if (!ac::invert_block(a.bs, block.data())) return bi;
  }
  return -1;
}

// Makes the diagonal block of block row bi exactly singular: a block of ones (the second pivot
// is 1 - 1 = 0), or a zero complex/quaternion entry.
void make_singular(CompoundCsr &a, Index bi) {
  for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e)
    if (a.colidx[e] == bi)
      for (int c = 0; c < a.esize(); ++c) a.entry(e)[c] = a.kind == EntryKind::block ? 1.0 : 0.0;
}

// Gives the diagonal blocks a tie for the first pivot: row 1 of column 0 becomes minus row 0
// (block: component 1; complex: b = -a; quaternion: x = -w), so only the reference's rule (the
// first row of largest magnitude) reproduces its bits.
void with_pivot_ties(CompoundCsr &a) {
  for (Index bi = 0; bi < a.nbrows; ++bi)
    for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e)
      if (a.colidx[e] == bi) a.entry(e)[1] = -a.entry(e)[0];
}

TEST_F(GpuAijCompoundOps, DiagonalAndBlockInverse) {
  for (const Shape &sh : ac::test::all_shapes())
    for (const auto &sz : sizes()) {
      const std::string what = name(sh, sz[0], sz[1]);
      for (const int variant : {0, 1, 2}) { // diagonal blocks present; present with pivot ties; some missing
        const bool with_diag = variant < 2;
        CompoundCsr a = random_compound(sh, sz[0], sz[1], 200 + sz[0] + sh.bs, 6, with_diag);
        if (variant == 1) with_pivot_ties(a);
        const dc::DeviceCompoundCsr d = upload(a);
        Vector dref(static_cast<std::size_t>(a.nbrows * a.bs));
        ac::diagonal(a, dref.data());
        DeviceBuffer<double> dd(dref.size());
        dc::diagonal(d, dd.data(), nullptr);
        EXPECT_TRUE(same_bits(host(dd), dref)) << what << ": diagonal";
        if (sz[0] != sz[1]) {
          EXPECT_THROW(dc::invert_block_diagonal(d, dd.data(), nullptr), std::invalid_argument) << what;
          continue;
        }
        DeviceBuffer<double> inv(static_cast<std::size_t>(a.nbrows * a.bs * a.bs));
        CopyCounter count;
        const Index bad = dc::invert_block_diagonal(d, inv.data(), nullptr);
        EXPECT_EQ(CopyCounter::to_host, 1);
        EXPECT_EQ(CopyCounter::to_device, 0);
        EXPECT_EQ(bad, first_bad_row(a)) << what << " variant " << variant;
        if (bad < 0) {
          Vector ref(inv.size());
          ac::invert_block_diagonal(a, ref.data());
          EXPECT_TRUE(same_bits(host(inv), ref)) << what << ": inverse, variant " << variant;
        }
      }
      if (sz[0] != sz[1] || sz[0] < 19) continue;
      CompoundCsr s = random_compound(sh, sz[0], sz[1], 300 + sz[0], 6, true);
      make_singular(s, 13);
      make_singular(s, 5);
      DeviceBuffer<double> inv(static_cast<std::size_t>(s.nbrows * s.bs * s.bs));
      EXPECT_EQ(first_bad_row(s), 5) << what;
      EXPECT_EQ(dc::invert_block_diagonal(upload(s), inv.data(), nullptr), 5) << what << ": zero pivot";
    }
}

TEST_F(GpuAijCompoundOps, ScaleShiftAxpy) {
  for (const Shape &sh : ac::test::all_shapes())
    for (const auto &sz : sizes()) {
      const std::string what = name(sh, sz[0], sz[1]);
      CompoundCsr a = random_compound(sh, sz[0], sz[1], 400 + sz[0] + sh.bs, 6, true);
      dc::DeviceCompoundCsr d = upload(a);
      for (const double alpha : {-1.7, 0.0}) { // 0 * negative = -0.0
        ac::scale(a, alpha);
        dc::scale(d, alpha, nullptr);
        ASSERT_TRUE(same_bits(download(d, a).values, a.values)) << what << ": scale " << alpha;
        a.values = random_vector(static_cast<Index>(a.values.size()), 5);
        d.values.upload(a.values.data(), a.values.size(), nullptr);
      }
      ac::shift(a, 0.3);
      dc::shift(d, 0.3, nullptr);
      EXPECT_TRUE(same_bits(download(d, a).values, a.values)) << what << ": shift";
      CompoundCsr x = a;
      x.values = random_vector(static_cast<Index>(a.values.size()), 6);
      const dc::DeviceCompoundCsr dx = upload(x);
      ac::axpy(a, -0.6, x);
      dc::axpy(d, -0.6, dx, nullptr);
      EXPECT_TRUE(same_bits(download(d, a).values, a.values)) << what << ": axpy";
      const CompoundCsr other = random_compound(sh, sz[0] + 1, sz[1], 7);
      EXPECT_THROW(dc::axpy(d, 1.0, upload(other), nullptr), std::invalid_argument);
    }
  // Missing diagonal blocks: shift refuses and changes nothing.
  for (const Shape &sh : ac::test::all_shapes()) {
    const CompoundCsr a = random_compound(sh, 19, 19, 8); // block row 3 is empty
    dc::DeviceCompoundCsr d = upload(a);
    EXPECT_GE(d.missing_diagonal, 0);
    EXPECT_THROW(dc::shift(d, 1.0, nullptr), std::invalid_argument);
    EXPECT_TRUE(same_bits(download(d, a).values, a.values));
  }
}

// A scaling of nb blocks of bs scalars, constant inside each block (or varying in one block).
Vector scaling(Index nb, int bs, bool constant, std::uint64_t seed) {
  Vector s = random_vector(nb * bs, seed);
  if (constant)
    for (Index b = 0; b < nb; ++b)
      for (int i = 1; i < bs; ++i) s[b * bs + i] = s[b * bs];
  return s;
}

TEST_F(GpuAijCompoundOps, DiagonalScale) {
  for (const Shape &sh : ac::test::all_shapes())
    for (const auto &sz : sizes()) {
      const std::string what = name(sh, sz[0], sz[1]);
      const bool block = sh.kind == EntryKind::block;
      const Vector l = scaling(sz[0], sh.bs, !block, 9), r = scaling(sz[1], sh.bs, !block, 10);
      auto dl = device(l), dr = device(r);
      for (int which = 0; which < 4; ++which) { // l and r, l only, r only, neither
        const bool use_l = which == 0 || which == 1, use_r = which == 0 || which == 2;
        CompoundCsr a = random_compound(sh, sz[0], sz[1], 500 + sz[0] + which);
        dc::DeviceCompoundCsr d = upload(a);
        ac::diagonal_scale(a, use_l ? l.data() : nullptr, use_r ? r.data() : nullptr);
        CopyCounter count;
        EXPECT_TRUE(dc::diagonal_scale(d, use_l ? dl.data() : nullptr, use_r ? dr.data() : nullptr, nullptr));
        EXPECT_EQ(CopyCounter::to_host, block ? 0 : 1) << what;
        EXPECT_TRUE(same_bits(download(d, a).values, a.values)) << what << ": case " << which;
      }
      if (block || sz[0] == 0) continue;
      // A scaling that varies inside block row nbrows - 1 (resp. column): refused, A unchanged.
      for (const bool vary_l : {true, false}) {
        Vector lv = l, rv = r;
        if (vary_l) lv[lv.size() - 1] += 1.0;
        else rv[rv.size() - 1] += 1.0;
        const CompoundCsr a = random_compound(sh, sz[0], sz[1], 600 + sz[0]);
        dc::DeviceCompoundCsr d = upload(a);
        auto dlv = device(lv), drv = device(rv);
        CompoundCsr ref = a;
        EXPECT_THROW(ac::diagonal_scale(ref, lv.data(), rv.data()), std::invalid_argument);
        CopyCounter count;
        EXPECT_FALSE(dc::diagonal_scale(d, dlv.data(), drv.data(), nullptr)) << what;
        EXPECT_EQ(CopyCounter::to_host, 1);
        EXPECT_TRUE(same_bits(download(d, a).values, a.values)) << what << ": unchanged";
      }
    }
}

// has_form against the host detection on the expanded matrix of `b` (kind block).
void expect_form(const CompoundCsr &b, EntryKind target, bool want, const std::string &what) {
  const pgk::Csr s = ac::expand(b);
  const bool host =
      target == EntryKind::complex ? ac::detect_complex(pgk::view_of(s)) : ac::detect_quaternion(pgk::view_of(s));
  EXPECT_EQ(host, want) << what << ": host detection";
  const dc::DeviceCompoundCsr d = upload(b);
  CopyCounter count;
  EXPECT_EQ(dc::has_form(d, target, nullptr), want) << what;
  EXPECT_EQ(CopyCounter::to_host, 1) << what; // the flag
  EXPECT_EQ(CopyCounter::to_device, 0) << what;
}

TEST_F(GpuAijCompoundOps, HasFormAndCompress) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Shape sh : {Shape{EntryKind::complex, 2}, Shape{EntryKind::quaternion, 4}})
    for (const auto &sz : sizes()) {
      const std::string what = name(sh, sz[0], sz[1]);
      const CompoundCsr c = random_compound(sh, sz[0], sz[1], 700 + sz[0]);
      const CompoundCsr b = ac::from_scalar(pgk::view_of(ac::expand(c)), EntryKind::block, sh.bs);
      ASSERT_EQ(b.nnzb(), c.nnzb());
      expect_form(b, sh.kind, true, what);
      dc::DeviceCompoundCsr out;
      dc::compress(upload(b), sh.kind, out, nullptr);
      EXPECT_EQ(out.kind, sh.kind);
      EXPECT_TRUE(same_bits(download(out, c).values, c.values)) << what << ": compress";
      EXPECT_EQ(host(out.rowptr), std::vector<int>(c.rowptr.begin(), c.rowptr.end()));
      EXPECT_EQ(host(out.colidx), std::vector<int>(c.colidx.begin(), c.colidx.end()));
      EXPECT_EQ(out.diagpos.size(), static_cast<std::size_t>(c.nbrows));
      EXPECT_THROW(dc::has_form(upload(c), sh.kind, nullptr), std::invalid_argument); // not a block matrix
      const EntryKind wrong = sh.kind == EntryKind::complex ? EntryKind::quaternion : EntryKind::complex;
      EXPECT_THROW(dc::has_form(upload(b), wrong, nullptr), std::invalid_argument);
      EXPECT_THROW(dc::has_form(upload(b), EntryKind::block, nullptr), std::invalid_argument);
      if (b.nnzb() == 0) continue;
      const Index last = b.nnzb() - 1;
      const int bb = sh.bs * sh.bs;
      CompoundCsr p = b; // a scalar off the first column changed by one ulp
      p.values[last * bb + bb - 2] = std::nextafter(p.values[last * bb + bb - 2], 2.0);
      expect_form(p, sh.kind, false, what + " perturbed");
      p = b; // NaN on the diagonal (a first-column NaN would still compare itself)
      p.values[0 * bb + sh.bs + 1] = nan;
      expect_form(p, sh.kind, false, what + " NaN");
      p = b; // NaN in the first column: == with itself fails too
      p.values[0] = nan;
      p.values[sh.bs + 1] = nan; // and on the diagonal where a repeats
      expect_form(p, sh.kind, false, what + " NaN first column");
      p = b; // a zero imaginary part: the block stores -0.0 where -b is; +0.0 == -0.0
      for (int q = 1; q < sh.bs; ++q) p.values[q] = 0.0;
      for (int q = sh.bs; q < bb; ++q)
        if (q % (sh.bs + 1) != 0) p.values[q] = (q % 3 == 0) ? -0.0 : 0.0;
      expect_form(p, sh.kind, true, what + " signed zeros");
    }
  CompoundCsr plain = random_compound({EntryKind::block, 2}, 19, 19, 12); // random 2x2 blocks
  expect_form(plain, EntryKind::complex, false, "random block bs 2");
}

TEST_F(GpuAijCompoundOps, CooAssemblyEqualsHost) {
  for (int bs : {2, 3, 4, 8})
    for (const auto &sz : sizes()) {
      const std::string what = "bs " + std::to_string(bs) + " " + std::to_string(sz[0]) + "x" + std::to_string(sz[1]);
      const Index nrows = sz[0] * bs, ncols = sz[1] * bs, ncoo = nrows > 0 && ncols > 0 ? 6 * sz[0] * bs + 3 : 0;
      pgk::SplitMix64 rng(800 + sz[0] + bs);
      std::vector<Index> ci, cj;
      for (Index k = 0; k < ncoo; ++k) {
        if (k > 0 && rng.bounded(3) == 0) { // a duplicate of an earlier coordinate
          const Index q = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(k)));
          ci.push_back(ci[q]), cj.push_back(cj[q]);
        } else {
          ci.push_back(static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(nrows))));
          cj.push_back(static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(ncols))));
        }
        if (rng.bounded(12) == 0) ci.back() = -1; // ignored
      }
      const ac::CooMap m = ac::coo_map(ncoo, ci.data(), cj.data(), nrows, ncols, bs);
      const Index nvalues = static_cast<Index>(m.pattern.values.size());
      dc::DeviceCompoundCsr d;
      d.upload_pattern(m.pattern, nullptr);
      const auto jmap = device(m.jmap), perm = device(m.perm);
      CompoundCsr ref = m.pattern;
      for (const bool add : {false, true, true}) {
        const Vector v = random_vector(ncoo, add ? 901 : 902);
        const auto dv = device(v);
        ac::coo_assemble(m.jmap.data(), m.perm.data(), v.data(), nvalues, add, ref.values.data());
        CopyCounter count;
        dc::coo_assemble(jmap.data(), perm.data(), dv.data(), nvalues, add, d.values.data(), nullptr);
        EXPECT_EQ(CopyCounter::to_device + CopyCounter::to_host, 0);
        EXPECT_TRUE(same_bits(download(d, ref).values, ref.values)) << what << (add ? ": add" : ": insert");
      }
    }
}

} // namespace
