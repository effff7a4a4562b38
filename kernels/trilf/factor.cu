// Device [0,n]-factor (Algorithm 2; primitives.hpp, parallel_factor): per round ONE
// generalized-SpMV launch (propose) and one mutual-confirmation launch, equal slot for slot
// to pgk::trilf::parallel_factor.
//
// propose: a sub-warp of S lanes per row. Each lane keeps, in registers, the best N
// candidates of the entries it reads (strided by S), ordered (w desc, col asc); the
// sub-warp then extracts the best `want` by repeated shuffle arg-max. The order is defined on
// values, so the split of the row between lanes cannot change the result. The state of
// round k depends only on the confirmed slots after round k-1 (read-only during propose), so
// no atomics and no execution order matter.
#include <cstdint>
#include <stdexcept>

#include "kernels/common/atomics.cuh"
#include "kernels/trilf/launch.cuh"
#include "kernels/trilf/primitives.hpp"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

// pgk::trilf::mix64 / charge_positive, the same operations on 64-bit words (exact).
__device__ inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__device__ inline bool charge_of(std::uint64_t key, Index v, double p) {
  const std::uint64_t h = mix64(key + 0xD1B54A32D192ED03ull * (static_cast<std::uint64_t>(v) + 1));
  return static_cast<double>(h >> 11) * 0x1.0p-53 < p; // exact: 53 bits times a power of two
}

// Candidate order: a before b iff (w_a > w_b) or (w_a == w_b and col_a < col_b). Empty
// entries carry w = -1 (every candidate has w > 0) and the largest column.
__device__ inline bool better(double wa, Index ca, double wb, Index cb) { return wa > wb || (wa == wb && ca < cb); }

constexpr Index kNoCol = static_cast<Index>(~(static_cast<unsigned long long>(1) << (8 * sizeof(Index) - 1)));

// The generalized sum: inserts (x, j), which beats the last entry, into the sorted top-N
// (bubble from the last slot).
template <int N> __device__ __forceinline__ void insert_candidate(double (&bw)[N], Index (&bc)[N], double x, Index j) {
  bw[N - 1] = x;
  bc[N - 1] = j;
#pragma unroll
  for (int s = N - 1; s > 0; --s)
    if (better(bw[s], bc[s], bw[s - 1], bc[s - 1])) {
      const double tw = bw[s];
      bw[s] = bw[s - 1];
      bw[s - 1] = tw;
      const Index tc = bc[s];
      bc[s] = bc[s - 1];
      bc[s - 1] = tc;
    }
}

// Drops the head of the sorted top-N; the freed last slot is empty.
template <int N> __device__ __forceinline__ void pop_head(double (&bw)[N], Index (&bc)[N]) {
#pragma unroll
  for (int t = 0; t + 1 < N; ++t) {
    bw[t] = bw[t + 1];
    bc[t] = bc[t + 1];
  }
  bw[N - 1] = -1;
  bc[N - 1] = kNoCol;
}

