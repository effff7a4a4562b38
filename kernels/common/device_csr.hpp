// Device memory owned by RAII objects: an Index array, and a CSR pattern made of two of them.
// Plain C++: usable from the PETSc layer without CUDA headers. Every call throws
// pgk::cuda::Error on CUDA failure; destructors only free (a failed free leaks, never throws).
#pragma once

#include <utility>

#include "src/common/csr.hpp"

namespace pgk::cuda {

class DeviceIndexArray {
public:
  DeviceIndexArray() = default;
  DeviceIndexArray(const DeviceIndexArray &) = delete;
  DeviceIndexArray &operator=(const DeviceIndexArray &) = delete;
  DeviceIndexArray(DeviceIndexArray &&o) noexcept { swap(o); }
  DeviceIndexArray &operator=(DeviceIndexArray &&o) noexcept {
    swap(o);
    return *this;
  }
  ~DeviceIndexArray();

  // n entries, contents undefined (at least one entry is allocated, so data() is never null).
  void allocate(Index n);
  // Copies n host values to the device (synchronous on `stream`).
  void upload(const Index *host, Index n, void *stream);
  Index *data() { return data_; }
  const Index *data() const { return data_; }
  Index size() const { return size_; }

private:
  void swap(DeviceIndexArray &o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }
  Index *data_ = nullptr;
  Index size_ = 0;
};

class DeviceCsrPattern {
public:
  // Allocates nrows + 1 row pointers and nnz column indices (contents undefined).
  void allocate(Index nrows, Index ncols, Index nnz) {
    rowptr_.allocate(nrows + 1);
    colidx_.allocate(nnz);
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
  DeviceIndexArray rowptr_, colidx_;
};

// Pattern of A + A^T on the device, rows sorted, no duplicates, diagonal kept: the device
// version of pgk::symmetrize_pattern, with identical rows. Requires sorted unique rows in
// A (PETSc's AIJ storage). Returns false, leaving `out` empty, when A is already structurally
// symmetric (then A itself is that pattern, and nothing is allocated).
bool symmetrize_pattern(const CsrView &a, DeviceCsrPattern &out, void *stream);

} // namespace pgk::cuda
