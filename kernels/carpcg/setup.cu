// CarpcgDevice set-up: the device copy of A, its row norms and value check, and each scheme's
// data, built on the host from the pattern and uploaded once (carpcg_gpu.hpp).
#include "kernels/carpcg/internal.cuh"

#include "kernels/common/cub_temp.cuh"
#include "src/carpcg/flat.hpp"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace pgk::cuda {

namespace {

using namespace carpcg_detail;

struct BadRows {
  unsigned long long count;
  long long first;
};

// |a_i|^2 summed in storage order (sweep.cpp's row_norms2), one thread per row, and the rows
// with a non-finite entry or norm (counted with integer atomics: the count and the minimum do
// not depend on the order).
__global__ void row_norms_kernel(Index n, const Index *rowptr, const double *vals, double *norms2, BadRows *bad) {
  for (Index i = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<Index>(gridDim.x) * blockDim.x) {
    double s = 0;
    bool finite = true;
    for (Index k = rowptr[i]; k < rowptr[i + 1]; ++k) {
      finite = finite && isfinite(vals[k]);
      s = __dadd_rn(s, __dmul_rn(vals[k], vals[k]));
    }
    norms2[i] = s;
    if (!finite || !isfinite(s)) {
      atomicAdd(&bad->count, 1ull);
      atomicMin(&bad->first, static_cast<long long>(i));
    }
  }
}

__global__ void init_bad_rows(BadRows *bad, Index n) { *bad = BadRows{0ull, static_cast<long long>(n)}; }

template <class T> void upload(DeviceBuffer<T> &buf, const std::vector<T> &host, void *stream) {
  buf.upload(host.data(), host.size(), stream);
}

// Seconds since `start`, after the stream's work so far; restarts `start` (a phase boundary).
double lap(std::chrono::steady_clock::time_point &start, void *stream) {
  PGK_CUDA_CHECK(cudaStreamSynchronize(as_stream(stream)));
  const auto now = std::chrono::steady_clock::now();
  const double s = std::chrono::duration<double>(now - start).count();
  start = now;
  return s;
}

void device_copy(void *dst, const void *src, std::size_t bytes, void *stream) {
  if (bytes) PGK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, as_stream(stream)));
}

// multicolor: len[w] = the length of the w-th row in colour order (row rows[w]); len[n] = 0, so
// that the exclusive scan of n + 1 entries ends with the entry count.
__global__ void colour_lengths_kernel(Index n, const Index *rowptr, const Index *rows, Index *len) {
  for (Index w = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; w <= n;
       w += static_cast<Index>(gridDim.x) * blockDim.x)
    len[w] = w < n ? rowptr[rows[w] + 1] - rowptr[rows[w]] : 0;
}

// multicolor: row rows[w] of (rowptr, colidx, values, norms2) copied to position w of the
// colour-ordered arrays, G lanes a row (consecutive lanes on consecutive entries).
template <int G>
__global__ void colour_rows_kernel(Index n, const Index *rows, const Index *rowptr, const Index *colidx,
                                   const double *values, const double *norms2, const Index *out_ptr, Index *out_col,
                                   double *out_val, double *out_norms2) {
  const int lane = group_lane<G>();
  for (Index w = group_id<G>(); w < n; w += group_count<G>()) {
    const Index i = rows[w], from = rowptr[i], len = rowptr[i + 1] - from, to = out_ptr[w];
    for (Index k = lane; k < len; k += G) {
      out_col[to + k] = colidx[from + k];
      out_val[to + k] = values[from + k];
    }
    if (lane == 0) out_norms2[w] = norms2[i];
  }
}

// The operator's arrays put in colour order (Impl::color_rows): the colour kernels then read the
// rows of a colour, their bounds and norms as contiguous runs instead of scattered rows through
// an index. Same entries in the same order within each row, so the same bits. Both copies live
// until the swap (the set-up's peak: a second copy of the operator's arrays).
void order_operator_by_colour(CarpcgDevice::Impl &d, void *stream) {
  const cudaStream_t s = as_stream(stream);
  const Index n = d.n;
  DeviceBuffer<Index> ptr(static_cast<std::size_t>(n) + 1), col(static_cast<std::size_t>(d.nnz));
  DeviceBuffer<double> val(static_cast<std::size_t>(d.nnz)), norms2(static_cast<std::size_t>(n));
  colour_lengths_kernel<<<thread_grid(n + 1), kThreads, 0, s>>>(n, d.rowptr.data(), d.color_rows.data(), ptr.data());
  PGK_CUDA_CHECK_LAUNCH();
  CubTemp(s).run(
      [&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, ptr.data(), ptr.data(), n + 1, s); });
  with_lanes(d.lanes, [&](auto g) {
    constexpr int G = decltype(g)::value;
    colour_rows_kernel<G><<<group_grid(n, G), kThreads, 0, s>>>(n, d.color_rows.data(), d.rowptr.data(),
                                                                d.colidx.data(), d.values.data(), d.norms2.data(),
                                                                ptr.data(), col.data(), val.data(), norms2.data());
  });
  PGK_CUDA_CHECK_LAUNCH();
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
  d.rowptr = std::move(ptr); // a move swaps: the natural-order arrays are freed on leaving
  d.colidx = std::move(col);
  d.values = std::move(val);
  d.norms2 = std::move(norms2);
}

