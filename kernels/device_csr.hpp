// A CSR pattern owned in device memory (row pointer and column indices), freed on destruction.
// Plain C++: usable from the PETSc layer without CUDA headers.
#pragma once

#include "csr.hpp"

namespace pgk::cuda {

class DeviceCsrPattern {
public:
  DeviceCsrPattern() = default;
  DeviceCsrPattern(const DeviceCsrPattern &) = delete;
  DeviceCsrPattern &operator=(const DeviceCsrPattern &) = delete;
  DeviceCsrPattern(DeviceCsrPattern &&o) noexcept { swap(o); }
  DeviceCsrPattern &operator=(DeviceCsrPattern &&o) noexcept { swap(o); return *this; }
  ~DeviceCsrPattern();

  // Allocates nrows + 1 row pointers and nnz column indices (contents undefined).
  void allocate(Index nrows, Index ncols, Index nnz);
  CsrView view() const {
    CsrView v;
    v.nrows = nrows_;
    v.ncols = ncols_;
    v.rowptr = rowptr_;
    v.colidx = colidx_;
    return v;
  }
  Index *rowptr() { return rowptr_; }
  Index *colidx() { return colidx_; }
  bool empty() const { return rowptr_ == nullptr; }

private:
  void swap(DeviceCsrPattern &o) noexcept {
    std::swap(nrows_, o.nrows_);
    std::swap(ncols_, o.ncols_);
    std::swap(rowptr_, o.rowptr_);
    std::swap(colidx_, o.colidx_);
  }
  Index nrows_ = 0, ncols_ = 0;
  Index *rowptr_ = nullptr, *colidx_ = nullptr;
};

// Pattern of A + A^T on the device, rows sorted, no duplicates, diagonal kept: the device
// version of pgk::rcm::symmetrize_pattern, with identical rows. Requires sorted unique rows in
// A (PETSc's AIJ storage). Returns false, leaving `out` empty, when A is already structurally
// symmetric (then A itself is that pattern, and nothing is allocated).
bool symmetrize_pattern(const CsrView &a, DeviceCsrPattern &out, void *stream);

} // namespace pgk::cuda
