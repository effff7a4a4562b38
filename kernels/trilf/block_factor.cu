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

// counters: [0] failure key (~0: none), [1] splits, [2] replaced.
__global__ void factor_paths(Index nb, const Index *path_head, double tau, double *lower, double *diag, double *upper,
                             double *neg_mult, double *inv_out, double *back, unsigned long long *counters) {
  for (Index start = blockIdx.x * Index(blockDim.x) + threadIdx.x; start < nb; start += Index(gridDim.x) * blockDim.x) {
    if (path_head[start] != start) continue;
    unsigned long long splits = 0, replaced = 0;
    M2 inv_prev{{0, 0, 0, 0}};
    Index k = start;
    for (; k < nb && (k == start || path_head[k] == start); ++k) {
      const M2 L = load(lower, k), D = load(diag, k), U = load(upper, k);
      if (!finite(L) || !finite(D) || !finite(U)) {
        atomicMin(counters, fail_key(k, kNonFinite));
        break;
      }
      double r[2];
      for (int s = 0; s < 2; ++s) {
        const int a = 2 * s, b = a + 1;
        r[s] =
            __dadd_rn(__dadd_rn(__dadd_rn(__dadd_rn(__dadd_rn(fabs(L.v[a]), fabs(L.v[b])), fabs(D.v[a])), fabs(D.v[b])),
                                fabs(U.v[a])),
                      fabs(U.v[b]));
      }
      const double thresh = __dmul_rn(__dmul_rn(tau, r[0]), r[1]);
      M2 m{{0, 0, 0, 0}}, update{{0, 0, 0, 0}};
      if (k > start && !is_zero(L)) {
        m = mul(L, inv_prev);
        if (!finite(m)) {
          atomicMin(counters, fail_key(k, kMultiplier));
          break;
        }
        update = mul(m, load(upper, k - 1));
      }
      M2 p;
      for (int q = 0; q < 4; ++q) p.v[q] = __dsub_rn(D.v[q], update.v[q]);
      if (!(fabs(det(p)) > thresh) && !is_zero(update)) { // split the coarse path before k
        store(lower, k, M2{{0, 0, 0, 0}});
        store(upper, k - 1, M2{{0, 0, 0, 0}});
        m = M2{{0, 0, 0, 0}};
        p = D;
        ++splits;
      }
      if (!(fabs(det(p)) > thresh)) { // keep D's diagonal, replace unusable entries
        p = M2{{D.v[0], 0, 0, D.v[3]}};
        for (int s = 0; s < 2; ++s) {
          double &d = p.v[3 * s];
          if (fabs(d) <= __dmul_rn(tau, r[s])) d = r[s] > 0 ? (d < 0 ? -r[s] : r[s]) : 1.0;
        }
        store(diag, k, p);
        ++replaced;
      }
      const double dt = det(p);
      const M2 inv{{__ddiv_rn(p.v[3], dt), __ddiv_rn(-p.v[1], dt), __ddiv_rn(-p.v[2], dt), __ddiv_rn(p.v[0], dt)}};
      if (!finite(inv) || dt == 0) {
        atomicMin(counters, fail_key(k, kPivot));
        break;
      }
      store(neg_mult, k, neg(m));
      store(inv_out, k, inv);
      if (k > start) // U~_{k-1} is final now
        store(back, k - 1, neg(mul(inv_prev, load(upper, k - 1))));
      inv_prev = inv;
    }
    if (k > start) // the path's last block (or the one before a failure): U~ = 0 at a path end
      store(back, k - 1, neg(mul(inv_prev, load(upper, k - 1))));
    if (splits) atomicAdd(counters + 1, splits);
    if (replaced) atomicAdd(counters + 2, replaced);
  }
}

} // namespace

FactorCounts factor(Index nb, const Index *path_head, const Index *slots, double rel_tol, double *lower, double *diag,
                    double *upper, double *neg_mult, double *inv, double *back, DeviceBuffer<unsigned char> &scratch,
                    cudaStream_t s) {
  FactorCounts fc;
  if (nb == 0) return fc;
  scratch.allocate(3 * sizeof(unsigned long long));
  auto *counters = reinterpret_cast<unsigned long long *>(scratch.data());
  const unsigned long long init[3] = {~0ull, 0, 0};
  copy_to_device(counters, init, sizeof init, s);
  factor_paths<<<grid_for(nb, 128, kMaxBlocks), 128, 0, s>>>(nb, path_head, rel_tol, lower, diag, upper, neg_mult, inv,
                                                             back, counters);
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
