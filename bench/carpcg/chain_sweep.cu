// Issue 11's colour-kernel experiments (forty-fourth and forty-fifth sessions): what a multicolor
// colour costs at 361k rows (about 5 us, one row per group of 4 lanes) and which change to the colour
// kernel shortens it without changing the order or the bits. Each kind is launched once per colour
// and direction (17 launches a double sweep, captured in a CUDA graph as the library does), on A
// stored in colour order. The loads before x:
//   csr         the colour kernel up to the forty-fourth session: the norm, then (past the zero-row
//               test) the row pointer, then the entries, then x;
//   csr-ahead   the norm, the row pointer and b loaded together, the test after (the library's
//               colour kernel since 0510675);
//   slices      each colour stored as a column-major slice 8 entries wide (ELL, the row's length in
//               a byte): the entries load with the norm.
// As programmatic dependent launches (kernels/common/pdl.cuh), which may start while the colour
// before them runs and wait for it before touching x:
//   pdl         the wait first, then csr-ahead (the twenty-seventh session's form);
//   pdl-ahead   the next colour's launch allowed at once, the row's head (bounds, norm, b, first
//               entries: nothing a colour writes) loaded, then the wait, then the projection;
//   pdl-late    as pdl-ahead, the next colour's launch allowed only after the wait.
// Probes, with the same grids and launches and no work (not checked): empty, empty-pdl.
// The ordered sum (ncu at 361k: 6 of every 27 cycles a warp waits on the short scoreboard, the
// shuffle -> addition -> shuffle chain), its G shuffles issued first, the additions after:
//   ahead-sum   csr-ahead so;   pdl-sum   pdl-ahead so;
//   sum-48reg   ahead-sum under launch bounds of 5 blocks an SM (48 registers; the held products
//               spill 40 bytes a thread under the library's 32); 5 x 132 blocks hold a 361k colour;
//   ahead-48reg csr-ahead under the same bounds (the registers' share of sum-48reg's change).
// Every kind adds a row's products in storage order (internal.cuh's project_head, with its own
// addition or AddShufflesFirst), so two double sweeps from 0 must equal the library's bits (checked).
// Usage: bench_carpcg_chain n lambda   (fem2d:n=n). Prints cuSPARSE's SpMV, the library's double
// sweep (graph), and per kind the bitwise check and a double sweep's time (graph). CUDA events,
// median of 15 x 50 calls after 20 warm-up calls. PGK_CHAIN_CHECK_ONLY=1: the checks only.
#include "bench/carpcg/sweep_timing.cuh"
#include "kernels/carpcg/internal.cuh"
#include "kernels/common/pdl.cuh"
#include "src/carpcg/coloring.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

using namespace pgk;
using namespace bench_sweeps;

