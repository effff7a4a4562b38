// Issue 11's device experiment: the double Kaczmarz sweep of CGMN in coloured-tile order
// (tiles.hpp) on the GPU, to measure what the host study (order_study.cpp, bench/NOTES.md,
// forty-first session) could only model: t, one dependent level step, and f, a tile kernel's fixed
// cost. One CUDA block per tile, all tiles of a colour in one kernel; a block loads its tile's rows
// (level order) and its region of x into shared memory, one warp projects the rows level by level
// (the rows of a level touch disjoint unknowns), and the block writes the region back. Seven
// kernels a double sweep: colours 0, 1, 2 forward, colour 3 forward then backward, colours 2, 1, 0
// backward. Every product and sum is rounded alone (__dmul_rn, __dadd_rn) and a row's dot product
// is summed in storage order, so the iterates must equal the host reference's sweep in tile order
// bit for bit (checked). Not part of the library: a bench switch for a design decision.
// Usage: bench_carpcg_tiles n lambda B [B...]   (fem2d:n=n; B <= 32). Environment:
// PGK_TILES_VARIANTS (names to run, default all), PGK_TILES_THREADS (threads a block, default
// B^2 / 4 in [64, 256]), PGK_TILES_CHECK_ONLY (the bitwise checks only: for compute-sanitizer).
// Three variants of the level loop: "loop" (a row's entries in a loop, every load in the dependent
// chain), "registers" (a row's entries unrolled into registers, its unknowns gathered at once,
// the next level's row loaded while this one projects) and "reciprocal" (registers with
// lambda / |a_i|^2 precomputed: no division in the chain, so not the reference's bits). Prints per B and variant: the bitwise
// check, a double sweep's time from a stream and from a CUDA graph, the same with the level loop
// left out (the loads into shared memory and the store only), each kernel's time; first cuSPARSE's CSR SpMV on the same matrix (a MatMult's unit) and the library's
// multicolor double sweep (main's scheme, the same-run baseline). CUDA events, median of 15
// repetitions of 50 calls after 20 warm-up calls.
#include "bench/carpcg/sweep_timing.cuh"
#include "bench/carpcg/tiles.hpp"
#include "kernels/carpcg/carpcg_gpu.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/transfer.hpp"
#include "src/carpcg/operators.hpp"
#include "src/carpcg/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace pgk;
using namespace bench_sweeps;
using bench_tiles::TilePlan;

