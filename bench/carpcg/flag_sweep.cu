// Issue 11's device experiment: the multicolor double sweep (main's exact scheme) as ONE resident
// kernel whose CUDA blocks wait only for their neighbours, instead of 17 kernels in a CUDA graph.
//
// Why: at 361k-1M rows main's double sweep is 17 dependent colour kernels of a few microseconds
// each (bench/NOTES.md, twenty-eighth and twenty-ninth sessions); the colours as phases of one
// cooperative kernel under grid-wide barriers lost 17-22% (twenty-ninth session), one suspect being
// that a grid barrier makes every phase wait for the slowest SM. Here a block owns a band of rows
// (contiguous in A's row order) and sweeps all its colours; before phase p it waits only for the
// bands within `reach` of it to have finished phase p - 1, where reach is the largest band distance
// between two rows that share a column (computed from the pattern). Rows in bands farther apart
// share no unknown, so they may be any number of phases apart; rows that share an unknown are
// separated exactly as the colour-by-colour sweep separates them (a neighbour is at most one phase
// ahead, and a phase is one colour, whose rows touch disjoint unknowns). So the iterates are main's
// bits, which the program checks (two double sweeps from 0 against the library's).
// Synchronisation: a block's threads meet at __syncthreads; thread 0 fences and stores the band's
// phase count with release semantics; waiters load their neighbours' counts with acquire semantics
// (a clock-bounded spin: a timeout is reported, never a hang). The grid is launched cooperatively,
// so every band is resident (the waits cannot deadlock). The counts grow across calls (no reset).
// Usage: bench_carpcg_flags n lambda T [T...]   (fem2d:n=n; T threads a block: 256, 512 or 1024).
// Prints the library's double sweep (CUDA graph) and cuSPARSE's SpMV, then per T the bands, reach,
// registers, and for each kind of kernel (waits; waits with the next phase's first row loaded
// before the wait; no waits, not exact: what the synchronisation costs) the bitwise check and a
// double sweep's time (copy + kernel, stream launches). CUDA events, median of
// 15 x 50 calls after 20 warm-up calls. PGK_FLAGS_CHECK_ONLY=1: the checks only (compute-sanitizer).
#include "bench/carpcg/sweep_timing.cuh"
#include "kernels/carpcg/internal.cuh"
#include "src/carpcg/coloring.hpp"

#include <cuda/atomic>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace pgk;
using namespace bench_sweeps;

namespace {

using Counter                      = ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device>;
constexpr int       kLanes         = 4;          // fem2d: 7 entries a row (the library's rule gives 4)
constexpr long long kTimeoutCycles = 4000000000; // about 2 s at 2 GHz

// The operator in band-major, colour-minor row order (stored row w), and where each (band, colour)
// segment starts.
struct FlagPlan {
  const Index  *rowptr, *cols, *seg;
  const double *vals, *norms2, *rhs;
  int           ncolors, last, reach, nbands;
  double        lambda;
  unsigned     *counts; // phases finished per band, growing across calls
  int          *timed_out;
};

__device__ void wait_for_neighbours(const FlagPlan &p, unsigned target)
{
  const int t = static_cast<int>(threadIdx.x), k = static_cast<int>(blockIdx.x);
  if (t < 2 * p.reach) {
    const int nb = t < p.reach ? k - p.reach + t : k + 1 + (t - p.reach);
    if (nb >= 0 && nb < p.nbands) {
      Counter         count(p.counts[nb]);
      const long long start = clock64();
      while (static_cast<int>(count.load(::cuda::std::memory_order_acquire) - target) < 0)
        if (clock64() - start > kTimeoutCycles) {
          atomicExch(p.timed_out, 1);
          break;
        }
      __threadfence();
    }
  }
  __syncthreads();
}

__device__ void signal_done(const FlagPlan &p, unsigned value)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    Counter count(p.counts[blockIdx.x]);
    count.store(value, ::cuda::std::memory_order_release);
  }
}

