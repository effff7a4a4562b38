// Issue 11's device experiment after bench_carpcg_flags (forty-fourth session): a multicolor colour
// costs about 4.7 us at 361k rows with or without launches between colours, one row projection's
// chain of dependent loads. This program shortens the chain without changing the order or the bits:
// colour kernels, each launched once per colour and direction (17 a double sweep, captured in a
// CUDA graph as the library does), on A stored in colour order:
//   csr       the library's colour kernel up to the forty-fourth session: the norm, then (past the
//             zero-row branch) the row pointer, then the entries, then x;
//   csr-ahead the norm, the row pointer and b loaded together, the branch after (the library's
//             colour kernel since the forty-fifth session);
//   slices    each colour stored as a slice of fixed width (column-major, ELL): the entries'
//             addresses follow from the row's position, so the entries load with the norm, and x next;
// and csr-ahead as programmatic dependent launches (kernels/common/pdl.cuh), where a colour's
// kernel may start while the colour before it still runs, and must wait for it before touching x:
//   pdl       the wait first, then csr-ahead (the twenty-seventh session's form, 5.7% slower then);
//   pdl-ahead the next colour's launch allowed at once, the row's head (bounds, norm, b, first
//             entries: nothing a colour writes) loaded, then the wait, then the projection: only
//             x's loads, the sum and the stores stay on the chain between colours;
//   pdl-late  as pdl-ahead, but the next colour's launch allowed only after the wait, so that at most
//             two colours are resident (one projecting, the next loading its heads);
// and two probes with the same grids and launches but no work (forty-fifth session: at 361k rows no
// change to the loads moved the time): empty (plain launches) and empty-pdl (the prologue only),
// what the 17 launches and the grids' boundaries cost by themselves.
// Every kernel sums a row in storage order through kernels/carpcg/internal.cuh's project_head, so
// two double sweeps from 0 must equal the library's bits (checked).
// Usage: bench_carpcg_chain n lambda   (fem2d:n=n). Prints cuSPARSE's SpMV, the library's double
// sweep (graph), and per kernel the bitwise check and a double sweep's time (graph). CUDA events,
// median of 15 x 50 calls after 20 warm-up calls. PGK_CHAIN_CHECK_ONLY=1: the checks only.
#include "bench/carpcg/sweep_timing.cuh"
#include "kernels/carpcg/internal.cuh"
#include "kernels/common/pdl.cuh"
#include "src/carpcg/coloring.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace pgk;
using namespace bench_sweeps;

namespace {

constexpr int kLanes   = 4;                                  // fem2d: 7 entries a row (the library's rule gives 4)
constexpr int kThreads = pgk::cuda::carpcg_detail::kThreads; // the library's colour kernel's block
constexpr int kWidth   = 2 * kLanes;                         // the slices hold rows of at most 2 entries a lane

enum Kind { kCsr = 0, kCsrAhead = 1, kSlices = 2, kPdl = 3, kPdlAhead = 4, kPdlLate = 5, kEmpty = 6, kEmptyPdl = 7 };
const char *const kKindNames[8] = {"csr", "csr-ahead", "slices", "pdl", "pdl-ahead", "pdl-late", "empty", "empty-pdl"};
constexpr bool    is_pdl(int k)
{
  return k == kPdl || k == kPdlAhead || k == kPdlLate || k == kEmptyPdl;
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

template <int K, int Passes> __global__ void __launch_bounds__(kThreads, 8) chain_colour_kernel(ChainOperator a, Index first, Index count, Index slice, double *x)
{
  using namespace pgk::cuda::carpcg_detail;
  const int lane    = group_lane<kLanes>();
  bool      waiting = K == kPdlAhead || K == kPdlLate; // the wait still to come, before the first x access
  if (K == kEmpty) return;
  if (K == kEmptyPdl) {
    pgk::cuda::pdl_launch_dependents();
    pgk::cuda::pdl_wait();
    return;
  }
  if (K == kPdl || K == kPdlAhead) pgk::cuda::pdl_launch_dependents();
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
    } else { // csr-ahead and the programmatic launches
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
    for (int pass = 0; pass < Passes; ++pass) project_head<kLanes>(head, a.cols, a.vals, n2, bi, a.lambda, x, lane);
  }
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
    auto     *kernel = twice ? chain_colour_kernel<K, 2> : chain_colour_kernel<K, 1>;
    const int grid   = pgk::cuda::carpcg_detail::group_grid(count, kLanes);
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
  run_kind<kCsr>(d, h, col, last, want, check_only, s);
  run_kind<kCsrAhead>(d, h, col, last, want, check_only, s);
  run_kind<kSlices>(d, h, col, last, want, check_only, s);
  run_kind<kPdl>(d, h, col, last, want, check_only, s);
  run_kind<kPdlAhead>(d, h, col, last, want, check_only, s);
  run_kind<kPdlLate>(d, h, col, last, want, check_only, s);
  run_kind<kEmpty>(d, h, col, last, want, check_only, s);
  run_kind<kEmptyPdl>(d, h, col, last, want, check_only, s);
  PGK_CUDA_CHECK(cudaStreamDestroy(s));
  return 0;
}
