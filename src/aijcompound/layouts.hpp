// The memory layouts of the seed (Mueller-Roemer et al., digest section 2) built on the host:
// outer CSR, ELL (ELLPACK-R), SI-16 and SI-32 (sliced ELLPACK, slice height 16 / 32, no row
// sorting), each with the entry components interleaved (AoS) or one array per component (SoA);
// each of them also "+SYM" for a symmetric matrix: the strictly lower entries read through their
// upper partners (src/aijcompound/symmetric.hpp), so a product reads about half the values.
// These are the arrays a device layout uploads, and packed_mult is the sequential emulation of
// the one-thread-per-block-row kernel on them: it equals the CSR reference (ops.hpp) bit for bit,
// so a device kernel only has to reproduce the same per-row order. Vectors stay interlaced (the
// seed's vector AoS, PETSc's layout).
#pragma once

#include "src/aijcompound/compound.hpp"
#include "src/aijcompound/symmetric.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgk::aijcompound {

enum class Outer { csr, ell, sliced16, sliced32 };
enum class Inner { aos, soa };

const char *outer_name(Outer outer);
const char *inner_name(Inner inner);

// Rows the device pads to: ELL's row stride is nbrows rounded up to a multiple of 32 (a warp), a
// sliced layout's to a multiple of its slice height; CSR is not padded.
Index padded_rows(Outer outer, Index nbrows);
// Slice height: 16 / 32 for the sliced layouts, padded_rows for ELL (one slice), 1 for CSR.
Index slice_height(Outer outer, Index nbrows);

// A packed compound matrix. Stored entry ("slot") s of row r, position j in the row (the j-th
// entry of the CSR row, same order):
//   CSR  s = ptr[r] + j,                          j < ptr[r+1] - ptr[r]   (ptr: nbrows + 1)
//   ELL  s = r + j * nrows_pad,                   j < ptr[r]              (ptr: counts, nbrows)
//   SI-h s = ptr[r / h] + r % h + j * h,          j < (ptr[r/h+1] - ptr[r/h]) / h
//                                                 (ptr: slice offsets, ceil(nbrows / h) + 1)
// +SYM (symmetric): position j of row r with j < lower[r] (a strictly lower entry; they come first
// in a row) takes the transposed entry of slot partner[s] instead of its own, which stays stored
// (the symmetry check reads it, the product does not). partner has nslots entries, -1 elsewhere.
// A +SYM row is summed in mirrored pairs from the diagonal (packed_row in layouts.cpp), not in
// position order: deterministic, within rounding (1e-13) of the CSR reference, not bit for bit.
// Padding slots hold column -1 and value 0. ELL stops at the row's count (padding never read);
// a sliced layout has no counts and runs to its slice's width, skipping the -1 columns: the seed's
// code reads x[0] for padding instead, which would turn 0 * Inf into NaN and +0/-0 sums into
// different bits. Component c of slot s: AoS val[s * esize + c], SoA val[c * nslots + s].
struct Packed {
  Outer outer = Outer::csr;
  Inner inner = Inner::aos;
  EntryKind kind = EntryKind::block;
  int bs = 2;
  Index nbrows = 0, nbcols = 0;
  Index nrows_pad = 0; // see padded_rows
  Index width = 0;     // longest row (ELL's padded width; the widest slice for SI)
  std::vector<Index> ptr, col;
  bool symmetric = false;
  std::vector<Index> lower, partner; // +SYM only (nbrows, nslots), empty otherwise
  std::vector<double> val;

  int esize() const { return entry_size(kind, bs); }
  Index nslots() const { return static_cast<Index>(col.size()); }
  // Device bytes of the matrix: values + column indices + ptr (+ lower and partner for +SYM)
  // (sizeof(Index)-byte indices), padding included; the figure -mat_aijcompound_max_mem_ratio
  // compares with csr_bytes (of the layout without +SYM).
  std::size_t bytes() const;
};

// Bytes of the compound CSR-AoS: nnzb * (esize * 8 + idx) + idx * (nbrows + 1).
std::size_t csr_bytes(const CompoundCsr &a);
// Bytes `outer` will take, from the row lengths alone (no packing), equal to pack(...).bytes():
//   ELL  nrows_pad * L * (S + idx) + idx * nbrows;   SI-h  sum_s h * L_s * (S + idx) + idx * (nslices + 1)
// with S = esize * 8 and idx = sizeof(Index). The inner layout does not change the bytes.
std::size_t packed_bytes(const CompoundCsr &a, Outer outer);
// packed_bytes / csr_bytes: the layout filter of -mat_aijcompound_max_mem_ratio.
double memory_ratio(const CompoundCsr &a, Outer outer);

// The slot of every CSR entry e (nnzb values): the scatter map a values-only re-assembly uses to
// re-pack new values on the device without rebuilding the pattern.
// `threads` splits the rows among that many threads (large matrices only); never changes the result.
std::vector<Index> entry_slots(const CompoundCsr &a, Outer outer, int threads = 1);

// symmetric: the +SYM form; std::invalid_argument unless the matrix is square with a symmetric
// pattern (symmetric_pattern). The values are not checked (symmetric_values is the caller's).
Packed pack(const CompoundCsr &a, Outer outer, Inner inner, bool symmetric = false);
// The pattern of pack(a, outer, inner) (ptr, col and the sizes; val left empty) and *slots =
// entry_slots(a, outer): what a device copy whose values are filled on the device needs, without
// the host pass over the values (as large as the matrix) that pack makes.
Packed pack_pattern(const CompoundCsr &a, Outer outer, Inner inner, std::vector<Index> *slots, int threads = 1,
                    bool symmetric = false);
// The +SYM pattern from arrays symmetric_pattern returned true for on a's pattern (not searched again).
Packed pack_pattern(const CompoundCsr &a, Outer outer, Inner inner, std::vector<Index> *slots, int threads,
                    const SymmetricPattern &sym);
// New values of the same pattern into an existing packing (through entry_slots).
void repack_values(const CompoundCsr &a, const std::vector<Index> &slots, Packed &p);

// The columns of p as 16-bit offsets from their rows (c - r), for a device copy that reads 2
// bytes a position instead of 4: offsets[s] for every slot s, kOffsetPadding for padding (column
// -1, and ELL slots past a row's count). False (offsets emptied) when some |c - r| passes
// kMaxColumnOffset, i.e. a block bandwidth of 32768 or more: such a matrix keeps 32-bit columns.
constexpr std::int16_t kOffsetPadding = INT16_MIN;
constexpr Index kMaxColumnOffset = INT16_MAX;
bool column_offsets(const Packed &p, std::vector<std::int16_t> *offsets);

// y = A x and y = A x + z on the packed arrays; bit for bit mult / mult_add of ops.hpp (+SYM: in its
// own order, within rounding of them; the device's one-thread-per-row schedules match it bit for bit).
void packed_mult(const Packed &p, const double *x, double *y);
void packed_mult_add(const Packed &p, const double *x, const double *z, double *y);

} // namespace pgk::aijcompound