namespace {

constexpr int kLanes   = 4;                                  // fem2d: 7 entries a row (the library's rule gives 4)
constexpr int kThreads = pgk::cuda::carpcg_detail::kThreads; // the library's colour kernel's block
constexpr int kWidth   = 2 * kLanes;                         // the slices hold rows of at most 2 entries a lane

enum Kind { kCsr = 0, kCsrAhead = 1, kSlices = 2, kPdl = 3, kPdlAhead = 4, kPdlLate = 5, kEmpty = 6, kEmptyPdl = 7, kAheadSum = 8, kPdlAheadSum = 9, kAheadSumWide = 10, kCsrAheadWide = 11, kKinds };
const char *const kKindNames[kKinds] = {"csr", "csr-ahead", "slices", "pdl", "pdl-ahead", "pdl-late", "empty", "empty-pdl", "ahead-sum", "pdl-sum", "sum-48reg", "ahead-48reg"};
constexpr bool    is_wide(int k) // launched under __launch_bounds__(kThreads, 5): 48 registers, no spills
{
  return k == kAheadSumWide || k == kCsrAheadWide;
}
constexpr bool is_pdl(int k)
{
  return k == kPdl || k == kPdlAhead || k == kPdlLate || k == kEmptyPdl || k == kPdlAheadSum;
}
__host__ __device__ constexpr bool shuffles_first(int k) // the ordered sum's shuffles issued before its additions
{
  return k == kAheadSum || k == kPdlAheadSum || k == kAheadSumWide;
}
constexpr bool is_probe(int k) // no work: the 17 launches' own cost, not checked
{
  return k == kEmpty || k == kEmptyPdl;
}

// A in colour order (stored row w), and the same rows as one slice per colour.
struct ChainOperator {
  const Index         *rowptr, *cols, *slice_cols;
  const double        *vals, *norms2, *rhs, *slice_vals;
  const unsigned char *len; // the stored row's length (slices)
  double               lambda;
};

template <int K, int Passes> __device__ __forceinline__ void chain_colour(const ChainOperator &a, Index first, Index count, Index slice, double *x)
{
  using namespace pgk::cuda::carpcg_detail;
  const int lane    = group_lane<kLanes>();
  bool      waiting = K == kPdlAhead || K == kPdlLate || K == kPdlAheadSum; // the wait still to come, before the first x access
  if (K == kEmpty) return;
  if (K == kEmptyPdl) {
    pgk::cuda::pdl_launch_dependents();
    pgk::cuda::pdl_wait();
    return;
  }
  if (K == kPdl || K == kPdlAhead || K == kPdlAheadSum) pgk::cuda::pdl_launch_dependents();
  if (K == kPdl) pgk::cuda::pdl_wait();
  for (Index i = group_id<kLanes>(); i < count; i += group_count<kLanes>()) {
    const Index w = first + i;
    RowHead     head;
    double      n2, bi;
    if (K == kCsr) {
      n2 = __ldcs(a.norms2 + w);
      if (n2 == 0) continue; // a zero row (sweep.hpp)
      bi   = __ldcs(a.rhs + w);
      head = load_row_head<kLanes>(__ldcs(a.rowptr + w), __ldcs(a.rowptr + w + 1), a.cols, a.vals, lane);
    } else if (K == kSlices) {
      const Index len = a.len[w], e0 = slice + lane * count + i, e1 = e0 + kLanes * count;
      head = {0, len, lane < len ? __ldcs(a.slice_cols + e0) : 0, lane + kLanes < len ? __ldcs(a.slice_cols + e1) : 0, lane < len ? __ldcs(a.slice_vals + e0) : 0.0, lane + kLanes < len ? __ldcs(a.slice_vals + e1) : 0.0};
      n2 = __ldcs(a.norms2 + w), bi = __ldcs(a.rhs + w);
      if (n2 == 0) continue;
    } else { // csr-ahead, the programmatic launches and the shuffles-first sums
      const Index lo = __ldcs(a.rowptr + w), hi = __ldcs(a.rowptr + w + 1);
      n2 = __ldcs(a.norms2 + w), bi = __ldcs(a.rhs + w);
      if (n2 == 0) continue;
      head = load_row_head<kLanes>(lo, hi, a.cols, a.vals, lane);
    }
    if (waiting) { // only threads that touch x wait: a thread with no (nonzero) row leaves x alone
      pgk::cuda::pdl_wait();
      if (K == kPdlLate) pgk::cuda::pdl_launch_dependents();
      waiting = false;
    }
    for (int pass = 0; pass < Passes; ++pass) {
      if (shuffles_first(K)) project_head<kLanes>(head, a.cols, a.vals, n2, bi, a.lambda, x, lane, pgk::cuda::carpcg_detail::AddShufflesFirst<kLanes>{});
      else project_head<kLanes>(head, a.cols, a.vals, n2, bi, a.lambda, x, lane);
    }
  }
}

// The library's launch bounds (8 blocks of 256 threads an SM: 32 registers), and 5 blocks (48).
template <int K, int Passes> __global__ void __launch_bounds__(kThreads, 8) chain_colour_kernel(ChainOperator a, Index first, Index count, Index slice, double *x)
{
  chain_colour<K, Passes>(a, first, count, slice, x);
}

template <int K, int Passes> __global__ void __launch_bounds__(kThreads, 5) chain_colour_kernel_wide(ChainOperator a, Index first, Index count, Index slice, double *x)
{
  chain_colour<K, Passes>(a, first, count, slice, x);
}

// The host arrays: A in colour order, its rows' lengths, the slices and where each colour's slice starts.
struct HostChain {
  StoredRows                 rows;
  std::vector<Index>         slice_cols, slice_start;
  std::vector<double>        slice_vals;
  std::vector<unsigned char> len;
  int                        widest = 0;
};

HostChain build_chain(const Csr &a, const std::vector<double> &b, const std::vector<double> &norms, const carpcg::Coloring &col)
{
  HostChain h;
  h.rows = rows_in_order(a, b, norms, col.rows);
  for (size_t w = 0; w + 1 < h.rows.rowptr.size(); ++w) {
    const Index len = h.rows.rowptr[w + 1] - h.rows.rowptr[w];
    h.len.push_back(static_cast<unsigned char>(std::min<Index>(len, 255)));
    h.widest = std::max<int>(h.widest, static_cast<int>(len));
  }
  h.slice_start.assign(1, 0);
  for (int c = 0; c < col.ncolors; ++c) {
    const Index first = col.class_ptr[c], count = col.class_size(c), base = h.slice_start.back();
    h.slice_cols.resize(base + kWidth * count, 0), h.slice_vals.resize(base + kWidth * count, 0.0);
    for (Index i = 0; i < count; ++i)
      for (Index e = h.rows.rowptr[first + i]; e < h.rows.rowptr[first + i + 1] && e - h.rows.rowptr[first + i] < kWidth; ++e) {
        const Index at   = base + (e - h.rows.rowptr[first + i]) * count + i;
        h.slice_cols[at] = h.rows.cols[e], h.slice_vals[at] = h.rows.vals[e];
      }
    h.slice_start.push_back(base + kWidth * count);
  }
  return h;
}

// Rows whose slice entries differ from their CSR entries (0 when build_chain laid them out right;
// the kernel reads entry e of colour c's row i at slice_start[c] + e * count + i).
Index slice_mismatches(const HostChain &h, const carpcg::Coloring &col)
{
  Index bad = 0;
  for (int c = 0; c < col.ncolors; ++c)
    for (Index i = 0, count = col.class_size(c); i < count; ++i) {
      const Index w = col.class_ptr[c] + i;
      for (Index e = 0; e < h.rows.rowptr[w + 1] - h.rows.rowptr[w]; ++e) {
        const Index at = h.slice_start[c] + e * count + i;
        if (h.slice_cols[at] != h.rows.cols[h.rows.rowptr[w] + e] || h.slice_vals[at] != h.rows.vals[h.rows.rowptr[w] + e]) {
          ++bad;
          break;
        }
      }
    }
  return bad;
}

struct DeviceChain {
  DeviceRows                             rows;
  pgk::cuda::DeviceBuffer<Index>         slice_cols;
  pgk::cuda::DeviceBuffer<double>        slice_vals;
  pgk::cuda::DeviceBuffer<unsigned char> len;
  ChainOperator                          op{};