namespace {

struct DevPlan {
  int                   n, tile, ntiles_x, width, max_rows, max_levels, region;
  const int            *nlevels, *level_ptr, *row_len;
  const double         *rhs, *norms2, *values;
  const unsigned short *local_col;
};

size_t shared_bytes(const TilePlan &p)
{
  const size_t rs = p.max_rows, es = static_cast<size_t>(p.width) * rs;
  return 8 * (p.region + es + 2 * rs) + 4 * (rs + p.max_levels + 1) + 2 * es;
}

// The projections of the stored rows [begin, end) of one level, lane by lane (sweep.cpp's
// project_row on the shared copies).
__device__ void project_level(int begin, int end, int lane, int rs, double lambda, const double *vals, const unsigned short *col, const double *rhs, const double *n2, const int *len, double *xs)
{
  for (int r = begin + lane; r < end; r += 32) {
    const double norm2 = n2[r];
    if (norm2 == 0) continue;
    double dot = 0;
    for (int e = 0; e < len[r]; ++e) dot = __dadd_rn(dot, __dmul_rn(vals[e * rs + r], xs[col[e * rs + r]]));
    const double coef = __dmul_rn(lambda, __ddiv_rn(__dsub_rn(rhs[r], dot), norm2));
    for (int e = 0; e < len[r]; ++e) {
      const int c = col[e * rs + r];
      xs[c]       = __dadd_rn(xs[c], __dmul_rn(coef, vals[e * rs + r]));
    }
  }
}

// One row of a level in a lane's registers (the unrolled variant): its entries, local columns,
// right-hand side and norm; len == 0 where the lane has no row at that level.
template <int W> struct RowRegs {
  double v[W], rhs, n2;
  int    c[W], len;
};

template <int W> __device__ void load_row(int l, int lane, int rs, const int *lvl, const double *vals, const unsigned short *col, const double *rhs, const double *n2, const int *len, RowRegs<W> &row)
{
  const int r = lvl[l] + lane;
  row.len     = r < lvl[l + 1] ? len[r] : 0;
  if (row.len == 0) return;
  row.rhs = rhs[r], row.n2 = n2[r];
#pragma unroll
  for (int e = 0; e < W; ++e)
    if (e < row.len) row.v[e] = vals[e * rs + r], row.c[e] = col[e * rs + r];
}

// A row's projection from registers: its unknowns gathered at once, the dot summed in storage
// order, the unknowns written back from the gathered values (no other row of the level touches them).
template <int W, bool Recip> __device__ void project_regs(const RowRegs<W> &row, double lambda, double *xs)
{
  if (row.len == 0 || row.n2 == 0) return;
  double xv[W];
#pragma unroll
  for (int e = 0; e < W; ++e)
    if (e < row.len) xv[e] = xs[row.c[e]];
  double dot = 0;
#pragma unroll
  for (int e = 0; e < W; ++e)
    if (e < row.len) dot = __dadd_rn(dot, __dmul_rn(row.v[e], xv[e]));
  // Recip: n2 holds lambda / |a_i|^2 (one product instead of a division: not the reference's bits)
  const double coef = Recip ? __dmul_rn(__dsub_rn(row.rhs, dot), row.n2) : __dmul_rn(lambda, __ddiv_rn(__dsub_rn(row.rhs, dot), row.n2));
#pragma unroll
  for (int e = 0; e < W; ++e)
    if (e < row.len) xs[row.c[e]] = __dadd_rn(xv[e], __dmul_rn(coef, row.v[e]));
}

// The levels first, first + step, ... (count of them), one row a lane (a level has at most 32
// rows), the next level's row loaded into registers while this one projects.
template <int W, bool Recip>
__device__ void sweep_levels_regs(int first, int step, int count, int lane, int rs, double lambda, const int *lvl, const double *vals, const unsigned short *col, const double *rhs, const double *n2, const int *len, double *xs)
{
  if (count <= 0) return;
  RowRegs<W> cur, next;
  load_row(first, lane, rs, lvl, vals, col, rhs, n2, len, cur);
  for (int i = 0; i < count; ++i) {
    if (i + 1 < count) load_row(first + (i + 1) * step, lane, rs, lvl, vals, col, rhs, n2, len, next);
    project_regs<W, Recip>(cur, lambda, xs);
    __syncwarp();
    cur = next;
  }
}

constexpr int kRegWidth = 8; // the registers variants: rows of at most 8 entries (fem2d: 7)

// Mode 0: forward, 1: backward, 2: forward then backward. Sweep = false: the loads and the store
// only. Kind 0 ("loop"): the rows' entries in a loop (project_level); 1 ("registers"): rows of at most
// kRegWidth entries from registers (sweep_levels_regs); 2 ("reciprocal"): 1 with lambda / |a_i|^2
// computed at the load, a product in place of the division in the chain.
template <int Mode, bool Sweep, int Kind> __global__ void tile_sweep_kernel(DevPlan p, const int *tiles, double lambda, double *x)
{
  extern __shared__ double smem[];
  const int                t = tiles[blockIdx.x], rs = p.max_rows, es = p.width * rs, ls = p.max_levels + 1;
  double                  *xs = smem, *vals = xs + p.region, *rhs = vals + es, *n2 = rhs + rs;
  int                     *len = reinterpret_cast<int *>(n2 + rs), *lvl = len + rs;
  unsigned short          *col  = reinterpret_cast<unsigned short *>(lvl + ls);
  const int                side = p.tile + 2, x0 = (t % p.ntiles_x) * p.tile - 1, y0 = (t / p.ntiles_x) * p.tile - 1;
  for (int c = threadIdx.x; c < p.region; c += blockDim.x) {
    const int gx = x0 + c % side, gy = y0 + c / side;
    xs[c] = gx >= 0 && gy >= 0 && gx < p.n && gy < p.n ? x[gx + static_cast<size_t>(p.n) * gy] : 0.0;
  }
  const size_t tr = static_cast<size_t>(t) * rs, te = static_cast<size_t>(t) * es;
  for (int i = threadIdx.x; i < es; i += blockDim.x) vals[i] = p.values[te + i], col[i] = p.local_col[te + i];
  for (int i = threadIdx.x; i < rs; i += blockDim.x) rhs[i] = p.rhs[tr + i], len[i] = p.row_len[tr + i], n2[i] = Kind < 2 ? p.norms2[tr + i] : p.norms2[tr + i] == 0 ? 0.0 : lambda / p.norms2[tr + i];
  for (int i = threadIdx.x; i < ls; i += blockDim.x) lvl[i] = p.level_ptr[static_cast<size_t>(t) * ls + i];
  __syncthreads();
  if (Sweep && Kind > 0 && threadIdx.x < 32) {
    const int nl = p.nlevels[t];
    if (Mode != 1) sweep_levels_regs<kRegWidth, Kind == 2>(0, 1, nl, threadIdx.x, rs, lambda, lvl, vals, col, rhs, n2, len, xs);
    if (Mode != 0) sweep_levels_regs<kRegWidth, Kind == 2>(nl - 1, -1, nl, threadIdx.x, rs, lambda, lvl, vals, col, rhs, n2, len, xs);
  }
  if (Sweep && Kind == 0 && threadIdx.x < 32) {
    const int nl = p.nlevels[t], lane = threadIdx.x;
    if (Mode != 1)
      for (int l = 0; l < nl; ++l) {
        project_level(lvl[l], lvl[l + 1], lane, rs, lambda, vals, col, rhs, n2, len, xs);
        __syncwarp();
      }
    if (Mode != 0)
      for (int l = nl - 1; l >= 0; --l) {
        project_level(lvl[l], lvl[l + 1], lane, rs, lambda, vals, col, rhs, n2, len, xs);
        __syncwarp();
      }
  }
  __syncthreads();
  for (int c = threadIdx.x; c < p.region; c += blockDim.x) {
    const int gx = x0 + c % side, gy = y0 + c / side;
    if (gx >= 0 && gy >= 0 && gx < p.n && gy < p.n) x[gx + static_cast<size_t>(p.n) * gy] = xs[c];
  }
}

using Kernel = void (*)(DevPlan, const int *, double, double *);

// The kernels of a variant (tile_sweep_kernel's Kind) by [sweep][mode].
template <int K> constexpr Kernel kKernels[2][3]   = {{tile_sweep_kernel<0, false, K>, tile_sweep_kernel<1, false, K>, tile_sweep_kernel<2, false, K>}, {tile_sweep_kernel<0, true, K>, tile_sweep_kernel<1, true, K>, tile_sweep_kernel<2, true, K>}};
const char *const                 kVariantNames[3] = {"loop", "registers", "reciprocal"};

struct DeviceTiles {
  cuda::DeviceBuffer<int>            nlevels, level_ptr, row_len, tiles[4];
  cuda::DeviceBuffer<double>         rhs, norms2, values;
  cuda::DeviceBuffer<unsigned short> local_col;
  DevPlan                            p{};
  int                                count[4] = {};
  size_t                             smem     = 0;
  int                                threads  = 0;
  int                                widest   = 0; // rows in the widest level of any tile