void setup_multicolor(CarpcgDevice::Impl &d, const CsrView &pattern, const pgk::carpcg::Coloring *given, void *stream) {
  if (given && given->color.size() != static_cast<std::size_t>(d.n))
    throw std::invalid_argument("carpcg device: the colouring has " + std::to_string(given->color.size()) +
                                " rows, the matrix " + std::to_string(d.n));
  auto start = std::chrono::steady_clock::now();
  d.coloring = given ? *given : pgk::carpcg::distance2_coloring(pattern);
  d.times.scheme_host = lap(start, stream);
  upload(d.color_rows, d.coloring->rows, stream);
  d.times.upload = lap(start, stream);
  if (d.n > 0) order_operator_by_colour(d, stream);
  d.row_of = d.color_rows.data();
  d.overlap_min_blocks = d.opt.overlap_min_blocks >= 0 ? d.opt.overlap_min_blocks : colour_wave_blocks(d.lanes);
  d.times.operator_copy += lap(start, stream);
}

// The transpose with each entry's position in a (src/carpcg/flat.hpp), so that a column sum
// runs in natural row order.
void setup_cimmino(CarpcgDevice::Impl &d, const CsrView &pattern, void *stream) {
  auto start = std::chrono::steady_clock::now();
  const pgk::carpcg::TransposeMap t = pgk::carpcg::transpose_map(pattern);
  d.times.scheme_host = lap(start, stream);
  upload(d.t_colptr, t.colptr, stream);
  upload(d.t_rows, t.rows, stream);
  upload(d.t_entry, t.entry, stream);
  d.coef.allocate(static_cast<std::size_t>(d.n));
  d.times.upload = lap(start, stream);
}

// BlockPlan of contiguous blocks (the zero rows it leaves out need the norms) as flat arrays
// (src/carpcg/flat.hpp: the layout whose host emulation the unit tests check against the plan).
void setup_carp(CarpcgDevice::Impl &d, const CsrView &pattern, void *stream) {
  auto start = std::chrono::steady_clock::now();
  const std::vector<double> norms2 = d.norms2.download(stream);
  d.times.upload = lap(start, stream);
  const std::vector<Index> block_of_row = pgk::carpcg::contiguous_blocks(d.n, d.opt.blocks, d.opt.host_threads);
  const Index t = std::max<Index>(1, std::min<Index>(d.opt.blocks, std::max<Index>(d.n, 1)));
  d.plan.emplace(pattern, norms2, block_of_row, t, d.opt.host_threads);
  d.times.scheme_host = lap(start, stream);
  const pgk::carpcg::FlatBlocks f = pgk::carpcg::flatten(*d.plan, pattern, d.opt.host_threads);
  d.times.flatten = lap(start, stream);
  d.nblocks = f.nblocks();
  upload(d.block_row_ptr, f.row_ptr, stream);
  upload(d.block_rows, f.rows, stream);
  upload(d.block_col_ptr, f.col_ptr, stream);
  upload(d.block_cols, f.cols, stream);
  upload(d.local_col, d.plan->local_col(), stream);
  upload(d.gather_ptr, f.gather_ptr, stream);
  upload(d.gather_pos, f.gather_pos, stream);
  d.copies.allocate(f.cols.size());
  const Index cap = static_cast<Index>(carpcg_detail::kCopyPerLane) * d.lanes;
  Index fit = 0, widest_fit = 0;
  for (Index k = 0; k < d.nblocks; ++k) {
    const Index width = f.col_ptr[static_cast<std::size_t>(k) + 1] - f.col_ptr[static_cast<std::size_t>(k)];
    if (width > cap) continue;
    ++fit;
    widest_fit = std::max(widest_fit, width);
  }
  d.copy_stride = 2 * fit >= d.nblocks ? widest_fit : 0;
  d.host_weights.clear();
  if (d.opt.weighted_dot) {
    for (const Index m : d.plan->multiplicity()) d.host_weights.push_back(std::max(static_cast<double>(m), 1.0));
    upload(d.weights, d.host_weights, stream);
  }
  d.times.upload += lap(start, stream);
}

} // namespace

