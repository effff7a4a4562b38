// An experiment, not part of the library or of the benchmark suite: can symmetric storage make
// Mat aijcompound's 3x3 product faster than reading the whole matrix once? (bench/NOTES.md,
// eleventh session: +SYM in row order read 198.7 of 212.7 MB from DRAM because a partner's second
// read misses L2.) Self-contained (CUDA only): the vec3d27 pattern (27-point stencil, full 3x3
// blocks, A(i,j) = A(j,i)^T with blocks that are not symmetric themselves), ELL-AoS, one thread per
// block row, and four products:
//   plain     every position's own block (what the library's ELL-AoS static kernel does);
//   sym_row   lower positions through their partners, positions in row order (the reverted +SYM);
//   sym_pairs positions outward from the diagonal in mirrored pairs (step k: own nlow + k and lower
//             nlow - k, whose partner sits at position nlow' + k of its row: the same ELL region, so
//             both reads of it happen at about the same time); other summation order, within 1e-13;
//   plain_smem / sym_pairs_smem  the warp's 32 consecutive AoS blocks of a position staged through
//             shared memory with 16-byte coalesced loads (the L2-sector lead).
// Build and run: nvcc -O3 -arch=sm_90 -o probe aijcompound_sym_probe.cu && ./probe [n] [once] (n = 47;
// once: each product launched once, for ncu).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                                                                                                                                                                         \
  do {                                                                                                                                                                                                                                                   \
    cudaError_t e = (x);                                                                                                                                                                                                                                 \
    if (e != cudaSuccess) {                                                                                                                                                                                                                              \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));                                                                                                                                                                              \
      std::exit(1);                                                                                                                                                                                                                                      \
    }                                                                                                                                                                                                                                                    \
  } while (0)

struct Ell {
  int                 n, npad, width;
  std::vector<int>    len, nlow, col, partner; // col/partner: slot r + j * npad
  std::vector<double> val;                     // 9 per slot, column-major block
};

// Block for offset o (index 0..26, 13 = self): B(26 - o) = B(o)^T, B(13) symmetric.
static double block_entry(int o, int a, int b)
{
  if (o == 13) return a == b ? 26.0 : 0.5 / (1 + a + b);
  if (o > 13) return block_entry(26 - o, b, a);
  return -(0.25 + 0.01 * o + 0.1 * a + 0.03 * b); // not symmetric in (a, b)
}

static Ell build(int g)
{
  Ell m;
  m.n     = g * g * g;
  m.npad  = (m.n + 31) / 32 * 32;
  m.width = 27;
  m.len.assign(m.n, 0);
  m.nlow.assign(m.n, 0);
  m.col.assign((size_t)m.npad * 27, -1);
  m.partner.assign((size_t)m.npad * 27, -1);
  m.val.assign((size_t)m.npad * 27 * 9, 0.0);
  std::vector<std::vector<int>> cols(m.n), offs(m.n);
  for (int z = 0; z < g; ++z)
    for (int y = 0; y < g; ++y)
      for (int x = 0; x < g; ++x) {
        const int r = (z * g + y) * g + x;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int X = x + dx, Y = y + dy, Z = z + dz;
              if (X < 0 || Y < 0 || Z < 0 || X >= g || Y >= g || Z >= g) continue;
              cols[r].push_back((Z * g + Y) * g + X);
              offs[r].push_back((dz + 1) * 9 + (dy + 1) * 3 + (dx + 1));
            }
      }
  for (int r = 0; r < m.n; ++r) {
    m.len[r] = (int)cols[r].size();
    for (int j = 0; j < m.len[r]; ++j) {
      const size_t s = r + (size_t)j * m.npad;
      m.col[s]       = cols[r][j];
      if (cols[r][j] < r) ++m.nlow[r];
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) m.val[s * 9 + b * 3 + a] = block_entry(offs[r][j], a, b);
    }
  }
  for (int r = 0; r < m.n; ++r)
    for (int j = 0; j < m.nlow[r]; ++j) {
      const int c                       = cols[r][j];
      const int p                       = (int)(std::lower_bound(cols[c].begin(), cols[c].end(), r) - cols[c].begin());
      m.partner[r + (size_t)j * m.npad] = c + p * m.npad;
    }
  return m;
}

__device__ __forceinline__ void apply(const double *v, const double *xb, double *acc, bool transposed)
{
#pragma unroll
  for (int b = 0; b < 3; ++b)
#pragma unroll
    for (int a = 0; a < 3; ++a) acc[a] = __dadd_rn(acc[a], __dmul_rn(transposed ? v[a * 3 + b] : v[b * 3 + a], xb[b]));
}

