// Host builders of the packed layouts and the sequential emulation of their SpMV.
#include "src/aijcompound/layouts.hpp"

#include "src/aijcompound/symmetric.hpp"
#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <stdexcept>

namespace pgk::aijcompound {

namespace {

constexpr Index kWarp = 32;
// Below this many entries the host passes run on the calling thread: starting workers costs more.
constexpr Index kParallelMinSlots = Index(1) << 16;

Index round_up(Index n, Index m) { return (n + m - 1) / m * m; }
Index row_len(const CompoundCsr &a, Index r) { return a.rowptr[r + 1] - a.rowptr[r]; }

// Longest row of each slice of height h (the last slice may be short).
std::vector<Index> slice_widths(const CompoundCsr &a, Index h) {
  std::vector<Index> w(static_cast<std::size_t>((a.nbrows + h - 1) / h), 0);
  for (Index r = 0; r < a.nbrows; ++r) w[r / h] = std::max(w[r / h], row_len(a, r));
  return w;
}

Index longest_row(const CompoundCsr &a) {
  Index l = 0;
  for (Index r = 0; r < a.nbrows; ++r) l = std::max(l, row_len(a, r));
  return l;
}

// The row-metadata array of `outer` (see Packed) and the number of slots.
std::vector<Index> outer_ptr(const CompoundCsr &a, Outer outer, Index &nslots) {
  if (outer == Outer::csr) {
    nslots = a.nnzb();
    return a.rowptr;
  }
  if (outer == Outer::ell) {
    std::vector<Index> cnt(static_cast<std::size_t>(a.nbrows));
    for (Index r = 0; r < a.nbrows; ++r) cnt[r] = row_len(a, r);
    nslots = padded_rows(outer, a.nbrows) * longest_row(a);
    return cnt;
  }
  const Index h = slice_height(outer, a.nbrows);
  const std::vector<Index> w = slice_widths(a, h);
  std::vector<Index> off(w.size() + 1, 0);
  for (std::size_t s = 0; s < w.size(); ++s) off[s + 1] = off[s] + h * w[s];
  nslots = off.back();
  return off;
}

// Slot of position j of row r (the table in layouts.hpp).
Index slot_of(Outer outer, const std::vector<Index> &ptr, Index nrows_pad, Index h, Index r, Index j) {
  switch (outer) {
  case Outer::csr: return ptr[r] + j;
  case Outer::ell: return r + j * nrows_pad;
  default: return ptr[r / h] + r % h + j * h;
  }
}

// Positions of row r in p's layout: CSR and ELL its entries, a sliced layout its slice's width.
Index packed_row_len(const Packed &p, Index r, Index h) {
  switch (p.outer) {
  case Outer::csr: return p.ptr[r + 1] - p.ptr[r];
  case Outer::ell: return p.ptr[r];
  default: return (p.ptr[r / h + 1] - p.ptr[r / h]) / h;
  }
}

} // namespace

const char *outer_name(Outer outer) {
  switch (outer) {
  case Outer::csr: return "CSR";
  case Outer::ell: return "ELL";
  case Outer::sliced16: return "SI-16";
  case Outer::sliced32: return "SI-32";
  }
  return "?";
}
const char *inner_name(Inner inner) { return inner == Inner::aos ? "AoS" : "SoA"; }

Index padded_rows(Outer outer, Index nbrows) {
  switch (outer) {
  case Outer::csr: return nbrows;
  case Outer::ell: return round_up(nbrows, kWarp);
  case Outer::sliced16: return round_up(nbrows, 16);
  case Outer::sliced32: return round_up(nbrows, 32);
  }
  return nbrows;
}

Index slice_height(Outer outer, Index nbrows) {
  switch (outer) {
  case Outer::csr: return 1;
  case Outer::ell: return padded_rows(outer, nbrows);
  case Outer::sliced16: return 16;
  case Outer::sliced32: return 32;
  }
  return 1;
}

std::size_t Packed::bytes() const {
  return val.size() * sizeof(double) + (col.size() + ptr.size() + lower.size() + partner.size()) * sizeof(Index);
}

std::size_t csr_bytes(const CompoundCsr &a) {
  const std::size_t idx = sizeof(Index), s = static_cast<std::size_t>(a.esize()) * sizeof(double);
  return static_cast<std::size_t>(a.nnzb()) * (s + idx) + idx * (static_cast<std::size_t>(a.nbrows) + 1);
}

std::size_t packed_bytes(const CompoundCsr &a, Outer outer) {
  const std::size_t idx = sizeof(Index), s = static_cast<std::size_t>(a.esize()) * sizeof(double);
  if (outer == Outer::csr) return csr_bytes(a);
  if (outer == Outer::ell)
    return static_cast<std::size_t>(padded_rows(outer, a.nbrows) * longest_row(a)) * (s + idx) +
           idx * static_cast<std::size_t>(a.nbrows);
  const Index h = slice_height(outer, a.nbrows);
  const std::vector<Index> w = slice_widths(a, h);
  std::size_t slots = 0;
  for (Index ws : w) slots += static_cast<std::size_t>(h * ws);
  return slots * (s + idx) + idx * (w.size() + 1);
}

double memory_ratio(const CompoundCsr &a, Outer outer) {
  return static_cast<double>(packed_bytes(a, outer)) / static_cast<double>(csr_bytes(a));
}

std::vector<Index> entry_slots(const CompoundCsr &a, Outer outer, int threads) {
  Index nslots = 0;
  const std::vector<Index> ptr = outer_ptr(a, outer, nslots);
  const Index pad = padded_rows(outer, a.nbrows), h = slice_height(outer, a.nbrows);
  std::vector<Index> slots(static_cast<std::size_t>(a.nnzb()));
  ThreadPool pool(a.nnzb() < kParallelMinSlots ? 1 : threads);
  pool.parallel_for(0, a.nbrows, 4096, [&](std::int64_t r) {
    for (Index e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) slots[e] = slot_of(outer, ptr, pad, h, r, e - a.rowptr[r]);
  });
  return slots;
}

namespace {

// The +SYM arrays of p: lower counts per row, and each lower slot's partner slot.
void add_partners(const CompoundCsr &a, const std::vector<Index> &slots, Index nslots, const SymmetricPattern &sym,
                  Packed &p) {
  const std::vector<Index> &diag = sym.diag, &partner = sym.partner;
  if (diag.size() != static_cast<std::size_t>(a.nbrows) || partner.size() != static_cast<std::size_t>(a.nnzb()))
    throw std::invalid_argument("aijcompound: +SYM arrays of another pattern");
  p.symmetric = true;
  p.lower.resize(static_cast<std::size_t>(a.nbrows));
  p.partner.assign(static_cast<std::size_t>(nslots), -1);
  for (Index r = 0; r < a.nbrows; ++r) {
    p.lower[r] = diag[r] - a.rowptr[r];
    for (Index e = a.rowptr[r]; e < diag[r]; ++e) p.partner[slots[e]] = slots[partner[e]];
  }
}

// The pattern of pack_pattern; `sym` null: without +SYM.
Packed pattern_of(const CompoundCsr &a, Outer outer, Inner inner, std::vector<Index> *slots, int threads,
                  const SymmetricPattern *sym) {
  Packed p;
  p.outer = outer;
  p.inner = inner;
  p.kind = a.kind;
  p.bs = a.bs;
  p.nbrows = a.nbrows;
  p.nbcols = a.nbcols;
  p.nrows_pad = padded_rows(outer, a.nbrows);
  p.width = longest_row(a);
  Index nslots = 0;
  p.ptr = outer_ptr(a, outer, nslots);
  *slots = entry_slots(a, outer, threads);
  if (sym) add_partners(a, *slots, nslots, *sym, p);
  if (outer == Outer::csr) { // every slot is an entry, in CSR order: the columns as they are
    p.col = a.colidx;
    return p;
  }
  p.col.assign(static_cast<std::size_t>(nslots), -1);
  ThreadPool pool(a.nnzb() < kParallelMinSlots ? 1 : threads);
  pool.parallel_for(0, a.nnzb(), 1 << 16, [&](std::int64_t e) { p.col[(*slots)[e]] = a.colidx[e]; });
  return p;
}

} // namespace

Packed pack_pattern(const CompoundCsr &a, Outer outer, Inner inner, std::vector<Index> *slots, int threads,
                    bool symmetric) {
  validate(a, threads);
  if (!symmetric) return pattern_of(a, outer, inner, slots, threads, nullptr);
  SymmetricPattern sym;
  if (!symmetric_pattern(a, &sym.diag, &sym.partner, threads))
    throw std::invalid_argument("aijcompound: +SYM needs a square matrix with a symmetric pattern");
  return pattern_of(a, outer, inner, slots, threads, &sym);
}

Packed pack_pattern(const CompoundCsr &a, Outer outer, Inner inner, std::vector<Index> *slots, int threads,
                    const SymmetricPattern &sym) {
  validate(a, threads);
  return pattern_of(a, outer, inner, slots, threads, &sym);
}

Packed pack(const CompoundCsr &a, Outer outer, Inner inner, bool symmetric) {
  std::vector<Index> slots;
  Packed p = pack_pattern(a, outer, inner, &slots, 1, symmetric);
  p.val.assign(static_cast<std::size_t>(p.nslots()) * a.esize(), 0.0);
  repack_values(a, slots, p);
  return p;
}

void repack_values(const CompoundCsr &a, const std::vector<Index> &slots, Packed &p) {
  if (a.kind != p.kind || a.bs != p.bs || slots.size() != static_cast<std::size_t>(a.nnzb()))
    throw std::invalid_argument("aijcompound: repack_values on another pattern");
  const int es = a.esize();
  const Index n = p.nslots();
  for (Index e = 0; e < a.nnzb(); ++e)
    for (int c = 0; c < es; ++c) {
      const Index s = slots[e];
      p.val[p.inner == Inner::aos ? s * es + c : c * n + s] = a.entry(e)[c];
    }
}

bool column_offsets(const Packed &p, std::vector<std::int16_t> *offsets) {
  offsets->assign(static_cast<std::size_t>(p.nslots()), kOffsetPadding);
  const Index h = slice_height(p.outer, p.nbrows);
  for (Index r = 0; r < p.nbrows; ++r) {
    const Index len = packed_row_len(p, r, h);
    for (Index j = 0; j < len; ++j) {
      const Index s = slot_of(p.outer, p.ptr, p.nrows_pad, h, r, j), c = p.col[s];
      if (c < 0) continue; // sliced padding keeps the marker
      const Index d = c - r;
      if (d < -kMaxColumnOffset || d > kMaxColumnOffset) {
        offsets->clear();
        return false;
      }
      (*offsets)[s] = static_cast<std::int16_t>(d);
    }
  }
  return true;
}

namespace {

// Row r of the packed matrix into acc (from +0.0). Positions ascending (the CSR reference's order),
// or for +SYM outward from the first upper position in mirrored pairs: own position nl + k, then the
// lower position nl - k, k = 0, 1, ... (nl = lower[r]). A lower position's partner is then at about
// position nl' + k of its row, the same ELL / SI region its owner reads at this step, so the second
// read of it is an L2 hit on the device (bench/NOTES.md, eleventh session).
void packed_row(const Packed &p, Index r, const double *x, double *acc) {
  for (int i = 0; i < p.bs; ++i) acc[i] = 0.0;
  const int es = p.esize();
  const Index n = p.nslots(), h = slice_height(p.outer, p.nbrows);
  const Index stride = p.inner == Inner::aos ? 1 : n;
  const Index len = packed_row_len(p, r, h);
  auto position = [&](Index j, bool lower) {
    const Index s = slot_of(p.outer, p.ptr, p.nrows_pad, h, r, j);
    const Index c = p.col[s];
    if (c < 0) return; // sliced padding
    if (lower) {       // strictly lower: the transposed partner
      double t[kMaxBs * kMaxBs];
      const Index q = p.partner[s];
      transposed_entry(p.kind, p.bs, p.inner == Inner::aos ? p.val.data() + q * es : p.val.data() + q, stride, t);
      apply_entry(p.kind, p.bs, t, 1, x + c * p.bs, acc);
      return;
    }
    apply_entry(p.kind, p.bs, p.inner == Inner::aos ? p.val.data() + s * es : p.val.data() + s, stride, x + c * p.bs,
                acc);
  };
  if (!p.symmetric) {
    for (Index j = 0; j < len; ++j) position(j, false);
    return;
  }
  const Index nl = p.lower[r];
  for (Index k = 0; k < std::max(len - nl, nl + 1); ++k) {
    if (nl + k < len) position(nl + k, false);
    if (k > 0 && k <= nl) position(nl - k, true);
  }
}

} // namespace

void packed_mult(const Packed &p, const double *x, double *y) {
  check_kind(p.kind, p.bs);
  double acc[kMaxBs];
  for (Index r = 0; r < p.nbrows; ++r) {
    packed_row(p, r, x, acc);
    for (int i = 0; i < p.bs; ++i) y[r * p.bs + i] = acc[i];
  }
}

void packed_mult_add(const Packed &p, const double *x, const double *z, double *y) {
  check_kind(p.kind, p.bs);
  double acc[kMaxBs];
  for (Index r = 0; r < p.nbrows; ++r) {
    packed_row(p, r, x, acc);
    for (int i = 0; i < p.bs; ++i) y[r * p.bs + i] = acc[i] + z[r * p.bs + i];
  }
}

} // namespace pgk::aijcompound