// The kinds of kernel: waits for the neighbours (the exact sweep); the same with the group's first
// row of the next phase loaded before the wait (its head, norm and b do not depend on x, so the
// wait hides their latency; the same bits); no waits at all (not exact: what the waits cost).
enum Kind { kWaits = 0, kPrefetch = 1, kNoWait = 2 };
const char *const kKindNames[3] = {"waits:", "waits+prefetch:", "no wait:"};

// A group's row, loaded: its head and what projecting it needs besides x.
struct LoadedRow {
  pgk::cuda::carpcg_detail::RowHead head;
  double                            n2, bi;
};

__device__ LoadedRow load_row(const FlagPlan &p, Index w, int lane)
{
  const Index lo = __ldcs(p.rowptr + w), hi = __ldcs(p.rowptr + w + 1);
  return {pgk::cuda::carpcg_detail::load_row_head<kLanes>(lo, hi, p.cols, p.vals, lane), __ldcs(p.norms2 + w), __ldcs(p.rhs + w)};
}

// Phases 0..last-1: colours forward; phase last: the last colour projected twice (main's turning
// colour); phases last+1..2 last: colours last-1..0. A band's rows of phase ph's colour are the
// stored rows seg[band * ncolors + c] .. seg[band * ncolors + c + 1].
template <int T, int K> __global__ void __launch_bounds__(T, 2048 / T) flag_sweep_kernel(FlagPlan p, unsigned base, double *x)
{
  using pgk::cuda::carpcg_detail::project_head;
  constexpr int groups = T / kLanes;
  const int     lane = static_cast<int>(threadIdx.x % kLanes), group = static_cast<int>(threadIdx.x / kLanes);
  const int     phases = 2 * p.last + 1;
  const Index  *seg    = p.seg + static_cast<Index>(blockIdx.x) * p.ncolors;
  Index         lo = seg[0], hi = seg[1];
  LoadedRow     first{};
  if (K == kPrefetch && lo + group < hi) first = load_row(p, lo + group, lane);
  for (int ph = 0; ph < phases; ++ph) {
    if (K != kNoWait && ph > 0) wait_for_neighbours(p, base + ph);
    for (Index w = lo + group; w < hi; w += groups) {
      const LoadedRow r = K == kPrefetch && w == lo + group ? first : load_row(p, w, lane);
      if (r.n2 == 0) continue; // a zero row (sweep.hpp)
      project_head<kLanes>(r.head, p.cols, p.vals, r.n2, r.bi, p.lambda, x, lane);
      if (ph == p.last) project_head<kLanes>(r.head, p.cols, p.vals, r.n2, r.bi, p.lambda, x, lane);
    }
    if (ph + 1 < phases) {
      const int c = ph + 1 <= p.last ? ph + 1 : 2 * p.last - ph - 1;
      lo = seg[c], hi = seg[c + 1];
      if (K == kPrefetch && lo + group < hi) first = load_row(p, lo + group, lane);
    }
    if (K != kNoWait) signal_done(p, base + ph + 1);
  }
}

// The host side: bands, reach, the operator in band-major, colour-minor order.
struct HostBands {
  int                nbands = 0, reach = 0;
  std::vector<Index> seg;
  StoredRows         rows;
};

