// DevicePacked (layouts.hpp): the packed arrays on the device, their values-only re-pack and
// scaling, and the launch of the SpMV kernels (spmv.cu) on the grid of a LaunchShape.
#include "kernels/aijcompound/layouts.hpp"
#include "kernels/aijcompound/spmv.cuh"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"

#include <atomic>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace pgk::cuda::aijcompound {
namespace {

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 8192;

// The 32-bit device copy of a host index array; std::invalid_argument when a value does not fit.
std::vector<int> narrow(const std::vector<Index> &v, const char *what) {
  std::vector<int> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] < INT_MIN || v[i] > INT_MAX)
      throw std::invalid_argument(std::string("aijcompound: ") + what + " does not fit 32-bit device indices");
    out[i] = static_cast<int>(v[i]);
  }
  return out;
}

// v on the device as 32-bit ints: straight from v where Index is int (no host copy: the tuner
// uploads a pattern per candidate layout, each as large as the matrix's block columns), else
// through the checked narrowing copy. A template, so that the branch for the other index width is
// discarded, not compiled.
template <class I> void upload_int(DeviceBuffer<int> &dst, const std::vector<I> &v, const char *what, void *stream) {
  if constexpr (std::is_same_v<I, int>) {
    dst.upload(v.data(), v.size(), stream);
  } else {
    const std::vector<int> n = narrow(v, what);
    dst.upload(n.data(), n.size(), stream);
  }
}

void check_fits(Index n, const char *what) {
  if (n < 0 || n > INT_MAX)
    throw std::invalid_argument(std::string("aijcompound: ") + what + " " + std::to_string(n) +
                                " does not fit 32-bit device indices");
}

// Entries of the row-metadata array of `outer` for nbrows rows (see ac::Packed).
std::size_t ptr_size(ac::Outer outer, Index nbrows) {
  if (outer == ac::Outer::csr) return static_cast<std::size_t>(nbrows) + 1;
  if (outer == ac::Outer::ell) return static_cast<std::size_t>(nbrows);
  const Index h = ac::slice_height(outer, nbrows);
  return static_cast<std::size_t>((nbrows + h - 1) / h) + 1;
}

// The sizes of p agree with each other (a Packed that did not come from ac::pack may not); a
// pattern (ac::pack_pattern) may come without values.
void check_packed(const ac::Packed &p, bool pattern_only) {
  ac::check_kind(p.kind, p.bs);
  const bool val_ok = p.val.size() == p.col.size() * p.esize() || (pattern_only && p.val.empty());
  if (p.nbrows < 0 || p.nbcols < 0 || p.nrows_pad != ac::padded_rows(p.outer, p.nbrows) ||
      p.ptr.size() != ptr_size(p.outer, p.nbrows) || !val_ok ||
      (p.symmetric && (p.lower.size() != static_cast<std::size_t>(p.nbrows) || p.partner.size() != p.col.size())))
    throw std::invalid_argument("aijcompound: DevicePacked::upload of inconsistent packed arrays");
  check_fits(p.nbrows, "block rows");
  check_fits(p.nrows_pad, "padded block rows");
  check_fits(p.nbcols, "block columns");
  check_fits(p.nslots(), "slots");
}

__global__ void repack_kernel(const double *__restrict__ csr, const int *__restrict__ slots, double *__restrict__ val,
                              Index nnzb, int esize, int nslots, bool aos) {
  // One thread per scalar (entry e, component c): the reads of csr are coalesced.
  const std::int64_t n = static_cast<std::int64_t>(nnzb) * esize;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t e = k / esize, c = k % esize, s = slots[e];
    val[aos ? s * esize + c : c * nslots + s] = csr[k];
  }
}

// The slots of a layout (ac::Packed): position j of row r.
struct SlotMap {
  ac::Outer outer;
  const int *ptr;
  int nrows_pad;
  __device__ std::int64_t operator()(int r, int j) const {
    switch (outer) {
    case ac::Outer::csr: return static_cast<std::int64_t>(ptr[r]) + j;
    case ac::Outer::ell: return r + static_cast<std::int64_t>(j) * nrows_pad;
    default: {
      const int h = outer == ac::Outer::sliced16 ? 16 : 32;
      return ptr[r / h] + r % h + static_cast<std::int64_t>(j) * h;
    }
    }
  }
};