  DeviceTiles(const TilePlan &h, cudaStream_t s)
      : nlevels(upload(h.nlevels, s)), level_ptr(upload(h.level_ptr, s)), row_len(upload(h.row_len, s)), rhs(upload(h.rhs, s)), norms2(upload(h.norms2, s)), values(upload(h.values, s)), local_col(upload(h.local_col, s))
  {
    p = {static_cast<int>(h.n), static_cast<int>(h.tile), static_cast<int>(h.ntiles_x), h.width, h.max_rows, h.max_levels, h.region, nlevels.data(), level_ptr.data(), row_len.data(), rhs.data(), norms2.data(), values.data(), local_col.data()};
    for (int c = 0; c < 4; ++c) tiles[c] = upload(h.tiles_of_colour[c], s), count[c] = static_cast<int>(h.tiles_of_colour[c].size());
    smem    = shared_bytes(h);
    threads = std::min(256, std::max(64, static_cast<int>(h.tile * h.tile / 4)));
    if (const char *t = std::getenv("PGK_TILES_THREADS")) threads = std::max(32, std::atoi(t));
    for (Index t = 0; t < h.ntiles; ++t)
      for (int l = 0; l < h.nlevels[t]; ++l) {
        const int *lp = &h.level_ptr[t * (h.max_levels + 1) + l];
        widest        = std::max(widest, lp[1] - lp[0]);
      }
    for (int sweep = 0; sweep < 2; ++sweep)
      for (int mode = 0; mode < 3; ++mode)
        for (Kernel k : {kKernels<0>[sweep][mode], kKernels<1>[sweep][mode], kKernels<2>[sweep][mode]}) PGK_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(k), cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  }
  void launch(int variant, int colour, int mode, bool sweep, double lambda, double *x, cudaStream_t s) const
  {
    if (count[colour] == 0) return;
    const Kernel k = variant == 0 ? kKernels<0>[sweep][mode] : variant == 1 ? kKernels<1>[sweep][mode] : kKernels<2>[sweep][mode];
    k<<<count[colour], threads, smem, s>>>(p, tiles[colour].data(), lambda, x);
    PGK_CUDA_CHECK_LAUNCH();
  }
};

// The seven kernels of a double sweep: (colour, mode).
constexpr int kSteps[7][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 2}, {2, 1}, {1, 1}, {0, 1}};

