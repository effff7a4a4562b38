// Device twins of src/aijcompound/entry.hpp shared by the aijcompound kernels: the expanded real
// block of an entry, the one product routine apply_entry, the transposed entry, and the host
// dispatch from (kind, bs) to the kernels' template instances.
//
// Bitwise agreement with the reference needs the same operations in the same order: every
// product and sum goes through __dmul_rn / __dadd_rn (/ __dsub_rn, __ddiv_rn), which nvcc never
// contracts into a fused multiply-add (the reference is compiled with -ffp-contract=off).
#pragma once

#include "src/aijcompound/entry.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace pgk::cuda::aijcompound {

namespace ac = pgk::aijcompound;

// Scalar offsets (entry * esize + component) can pass 2^31 even where Index is 32-bit.
using Offset = long long;

// ac::expanded, under another name (argument-dependent lookup on EntryKind would pick the host
// function): row i, column j of the real block of the entry whose component c is v[c * stride].
// Quaternion L(q): the component of (i, j) is i ^ j, and bit 4i + j of 0x284E marks the negated
// positions (row 0: columns 1, 2, 3; row 1: 2; row 2: 3; row 3: 1).
__device__ __forceinline__ double expanded_value(ac::EntryKind kind, int bs, const double *v, Offset stride, int i,
                                                 int j) {
  if (kind == ac::EntryKind::block) return v[(j * bs + i) * stride];
  if (kind == ac::EntryKind::complex) {
    const double a = v[0], b = v[stride];
    return i == j ? a : (i == 1 ? b : -b);
  }
  const double c = v[(i ^ j) * stride];
  return (0x284E >> (4 * i + j)) & 1 ? -c : c;
}

// ac::apply_entry with the kind and bs as template arguments (acc stays in registers):
// acc[i] += A_e(i, j) * xb[j] for j = 0..BS-1 in this order, for every row i, each a rounded
// multiply then a rounded add.
template <ac::EntryKind K, int BS>
__device__ __forceinline__ void apply_entry(const double *v, Offset stride, const double *xb, double *acc) {
  if constexpr (K == ac::EntryKind::complex) {
    const double a = v[0], b = v[stride];
    acc[0] = __dadd_rn(acc[0], __dmul_rn(a, xb[0]));
    acc[0] = __dadd_rn(acc[0], __dmul_rn(-b, xb[1]));
    acc[1] = __dadd_rn(acc[1], __dmul_rn(b, xb[0]));
    acc[1] = __dadd_rn(acc[1], __dmul_rn(a, xb[1]));
  } else if constexpr (K == ac::EntryKind::quaternion) {
    const double w = v[0], x = v[stride], y = v[2 * stride], z = v[3 * stride];
    const double row[4][4] = {{w, -x, -y, -z}, {x, w, -z, y}, {y, z, w, -x}, {z, -y, x, w}};
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) acc[i] = __dadd_rn(acc[i], __dmul_rn(row[i][j], xb[j]));
  } else {
#pragma unroll
    for (int i = 0; i < BS; ++i)
#pragma unroll
      for (int j = 0; j < BS; ++j) acc[i] = __dadd_rn(acc[i], __dmul_rn(v[(j * BS + i) * stride], xb[j]));
  }
}

// Component q of ac::transpose_entry(in): a block's transpose (out[i * bs + j] = in[j * bs + i]),
// or the conjugate (the real part kept, the others negated: exact).
__device__ __forceinline__ double transposed_component(ac::EntryKind kind, int bs, const double *in, int q) {
  if (kind == ac::EntryKind::block) return in[(q % bs) * bs + q / bs];
  return q == 0 ? in[0] : -in[q];
}

// The index of this thread in a 1D grid and the grid's stride, for grid-stride loops.
__device__ __forceinline__ Offset thread_index() { return blockIdx.x * Offset(blockDim.x) + threadIdx.x; }
__device__ __forceinline__ Offset grid_stride() { return Offset(gridDim.x) * blockDim.x; }

template <ac::EntryKind K> using KindTag = std::integral_constant<ac::EntryKind, K>;
template <int BS> using BsTag = std::integral_constant<int, BS>;

// Calls f(KindTag<K>{}, BsTag<BS>{}) for the supported (kind, bs): block 2..8, complex 2,
// quaternion 4; std::invalid_argument otherwise. A kernel templated on both keeps its
// accumulators and loops at compile-time size.
template <class F> void with_shape(ac::EntryKind kind, int bs, F &&f) {
  using ac::EntryKind;
  if (kind == EntryKind::complex && bs == 2) return f(KindTag<EntryKind::complex>{}, BsTag<2>{});
  if (kind == EntryKind::quaternion && bs == 4) return f(KindTag<EntryKind::quaternion>{}, BsTag<4>{});
  if (kind == EntryKind::block) switch (bs) {
    case 2: return f(KindTag<EntryKind::block>{}, BsTag<2>{});
    case 3: return f(KindTag<EntryKind::block>{}, BsTag<3>{});
    case 4: return f(KindTag<EntryKind::block>{}, BsTag<4>{});
    case 5: return f(KindTag<EntryKind::block>{}, BsTag<5>{});
    case 6: return f(KindTag<EntryKind::block>{}, BsTag<6>{});
    case 7: return f(KindTag<EntryKind::block>{}, BsTag<7>{});
    case 8: return f(KindTag<EntryKind::block>{}, BsTag<8>{});
    default: break;
    }
  throw std::invalid_argument(std::string("aijcompound: entry kind ") + ac::kind_name(kind) +
                              " does not support block size " + std::to_string(bs));
}

} // namespace pgk::cuda::aijcompound