// One thread per block row: flag = 1 when a component of a strictly lower entry differs (!=, so a
// NaN always does) from the one it mirrors in the partner (block: transposed; complex and
// quaternion: conjugated, the first component as it is).
__global__ void symmetric_check_kernel(SlotMap slot, const int *__restrict__ lower, const int *__restrict__ partner,
                                       const double *__restrict__ val, int nbrows, int nslots, int esize, int bs,
                                       bool block, bool aos, int *flag) {
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < nbrows;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    for (int j = 0; j < lower[r]; ++j) {
      const std::int64_t s = slot(static_cast<int>(r), j), q = partner[s];
      for (int c = 0; c < esize; ++c) {
        const int cq = block ? (c % bs) * bs + c / bs : c;
        const double vs = aos ? val[s * esize + c] : val[static_cast<std::int64_t>(c) * nslots + s];
        double vq = aos ? val[q * esize + cq] : val[static_cast<std::int64_t>(cq) * nslots + q];
        if (!block && c > 0) vq = -vq;
        if (vs != vq) *flag = 1;
      }
    }
  }
}

__global__ void scale_kernel(double *__restrict__ val, std::int64_t n, double alpha) {
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    val[k] = __dmul_rn(val[k], alpha);
}

} // namespace

const char *schedule_name(Schedule schedule) {
  switch (schedule) {
  case Schedule::static_rows: return "static";
  case Schedule::dynamic_rows: return "dynamic";
  case Schedule::group_rows: return "group";
  }
  return "?";
}

void check_shape(const LaunchShape &s) {
  const bool schedule_ok =
      s.schedule == Schedule::static_rows || s.schedule == Schedule::dynamic_rows || s.schedule == Schedule::group_rows;
  const bool threads_ok = s.threads >= 32 && s.threads <= 1024 && s.threads % 32 == 0;
  const bool blocks_ok = s.blocks_per_sm >= 1 && static_cast<long long>(s.threads) * s.blocks_per_sm <= 2048;
  const bool group_ok = s.schedule == Schedule::group_rows
                            ? (s.group == 2 || s.group == 4 || s.group == 8 || s.group == 16 || s.group == 32)
                            : s.group == 1;
  if (!schedule_ok || !threads_ok || !blocks_ok || !group_ok)
    throw std::invalid_argument("aijcompound: bad launch shape (schedule " +
                                std::to_string(static_cast<int>(s.schedule)) + ", threads " +
                                std::to_string(s.threads) + ", blocks per SM " + std::to_string(s.blocks_per_sm) +
                                ", group " + std::to_string(s.group) + ")");
}

int sm_count() {
  static std::atomic<int> cached{0};
  int n = cached.load(std::memory_order_relaxed);
  if (n > 0) return n;
  int dev = 0;
  PGK_CUDA_CHECK(cudaGetDevice(&dev));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
  cached.store(n, std::memory_order_relaxed);
  return n;
}

void DevicePacked::upload(const ac::Packed &p, void *stream) {
  check_packed(p, false);
  take_pattern(p, stream);
  val_.upload(p.val.data(), p.val.size(), stream);
}

void DevicePacked::upload_pattern(const ac::Packed &p, void *stream) {
  check_packed(p, true);
  take_pattern(p, stream);
  const std::size_t nval = p.col.size() * static_cast<std::size_t>(p.esize());
  val_.allocate(nval);
  if (nval > 0) PGK_CUDA_CHECK(cudaMemsetAsync(val_.data(), 0, nval * sizeof(double), as_stream(stream)));
}

void DevicePacked::take_pattern(const ac::Packed &p, void *stream) {
  Index nnzb = 0;
  for (Index c : p.col) nnzb += c >= 0 ? 1 : 0;
  if (counter_.size() == 0) {
    counter_.allocate(2);
    PGK_CUDA_CHECK(cudaMemsetAsync(counter_.data(), 0, 2 * sizeof(unsigned int), as_stream(stream)));
    PGK_CUDA_CHECK(cudaStreamSynchronize(as_stream(stream)));
  }
  upload_int(ptr_, p.ptr, "row metadata", stream);
  std::vector<std::int16_t> offsets;
  offsets_ = reads_column_offsets(p.kind) && ac::column_offsets(p, &offsets);
  if (offsets_) {
    col_offset_.upload(offsets.data(), offsets.size(), stream);
    col_ = DeviceBuffer<int>();
  } else {
    upload_int(col_, p.col, "block columns", stream);
    col_offset_ = DeviceBuffer<std::int16_t>();
  }
  symmetric_ = p.symmetric;
  nlower_ = 0;
  if (p.symmetric) {
    upload_int(lower_, p.lower, "lower counts", stream);
    upload_int(partner_, p.partner, "partners", stream);
    for (Index l : p.lower) nlower_ += l;
  } else {
    lower_ = DeviceBuffer<int>();
    partner_ = DeviceBuffer<int>();
  }
  outer_ = p.outer;
  inner_ = p.inner;
  kind_ = p.kind;
  bs_ = p.bs;
  nbrows_ = p.nbrows;
  nbcols_ = p.nbcols;
  nrows_pad_ = p.nrows_pad;
  nnzb_ = nnzb;
  nslots_ = p.nslots();
  width_ = p.width;
  has_slots_ = false; // a new pattern: the old scatter map no longer applies
}

