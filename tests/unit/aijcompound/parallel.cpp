// The multithreaded host passes of MatConvert to aijcompound and of the tuner's packing
// (from_scalar, validate, convert_kind / has_form, pack_pattern, entry_slots with threads > 1):
// the same bits as one thread, on matrices large enough for the parallel paths (>= 2^16 scalars).
#include "src/aijcompound/compound.hpp"
#include "src/aijcompound/layouts.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace pgk::aijcompound::test {
namespace {

// The expansion of a random matrix with every third scalar dropped (partial blocks, as elast3d's).
Csr partial_expansion(Shape sh, Index nbrows, std::uint64_t seed) {
  return drop_every_third(expand(random_compound(sh, nbrows, nbrows, seed)));
}

// Every stored scalar of s at its place in e (an expansion: a superset of s's pattern, sorted rows)
// and every other scalar of e zero; row by row, without a dense copy.
bool scalars_in_place(const Csr &e, const Csr &s) {
  if (e.nrows != s.nrows || e.ncols != s.ncols) return false;
  for (Index r = 0; r < s.nrows; ++r) {
    Index q = s.rowptr[r];
    for (Index p = e.rowptr[r]; p < e.rowptr[r + 1]; ++p) {
      const bool stored = q < s.rowptr[r + 1] && s.colidx[q] == e.colidx[p];
      if (e.values[p] != (stored ? s.values[q] : 0.0)) return false;
      q += stored ? 1 : 0;
    }
    if (q != s.rowptr[r + 1]) return false;
  }
  return true;
}

bool same_bits(const CompoundCsr &a, const CompoundCsr &b) { return same(a, b) && test::same_bits(a.values, b.values); }

TEST(AijCompoundParallel, FromScalarIsThreadIndependent) {
  for (const Shape &sh : all_shapes()) {
    const Csr s = partial_expansion({EntryKind::block, sh.bs}, 40000 / sh.bs, 40 + sh.bs);
    ASSERT_GE(s.nnz(), 1 << 16) << sh.bs; // the parallel path runs
    const CompoundCsr one = from_scalar(view_of(s), EntryKind::block, sh.bs, 1);
    for (int threads : {2, 3, 8})
      EXPECT_TRUE(same_bits(from_scalar(view_of(s), EntryKind::block, sh.bs, threads), one));
    EXPECT_TRUE(scalars_in_place(expand(one), s)) << sh.bs; // missing scalars are zeros, the others in place
  }
  for (const Shape &sh : {Shape{EntryKind::complex, 2}, Shape{EntryKind::quaternion, 4}}) {
    const Csr s = expand(random_compound(sh, 20000, 20000, 50 + sh.bs));
    ASSERT_GE(s.nnz(), 1 << 16);
    const CompoundCsr one = from_scalar(view_of(s), sh.kind, sh.bs, 1);
    EXPECT_TRUE(same_bits(from_scalar(view_of(s), sh.kind, sh.bs, 4), one)) << kind_name(sh.kind);
    EXPECT_EQ(sh.kind == EntryKind::complex ? detect_complex(view_of(s), 4) : detect_quaternion(view_of(s), 4), true);
  }
}

// Blocking once and converting (MatConvert's auto) equals from_scalar of the kind; a block without
// the form leaves c unchanged.
TEST(AijCompoundParallel, ConvertKindEqualsFromScalar) {
  for (const Shape &sh : {Shape{EntryKind::complex, 2}, Shape{EntryKind::quaternion, 4}}) {
    Csr s = expand(random_compound(sh, 20000, 20000, 60 + sh.bs));
    CompoundCsr c = from_scalar(view_of(s), EntryKind::block, sh.bs, 4);
    EXPECT_TRUE(has_form(c, sh.kind, 4));
    EXPECT_TRUE(convert_kind(c, sh.kind, 4));
    EXPECT_TRUE(same_bits(c, from_scalar(view_of(s), sh.kind, sh.bs, 1))) << kind_name(sh.kind);
    s.values[s.nnz() / 2] = std::nextafter(s.values[s.nnz() / 2], 2.0); // one block loses the form
    CompoundCsr b = from_scalar(view_of(s), EntryKind::block, sh.bs, 4);
    const CompoundCsr kept = b;
    EXPECT_FALSE(has_form(b, sh.kind, 3));
    EXPECT_FALSE(convert_kind(b, sh.kind, 3));
    EXPECT_TRUE(same_bits(b, kept));
    EXPECT_THROW(convert_kind(c, EntryKind::block, 1), std::invalid_argument); // c holds sh.kind entries now
  }
}

// Unsorted input and bad compound columns are found on any thread count, with the serial message.
TEST(AijCompoundParallel, BadInputOnManyThreads) {
  Csr s = partial_expansion({EntryKind::block, 3}, 20000, 70);
  std::swap(s.colidx[s.rowptr[30000]], s.colidx[s.rowptr[30000] + 1]);
  EXPECT_THROW(from_scalar(view_of(s), EntryKind::block, 3, 4), std::invalid_argument);
  EXPECT_FALSE(detect_complex(view_of(s), 4));
  CompoundCsr c = random_compound({EntryKind::block, 3}, 40000, 40000, 71);
  ASSERT_GE(c.nnzb(), 1 << 16);
  EXPECT_NO_THROW(validate(c, 4));
  const Index r = 31000;
  ASSERT_GE(c.rowptr[r + 1] - c.rowptr[r], 2);
  std::swap(c.colidx[c.rowptr[r]], c.colidx[c.rowptr[r] + 1]);
  std::string serial, parallel;
  try {
    validate(c, 1);
  } catch (const std::invalid_argument &e) {
    serial = e.what();
  }
  try {
    validate(c, 4);
  } catch (const std::invalid_argument &e) {
    parallel = e.what();
  }
  EXPECT_NE(serial.find("block row 31000"), std::string::npos) << serial;
  EXPECT_EQ(parallel, serial);
}

// The tuner's pattern-only packing: pack's pattern and entry_slots, on any thread count.
TEST(AijCompoundParallel, PackPatternIsPacksPattern) {
  const CompoundCsr a = random_compound({EntryKind::block, 3}, 30000, 30000, 80);
  ASSERT_GE(a.nnzb(), 1 << 16);
  for (Outer o : {Outer::csr, Outer::ell, Outer::sliced16, Outer::sliced32})
    for (Inner in : {Inner::aos, Inner::soa}) {
      const Packed p = pack(a, o, in);
      for (int threads : {1, 4}) {
        std::vector<Index> slots;
        const Packed q = pack_pattern(a, o, in, &slots, threads);
        EXPECT_EQ(q.ptr, p.ptr) << outer_name(o);
        EXPECT_EQ(q.col, p.col) << outer_name(o);
        EXPECT_TRUE(q.val.empty());
        EXPECT_EQ(q.nrows_pad, p.nrows_pad);
        EXPECT_EQ(q.width, p.width);
        EXPECT_EQ(slots, entry_slots(a, o));
        EXPECT_EQ(entry_slots(a, o, threads), slots);
      }
    }
}

} // namespace
} // namespace pgk::aijcompound::test
