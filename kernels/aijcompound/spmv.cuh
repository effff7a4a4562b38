// Internal to kernels/aijcompound: the SpMV launch behind DevicePacked::mult (layouts.cu), defined
// in spmv.cu, which holds the kernel templates over (entry kind, outer, inner) and their run-time
// dispatch.
#pragma once

#include "kernels/aijcompound/layouts.hpp"

#include <cuda_runtime.h>

#include <cstdint>

namespace pgk::cuda::aijcompound {

// One product: the device arrays of a DevicePacked (32-bit) and the vectors.
struct SpmvArgs {
  ac::EntryKind kind = ac::EntryKind::block;
  int bs = 2;
  ac::Outer outer = ac::Outer::csr;
  ac::Inner inner = ac::Inner::aos;
  const int *ptr = nullptr, *col = nullptr;
  bool offsets = false;                           // col_offset instead of col: column = row + offset
  const std::int16_t *col_offset = nullptr;       // (ac::column_offsets)
  bool symmetric = false;                         // +SYM (src/aijcompound/layouts.hpp)
  const int *lower = nullptr, *partner = nullptr; // +SYM: lower counts per row, partner slot per slot
  const double *val = nullptr;
  int nbrows = 0, nrows_pad = 0, nslots = 0;
  const double *x = nullptr, *z = nullptr; // z == nullptr: y = A x
  double *y = nullptr;
  unsigned int *counter = nullptr; // dynamic_rows: {next row, finished blocks}, both 0 between launches
};

// Launches the kernel of (args.kind, args.bs, args.outer, args.inner, shape.schedule) on `grid`
// blocks of shape.threads threads; shape is checked by the caller.
void launch_spmv(const SpmvArgs &args, const LaunchShape &shape, int grid, cudaStream_t stream);

} // namespace pgk::cuda::aijcompound