  DeviceChain(const HostChain &h, double lambda, cudaStream_t s) : rows(h.rows, s), slice_cols(upload(h.slice_cols, s)), slice_vals(upload(h.slice_vals, s)), len(upload(h.len, s))
  {
    op = {rows.rowptr.data(), rows.cols.data(), slice_cols.data(), rows.vals.data(), rows.norms2.data(), rows.rhs.data(), slice_vals.data(), len.data(), lambda};
  }
};

// y = the double sweep of x with b, as the library's double_sweep: a copy, colours 0..last-1,
// the last non-empty colour projected twice, colours last-1..0.
template <int K> void chain_double_sweep(const DeviceChain &d, const HostChain &h, const carpcg::Coloring &col, int last, const double *x, double *y, cudaStream_t s)
{
  const Index n = static_cast<Index>(h.rows.norms2.size());
  PGK_CUDA_CHECK(cudaMemcpyAsync(y, x, sizeof(double) * n, cudaMemcpyDeviceToDevice, s));
  bool first_launch = true; // its predecessor is the copy, not a kernel: launched plainly
  auto colour       = [&](int c, bool twice) {
    const Index count = col.class_size(c);
    if (count == 0) return;
    auto *kernel = twice ? chain_colour_kernel<K, 2> : chain_colour_kernel<K, 1>;
    if constexpr (is_wide(K)) kernel = twice ? chain_colour_kernel_wide<K, 2> : chain_colour_kernel_wide<K, 1>; // only these kinds instantiate the wide kernels
    const int grid = pgk::cuda::carpcg_detail::group_grid(count, kLanes);
    if (is_pdl(K) && !first_launch) pgk::cuda::launch_dependent(kernel, dim3(grid), dim3(kThreads), s, d.op, col.class_ptr[c], count, h.slice_start[c], y);
    else kernel<<<grid, kThreads, 0, s>>>(d.op, col.class_ptr[c], count, h.slice_start[c], y);
    PGK_CUDA_CHECK_LAUNCH();
    first_launch = false;
  };
  for (int c = 0; c < last; ++c) colour(c, false);
  colour(last, true);
  for (int c = last - 1; c >= 0; --c) colour(c, false);
}

template <int K> void run_kind(const DeviceChain &d, const HostChain &h, const carpcg::Coloring &col, int last, const std::vector<double> &want, bool check_only, cudaStream_t s)
{
  const Index                     n = static_cast<Index>(h.rows.norms2.size());
  pgk::cuda::DeviceBuffer<double> x(n), y(n);
  PGK_CUDA_CHECK(cudaMemsetAsync(x.data(), 0, sizeof(double) * n, s));
  chain_double_sweep<K>(d, h, col, last, x.data(), y.data(), s);
  chain_double_sweep<K>(d, h, col, last, y.data(), x.data(), s);
  if (is_probe(K)) {
    PGK_CUDA_CHECK(cudaStreamSynchronize(s));
    std::printf("  %-10s timing probe: the same 17 launches (grids, graph, launch kind) with no work, not checked", kKindNames[K]);
  } else {
    const Index differ = bits_differ(x.download(s), want);
    std::printf("  %-10s bitwise check (2 double sweeps from 0 vs the library's): %s (%d of %d differ)", kKindNames[K], differ == 0 ? "IDENTICAL" : "DIFFERENT", static_cast<int>(differ), static_cast<int>(n));
  }
  if (check_only) {
    std::printf("\n");
    return;
  }
  cudaGraph_t     g;
  cudaGraphExec_t ge;
  PGK_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  chain_double_sweep<K>(d, h, col, last, x.data(), y.data(), s);
  PGK_CUDA_CHECK(cudaStreamEndCapture(s, &g));
  PGK_CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
  auto call = [&] { PGK_CUDA_CHECK(cudaGraphLaunch(ge, s)); };
  for (int i = 0; i < 20; ++i) call();
  std::printf("; double sweep (graph) %.1f us\n", time_us(s, 15, 50, call));
  std::fflush(stdout);
  PGK_CUDA_CHECK(cudaGraphExecDestroy(ge));
  PGK_CUDA_CHECK(cudaGraphDestroy(g));
}

// Every kind, in the enum's order.
template <int... K> void run_kinds(std::integer_sequence<int, K...>, const DeviceChain &d, const HostChain &h, const carpcg::Coloring &col, int last, const std::vector<double> &want, bool check_only, cudaStream_t s)
{
  (run_kind<K>(d, h, col, last, want, check_only, s), ...);
}

} // namespace