// Nine scalar loads, as the library's AoS load of an odd-sized entry (72-byte blocks are 8-byte aligned).
__device__ __forceinline__ void load9(const double *__restrict__ p, double *v)
{
#pragma unroll
  for (int k = 0; k < 9; ++k) v[k] = __ldg(p + k);
}

struct Args {
  int           n, npad;
  const int    *len, *nlow, *col, *partner;
  const double *val, *x;
  double       *y;
};

// One position of row r: own (s) or through the partner.
__device__ __forceinline__ void take(const Args &a, size_t s, bool lower, double *acc)
{
  double    v[9], xb[3];
  const int c = __ldg(a.col + s);
  load9(a.val + (lower ? (size_t)__ldg(a.partner + s) : s) * 9, v);
  xb[0] = __ldg(a.x + 3 * c), xb[1] = __ldg(a.x + 3 * c + 1), xb[2] = __ldg(a.x + 3 * c + 2);
  apply(v, xb, acc, lower);
}

template <int MODE> __global__ void spmv(Args a)
{ // 0 plain, 1 sym_row, 2 sym_pairs
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < a.n; r += gridDim.x * blockDim.x) {
    double    acc[3] = {0, 0, 0};
    const int len = __ldg(a.len + r), nl = MODE ? __ldg(a.nlow + r) : 0;
    if (MODE < 2) {
      for (int j = 0; j < len; ++j) take(a, r + (size_t)j * a.npad, j < nl, acc);
    } else {
      for (int k = 0; nl + k < len || nl - k >= 0; ++k) {
        if (nl + k < len) take(a, r + (size_t)(nl + k) * a.npad, false, acc);
        if (k > 0 && nl - k >= 0) take(a, r + (size_t)(nl - k) * a.npad, true, acc);
      }
    }
    for (int i = 0; i < 3; ++i) a.y[3 * (size_t)r + i] = acc[i];
  }
}

// The warp's 32 own blocks of a position through shared memory (16-byte coalesced loads; rows of a
// warp are consecutive and every ELL slot exists, padding is zeros), partners read directly.
template <int MODE> __global__ void spmv_smem(Args a)
{                                        // 0 plain, 2 sym_pairs
  __shared__ double2 buf[8][32 * 9 / 2]; // 8 warps of 256 threads
  const int          w = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int base = (blockIdx.x * blockDim.x + threadIdx.x) & ~31; base < a.n; base += gridDim.x * blockDim.x) {
    const int  r      = base + lane;
    const bool live   = r < a.n;
    double     acc[3] = {0, 0, 0};
    const int  len = live ? __ldg(a.len + r) : 0, nl = (MODE && live) ? __ldg(a.nlow + r) : 0;
    int        steps = 0;
    for (int m = 0; m < 32; ++m) { // the warp's longest walk
      const int l = __shfl_sync(0xffffffffu, len, m), q = __shfl_sync(0xffffffffu, nl, m);
      steps = max(steps, MODE ? max(l - q, q + 1) : l);
    }
    for (int k = 0; k < steps; ++k) {
      const int j = MODE ? __shfl_sync(0xffffffffu, nl, 0) + k : k; // the position the warp stages
      __syncwarp();
      const double2 *src = reinterpret_cast<const double2 *>(a.val + ((size_t)base + (size_t)j * a.npad) * 9);
      if ((size_t)j < 27)
        for (int t = lane; t < 32 * 9 / 2; t += 32) buf[w][t] = __ldg(src + t);
      __syncwarp();
      const int jo = MODE ? nl + k : k;
      if (live && jo < len) {
        const size_t s = r + (size_t)jo * a.npad;
        double       v[9], xb[3];
        if (jo == j) {
          const double *sv = reinterpret_cast<const double *>(buf[w]) + lane * 9;
          for (int e = 0; e < 9; ++e) v[e] = sv[e];
        } else {
          load9(a.val + s * 9, v);
        }
        const int c = __ldg(a.col + s);
        xb[0] = __ldg(a.x + 3 * c), xb[1] = __ldg(a.x + 3 * c + 1), xb[2] = __ldg(a.x + 3 * c + 2);
        apply(v, xb, acc, false);
      }
      if (MODE && live && k > 0 && nl - k >= 0) take(a, r + (size_t)(nl - k) * a.npad, true, acc);
    }
    if (live)
      for (int i = 0; i < 3; ++i) a.y[3 * (size_t)r + i] = acc[i];
  }
}