// Rows of x that differ in bits from the host reference after two double sweeps from 0, and the
// largest difference.
Index check_against_host(const Csr &a, const std::vector<double> &b, const std::vector<double> &norms, Index n, double lambda, Index tile, const std::vector<double> &xd, double &most)
{
  const CsrView            v = view_of(a);
  std::vector<double>      xh(a.nrows, 0.0);
  const std::vector<Index> order = bench_tiles::tile_order(n, tile);
  for (int i = 0; i < 2; ++i)
    for (bool backward : {false, true}) carpcg::sweep(v, norms.data(), b.data(), lambda, order.data(), a.nrows, backward, xh.data());
  Index differ = 0;
  most         = 0;
  for (Index i = 0; i < a.nrows; ++i)
    if (std::memcmp(&xd[i], &xh[i], sizeof(double)) != 0) ++differ, most = std::max(most, std::abs(xd[i] - xh[i]));
  return differ;
}

void run_variant(const Csr &a, const std::vector<double> &b, const std::vector<double> &norms, Index n, double lambda, const TilePlan &h, const DeviceTiles &d, int variant, double *x, cudaStream_t s)
{
  auto double_sweep = [&](bool sweep) {
    for (const auto &k : kSteps) d.launch(variant, k[0], k[1], sweep, lambda, x, s);
  };
  PGK_CUDA_CHECK(cudaMemsetAsync(x, 0, a.nrows * sizeof(double), s));
  double_sweep(true), double_sweep(true);
  std::vector<double> xd(a.nrows);
  cuda::copy_to_host(xd.data(), x, a.nrows * sizeof(double), s);
  double      most   = 0;
  const Index differ = check_against_host(a, b, norms, n, lambda, h.tile, xd, most);
  int         steps  = 0;
  for (int l : h.colour_levels) steps += 2 * l;
  if (std::getenv("PGK_TILES_CHECK_ONLY")) {
    std::printf("  %s: bitwise check: %s (%d of %d differ, max |diff| %.3e)\n", kVariantNames[variant], differ == 0 ? "IDENTICAL" : "DIFFERENT", static_cast<int>(differ), static_cast<int>(a.nrows), most);
    return;
  }
  for (int i = 0; i < 20; ++i) double_sweep(true);
  const double    stream_us = time_us(s, 15, 50, [&] { double_sweep(true); });
  const double    noop_us   = time_us(s, 15, 50, [&] { double_sweep(false); });
  cudaGraph_t     g;
  cudaGraphExec_t ge;
  PGK_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < 50; ++i) double_sweep(true);
  PGK_CUDA_CHECK(cudaStreamEndCapture(s, &g));
  PGK_CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
  const double graph_us = time_us(s, 15, 1, [&] { PGK_CUDA_CHECK(cudaGraphLaunch(ge, s)); }) / 50;
  std::printf("  %s: bitwise check (2 double sweeps from 0 vs the host sweep in tile order): %s (%d of %d differ, max |diff| %.3e)\n", kVariantNames[variant], differ == 0 ? "IDENTICAL" : "DIFFERENT", static_cast<int>(differ),
              static_cast<int>(a.nrows), most);
  std::printf("    double sweep: stream %.1f us, graph %.1f us; loads and stores only (no levels) %.1f us; t = (stream - that) / steps = %.1f ns\n", stream_us, graph_us, noop_us, 1000.0 * (stream_us - noop_us) / steps);
  std::printf("    kernels (colour:mode, levels, us):");
  for (const auto &k : kSteps) {
    const double us = time_us(s, 15, 20, [&] { d.launch(variant, k[0], k[1], true, lambda, x, s); });
    std::printf(" %d:%s %d %.1f", k[0], k[1] == 0 ? "f" : k[1] == 1 ? "b" : "fb", (k[1] == 2 ? 2 : 1) * h.colour_levels[k[0]], us);
  }
  std::printf("\n");
  std::fflush(stdout);
  PGK_CUDA_CHECK(cudaGraphExecDestroy(ge));
  PGK_CUDA_CHECK(cudaGraphDestroy(g));
}

