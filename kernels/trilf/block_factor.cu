// Block trilf, step 5 on the device: factor_block (src/trilf/block.cpp) with its exact pivot
// rules, one thread per coarse path walking its blocks in order (the recurrence
// D'_k = D_k - L_k D'_{k-1}^-1 U_{k-1} is sequential along a path; paths are independent).
//
// Every floating-point operation is rounded on its own (__dmul_rn, __dadd_rn, ...): nvcc
// would otherwise contract a*b+c into an FMA, and a pivot near the "tiny" threshold could then
// be judged differently from the host reference. With separate rounding the decisions and the
// values are the reference's bits.
//
// In place: at step k the reference reads L_k, D_k, U_k of T and U~_{k-1} of T~; U~_{k-1}
// differs from U_{k-1} only after a split at step k itself, so overwriting T with T~ as we go
// reads the same values.
//
// Also writes the operands of the apply scans (block_solve.cu): -M_k, D'_k^-1 and
// -D'_k^-1 U~_k (the latter once U~_k is final, i.e. after step k+1).
#include "kernels/trilf/block_internal.cuh"

#include <stdexcept>
#include <string>

namespace pgk::cuda::trilf::blk {
namespace {

struct M2 {
  double v[4]; // row-major
};

__device__ inline M2 load(const double *p, Index k) {
  const double2 a = reinterpret_cast<const double2 *>(p)[2 * k], b = reinterpret_cast<const double2 *>(p)[2 * k + 1];
  return {{a.x, a.y, b.x, b.y}};
}
__device__ inline void store(double *p, Index k, const M2 &m) {
  reinterpret_cast<double2 *>(p)[2 * k] = make_double2(m.v[0], m.v[1]);
  reinterpret_cast<double2 *>(p)[2 * k + 1] = make_double2(m.v[2], m.v[3]);
}
__device__ inline double dot2(double a, double b, double c, double d) { // a*b + c*d, no FMA
  return __dadd_rn(__dmul_rn(a, b), __dmul_rn(c, d));
}
__device__ inline M2 mul(const M2 &a, const M2 &b) {
  return {{dot2(a.v[0], b.v[0], a.v[1], b.v[2]), dot2(a.v[0], b.v[1], a.v[1], b.v[3]),
           dot2(a.v[2], b.v[0], a.v[3], b.v[2]), dot2(a.v[2], b.v[1], a.v[3], b.v[3])}};
}
__device__ inline M2 neg(const M2 &a) { return {{-a.v[0], -a.v[1], -a.v[2], -a.v[3]}}; }
__device__ inline bool is_zero(const M2 &a) { return a.v[0] == 0 && a.v[1] == 0 && a.v[2] == 0 && a.v[3] == 0; }
__device__ inline bool finite(const M2 &a) {
  return isfinite(a.v[0]) && isfinite(a.v[1]) && isfinite(a.v[2]) && isfinite(a.v[3]);
}
__device__ inline double det(const M2 &p) { return __dsub_rn(__dmul_rn(p.v[0], p.v[3]), __dmul_rn(p.v[1], p.v[2])); }

enum : unsigned long long { kNonFinite = 0, kMultiplier = 1, kPivot = 2 };

// Failure key: non-finite T first (the reference checks all of T before factoring), then the
// first block in order.
__device__ inline unsigned long long fail_key(Index k, unsigned long long code) {
  return (code == kNonFinite ? 0ull : 1ull << 62) | (static_cast<unsigned long long>(k) << 2) | code;
}

// path_end[h] = one past the last block of the path whose head is h (paths are contiguous).
__global__ void path_ends(Index nb, const Index *path_head, Index *path_end) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < nb; k += Index(gridDim.x) * blockDim.x)
    if (k + 1 == nb || path_head[k + 1] != path_head[k]) path_end[path_head[k]] = k + 1;
}

