// Mat aijcompound on the device (issue 10, items 4 and 5): the packed layouts of the seed (outer
// CSR / ELL / SI-16 / SI-32 x inner AoS / SoA, src/aijcompound/layouts.hpp) uploaded to the GPU,
// and the SpMV kernels over them with the launch shapes the tuner searches.
//
// Plain C++ (no CUDA types): the PETSc layer (petsc_plugin/mat/aijcompound/) and the tests call
// it. The contract against the reference (src/aijcompound/):
//   * the one-thread-per-row schedules (static_rows, dynamic_rows) perform, per block row, the
//     operations of pgk::aijcompound::packed_mult in the same order with no fused multiply-add
//     (__dmul_rn / __dadd_rn), so y equals the reference bit for bit for every outer x inner layout;
//   * group_rows (`group` threads per block row, for long rows) sums each lane's share in row
//     order and combines the lanes in a fixed tree: deterministic run to run, equal to the
//     reference within a relative 1e-13, not bit for bit;
//   * no atomics on values: the dynamic schedule takes rows from an atomic counter, but each row is
//     computed by one thread (or one group), so the result does not depend on which thread took it.
// Vectors are interlaced (PETSc's layout, the seed's vector AoS): x has nbcols*bs scalars, y and z
// nbrows*bs. Device arrays of columns and offsets are 32-bit: upload throws std::invalid_argument
// when a count does not fit (more than 2^31-1 slots or block columns). The kinds that read column
// offsets (reads_column_offsets) hold their columns as 16-bit offsets from the row instead, where all fit
// (ac::column_offsets); the products are the same operations in the same order either way.
//
// +SYM (a symmetric matrix, ac::Packed::symmetric): the lower entries through their partners; every
// entry's values stay stored (the lower ones for values_symmetric, which the caller runs after
// every change of values: a +SYM product is A x only while it answers true).
//
// Copies go through kernels/common/transfer.hpp (logged): upload makes one copy per array (ptr,
// col or its offsets, val; +SYM also lower and partner), upload_pattern two (+SYM four), set_value_slots one,
// values_symmetric one download (its flag); repack, scale and mult make none.
// Errors: std::invalid_argument (bad shapes or sizes), pgk::cuda::Error (CUDA failures).
#pragma once

#include "kernels/common/device_buffer.hpp"
#include "src/aijcompound/layouts.hpp"
#include "src/aijcompound/tune.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgk::cuda::aijcompound {

namespace ac = pgk::aijcompound;

// How rows are spread over the fixed grid of blocks_per_sm * (SM count) blocks of `threads`
// threads (the seed's n_b, n_s, n_t):
//   static_rows:  one thread per block row; block b starts at row threads*b and strides by
//                 threads * gridDim (the seed's static schedule);
//   dynamic_rows: one thread per block row; each block takes the next `threads` rows from a
//                 device counter (the seed's dynamic schedule; the counter is reset by the kernel
//                 itself, so a launch needs no memset);
//   group_rows:   `group` consecutive threads (2, 4, 8, 16 or 32) per block row, static over the
//                 grid; lane l takes the row's positions l, l + group, ...; for long rows, beyond
//                 the seed.
enum class Schedule { static_rows, dynamic_rows, group_rows };
const char *schedule_name(Schedule schedule);

struct LaunchShape {
  Schedule schedule = Schedule::static_rows;
  int threads = 256;     // per block: a multiple of 32 in 32..1024
  int blocks_per_sm = 8; // resident blocks per SM asked for; threads * blocks_per_sm <= 2048
  int group = 1;         // group_rows only: 2, 4, 8, 16 or 32 (1 for the other schedules)
};
// The launch shape of a tuner variant (src/aijcompound/tune.hpp describes them without CUDA).
inline LaunchShape shape_of(const ac::Variant &v) {
  LaunchShape s;
  s.schedule = v.schedule == ac::ScheduleKind::static_rows    ? Schedule::static_rows
               : v.schedule == ac::ScheduleKind::dynamic_rows ? Schedule::dynamic_rows
                                                              : Schedule::group_rows;
  s.threads = v.threads;
  s.blocks_per_sm = v.blocks_per_sm;
  s.group = v.group;
  return s;
}
// std::invalid_argument unless the shape is one of the above.
void check_shape(const LaunchShape &shape);

