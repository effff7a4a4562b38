// A CSR pattern in device memory, owned (two DeviceBuffer<Index>), and the device
// pattern(A + A^T). Plain C++: usable from the PETSc layer without CUDA headers. Every call
// throws pgk::cuda::Error on CUDA failure; destructors only free (a failed free leaks, never
// throws).
#pragma once

#include "kernels/common/device_buffer.hpp"
#include "src/common/csr.hpp"

namespace pgk::cuda {

class DeviceCsrPattern {
public:
  // Allocates nrows + 1 row pointers and nnz column indices (contents undefined).
  void allocate(Index nrows, Index ncols, Index nnz) {
    rowptr_.allocate(static_cast<std::size_t>(nrows) + 1);
    colidx_.allocate(static_cast<std::size_t>(nnz));
    nrows_ = nrows;
    ncols_ = ncols;
  }
  CsrView view() const {
    CsrView v;
    v.nrows = nrows_;
    v.ncols = ncols_;
    v.rowptr = rowptr_.data();
    v.colidx = colidx_.data();
    return v;
  }
  Index *rowptr() { return rowptr_.data(); }
  Index *colidx() { return colidx_.data(); }
  bool empty() const { return rowptr_.data() == nullptr; }

private:
  Index nrows_ = 0, ncols_ = 0;
  DeviceBuffer<Index> rowptr_, colidx_;
};

// Pattern of A + A^T on the device, rows sorted, no duplicates, diagonal kept: the device
// version of pgk::symmetrize_pattern, with identical rows. Requires sorted unique rows in
// A (PETSc's AIJ storage). Returns false, leaving `out` empty, when A is already structurally
// symmetric (then A itself is that pattern, and nothing is allocated). Synchronizes `stream`.
// Host <-> device copies: none for nrows = 0; otherwise 2 scalars to the host (the number of
// missing transposed entries, nnz of A) and nothing else (the rows are built on the device).
bool symmetrize_pattern(const CsrView &a, DeviceCsrPattern &out, void *stream);

} // namespace pgk::cuda