HostBands build_bands(const Csr &a, const std::vector<double> &b, const std::vector<double> &norms, const carpcg::Coloring &col, int nbands)
{
  HostBands h;
  h.nbands              = nbands;
  const Index      n    = a.nrows;
  const int        nc   = col.ncolors;
  auto             band = [&](Index r) { return static_cast<int>(static_cast<long long>(r) * nbands / n); };
  std::vector<int> lo(a.ncols, INT_MAX), hi(a.ncols, -1);
  for (Index r = 0; r < n; ++r)
    for (Index e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
      lo[a.colidx[e]] = std::min(lo[a.colidx[e]], band(r));
      hi[a.colidx[e]] = std::max(hi[a.colidx[e]], band(r));
    }
  for (Index j = 0; j < a.ncols; ++j)
    if (hi[j] >= 0) h.reach = std::max(h.reach, hi[j] - lo[j]);
  h.seg.assign(static_cast<size_t>(nbands) * nc + 1, 0);
  for (Index r = 0; r < n; ++r) ++h.seg[static_cast<size_t>(band(r)) * nc + col.color[r] + 1];
  for (size_t i = 1; i < h.seg.size(); ++i) h.seg[i] += h.seg[i - 1];
  std::vector<Index> order(n), next(h.seg.begin(), h.seg.end() - 1);
  for (Index r = 0; r < n; ++r) order[next[static_cast<size_t>(band(r)) * nc + col.color[r]]++] = r;
  h.rows = rows_in_order(a, b, norms, order);
  return h;
}

struct DeviceBands {
  Index                             n;
  DeviceRows                        rows;
  pgk::cuda::DeviceBuffer<Index>    seg;
  pgk::cuda::DeviceBuffer<unsigned> counts;
  pgk::cuda::DeviceBuffer<int>      timed_out;
  FlagPlan                          p{};
  unsigned                          base = 0;

  DeviceBands(const HostBands &h, Index n, int ncolors, int last, double lambda, cudaStream_t s) : n(n), rows(h.rows, s), seg(upload(h.seg, s)), counts(h.nbands), timed_out(1)
  {
    PGK_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, sizeof(unsigned) * h.nbands, s));
    PGK_CUDA_CHECK(cudaMemsetAsync(timed_out.data(), 0, sizeof(int), s));
    p = {rows.rowptr.data(), rows.cols.data(), seg.data(), rows.vals.data(), rows.norms2.data(), rows.rhs.data(), ncolors, last, h.reach, h.nbands, lambda, counts.data(), timed_out.data()};
  }
  // y = the double sweep of x with b, as the library's double_sweep.
  template <int T, int K> void double_sweep(const double *x, double *y, cudaStream_t s)
  {
    PGK_CUDA_CHECK(cudaMemcpyAsync(y, x, sizeof(double) * n, cudaMemcpyDeviceToDevice, s));
    void *args[] = {&p, &base, &y};
    PGK_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(flag_sweep_kernel<T, K>), dim3(p.nbands), dim3(T), args, 0, s));
    if (K != kNoWait) base += 2 * p.last + 1; // the kernel without waits leaves the counts as they were
  }
  bool timed_out_once(cudaStream_t s) const { return timed_out.get(0, s) != 0; }
};

template <int T, int K> void run_kernel(DeviceBands &d, const std::vector<double> &want, bool check_only, cudaStream_t s)
{
  pgk::cuda::DeviceBuffer<double> x(d.n), y(d.n);
  PGK_CUDA_CHECK(cudaMemsetAsync(x.data(), 0, sizeof(double) * d.n, s));
  d.double_sweep<T, K>(x.data(), y.data(), s);
  d.double_sweep<T, K>(y.data(), x.data(), s);
  const Index differ = bits_differ(x.download(s), want);
  const bool  late   = d.timed_out_once(s);
  std::printf("  %-7s bitwise check (2 double sweeps from 0 vs the library's): %s (%d of %d differ)%s", kKindNames[K], differ == 0 ? "IDENTICAL" : "DIFFERENT", static_cast<int>(differ), static_cast<int>(d.n), late ? ", A WAIT TIMED OUT" : "");
  if (check_only || late) {
    std::printf("\n");
    return;
  }
  double *in = x.data(), *out = y.data();
  auto    call = [&] { d.double_sweep<T, K>(in, out, s), std::swap(in, out); };
  for (int i = 0; i < 20; ++i) call();
  std::printf("; double sweep %.1f us%s\n", time_us(s, 15, 50, call), d.timed_out_once(s) ? " (A WAIT TIMED OUT)" : "");
  std::fflush(stdout);
}