int main(int argc, char **argv)
{
  const auto study = sweep_study(argc, argv, "", 0);
  if (!study) return 2;
  const auto &[fem, norms, col, last] = *study;
  const auto &[n, lambda, a, b]       = fem;
  const HostChain h                   = build_chain(a, b, norms, col);
  if (h.widest > kWidth || pgk::cuda::carpcg_lanes_per_row(0, a.nrows, a.nnz(), carpcg::Scheme::Multicolor) != kLanes) {
    std::fprintf(stderr, "built for rows of at most %d entries and %d lanes a row\n", kWidth, kLanes);
    return 2;
  }
  if (const Index bad = slice_mismatches(h, col)) {
    std::fprintf(stderr, "%d rows' slices differ from their CSR entries\n", static_cast<int>(bad));
    return 1;
  }
  const bool   check_only = std::getenv("PGK_CHAIN_CHECK_ONLY") != nullptr;
  cudaStream_t s;
  PGK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaDeviceProp prop;
  PGK_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("fem2d:n=%d (%d rows, %d entries), lambda %.2f, %d colours, %s; CUDA events, median of 15 x 50 after 20 warm-up\n", static_cast<int>(n), static_cast<int>(a.nrows), static_cast<int>(a.nnz()), lambda, col.ncolors, prop.name);
  if (!check_only) std::printf("cuSPARSE CSR SpMV (a MatMult's unit): %.1f us; library multicolor double sweep (graph): %.1f us\n", spmv_us(a, s), multicolor_us(a, b, lambda, s));
  std::fflush(stdout);
  const std::vector<double> want = library_two_sweeps(a, b, lambda, s);
  const DeviceChain         d(h, lambda, s);
  run_kinds(std::make_integer_sequence<int, kKinds>{}, d, h, col, last, want, check_only, s);
  PGK_CUDA_CHECK(cudaStreamDestroy(s));
  return 0;
}