void DevicePacked::set_value_slots(const std::vector<Index> &slots, void *stream) {
  if (static_cast<Index>(slots.size()) != nnzb_)
    throw std::invalid_argument("aijcompound: set_value_slots with " + std::to_string(slots.size()) + " slots for " +
                                std::to_string(nnzb_) + " stored entries");
  for (Index s : slots)
    if (s < 0 || s >= nslots_) throw std::invalid_argument("aijcompound: set_value_slots: slot out of range");
  upload_int(slots_, slots, "slots", stream);
  has_slots_ = true;
}

bool DevicePacked::has_value_slots() const { return has_slots_; }

void DevicePacked::repack(const double *csr_values, void *stream) {
  if (!has_slots_) throw std::invalid_argument("aijcompound: repack needs set_value_slots first");
  if (nnzb_ == 0) return;
  const int es = ac::entry_size(kind_, bs_);
  repack_kernel<<<grid_for(static_cast<long long>(nnzb_) * es, kThreads, kMaxBlocks), kThreads, 0, as_stream(stream)>>>(
      csr_values, slots_.data(), val_.data(), nnzb_, es, static_cast<int>(nslots_), inner_ == ac::Inner::aos);
  PGK_CUDA_CHECK_LAUNCH();
}

void DevicePacked::scale(double alpha, void *stream) {
  const auto n = static_cast<std::int64_t>(val_.size());
  if (n == 0) return;
  scale_kernel<<<grid_for(n, kThreads, kMaxBlocks), kThreads, 0, as_stream(stream)>>>(val_.data(), n, alpha);
  PGK_CUDA_CHECK_LAUNCH();
}

bool DevicePacked::values_symmetric(void *stream) const {
  if (!symmetric_) throw std::invalid_argument("aijcompound: values_symmetric on a layout without +SYM");
  if (nlower_ == 0) return true;
  if (flag_.size() == 0) flag_.allocate(1);
  PGK_CUDA_CHECK(cudaMemsetAsync(flag_.data(), 0, sizeof(int), as_stream(stream)));
  const SlotMap slot{outer_, ptr_.data(), static_cast<int>(nrows_pad_)};
  symmetric_check_kernel<<<grid_for(nbrows_, kThreads, kMaxBlocks), kThreads, 0, as_stream(stream)>>>(
      slot, lower_.data(), partner_.data(), val_.data(), static_cast<int>(nbrows_), static_cast<int>(nslots_),
      ac::entry_size(kind_, bs_), bs_, kind_ == ac::EntryKind::block, inner_ == ac::Inner::aos, flag_.data());
  PGK_CUDA_CHECK_LAUNCH();
  return read_scalar(flag_.data(), stream) == 0;
}

// The dynamic schedule's counter belongs to this object: two dynamic products of the same matrix
// must not run at the same time on different streams (one stream orders them).
void DevicePacked::mult(const LaunchShape &shape, const double *x, const double *z, double *y, void *stream) const {
  check_shape(shape);
  if (nbrows_ == 0) return;
  SpmvArgs a;
  a.kind = kind_;
  a.bs = bs_;
  a.outer = outer_;
  a.inner = inner_;
  a.ptr = ptr_.data();
  a.col = col_.data();
  a.offsets = offsets_;
  a.col_offset = col_offset_.data();
  a.symmetric = symmetric_;
  a.lower = lower_.data();
  a.partner = partner_.data();
  a.val = val_.data();
  a.nbrows = static_cast<int>(nbrows_);
  a.nrows_pad = static_cast<int>(nrows_pad_);
  a.nslots = static_cast<int>(nslots_);
  a.x = x;
  a.z = z;
  a.y = y;
  a.counter = counter_.data();
  // The shape's grid, less the blocks that would find no row (small matrices).
  const long long rows_per_block = shape.threads / shape.group;
  const int grid =
      grid_for(nbrows_, static_cast<int>(rows_per_block), static_cast<long long>(shape.blocks_per_sm) * sm_count());
  launch_spmv(a, shape, grid, as_stream(stream));
}

std::size_t DevicePacked::bytes() const {
  if (symmetric_) {
    const std::size_t es = static_cast<std::size_t>(ac::entry_size(kind_, bs_));
    return static_cast<std::size_t>(nslots_ - nlower_) * es * sizeof(double) +
           (col_.size() + static_cast<std::size_t>(nlower_) + ptr_.size() + lower_.size()) * sizeof(int) +
           col_offset_.size() * sizeof(std::int16_t);
  }
  return val_.size() * sizeof(double) + (col_.size() + ptr_.size()) * sizeof(int) +
         col_offset_.size() * sizeof(std::int16_t);
}

} // namespace pgk::cuda::aijcompound
