// The +SYM layouts' host side (Mat aijcompound, issue 10; layouts.hpp): a matrix whose expanded
// scalar matrix is symmetric holds each strictly lower entry (i, j) as the transposed expansion of
// its partner (j, i), so a product can read the upper triangle (and the diagonal) only and take the
// lower entries through their partners: about half the value bytes, which no cuSPARSE kernel
// exploits. PETSc's SBAIJ makes the same trade on the host.
//
// "Symmetric" means symmetric in the expansion (what MAT_SYMMETRIC says of a real PETSc matrix):
//   block:      A(i, j) = A(j, i)^T;
//   complex:    A(i, j) = conj(A(j, i))        ([a -b; b a]^T = [a b; -b a]: Hermitian);
//   quaternion: A(i, j) = conj(A(j, i))        (L(q)^T = L(conj q)).
// The diagonal entries are read as they are, so nothing is asked of them. Values are compared
// with == (0 and -0 match, a NaN never does): a lower entry equal to its transposed partner under
// == gives the same product bits (a product with +0 or -0 adds to an accumulator that is never -0).
#pragma once

#include "src/aijcompound/compound.hpp"

#include <vector>

namespace pgk::aijcompound {

// out = the entry (i, j) that is the transposed expansion of v (entry (j, i); component c at
// v[c * stride]), AoS in out: a block transposed, a complex or quaternion conjugated. Exact.
inline void transposed_entry(EntryKind kind, int bs, const double *v, Index stride, double *out) {
  if (kind == EntryKind::block) {
    for (int j = 0; j < bs; ++j)
      for (int i = 0; i < bs; ++i) out[j * bs + i] = v[(i * bs + j) * stride];
    return;
  }
  const int n = entry_size(kind, bs);
  out[0] = v[0];
  for (int c = 1; c < n; ++c) out[c] = -v[c * stride];
}

// The pattern arrays +SYM is built from (by entry; layouts.hpp maps them to slots). diag[r] = the first position of row
// r whose column is
// >= r (the upper part, diagonal included, starts there); partner[e] = the position of entry
// (col[e], r) for a strictly lower entry e of row r (e < diag[r]), -1 elsewhere. False (arrays
// unspecified) when the matrix is not square or its pattern is not symmetric.
bool symmetric_pattern(const CompoundCsr &a, std::vector<Index> *diag, std::vector<Index> *partner, int threads = 1);

// symmetric_pattern's arrays, kept by a caller that packs several +SYM layouts of one pattern
// (the tuner) so that the pattern is searched once.
struct SymmetricPattern {
  std::vector<Index> diag, partner;
};

// Whether every strictly lower entry equals (==, component by component) the transposed entry of
// its partner; diag and partner from symmetric_pattern on the same pattern.
bool symmetric_values(const CompoundCsr &a, const std::vector<Index> &diag, const std::vector<Index> &partner,
                      int threads = 1);

// symmetric_pattern && symmetric_values.
bool is_symmetric(const CompoundCsr &a, int threads = 1);

// Strictly lower entries (the ones the symmetric layout reads through their partners).
Index lower_entries(const CompoundCsr &a, const std::vector<Index> &diag);

} // namespace pgk::aijcompound