// Entry kinds whose device copy reads 16-bit column offsets from the row (ac::column_offsets)
// instead of 32-bit columns, where every |column - row| fits (a block bandwidth below 32768): 2
// bytes less a position (of 36 for quaternion AoS, 76 for 3x3, 20 for complex). Measured on an
// H200 (bench/NOTES.md, 2026-12-01, one run, libraries swapped): the tuned 3x3 MatMult 0.0437-0.0438
// ms against 0.0443-0.0448 (vec3d27:n=47), complex 0.0418 against 0.0432 flushed and 0.0428
// against 0.0450 hot (helmholtz2dc:n=1120), quaternion unchanged (0.0556-0.0560 both ways,
// quatsurf:n=800: that product waits on latency, not bytes). PGK_AIJC_OFFSETS: 2 (default) every
// kind, 1 quaternion entries only, 0 none (32-bit columns everywhere), for such measurements.
#ifndef PGK_AIJC_OFFSETS
#define PGK_AIJC_OFFSETS 2
#endif
constexpr bool reads_column_offsets(ac::EntryKind kind) {
  return PGK_AIJC_OFFSETS == 2 || (PGK_AIJC_OFFSETS == 1 && kind == ac::EntryKind::quaternion);
}

// SMs of the current device (cached after the first call).
int sm_count();

class DevicePacked {
public:
  DevicePacked() = default;
  DevicePacked(const DevicePacked &) = delete;
  DevicePacked &operator=(const DevicePacked &) = delete;
  DevicePacked(DevicePacked &&) noexcept = default;
  DevicePacked &operator=(DevicePacked &&) noexcept = default;

  // The arrays of p (the host packing, src/aijcompound/layouts.hpp) on the device: 3 uploads.
  void upload(const ac::Packed &p, void *stream);
  // The pattern of p only (2 uploads): the value slots are zeroed on the device (padding stays 0)
  // and filled by repack from device values, for a copy whose host values may be stale. p.val
  // may be empty (ac::pack_pattern) or full (ignored).
  void upload_pattern(const ac::Packed &p, void *stream);
  // The scatter map of a values-only re-assembly: slots[e] = the slot of CSR entry e
  // (ac::entry_slots of the same outer layout), one upload.
  void set_value_slots(const std::vector<Index> &slots, void *stream);
  bool has_value_slots() const;
  // New values of the same pattern: csr_values (device, nnzb * esize scalars, compound CSR AoS
  // order, entry e at csr_values[e * esize]) scattered into the packed slots in this layout's
  // inner order. Needs set_value_slots. No copies, asynchronous.
  void repack(const double *csr_values, void *stream);
  // Every stored value times alpha (padding stays 0). Asynchronous.
  void scale(double alpha, void *stream);
  // +SYM only: whether every strictly lower entry equals its partner's transposed entry (!= on
  // any component, a NaN included, answers false; as ac::symmetric_values). One kernel and one
  // logged download; std::invalid_argument without +SYM.
  bool values_symmetric(void *stream) const;

  // y = A x (z == nullptr) or y = A x + z (z may equal y; x must not overlap y). Asynchronous.
  void mult(const LaunchShape &shape, const double *x, const double *z, double *y, void *stream) const;

  ac::Outer outer() const { return outer_; }
  ac::Inner inner() const { return inner_; }
  ac::EntryKind kind() const { return kind_; }
  bool symmetric() const { return symmetric_; }
  int bs() const { return bs_; }
  Index nbrows() const { return nbrows_; }
  Index nbcols() const { return nbcols_; }
  Index nnzb() const { return nnzb_; }     // stored entries (not slots)
  Index nslots() const { return nslots_; } // slots, padding included
  Index width() const { return width_; }   // longest row
  // Whether the columns are on the device as 16-bit offsets from their rows (reads_column_offsets
  // above: a block bandwidth below 32768), not as 32-bit columns.
  bool column_offsets() const { return offsets_; }
  // Device bytes of the matrix arrays that one product reads of A (+SYM: the values of every slot
  // but the lower ones, the columns, the lower slots' partners, ptr, lower): 4-byte indices, the
  // columns 2 bytes each where they are offsets.
  std::size_t bytes() const;

private:
  ac::Outer outer_ = ac::Outer::csr;
  ac::Inner inner_ = ac::Inner::aos;
  ac::EntryKind kind_ = ac::EntryKind::block;
  int bs_ = 2;
  Index nbrows_ = 0, nbcols_ = 0, nrows_pad_ = 0, nnzb_ = 0, nslots_ = 0, width_ = 0;
  bool symmetric_ = false;
  Index nlower_ = 0; // +SYM: strictly lower entries (read through their partners)
  DeviceBuffer<int> ptr_, col_, slots_, lower_, partner_;
  DeviceBuffer<std::int16_t> col_offset_; // the columns when offsets_ (col_ is then empty)
  bool offsets_ = false;
  mutable DeviceBuffer<int> flag_; // values_symmetric's answer
  DeviceBuffer<double> val_;
  mutable DeviceBuffer<unsigned int> counter_;          // dynamic_rows: the row counter (kernel-reset)
  bool has_slots_ = false;                              // set_value_slots was called for this pattern
  void take_pattern(const ac::Packed &p, void *stream); // ptr_, col_, counter_ and the sizes
};

} // namespace pgk::cuda::aijcompound