CarpcgDevice::CarpcgDevice() : impl_(std::make_unique<Impl>()) {}
CarpcgDevice::~CarpcgDevice() = default;

bool CarpcgDevice::ready() const { return impl_->ready; }
Index CarpcgDevice::size() const { return impl_->n; }
Index CarpcgDevice::nnz() const { return impl_->nnz; }
Index CarpcgDevice::ncols() const { return impl_->ncols; }

void CarpcgDevice::set_multiplicity(const std::vector<double> &m, void *stream) {
  Impl &d = *impl_;
  if (!d.plan) throw std::logic_error("carpcg device: set_multiplicity without a carp set-up");
  if (m.size() != static_cast<std::size_t>(d.n))
    throw std::invalid_argument("carpcg device: " + std::to_string(m.size()) + " multiplicities for " +
                                std::to_string(d.n) + " owned unknowns");
  upload(d.divisor, m, stream);
  if (!d.opt.weighted_dot) return;
  d.host_weights.clear();
  for (const double w : m) d.host_weights.push_back(std::max(w, 1.0));
  upload(d.weights, d.host_weights, stream);
}
void CarpcgDevice::set_ghost_multiplicity(const std::vector<double> &m, void *stream) {
  Impl &d = *impl_;
  if (!d.plan) throw std::logic_error("carpcg device: set_ghost_multiplicity without a carp set-up");
  if (m.size() != static_cast<std::size_t>(d.ncols - d.n))
    throw std::invalid_argument("carpcg device: " + std::to_string(m.size()) + " ghost multiplicities for " +
                                std::to_string(d.ncols - d.n) + " ghosts");
  upload(d.ghost_divisor, m, stream);
}
void CarpcgDevice::set_received(const std::vector<Index> &rows, void *stream) {
  Impl &d = *impl_;
  if (!d.plan) throw std::logic_error("carpcg device: set_received without a carp set-up");
  std::vector<unsigned char> flags(static_cast<std::size_t>(d.n), 0);
  for (const Index j : rows) {
    if (j < 0 || j >= d.n)
      throw std::invalid_argument("carpcg device: received unknown " + std::to_string(j) + " is not owned (" +
                                  std::to_string(d.n) + " owned)");
    flags[static_cast<std::size_t>(j)] = 1;
  }
  upload(d.received, flags, stream);
  upload(d.received_rows, rows, stream);
  d.host_received_rows = rows;
  d.split = false; // a new split_blocks is needed
}
const pgk::carpcg::Coloring *CarpcgDevice::coloring() const { return impl_->coloring ? &*impl_->coloring : nullptr; }
const pgk::carpcg::BlockPlan *CarpcgDevice::plan() const { return impl_->plan ? &*impl_->plan : nullptr; }
const CarpcgSetupTimes &CarpcgDevice::setup_times() const { return impl_->times; }
const std::vector<double> &CarpcgDevice::weights() const { return impl_->host_weights; }
int CarpcgDevice::lanes() const { return impl_ ? impl_->lanes : 0; }
long CarpcgDevice::overlap_min_blocks() const { return impl_ ? impl_->overlap_min_blocks : 0; }
int CarpcgDevice::colour_rows_per_block() const { return impl_ ? carpcg_detail::kThreads / impl_->lanes : 0; }
Index CarpcgDevice::carp_shared_doubles() const { return impl_ ? impl_->copy_stride : 0; }

int carpcg_lanes_per_row(int requested, Index nrows, Index nnz, pgk::carpcg::Scheme scheme) {
  if (requested != 0 && requested != 4 && requested != 8 && requested != 16 && requested != 32)
    throw std::invalid_argument("carpcg device: lanes per row must be 0 (from the mean row), 4, 8, 16 or 32, got " +
                                std::to_string(requested));
  if (requested) return requested;
  const double mean = nrows > 0 ? static_cast<double>(nnz) / static_cast<double>(nrows) : 0.0;
  // Row kernels (multicolor, cimmino): two entries a lane, so twice the rows in flight per warp
  // (fem2d, 7 a row, 4M rows on an H200: multicolor 1.08 ms an iteration with 4 lanes, 1.23 with 8).
  // Carp's block sweep: one entry a lane (its shared copy is kCopyPerLane doubles a lane; 4 lanes
  // took 2.62 ms against 1.45 with 8).
  return lanes_covering(scheme == pgk::carpcg::Scheme::Carp ? mean : mean / 2);
}