// T's blocks k of one path, read kAhead steps before they are used: a path's thread runs one
// dependent chain (a 2x2 inverse a block), and loading each block when it is needed cost a
// memory round trip a step (1.6 us a step on a 14336-block path, H200 at fc1572b). The blocks
// read ahead all lie in the same path (path_end), whose blocks only this thread writes, and
// block k is read before step k, the first step that writes it (see the file comment). Reading 2
// steps ahead halved a step (0.79 us); 4, 6 and 8 were slower (0.98, 1.27, 1.69 us: the loop is
// unrolled kAhead times, so the code grows with it), H200 at 7d999e0.
constexpr int kAhead = 2;
struct Step {
  M2 L, D, U;
};
__device__ inline Step load_step(const double *lower, const double *diag, const double *upper, Index k, Index end) {
  if (k >= end) return Step{};
  return Step{load(lower, k), load(diag, k), load(upper, k)};
}

// One path's recurrence state between steps.
struct PathState {
  M2 inv_prev{{0, 0, 0, 0}}; // D'_{k-1}^-1
  M2 u_prev{{0, 0, 0, 0}};   // upper[k-1] as stored now (0 after a split before k)
  unsigned long long splits = 0, replaced = 0;
};

// Step k of factor_block on the block values `b` (those of T as the reference reads them);
// false after recording a failure (the caller stops the path there).
__device__ inline bool factor_step(Index k, Index start, const Step &b, double tau, PathState &st, double *lower,
                                   double *diag, double *upper, double *neg_mult, double *inv_out, double *back,
                                   unsigned long long *counters) {
  const M2 &L = b.L, &D = b.D;
  if (!finite(L) || !finite(D) || !finite(b.U)) {
    atomicMin(counters, fail_key(k, kNonFinite));
    return false;
  }
  double r[2];
  for (int s = 0; s < 2; ++s) {
    const int a = 2 * s, c = a + 1;
    r[s] = __dadd_rn(__dadd_rn(__dadd_rn(__dadd_rn(__dadd_rn(fabs(L.v[a]), fabs(L.v[c])), fabs(D.v[a])), fabs(D.v[c])),
                               fabs(b.U.v[a])),
                     fabs(b.U.v[c]));
  }
  const double thresh = __dmul_rn(__dmul_rn(tau, r[0]), r[1]);
  M2 m{{0, 0, 0, 0}}, update{{0, 0, 0, 0}};
  if (k > start && !is_zero(L)) {
    m = mul(L, st.inv_prev);
    if (!finite(m)) {
      atomicMin(counters, fail_key(k, kMultiplier));
      return false;
    }
    update = mul(m, st.u_prev);
  }
  M2 p;
  for (int q = 0; q < 4; ++q) p.v[q] = __dsub_rn(D.v[q], update.v[q]);
  if (!(fabs(det(p)) > thresh) && !is_zero(update)) { // split the coarse path before k
    store(lower, k, M2{{0, 0, 0, 0}});
    store(upper, k - 1, M2{{0, 0, 0, 0}});
    st.u_prev = M2{{0, 0, 0, 0}};
    m = M2{{0, 0, 0, 0}};
    p = D;
    ++st.splits;
  }
  if (!(fabs(det(p)) > thresh)) { // keep D's diagonal, replace unusable entries
    p = M2{{D.v[0], 0, 0, D.v[3]}};
    for (int s = 0; s < 2; ++s) {
      double &d = p.v[3 * s];
      if (fabs(d) <= __dmul_rn(tau, r[s])) d = r[s] > 0 ? (d < 0 ? -r[s] : r[s]) : 1.0;
    }
    store(diag, k, p);
    ++st.replaced;
  }
  const double dt = det(p);
  const M2 inv{{__ddiv_rn(p.v[3], dt), __ddiv_rn(-p.v[1], dt), __ddiv_rn(-p.v[2], dt), __ddiv_rn(p.v[0], dt)}};
  if (!finite(inv) || dt == 0) {
    atomicMin(counters, fail_key(k, kPivot));
    return false;
  }
  store(neg_mult, k, neg(m));
  store(inv_out, k, inv);
  if (k > start) // U~_{k-1} is final now
    store(back, k - 1, neg(mul(st.inv_prev, st.u_prev)));
  st.inv_prev = inv;
  st.u_prev = b.U;
  return true;
}

