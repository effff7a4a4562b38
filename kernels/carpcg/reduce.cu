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

// Pass 1: each block's partial sum of every dot over a grid-stride range, the products as the
// host's ((u v) w).
__global__ void dots_partial_kernel(DotArgs args, Index n, double *partials) {
  __shared__ double shared[kThreads];
  for (int k = 0; k < args.count; ++k) {
    const double *u = args.u[k], *v = args.v[k], *w = args.weighted[k] ? args.w : nullptr;
    double s = 0;
    for (Index i = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<Index>(gridDim.x) * blockDim.x) {
      const double p = __dmul_rn(u[i], v[i]);
      s = __dadd_rn(s, w ? __dmul_rn(p, w[i]) : p);
    }
    const double total = block_sum(s, shared);
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

void CarpcgDevice::dots(int count, const double *const u[], const double *const v[], const bool weighted[],
                        double out[], void *stream) {
  Impl &d = *impl_;
  if (count < 0 || count > kMaxDots) throw std::invalid_argument("carpcg device: at most 4 dots at once");
  if (count == 0) return;
  if (d.n == 0) {
    for (int k = 0; k < count; ++k) out[k] = 0;
    return;
  }
  DotArgs args{};
  args.count = count;
  args.w = d.weights.size() ? d.weights.data() : nullptr;
  for (int k = 0; k < count; ++k) args.u[k] = u[k], args.v[k] = v[k], args.weighted[k] = weighted[k];
  const int grid = grid_for(d.n, kThreads, kDotBlocks);
  dots_partial_kernel<<<grid, kThreads, 0, as_stream(stream)>>>(args, d.n, d.partials.data());
  PGK_CUDA_CHECK_LAUNCH();
  dots_final_kernel<<<1, kThreads, 0, as_stream(stream)>>>(count, grid, d.partials.data(), d.dot_out.data());
  PGK_CUDA_CHECK_LAUNCH();
  copy_to_host(out, d.dot_out.data(), sizeof(double) * static_cast<std::size_t>(count), stream);
}

} // namespace pgk::cuda
