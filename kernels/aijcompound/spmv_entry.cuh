// The entry kinds of the SpMV kernels (spmv.cu) as compile-time types, and their loads: the
// operations of apply_entry (src/aijcompound/entry.hpp) for each accumulator in the same order,
// through __dmul_rn / __dadd_rn so that nvcc never fuses a multiply and an add (the header
// comment of spmv.cu says why that gives the reference's bits). Internal to spmv.cu.
#pragma once

#include "kernels/aijcompound/spmv.cuh"

#include <cstdint>

namespace pgk::cuda::aijcompound::spmv_detail {

__device__ __forceinline__ void madd(double &acc, double a, double x) { acc = __dadd_rn(acc, __dmul_rn(a, x)); }

// k x k real block, column-major: component j*k + i is row i, column j.
template <int K> struct BlockEntry {
  static constexpr ac::EntryKind kind = ac::EntryKind::block;
  static constexpr int bs = K, esize = K * K;
  __device__ static void apply(const double (&v)[esize], const double (&x)[bs], double (&acc)[bs]) {
#pragma unroll
    for (int j = 0; j < K; ++j)
#pragma unroll
      for (int i = 0; i < K; ++i) madd(acc[i], v[j * K + i], x[j]);
  }
  // apply() of the entry whose transpose is v: component j*K + i of the transpose is v[i*K + j].
  __device__ static void apply_transposed(const double (&v)[esize], const double (&x)[bs], double (&acc)[bs]) {
#pragma unroll
    for (int j = 0; j < K; ++j)
#pragma unroll
      for (int i = 0; i < K; ++i) madd(acc[i], v[i * K + j], x[j]);
  }
};

// a + b i as [a -b; b a].
struct ComplexEntry {
  static constexpr ac::EntryKind kind = ac::EntryKind::complex;
  static constexpr int bs = 2, esize = 2;
  __device__ static void apply(const double (&v)[2], const double (&x)[2], double (&acc)[2]) {
    const double a = v[0], b = v[1];
    madd(acc[0], a, x[0]);
    madd(acc[0], -b, x[1]);
    madd(acc[1], b, x[0]);
    madd(acc[1], a, x[1]);
  }
  // apply() of the conjugate (a, -b): -(-b) is b exactly.
  __device__ static void apply_transposed(const double (&v)[2], const double (&x)[2], double (&acc)[2]) {
    const double a = v[0], b = v[1];
    madd(acc[0], a, x[0]);
    madd(acc[0], b, x[1]);
    madd(acc[1], -b, x[0]);
    madd(acc[1], a, x[1]);
  }
};

// w + x i + y j + z k as L(q) (src/aijcompound/entry.hpp), negated factors where L has a minus.
struct QuaternionEntry {
  static constexpr ac::EntryKind kind = ac::EntryKind::quaternion;
  static constexpr int bs = 4, esize = 4;
  __device__ static void apply(const double (&v)[4], const double (&p)[4], double (&acc)[4]) {
    const double w = v[0], x = v[1], y = v[2], z = v[3];
    madd(acc[0], w, p[0]), madd(acc[0], -x, p[1]), madd(acc[0], -y, p[2]), madd(acc[0], -z, p[3]);
    madd(acc[1], x, p[0]), madd(acc[1], w, p[1]), madd(acc[1], -z, p[2]), madd(acc[1], y, p[3]);
    madd(acc[2], y, p[0]), madd(acc[2], z, p[1]), madd(acc[2], w, p[2]), madd(acc[2], -x, p[3]);
    madd(acc[3], z, p[0]), madd(acc[3], -y, p[1]), madd(acc[3], x, p[2]), madd(acc[3], w, p[3]);
  }
  // apply() of the conjugate (w, -x, -y, -z).
  __device__ static void apply_transposed(const double (&v)[4], const double (&p)[4], double (&acc)[4]) {
    const double w = v[0], x = -v[1], y = -v[2], z = -v[3];
    madd(acc[0], w, p[0]), madd(acc[0], -x, p[1]), madd(acc[0], -y, p[2]), madd(acc[0], -z, p[3]);
    madd(acc[1], x, p[0]), madd(acc[1], w, p[1]), madd(acc[1], -z, p[2]), madd(acc[1], y, p[3]);
    madd(acc[2], y, p[0]), madd(acc[2], z, p[1]), madd(acc[2], w, p[2]), madd(acc[2], -x, p[3]);
    madd(acc[3], z, p[0]), madd(acc[3], -y, p[1]), madd(acc[3], x, p[2]), madd(acc[3], w, p[3]);
  }
};

// N consecutive doubles from p through the read-only path; as double2 when `pairs` (p 16-byte aligned).
template <int N> __device__ __forceinline__ void load(const double *__restrict__ p, bool pairs, double (&v)[N]) {
  if constexpr (N % 2 == 0) {
    if (pairs) {
      const double2 *q = reinterpret_cast<const double2 *>(p);
#pragma unroll
      for (int k = 0; k < N / 2; ++k) {
        const double2 t = __ldg(q + k);
        v[2 * k] = t.x, v[2 * k + 1] = t.y;
      }
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < N; ++k) v[k] = __ldg(p + k);
}

// The components of slot s: AoS val[s * N + c] (pairs: N even, the array is cudaMalloc-aligned),
// SoA val[c * nslots + s].
template <int N, ac::Inner I>
__device__ __forceinline__ void load_entry(const double *__restrict__ val, int s, int nslots, double (&v)[N]) {
  if constexpr (I == ac::Inner::aos) {
    load<N>(val + static_cast<std::int64_t>(s) * N, true, v);
  } else {
#pragma unroll
    for (int c = 0; c < N; ++c) v[c] = __ldg(val + static_cast<std::int64_t>(c) * nslots + s);
  }
}

} // namespace pgk::cuda::aijcompound::spmv_detail