template <int N, int S>
__global__ void propose_kernel(CsrView w, const Index *confirmed, Index *proposed, bool charged, std::uint64_t key,
                               double p, int *made) {
  const int lane = threadIdx.x % S;
  const unsigned group_mask = subwarp_mask<S>();
  const Index groups = Index(gridDim.x) * (blockDim.x / S);
  bool any = false; // a proposal by this thread (lane 0 of its groups)
  for (Index v = Index(blockIdx.x) * (blockDim.x / S) + threadIdx.x / S; v < w.nrows; v += groups) {
    Index cv[N];
    int deg = 0;
    // The row bounds are loaded with the slots (independent loads, one round trip).
    const Index rb = w.rowptr[v], re = w.rowptr[v + 1];
#pragma unroll
    for (int s = 0; s < N; ++s) {
      cv[s] = confirmed[static_cast<std::size_t>(v) * N + s];
      deg += cv[s] >= 0;
    }
    const int want = N - deg;
    if (want == 0) {
      for (int t = lane; t < N; t += S) proposed[static_cast<std::size_t>(v) * N + t] = -1;
      continue;
    }
    const bool qv = charged && charge_of(key, v, p);
    double bw[N];
    Index bc[N];
#pragma unroll
    for (int s = 0; s < N; ++s) {
      bw[s] = -1;
      bc[s] = kNoCol;
    }
    for (Index e = rb + lane; e < re; e += S) {
      const Index j = w.colidx[e];
      const double x = w.values[e];
      // The generalized product: void when j is v, not an edge, already confirmed with v,
      // saturated, or of v's charge in a charged round.
      if (j == v || !(x > 0)) continue;
      if (!better(x, j, bw[N - 1], bc[N - 1])) continue; // cannot enter the lane's top N
      bool skip = false;
#pragma unroll
      for (int s = 0; s < N; ++s) skip |= cv[s] == j;
      if (skip) continue;
      int dj = 0;
#pragma unroll
      for (int s = 0; s < N; ++s) dj += confirmed[static_cast<std::size_t>(j) * N + s] >= 0;
      if (dj == N) continue;
      if (charged && charge_of(key, j, p) == qv) continue;
      insert_candidate(bw, bc, x, j); // the generalized sum
    }
    // Merge: `want` times, the best head among the lanes wins and is popped.
    int count = 0;
    for (int s = 0; s < want; ++s) {
      double mw = bw[0];
      Index mc = bc[0];
#pragma unroll
      for (int off = S / 2; off > 0; off /= 2) {
        const double ow = __shfl_xor_sync(group_mask, mw, off, S);
        const Index oc = __shfl_xor_sync(group_mask, mc, off, S);
        if (better(ow, oc, mw, mc)) {
          mw = ow;
          mc = oc;
        }
      }
      if (!(mw > 0)) break; // no candidate left (the same on every lane)
      if (lane == 0) proposed[static_cast<std::size_t>(v) * N + s] = mc;
      ++count;
      if (bc[0] == mc) pop_head(bw, bc); // columns are unique within a row: exactly one lane pops
    }
    if (lane == 0) {
      for (int s = count; s < N; ++s) proposed[static_cast<std::size_t>(v) * N + s] = -1;
      any |= count > 0;
    }
  }
  // One store per block that proposed (the flag is read only after uncharged rounds: made is
  // null in charged ones); a store per row to one word would serialize in L2.
  if (made && __syncthreads_or(any) && threadIdx.x == 0) *made = 1;
}

template <int N> __global__ void confirm_kernel(Index nv, const Index *proposed, Index *confirmed) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    Index c[N];
    int deg = 0;
#pragma unroll
    for (int s = 0; s < N; ++s) {
      c[s] = confirmed[static_cast<std::size_t>(v) * N + s];
      deg += c[s] >= 0;
    }
    bool changed = false;
    for (int s = 0; s < N; ++s) {
      const Index j = proposed[static_cast<std::size_t>(v) * N + s];
      if (j < 0) break;
      bool mutual = false;
#pragma unroll
      for (int t = 0; t < N; ++t) mutual |= proposed[static_cast<std::size_t>(j) * N + t] == v;
      if (mutual) {
        // free slots are the trailing -1 entries; proposals never exceed them
#pragma unroll
        for (int t = 0; t < N; ++t)
          if (t == deg) c[t] = j;
        ++deg;
        changed = true;
      }
    }
    if (!changed) continue;
      // Canonical order: ascending, -1 last (odd-even transposition sort, registers only).
#pragma unroll
    for (int r = 0; r < N; ++r)
#pragma unroll
      for (int t = r % 2; t + 1 < N; t += 2) {
        const Index a = c[t], b = c[t + 1];
        const bool swap = (a < 0) != (b < 0) ? a < 0 : a > b;
        if (swap) {
          c[t] = b;
          c[t + 1] = a;
        }
      }
#pragma unroll
    for (int s = 0; s < N; ++s) confirmed[static_cast<std::size_t>(v) * N + s] = c[s];
  }
}

__global__ void count_slots(const Index *nbr, std::size_t n, unsigned long long *out) {
  unsigned long long c = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    c += nbr[i] >= 0;
  warp_counter_add(out, c);
}

int subwarp_for(const CsrView &w, void *stream) {
  return lanes_for_rows(read_scalar(w.rowptr + w.nrows, stream), w.nrows);
}

template <int N, int S>
void launch_propose(const CsrView &w, const Index *c, Index *p, bool charged, std::uint64_t key, double prob, int *made,
                    cudaStream_t s) {
  propose_kernel<N, S><<<grid_for(static_cast<long long>(w.nrows) * S, kThreads, 1 << 16), kThreads, 0, s>>>(
      w, c, p, charged, key, prob, made);
  PGK_CUDA_CHECK_LAUNCH();
}

template <int N>
void round_n(const CsrView &w, int sub, Index *c, Index *p, bool charged, std::uint64_t key, double prob, int *made,
             cudaStream_t s) {
  switch (sub) {
  case 4: launch_propose<N, 4>(w, c, p, charged, key, prob, made, s); break;
  case 8: launch_propose<N, 8>(w, c, p, charged, key, prob, made, s); break;
  case 16: launch_propose<N, 16>(w, c, p, charged, key, prob, made, s); break;
  default: launch_propose<N, 32>(w, c, p, charged, key, prob, made, s); break;
  }
}

