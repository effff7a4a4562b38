// The packed layouts (src/aijcompound/layouts.hpp): byte counts, and every outer x inner layout's
// SpMV bit for bit with the CSR reference.
#include "src/aijcompound/layouts.hpp"
#include "src/aijcompound/ops.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pgk::aijcompound::test {
namespace {

const Outer kOuters[] = {Outer::csr, Outer::ell, Outer::sliced16, Outer::sliced32};
const Inner kInners[] = {Inner::aos, Inner::soa};
const Index kSizes[][2] = {{0, 0}, {1, 1}, {1, 4}, {15, 15}, {16, 16}, {33, 20}, {100, 100}};

std::string name(Shape sh, Index n, Outer o, Inner in) {
  return std::string(kind_name(sh.kind)) + " bs " + std::to_string(sh.bs) + " n " + std::to_string(n) + " " +
         outer_name(o) + "-" + inner_name(in);
}

TEST(AijCompoundLayouts, EveryLayoutEqualsTheCsrReferenceBitForBit) {
  for (const Shape &sh : all_shapes())
    for (const auto &sz : kSizes) {
      const CompoundCsr a = random_compound(sh, sz[0], sz[1], 1000 + sh.bs + sz[0]);
      const Vector x = random_vector(sz[1] * sh.bs, 11), z = random_vector(sz[0] * sh.bs, 12);
      Vector ref(z.size()), ref_add(z.size());
      mult(a, x.data(), ref.data());
      mult_add(a, x.data(), z.data(), ref_add.data());
      for (Outer o : kOuters)
        for (Inner in : kInners) {
          const Packed p = pack(a, o, in);
          Vector y(z.size(), 5.0), w(z.size(), 5.0);
          packed_mult(p, x.data(), y.data());
          packed_mult_add(p, x.data(), z.data(), w.data());
          EXPECT_TRUE(same_bits(y, ref)) << name(sh, sz[0], o, in);
          EXPECT_TRUE(same_bits(w, ref_add)) << name(sh, sz[0], o, in);
          EXPECT_EQ(p.bytes(), packed_bytes(a, o)) << name(sh, sz[0], o, in);
        }
    }
}

// Padding never reaches x: an Inf in x[0] and a -0 row sum come out as the CSR reference's.
TEST(AijCompoundLayouts, PaddingDoesNotTouchX) {
  CompoundCsr a = random_compound({EntryKind::quaternion, 4}, 40, 40, 1100);
  for (Index e = 0; e < a.nnzb(); ++e)
    if (a.colidx[e] == 0)
      for (int c = 0; c < 4; ++c) a.entry(e)[c] = 0.0; // keep the x[0] column's blocks, value 0
  Vector x = random_vector(160, 13);
  for (int c = 0; c < 4; ++c) x[c] = std::numeric_limits<double>::infinity();
  Vector ref(160);
  mult(a, x.data(), ref.data());
  for (Outer o : kOuters)
    for (Inner in : kInners) {
      Vector y(160);
      packed_mult(pack(a, o, in), x.data(), y.data());
      EXPECT_TRUE(same_bits(y, ref)) << outer_name(o) << inner_name(in);
    }
}

TEST(AijCompoundLayouts, ByteCounts) {
  // Hand count, 3x3 blocks, rows of lengths 1, 0, 3, 2, 0 (5 rows, 6 blocks).
  CompoundCsr a;
  a.kind = EntryKind::block;
  a.bs = 3;
  a.nbrows = 5;
  a.nbcols = 4;
  a.rowptr = {0, 1, 1, 4, 6, 6};
  a.colidx = {2, 0, 1, 3, 1, 2};
  a.values.assign(6 * 9, 1.0);
  const std::size_t idx = sizeof(Index), s = 9 * sizeof(double);
  EXPECT_EQ(csr_bytes(a), 6 * (s + idx) + 6 * idx);
  EXPECT_EQ(packed_bytes(a, Outer::csr), csr_bytes(a));
  EXPECT_EQ(packed_bytes(a, Outer::ell), 32 * 3 * (s + idx) + 5 * idx);      // 32 padded rows x L = 3
  EXPECT_EQ(packed_bytes(a, Outer::sliced16), 16 * 3 * (s + idx) + 2 * idx); // one slice, L = 3
  EXPECT_EQ(packed_bytes(a, Outer::sliced32), 32 * 3 * (s + idx) + 2 * idx);
  EXPECT_DOUBLE_EQ(memory_ratio(a, Outer::csr), 1.0);
  EXPECT_GT(memory_ratio(a, Outer::ell), memory_ratio(a, Outer::sliced16));
  for (Inner in : kInners) EXPECT_EQ(pack(a, Outer::sliced16, in).bytes(), packed_bytes(a, Outer::sliced16));
  // Empty matrix: only the row metadata.
  CompoundCsr e;
  e.kind = EntryKind::complex;
  EXPECT_EQ(csr_bytes(e), idx);
  EXPECT_EQ(packed_bytes(e, Outer::ell), 0u);
  EXPECT_EQ(packed_bytes(e, Outer::sliced32), idx);
}

TEST(AijCompoundLayouts, SlotsAndRepack) {
  for (const Shape &sh : all_shapes()) {
    CompoundCsr a = random_compound(sh, 50, 50, 1200 + sh.bs);
    for (Outer o : kOuters)
      for (Inner in : kInners) {
        const std::vector<Index> slots = entry_slots(a, o);
        Packed p = pack(a, o, in);
        for (Index e = 0; e < a.nnzb(); ++e) ASSERT_EQ(p.col[slots[e]], a.colidx[e]);
        CompoundCsr b = a;
        scale(b, -0.5);
        repack_values(b, slots, p);
        const Packed fresh = pack(b, o, in);
        EXPECT_EQ(p.val, fresh.val) << name(sh, 50, o, in);
        EXPECT_EQ(p.col, fresh.col);
      }
  }
}

TEST(AijCompoundLayouts, LayoutShapes) {
  const CompoundCsr a = random_compound({EntryKind::complex, 2}, 37, 37, 1300);
  const Packed ell = pack(a, Outer::ell, Inner::soa);
  EXPECT_EQ(ell.nrows_pad, 64);
  EXPECT_EQ(ell.ptr.size(), 37u); // ELLPACK-R counts
  EXPECT_EQ(ell.nslots(), 64 * ell.width);
  const Packed si = pack(a, Outer::sliced16, Inner::aos);
  EXPECT_EQ(si.ptr.size(), 4u); // ceil(37 / 16) + 1 slice offsets
  EXPECT_EQ(si.nrows_pad, 48);
  EXPECT_EQ(pack(a, Outer::csr, Inner::aos).val, a.values); // CSR-AoS is the compound CSR itself
}

// column_offsets: every stored slot's offset is its column minus its row, every other slot the
// padding marker; a reach of kMaxColumnOffset fits (both signs), one more does not.
TEST(AijCompoundLayouts, ColumnOffsets) {
  const CompoundCsr a = random_compound({EntryKind::quaternion, 4}, 45, 60, 1400);
  for (Outer o : kOuters) {
    const Packed p = pack(a, o, Inner::aos);
    std::vector<std::int16_t> off;
    ASSERT_TRUE(column_offsets(p, &off)) << outer_name(o);
    ASSERT_EQ(off.size(), p.col.size());
    const std::vector<Index> slots = entry_slots(a, o);
    std::vector<bool> stored(p.col.size(), false);
    for (Index r = 0; r < a.nbrows; ++r)
      for (Index e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
        EXPECT_EQ(off[slots[e]], a.colidx[e] - r) << outer_name(o) << " entry " << e;
        stored[slots[e]] = true;
      }
    for (std::size_t s = 0; s < off.size(); ++s)
      if (!stored[s]) {
        EXPECT_EQ(off[s], kOffsetPadding) << outer_name(o) << " slot " << s;
      }
  }
  for (const Index reach : {kMaxColumnOffset, kMaxColumnOffset + 1})
    for (const bool down : {false, true}) {
      CompoundCsr b;
      b.kind = EntryKind::complex, b.bs = 2;
      b.nbrows = down ? reach + 1 : 1, b.nbcols = down ? 1 : reach + 1;
      b.rowptr.assign(static_cast<std::size_t>(b.nbrows) + 1, 0);
      b.rowptr.back() = 1; // one entry: (0, reach) upward, (reach, 0) downward
      b.colidx = {down ? 0 : reach};
      if (down) std::fill(b.rowptr.begin() + reach + 1, b.rowptr.end(), 1);
      b.values = {1.0, 2.0};
      std::vector<std::int16_t> off;
      for (Outer o : kOuters)
        EXPECT_EQ(column_offsets(pack(b, o, Inner::aos), &off), reach == kMaxColumnOffset)
            << outer_name(o) << " reach " << reach << (down ? " down" : " up");
    }
}

} // namespace
} // namespace pgk::aijcompound::test
