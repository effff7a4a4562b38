// The compound entry kinds of Mat aijcompound and the one routine that multiplies an entry with a
// block of x. Every product in this component (the CSR reference, the transpose, every packed
// layout) goes through apply_entry, so all of them perform the same floating-point operations in
// the same order and agree bit for bit (src/aijcompound/README.md, "Summation order").
#pragma once

#include "src/common/csr.hpp"

namespace pgk::aijcompound {

// block: a real k x k block, k = 2..8, k*k scalars in column-major order (component j*k + i is
//   row i, column j of the block: PETSc's BAIJ block order, so a BAIJ matrix converts by copy).
// complex: z = a + b i as 2 scalars (a, b); the real 2x2 block it stands for is [a -b; b a].
// quaternion: q = w + x i + y j + z k as 4 scalars (w, x, y, z); the real 4x4 block is the
//   left-multiplication matrix of the Hamilton product, L(q) p = q p (seed eq. 1):
//     [w -x -y -z]
//     [x  w -z  y]
//     [y  z  w -x]
//     [z -y  x  w]
enum class EntryKind { block, complex, quaternion };

const char *kind_name(EntryKind kind);

// Scalars stored per entry: k*k, 2 or 4.
inline int entry_size(EntryKind kind, int bs) {
  return kind == EntryKind::complex ? 2 : kind == EntryKind::quaternion ? 4 : bs * bs;
}

// The largest block edge check_kind accepts: what fixed-size scratch of one entry (kMaxBs^2
// scalars) or one block row (kMaxBs) is sized for.
constexpr int kMaxBs = 8;

// Throws std::invalid_argument unless (kind, bs) is supported: block with bs in 2..kMaxBs, complex
// with bs 2, quaternion with bs 4 (bs is always the edge of the real block the entry stands for,
// i.e. the number of interlaced vector scalars per block row).
void check_kind(EntryKind kind, int bs);

// Row i, column j of the real bs x bs block of the entry whose component c is v[c * stride]
// (AoS: stride 1; SoA: stride = the number of stored entries). Signs are exact, so this is the
// value the expanded scalar matrix holds.
inline double expanded(EntryKind kind, int bs, const double *v, Index stride, int i, int j) {
  if (kind == EntryKind::block) return v[(j * bs + i) * stride];
  if (kind == EntryKind::complex) {
    const double a = v[0], b = v[stride];
    return i == j ? a : (i == 1 ? b : -b);
  }
  // L(q): component index and sign of row i, column j.
  static const int comp[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};
  static const int sign[4][4] = {{1, -1, -1, -1}, {1, 1, -1, 1}, {1, 1, 1, -1}, {1, -1, 1, 1}};
  const double c = v[comp[i][j] * stride];
  return sign[i][j] > 0 ? c : -c;
}

// acc[i] += A_e(i, j) * xb[j] for j = 0..bs-1 in this order, for every row i of the entry's real
// block: exactly what the scalar CSR product of the expanded matrix does for this block, so the
// compound product equals the expanded scalar product bit for bit (when the expansion keeps every
// block entry, explicit zeros included). Written out per kind for the small kinds so that the
// component loads are the ones a device kernel does; the arithmetic is identical to the generic
// loop (a negated factor is exact: a + (-b) x == a - b x).
inline void apply_entry(EntryKind kind, int bs, const double *v, Index stride, const double *xb, double *acc) {
  if (kind == EntryKind::complex) {
    const double a = v[0], b = v[stride];
    acc[0] += a * xb[0];
    acc[0] += (-b) * xb[1];
    acc[1] += b * xb[0];
    acc[1] += a * xb[1];
    return;
  }
  if (kind == EntryKind::quaternion) {
    const double w = v[0], x = v[stride], y = v[2 * stride], z = v[3 * stride];
    acc[0] += w * xb[0], acc[0] += (-x) * xb[1], acc[0] += (-y) * xb[2], acc[0] += (-z) * xb[3];
    acc[1] += x * xb[0], acc[1] += w * xb[1], acc[1] += (-z) * xb[2], acc[1] += y * xb[3];
    acc[2] += y * xb[0], acc[2] += z * xb[1], acc[2] += w * xb[2], acc[2] += (-x) * xb[3];
    acc[3] += z * xb[0], acc[3] += (-y) * xb[1], acc[3] += x * xb[2], acc[3] += w * xb[3];
    return;
  }
  for (int i = 0; i < bs; ++i)
    for (int j = 0; j < bs; ++j) acc[i] += v[(j * bs + i) * stride] * xb[j];
}

} // namespace pgk::aijcompound
