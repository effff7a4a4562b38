// The residual and the CG's local dots of the device schemes (carpcg_gpu.hpp). The dots are a
// two-pass reduction with a fixed shape (the grid depends only on n), so the result is the same
// bits on every run; only the `count` sums come back to the host.
#include "kernels/carpcg/internal.cuh"

namespace pgk::cuda {

namespace {

using namespace carpcg_detail;

// t_i = b_i - a_i . x, the dot in storage order (sweep.cpp's residual), for the stored row w
// holding A's row i = row_of[w] (w where row_of is null: Impl::row_of).
template <int G>
__global__ void residual_kernel(Index n, const Index *rowptr, const Index *colidx, const double *values,
                                const Index *row_of, const double *x, const double *b, double *t) {
  const int lane = group_lane<G>();
  for (Index w = group_id<G>(); w < n; w += group_count<G>()) {
    const double dot = ordered_dot<G>(rowptr[w], rowptr[w + 1], colidx, values, x, lane);
    const Index i = row_of ? row_of[w] : w;
    if (lane == 0) t[i] = __dsub_rn(b ? b[i] : 0.0, dot);
  }
}

struct DotArgs {
  int count;
  const double *u[CarpcgDevice::kMaxDots], *v[CarpcgDevice::kMaxDots];
  bool weighted[CarpcgDevice::kMaxDots];
  const double *w; // nullptr: no weights for any dot
  // subtract_dots: sub_out = sub_x - sub_y first, entry by entry; u[k] or v[k] == sub_out read
  // that difference. sub_out nullptr: no subtraction.
  const double *sub_x, *sub_y;
  double *sub_out;
};

// A block's sum, a fixed tree over the threads (blockDim.x == kThreads).
__device__ double block_sum(double value, double *shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) shared[threadIdx.x] = __dadd_rn(shared[threadIdx.x], shared[threadIdx.x + half]);
    __syncthreads();
  }
  const double s = shared[0];
  __syncthreads(); // shared is reused by the next dot
  return s;
}

// Entry i of a dot's operand: the subtraction's difference where the operand is its output.
__device__ inline double operand(const DotArgs &args, const double *vec, Index i, double difference) {
  return args.sub_out && vec == args.sub_out ? difference : vec[i];
}

// Pass 1: each block's partial sum of every dot over a grid-stride range, the products as the
// host's ((u v) w). Each dot has its own running sum over the thread's entries in index order, so
// the sums are those of one loop per dot; one pass reads each entry once for all of them.
__global__ void dots_partial_kernel(DotArgs args, Index n, double *partials) {
  __shared__ double shared[kThreads];
  double sums[CarpcgDevice::kMaxDots] = {};
  for (Index i = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<Index>(gridDim.x) * blockDim.x) {
    double difference = 0;
    if (args.sub_out) args.sub_out[i] = difference = __dsub_rn(args.sub_x[i], args.sub_y[i]);
#pragma unroll
    for (int k = 0; k < CarpcgDevice::kMaxDots; ++k) {
      if (k >= args.count) break;
      const double p = __dmul_rn(operand(args, args.u[k], i, difference), operand(args, args.v[k], i, difference));
      sums[k] = __dadd_rn(sums[k], args.weighted[k] && args.w ? __dmul_rn(p, args.w[i]) : p);
    }
  }
  for (int k = 0; k < args.count; ++k) {
    const double total = block_sum(sums[k], shared);
    if (threadIdx.x == 0) partials[static_cast<Index>(k) * gridDim.x + blockIdx.x] = total;
  }
}

// Pass 2: one block sums each dot's partials.
__global__ void dots_final_kernel(int count, int nparts, const double *partials, double *out) {
  __shared__ double shared[kThreads];
  for (int k = 0; k < count; ++k) {
    double s = 0;
    for (int p = threadIdx.x; p < nparts; p += kThreads) s = __dadd_rn(s, partials[k * nparts + p]);
    const double total = block_sum(s, shared);
    if (threadIdx.x == 0) out[k] = total;
  }
}

} // namespace

void CarpcgDevice::residual(const double *x, const double *b, double *t, void *stream) const {
  const Impl &d = *impl_;
  if (!d.ready) throw std::logic_error("carpcg device: residual before a successful set-up");
  if (d.n == 0) return;
  with_lanes(d.lanes, [&](auto g) {
    residual_kernel<decltype(g)::value><<<group_grid(d.n, decltype(g)::value), kThreads, 0, as_stream(stream)>>>(
        d.n, d.rowptr.data(), d.colidx.data(), d.values.data(), d.row_of, x, b, t);
  });
  PGK_CUDA_CHECK_LAUNCH();
}

namespace {

// Both passes and the one copy of the `args.count` sums into out.
void run_dots(CarpcgDevice::Impl &d, const DotArgs &args, double out[], void *stream) {
  const int grid = grid_for(d.n, kThreads, kDotBlocks);
  dots_partial_kernel<<<grid, kThreads, 0, as_stream(stream)>>>(args, d.n, d.partials.data());
  PGK_CUDA_CHECK_LAUNCH();
  dots_final_kernel<<<1, kThreads, 0, as_stream(stream)>>>(args.count, grid, d.partials.data(), d.dot_out.data());
  PGK_CUDA_CHECK_LAUNCH();
  copy_to_host(out, d.dot_out.data(), sizeof(double) * static_cast<std::size_t>(args.count), stream);
}

DotArgs dot_args(const CarpcgDevice::Impl &d, int count, const double *const u[], const double *const v[],
                 const bool weighted[]) {
  if (count < 0 || count > CarpcgDevice::kMaxDots) throw std::invalid_argument("carpcg device: at most 4 dots at once");
  DotArgs args{};
  args.count = count;
  args.w = d.weights.size() ? d.weights.data() : nullptr;
  for (int k = 0; k < count; ++k) args.u[k] = u[k], args.v[k] = v[k], args.weighted[k] = weighted[k];
  return args;
}

} // namespace

void CarpcgDevice::dots(int count, const double *const u[], const double *const v[], const bool weighted[],
                        double out[], void *stream) {
  Impl &d = *impl_;
  const DotArgs args = dot_args(d, count, u, v, weighted);
  if (count == 0) return;
  if (d.n == 0) {
    for (int k = 0; k < count; ++k) out[k] = 0;
    return;
  }
  run_dots(d, args, out, stream);
}

void CarpcgDevice::subtract_dots(const double *x, const double *y, double *w, int count, const double *const u[],
                                 const double *const v[], const bool weighted[], double out[], void *stream) {
  Impl &d = *impl_;
  DotArgs args = dot_args(d, count, u, v, weighted);
  if (d.n == 0) {
    for (int k = 0; k < count; ++k) out[k] = 0;
    return;
  }
  if (count == 0) return subtract(d.n, x, y, w, stream);
  args.sub_x = x;
  args.sub_y = y;
  args.sub_out = w;
  run_dots(d, args, out, stream);
}

} // namespace pgk::cuda