int main(int argc, char **argv)
{
  const int g     = argc > 1 ? std::atoi(argv[1]) : 47;
  const int iters = argc > 2 ? 1 : 25, skip = argc > 2 ? 0 : 5;
  const Ell m    = build(g);
  size_t    nnzb = 0, nlow = 0;
  for (int r = 0; r < m.n; ++r) nnzb += m.len[r], nlow += m.nlow[r];
  std::vector<double> x(3 * (size_t)m.n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.1 * i);
  std::vector<double> yref(3 * (size_t)m.n, 0.0);
  for (int r = 0; r < m.n; ++r)
    for (int j = 0; j < m.len[r]; ++j) {
      const size_t s = r + (size_t)j * m.npad;
      for (int a2 = 0; a2 < 3; ++a2)
        for (int b = 0; b < 3; ++b) yref[3 * (size_t)r + a2] += m.val[s * 9 + b * 3 + a2] * x[3 * (size_t)m.col[s] + b];
    }
  Args         a{m.n, m.npad};
  int         *d_len, *d_nlow, *d_col, *d_partner;
  double      *d_val, *d_x, *d_y, *d_flush;
  const size_t slots = (size_t)m.npad * 27, flush_bytes = 256u << 20;
  CHECK(cudaMalloc(&d_len, m.n * 4));
  CHECK(cudaMalloc(&d_nlow, m.n * 4));
  CHECK(cudaMalloc(&d_col, slots * 4));
  CHECK(cudaMalloc(&d_partner, slots * 4));
  CHECK(cudaMalloc(&d_val, slots * 72));
  CHECK(cudaMalloc(&d_x, x.size() * 8));
  CHECK(cudaMalloc(&d_y, x.size() * 8));
  CHECK(cudaMalloc(&d_flush, flush_bytes));
  CHECK(cudaMemcpy(d_len, m.len.data(), m.n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_nlow, m.nlow.data(), m.n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col, m.col.data(), slots * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_partner, m.partner.data(), slots * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_val, m.val.data(), slots * 72, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), x.size() * 8, cudaMemcpyHostToDevice));
  a.len = d_len, a.nlow = d_nlow, a.col = d_col, a.partner = d_partner, a.val = d_val, a.x = d_x, a.y = d_y;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const double full = nnzb * 76.0 + 48.0 * m.n, sym = (nnzb - nlow) * 76.0 + nlow * 8.0 + 48.0 * m.n;
  std::printf("vec3d27-like n=%d: %d block rows, %zu blocks, %zu lower; bytes full %.1f MB, symmetric %.1f MB\n", g, m.n, nnzb, nlow, full / 1e6, sym / 1e6);
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  auto run = [&](const char *name, auto kernel, int threads, int bpsm) {
    const int          grid = std::min(sms * bpsm, (m.n + threads - 1) / threads);
    std::vector<float> hot, flushed;
    for (int it = 0; it < iters; ++it) {
      const bool flush = iters > 1 && it % 2;
      if (flush) CHECK(cudaMemset(d_flush, it, flush_bytes));
      CHECK(cudaEventRecord(e0));
      kernel<<<grid, threads>>>(a);
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= skip) (flush ? flushed : hot).push_back(ms);
    }
    CHECK(cudaGetLastError());
    std::vector<double> y(x.size());
    CHECK(cudaMemcpy(y.data(), d_y, y.size() * 8, cudaMemcpyDeviceToHost));
    double err = 0, scale = 0;
    for (size_t i = 0; i < y.size(); ++i) err = std::max(err, std::abs(y[i] - yref[i])), scale = std::max(scale, std::abs(yref[i]));
    if (flushed.empty()) flushed = hot;
    std::sort(hot.begin(), hot.end());
    std::sort(flushed.begin(), flushed.end());
    std::printf("%-16s %4dx%-2d hot %.4f ms  flushed %.4f ms  (median of %zu / %zu)  rel err %.1e\n", name, threads, bpsm, hot[hot.size() / 2], flushed[flushed.size() / 2], hot.size(), flushed.size(), err / scale);
  };
  for (int bpsm : {4, 8}) {
    run("plain", spmv<0>, 256, bpsm);
    run("sym_row", spmv<1>, 256, bpsm);
    run("sym_pairs", spmv<2>, 256, bpsm);
    run("plain_smem", spmv_smem<0>, 256, bpsm);
    run("sym_pairs_smem", spmv_smem<2>, 256, bpsm);
  }
  return 0;
}