template <int T> void run_threads(const Csr &a, const std::vector<double> &b, const std::vector<double> &norms, const carpcg::Coloring &col, int last, double lambda, const std::vector<double> &want, bool check_only, cudaStream_t s)
{
  int per_sm = 0, sms = 0;
  PGK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flag_sweep_kernel<T, kWaits>, T, 0));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int nbands = per_sm * sms;
  if (const char *e = std::getenv("PGK_FLAGS_BANDS")) nbands = std::min(nbands, std::max(1, std::atoi(e)));
  const HostBands h = build_bands(a, b, norms, col, nbands);
  if (2 * h.reach > T) {
    std::printf("T=%d: %d bands need reach %d, more waiting threads than a block has: not run\n", T, nbands, h.reach);
    return;
  }
  cudaFuncAttributes fa, fp;
  PGK_CUDA_CHECK(cudaFuncGetAttributes(&fa, flag_sweep_kernel<T, kWaits>));
  PGK_CUDA_CHECK(cudaFuncGetAttributes(&fp, flag_sweep_kernel<T, kPrefetch>));
  std::printf("T=%d: %d bands (%d a SM, %d rows a band), reach %d; registers / local bytes a thread: waits %d / %d, prefetch %d / %d\n", T, nbands, per_sm, static_cast<int>((a.nrows + nbands - 1) / nbands), h.reach, fa.numRegs,
              static_cast<int>(fa.localSizeBytes), fp.numRegs, static_cast<int>(fp.localSizeBytes));
  DeviceBands d(h, a.nrows, col.ncolors, last, lambda, s);
  run_kernel<T, kWaits>(d, want, check_only, s);
  run_kernel<T, kPrefetch>(d, want, check_only, s);
  run_kernel<T, kNoWait>(d, want, check_only, s);
}

} // namespace

int main(int argc, char **argv)
{
  const auto study = sweep_study(argc, argv, "T [T...]");
  if (!study) return 2;
  const auto &[fem, norms, col, last] = *study;
  const auto &[n, lambda, a, b]       = fem;
  const bool check_only               = std::getenv("PGK_FLAGS_CHECK_ONLY") != nullptr;
  if (pgk::cuda::carpcg_lanes_per_row(0, a.nrows, a.nnz(), carpcg::Scheme::Multicolor) != kLanes) {
    std::fprintf(stderr, "the library would use another lane count on this matrix (built for %d)\n", kLanes);
    return 2;
  }
  cudaStream_t s;
  PGK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaDeviceProp prop;
  PGK_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("fem2d:n=%d (%d rows, %d entries), lambda %.2f, %d colours (%d phases), %s; CUDA events, median of 15 x 50 after 20 warm-up\n", static_cast<int>(n), static_cast<int>(a.nrows), static_cast<int>(a.nnz()), lambda, col.ncolors,
              2 * last + 1, prop.name);
  if (!check_only) std::printf("cuSPARSE CSR SpMV (a MatMult's unit): %.1f us; library multicolor double sweep (graph): %.1f us\n", spmv_us(a, s), multicolor_us(a, b, lambda, s));
  std::fflush(stdout);
  const std::vector<double> want = library_two_sweeps(a, b, lambda, s);
  for (int k = 3; k < argc; ++k) {
    const int t = std::atoi(argv[k]);
    if (t == 256) run_threads<256>(a, b, norms, col, last, lambda, want, check_only, s);
    else if (t == 512) run_threads<512>(a, b, norms, col, last, lambda, want, check_only, s);
    else if (t == 1024) run_threads<1024>(a, b, norms, col, last, lambda, want, check_only, s);
    else std::fprintf(stderr, "T must be 256, 512 or 1024 (got %s)\n", argv[k]);
  }
  PGK_CUDA_CHECK(cudaStreamDestroy(s));
  return 0;
}
