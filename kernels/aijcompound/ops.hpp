// Mat aijcompound on the device (issue 10, items 1-3): the compound CSR kept on the GPU (the
// values every packed layout is re-packed from) and the operations of src/aijcompound/ops.hpp and
// compound.hpp on it: diagonal, block-diagonal inverse, scale, shift, diagonal scale, AXPY, the
// values of the explicit transpose, the device `auto` entry detection and the COO value assembly.
//
// Plain C++ (no CUDA types). The contract against the reference (src/aijcompound/): every
// function here computes what its namesake there does, bit for bit (no fused multiply-add, same
// operation order; invert_block_diagonal uses the same Gauss-Jordan with partial pivoting), and
// without floating-point atomics, so the results are deterministic.
//
// Copies go through kernels/common/transfer.hpp (logged) and are listed per function. Patterns
// (row pointers, columns, the transpose's source map, the COO maps) are built on the host by the
// caller (src/aijcompound/) and uploaded once; values never leave the device.
// Errors: std::invalid_argument (bad sizes, pattern mismatch), pgk::cuda::Error (CUDA failures).
#pragma once

#include "kernels/common/device_buffer.hpp"
#include "src/aijcompound/ops.hpp"

#include <cstddef>
#include <vector>

namespace pgk::cuda::aijcompound {

namespace ac = pgk::aijcompound;

// The compound CSR on the device: 32-bit row pointer and block columns (std::invalid_argument
// from upload when nnzb or nbcols does not fit), the values in compound CSR AoS order (entry e at
// values[e * esize], the layout of ac::CompoundCsr::values), and per block row the position of its
// diagonal block (-1 when missing), for diagonal / invert_block_diagonal / shift.
struct DeviceCompoundCsr {
  ac::EntryKind kind = ac::EntryKind::block;
  int bs = 2;
  Index nbrows = 0, nbcols = 0, nnzb = 0;
  DeviceBuffer<int> rowptr, colidx, diagpos;
  DeviceBuffer<double> values;
  // Host copy of what diagpos says about shift: the first block row < min(nbrows, nbcols) without
  // a diagonal block, -1 when none (set by upload / upload_pattern from the host pattern), so
  // shift can refuse without a copy.
  Index missing_diagonal = -1;

  int esize() const { return ac::entry_size(kind, bs); }
  Index nvalues() const { return nnzb * esize(); }

  // Pattern and values of a: 4 uploads (rowptr, colidx, diagpos, values).
  void upload(const ac::CompoundCsr &a, void *stream);
  // Pattern only (values allocated, set to 0 on the device): 3 uploads.
  void upload_pattern(const ac::CompoundCsr &a, void *stream);
  // a.values = the device values (a must have this pattern): 1 download.
  void download_values(ac::CompoundCsr &a, void *stream) const;
};

// d = the scalar diagonal of the expanded matrix (nbrows*bs, 0 where missing). No copies.
void diagonal(const DeviceCompoundCsr &a, double *d, void *stream);
// inv = every bs x bs diagonal block inverted (nbrows*bs*bs, column-major per block), as
// ac::invert_block_diagonal. Returns -1, or the first block row (lowest index) whose pivot is
// exactly zero or whose diagonal block is missing (inv is then unspecified): 1 download (the
// flag). Square only.
Index invert_block_diagonal(const DeviceCompoundCsr &a, double *inv, void *stream);
// A = alpha A. No copies.
void scale(DeviceCompoundCsr &a, double alpha, void *stream);
// A = A + alpha I (ac::shift). The caller checks that every diagonal block exists (diagpos, from
// the host pattern): std::invalid_argument otherwise. No copies.
void shift(DeviceCompoundCsr &a, double alpha, void *stream);
// A = diag(l) A diag(r) (either may be null), each scalar (l_i * a_ij) * r_j. For complex and
// quaternion entries l and r must be constant inside every block: checked on the device first;
// returns false (A unchanged) when they are not (1 download, the flag; block kind: no copies,
// always true).
bool diagonal_scale(DeviceCompoundCsr &a, const double *l, const double *r, void *stream);
// Y = Y + alpha X, same kind, bs and pattern (checked on the sizes only: the caller compares the
// host patterns). No copies.
void axpy(DeviceCompoundCsr &y, double alpha, const DeviceCompoundCsr &x, void *stream);

// The values of the explicit compound transpose (ac::transpose / ac::refresh_values):
// at.values[e] = transpose_entry(a.values[source[e]]). at has the transpose's pattern (uploaded by
// the caller from ac::transpose(...).at); source: device, at.nnzb entries. No copies.
void transpose_values(const DeviceCompoundCsr &a, const int *source, DeviceCompoundCsr &at, void *stream);

// Device `auto` detection: whether every stored block of a (kind block, bs 2 resp. 4) has the
// complex resp. quaternion form exactly (ac::detect_complex / detect_quaternion: == on doubles).
// target must be complex (bs 2) or quaternion (bs 4). 1 download (the flag).
bool has_form(const DeviceCompoundCsr &a, ac::EntryKind target, void *stream);
// out = a stored as `target` entries (the block's first column: (a, b) or (w, x, y, z)); a must
// have the form (has_form). out gets a's pattern (device to device copies, not logged: no host).
void compress(const DeviceCompoundCsr &a, ac::EntryKind target, DeviceCompoundCsr &out, void *stream);

// COO value assembly (MatSetValuesCOO): values[t] = (add ? values[t] : 0) + the sum of
// v[perm[k]] for k = jmap[t] .. jmap[t+1]-1 in this order, for every scalar t < nvalues; values of
// no contribution stay (add) or become 0. jmap (nvalues + 1) and perm (jmap[nvalues]) are device
// arrays built on the host from the COO indices (the caller's map: COO entry -> scalar position).
// Deterministic: one thread per target scalar, a fixed order. No copies.
void coo_assemble(const Index *jmap, const Index *perm, const double *v, Index nvalues, bool add, double *values,
                  void *stream);

// y = A x (z == nullptr) or A x + z on the compound CSR itself (one thread per block row, the
// reference's order: bit for bit ac::mult / mult_add). Used for the transpose. No copies.
void mult(const DeviceCompoundCsr &a, const double *x, const double *z, double *y, void *stream);

} // namespace pgk::cuda::aijcompound