// counters: [0] failure key (~0: none), [1] splits, [2] replaced.
__global__ void factor_paths(Index nb, const Index *path_head, const Index *path_end, double tau, double *lower,
                             double *diag, double *upper, double *neg_mult, double *inv_out, double *back,
                             unsigned long long *counters) {
  for (Index start = blockIdx.x * Index(blockDim.x) + threadIdx.x; start < nb; start += Index(gridDim.x) * blockDim.x) {
    if (path_head[start] != start) continue;
    const Index end = path_end[start];
    PathState st;
    Step ring[kAhead]; // ring[j]: block k0 + j
#pragma unroll
    for (int j = 0; j < kAhead; ++j) ring[j] = load_step(lower, diag, upper, start + j, end);
    Index k = start;
    bool ok = true;
    for (Index k0 = start; ok && k0 < end; k0 += kAhead) {
#pragma unroll
      for (int j = 0; j < kAhead; ++j) {
        k = k0 + j;
        if (k >= end) break;
        const Step cur = ring[j];
        ring[j] = load_step(lower, diag, upper, k + kAhead, end);
        if (!factor_step(k, start, cur, tau, st, lower, diag, upper, neg_mult, inv_out, back, counters)) {
          ok = false;
          break;
        }
      }
    }
    if (ok) k = end;
    if (k > start) // the path's last block (or the one before a failure): U~ = 0 at a path end
      store(back, k - 1, neg(mul(st.inv_prev, st.u_prev)));
    if (st.splits) atomicAdd(counters + 1, st.splits);
    if (st.replaced) atomicAdd(counters + 2, st.replaced);
  }
}

} // namespace

FactorCounts factor(Index nb, const Index *path_head, const Index *slots, double rel_tol, double *lower, double *diag,
                    double *upper, double *neg_mult, double *inv, double *back, DeviceBuffer<unsigned char> &scratch,
                    cudaStream_t s) {
  FactorCounts fc;
  if (nb == 0) return fc;
  scratch.allocate(3 * sizeof(unsigned long long) + static_cast<std::size_t>(nb) * sizeof(Index));
  auto *counters = reinterpret_cast<unsigned long long *>(scratch.data());
  auto *path_end = reinterpret_cast<Index *>(counters + 3);
  const unsigned long long init[3] = {~0ull, 0, 0};
  copy_to_device(counters, init, sizeof init, s);
  path_ends<<<grid_for(nb, 256, kMaxBlocks), 256, 0, s>>>(nb, path_head, path_end);
  PGK_CUDA_CHECK_LAUNCH();
  factor_paths<<<grid_for(nb, 128, kMaxBlocks), 128, 0, s>>>(nb, path_head, path_end, rel_tol, lower, diag, upper,
                                                             neg_mult, inv, back, counters);
  PGK_CUDA_CHECK_LAUNCH();
  unsigned long long h[3];
  copy_to_host(h, counters, sizeof h, s);
  if (h[0] != ~0ull) {
    const Index k = static_cast<Index>((h[0] & ((1ull << 62) - 1)) >> 2);
    const unsigned long long code = h[0] & 3;
    const Index row = read_scalar(slots + 2 * k, s);
    const char *what = code == kNonFinite    ? "non-finite entry of T"
                       : code == kMultiplier ? "multiplier overflows"
                                             : "pivot block overflows";
    throw std::domain_error(std::string("trilf factor_block: ") + what + " at block " + std::to_string(k) +
                            " (original row " + std::to_string(row) + ")");
  }
  fc.splits = static_cast<Index>(h[1]);
  fc.replaced = static_cast<Index>(h[2]);
  return fc;
}

} // namespace pgk::cuda::trilf::blk