CarpcgValueCheck CarpcgDevice::setup(const CsrView &a, const CsrView &pattern, const CarpcgDeviceOptions &o,
                                     void *stream, const pgk::carpcg::Coloring *coloring) {
  return setup_from(a, pattern, o, stream, coloring, false);
}

CarpcgValueCheck CarpcgDevice::setup_host(const CsrView &a, const CarpcgDeviceOptions &o, void *stream) {
  return setup_from(a, a, o, stream, nullptr, true);
}

CarpcgValueCheck CarpcgDevice::setup_from(const CsrView &a, const CsrView &pattern, const CarpcgDeviceOptions &o,
                                          void *stream, const pgk::carpcg::Coloring *coloring, bool a_on_host) {
  using pgk::carpcg::Scheme;
  if (a.ncols < a.nrows || pattern.nrows != a.nrows || pattern.ncols != a.ncols)
    throw std::invalid_argument("carpcg device: needs a square matrix (or a rank's rows over owned and ghost unknowns) "
                                "and its pattern, got " +
                                std::to_string(a.nrows) + " x " + std::to_string(a.ncols));
  if (a.ncols != a.nrows && o.scheme == Scheme::Multicolor)
    throw std::invalid_argument(
        "carpcg device: the multicolor scheme needs a square matrix (its exchanges under MPI are "
        "the host backend's)");
  if (o.scheme == Scheme::Sequential)
    throw std::invalid_argument("carpcg device: the sequential scheme is swept on the host");
  if (o.blocks < 1) throw std::invalid_argument("carpcg device: need at least one block");
  if (o.overlap_min_blocks < -1)
    throw std::invalid_argument("carpcg device: overlap_min_blocks must be -1 (one wave) or >= 0, got " +
                                std::to_string(o.overlap_min_blocks));
  const int lanes = carpcg_lanes_per_row(o.lanes, a.nrows, pattern.nnz_host(), o.scheme);
  impl_ = std::make_unique<Impl>();
  Impl &d = *impl_;
  d.opt = o;
  d.lanes = lanes;
  d.n = a.nrows;
  d.ncols = a.ncols;
  d.nnz = pattern.nnz_host();
  auto start = std::chrono::steady_clock::now(); // the operator's allocations are in its copy
  d.rowptr.allocate(static_cast<std::size_t>(d.n) + 1);
  d.colidx.allocate(static_cast<std::size_t>(d.nnz));
  d.values.allocate(static_cast<std::size_t>(d.nnz));
  d.norms2.allocate(static_cast<std::size_t>(d.n));
  d.mid.allocate(static_cast<std::size_t>(d.n));
  CarpcgValueCheck check;
  if (d.n > 0) { // an empty matrix may have no device arrays at all
    const auto fill = a_on_host ? copy_to_device : device_copy;
    fill(d.rowptr.data(), a.rowptr, sizeof(Index) * (static_cast<std::size_t>(d.n) + 1), stream);
    fill(d.colidx.data(), a.colidx, sizeof(Index) * static_cast<std::size_t>(d.nnz), stream);
    fill(d.values.data(), a.values, sizeof(double) * static_cast<std::size_t>(d.nnz), stream);
    DeviceBuffer<BadRows> bad(1);
    init_bad_rows<<<1, 1, 0, as_stream(stream)>>>(bad.data(), d.n);
    PGK_CUDA_CHECK_LAUNCH();
    row_norms_kernel<<<thread_grid(d.n), kThreads, 0, as_stream(stream)>>>(d.n, d.rowptr.data(), d.values.data(),
                                                                           d.norms2.data(), bad.data());
    PGK_CUDA_CHECK_LAUNCH();
    const BadRows got = bad.get(0, stream);
    check.bad_rows = static_cast<Index>(got.count);
    check.first_bad_row = got.count ? static_cast<Index>(got.first) : -1;
  }
  d.times.operator_copy = lap(start, stream);
  if (check.bad_rows) return check;
  switch (o.scheme) {
  case Scheme::Multicolor: setup_multicolor(d, pattern, coloring, stream); break;
  case Scheme::Cimmino: setup_cimmino(d, pattern, stream); break;
  case Scheme::Carp: setup_carp(d, pattern, stream); break;
  case Scheme::Sequential: break;
  }
  d.partials.allocate(static_cast<std::size_t>(kMaxDots) * kDotBlocks);
  d.dot_out.allocate(kMaxDots);
  d.ready = true;
  return check;
}

} // namespace pgk::cuda