void run_tiles(const Csr &a, const std::vector<double> &b, const std::vector<double> &norms, Index n, double lambda, Index tile, cudaStream_t s)
{
  const CsrView v = view_of(a);
  if (!bench_tiles::tiles_sweep_at_once(v, n, tile)) {
    std::printf("tiles:%d: tiles of one colour share unknowns\n", static_cast<int>(tile));
    return;
  }
  const TilePlan             h = bench_tiles::build_tile_plan(v, b.data(), norms.data(), n, tile);
  const DeviceTiles          d(h, s);
  cuda::DeviceBuffer<double> x(a.nrows);
  std::printf("tiles:%-3d rows %d, tiles a colour %d/%d/%d/%d, levels a colour %d/%d/%d/%d, widest level %d rows, %zu B shared, %d threads a block\n", static_cast<int>(tile), static_cast<int>(a.nrows), d.count[0], d.count[1], d.count[2], d.count[3],
              h.colour_levels[0], h.colour_levels[1], h.colour_levels[2], h.colour_levels[3], d.widest, d.smem, d.threads);
  const char *only = std::getenv("PGK_TILES_VARIANTS"); // e.g. "registers,reciprocal"; all when unset
  for (int variant = 0; variant < 3; ++variant) {
    if (only && !std::strstr(only, kVariantNames[variant])) continue;
    if (variant == 0 || (d.widest <= 32 && h.width <= kRegWidth)) run_variant(a, b, norms, n, lambda, h, d, variant, x.data(), s);
    else std::printf("  %s: not run (a level wider than 32 rows or a row longer than %d)\n", kVariantNames[variant], kRegWidth);
  }
}

} // namespace

int main(int argc, char **argv)
{
  const auto study = bench_tiles::fem2d_study(argc, argv, "B [B...]");
  if (!study) return 2;
  const auto &[n, lambda, a, b]   = *study;
  const CsrView             v     = view_of(a);
  const std::vector<double> norms = carpcg::row_norms2(v);
  cudaStream_t              s;
  PGK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaDeviceProp prop;
  PGK_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("fem2d:n=%d (%d rows, %d entries), lambda %.2f, %s; CUDA events, median of 15 x 50 after 20 warm-up\n", static_cast<int>(n), static_cast<int>(a.nrows), static_cast<int>(a.nnz()), lambda, prop.name);
  if (!std::getenv("PGK_TILES_CHECK_ONLY")) std::printf("cuSPARSE CSR SpMV (a MatMult's unit): %.1f us; library multicolor double sweep (graph): %.1f us\n", spmv_us(a, s), multicolor_us(a, b, lambda, s));
  std::fflush(stdout);
  for (int k = 3; k < argc; ++k) {
    const Index tile = std::atoi(argv[k]);
    if (tile < 2 || tile > 32) {
      std::fprintf(stderr, "B must be 2..32\n");
      return 2;
    }
    run_tiles(a, b, norms, n, lambda, tile, s);
  }
  PGK_CUDA_CHECK(cudaStreamDestroy(s));
  return 0;
}