template <int N> void confirm_n(Index nv, const Index *p, Index *c, cudaStream_t s) {
  confirm_kernel<N><<<grid_for(nv, kThreads, kMaxBlocks), kThreads, 0, s>>>(nv, p, c);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace

void parallel_factor(const CsrView &w, const pgk::trilf::FactorOptions &opt, DeviceFactor &out, void *stream) {
  pgk::trilf::validate(opt);
  if (w.nrows != w.ncols) throw std::invalid_argument("trilf parallel_factor: weight graph is not square");
  cudaStream_t s = as_stream(stream);
  const int n = opt.max_degree;
  const Index nv = w.nrows;
  out.n = n;
  out.nvertices = nv;
  out.rounds_run = 0;
  out.maximal = false;
  out.edges = 0;
  const std::size_t slots = static_cast<std::size_t>(nv) * n;
  out.nbr.allocate(slots);
  if (slots) PGK_CUDA_CHECK(cudaMemsetAsync(out.nbr.data(), 0xff, sizeof(Index) * slots, s)); // all -1
  if (nv == 0) { // the reference's loop with nothing to propose: charged rounds run, the first
                 // uncharged round finds no proposal and stops
    for (int k = 0; k < opt.rounds; ++k) {
      out.rounds_run = k + 1;
      if (!pgk::trilf::is_charged_round(opt, k)) {
        out.maximal = true;
        break;
      }
    }
    return;
  }
  DeviceBuffer<Index> proposed(slots, s);
  DeviceBuffer<int> made(1, s);
  const int sub = subwarp_for(w, stream);
  for (int k = 0; k < opt.rounds; ++k) {
    const bool charged = pgk::trilf::is_charged_round(opt, k);
    // The per-round part of the charge hash (charge_positive's `key`), on the host.
    const std::uint64_t key = pgk::trilf::mix64(opt.seed + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(k) + 1));
    if (!charged) PGK_CUDA_CHECK(cudaMemsetAsync(made.data(), 0, sizeof(int), s));
    Index *c = out.nbr.data(), *p = proposed.data();
    int *mk = charged ? nullptr : made.data();
    switch (n) {
    case 1: round_n<1>(w, sub, c, p, charged, key, opt.charge_prob, mk, s); break;
    case 2: round_n<2>(w, sub, c, p, charged, key, opt.charge_prob, mk, s); break;
    case 3: round_n<3>(w, sub, c, p, charged, key, opt.charge_prob, mk, s); break;
    case 4: round_n<4>(w, sub, c, p, charged, key, opt.charge_prob, mk, s); break;
    case 5: round_n<5>(w, sub, c, p, charged, key, opt.charge_prob, mk, s); break;
    case 6: round_n<6>(w, sub, c, p, charged, key, opt.charge_prob, mk, s); break;
    case 7: round_n<7>(w, sub, c, p, charged, key, opt.charge_prob, mk, s); break;
    default: round_n<8>(w, sub, c, p, charged, key, opt.charge_prob, mk, s); break;
    }
    out.rounds_run = k + 1;
    // The stop test only exists in uncharged rounds: one flag read (and sync) each.
    if (!charged && made.get(0, s) == 0) {
      out.maximal = true;
      break;
    }
    switch (n) {
    case 1: confirm_n<1>(nv, p, c, s); break;
    case 2: confirm_n<2>(nv, p, c, s); break;
    case 3: confirm_n<3>(nv, p, c, s); break;
    case 4: confirm_n<4>(nv, p, c, s); break;
    case 5: confirm_n<5>(nv, p, c, s); break;
    case 6: confirm_n<6>(nv, p, c, s); break;
    case 7: confirm_n<7>(nv, p, c, s); break;
    default: confirm_n<8>(nv, p, c, s); break;
    }
  }
  DeviceBuffer<unsigned long long> twice(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(twice.data(), 0, sizeof(unsigned long long), s));
  count_slots<<<grid_for(static_cast<long long>(slots), kThreads, 2048), kThreads, 0, s>>>(out.nbr.data(), slots,
                                                                                           twice.data());
  PGK_CUDA_CHECK_LAUNCH();
  out.edges = static_cast<Index>(twice.get(0, s) / 2);
}

} // namespace pgk::cuda::trilf
