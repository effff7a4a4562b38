// What every element operation of the device rabbitpp shares: the host/device qualifier, the
// key and weight types, bit widths, and the exact integer atomics.
//
// The element operations (graph_ops.hpp, batch_ops.hpp, dendrogram_ops.hpp, regroup_ops.hpp)
// are plain C++ with PGK_RB_HD: the kernels of kernels/rabbitpp/*.cu call them once per element
// (vertex, slot, entry), and tests/unit/rabbitpp/gpu_emulation.cpp calls the very same functions
// in host loops (sorts and scans replaced by their std:: equivalents), so the device logic is
// checked against the multicore backend on machines without a GPU. Every operation touches only
// its own element's outputs, or adds exact integers (add_exact), or writes the same value as
// every other writer (flags): the order in which elements run never changes a result.
#pragma once

#include <cstdint>
#include <type_traits>

#include "src/common/csr.hpp"

#if defined(__CUDACC__)
#define PGK_RB_HD __host__ __device__ __forceinline__
#else
#define PGK_RB_HD inline
#endif

namespace pgk::cuda::rabbitpp_ops {

// A summed edge weight between two communities: at most the graph's total weight, which
// build_graph limits to 3037000499 < 2^32.
using Weight = std::uint32_t;
// Radix-sort keys: (slot, root), (parent, rank), (target, slot) packed high to low.
using Key = std::uint64_t;
// Strengths and gains (long long: the type CUDA's 64-bit atomics take).
using Wide = long long;

enum Action : std::uint8_t { kDefer = 0, kTop = 1, kMerge = 2 };

// The largest Index.
PGK_RB_HD Index index_max() { return static_cast<Index>(~static_cast<std::make_unsigned_t<Index>>(0) >> 1); }

// Bits needed to write x (0 for x = 0).
PGK_RB_HD int bits_for(unsigned long long x) {
  int b = 0;
  while (x > 0) {
    ++b;
    x >>= 1;
  }
  return b;
}

// ceil(log2(x)) for x >= 1 (0 for x <= 1): pointer-jumping steps that cover x - 1 links.
PGK_RB_HD int ceil_log2(long long x) {
  int s = 0;
  while ((1LL << s) < x) ++s;
  return s;
}

// *p += v, exact (integers), from any number of threads at once.
PGK_RB_HD void add_exact(Wide *p, Wide v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v));
#else
  *p += v;
#endif
}
PGK_RB_HD void add_exact(Index *p, Index v) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Index) == 4) atomicAdd(reinterpret_cast<unsigned int *>(p), static_cast<unsigned int>(v));
  else atomicAdd(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v));
#else
  *p += v;
#endif
}

// *p = min(*p, v) from any number of threads at once.
PGK_RB_HD void min_exact(Index *p, Index v) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Index) == 4) atomicMin(reinterpret_cast<int *>(p), static_cast<int>(v));
  else atomicMin(reinterpret_cast<long long *>(p), static_cast<long long>(v));
#else
  if (v < *p) *p = v;
#endif
}

// First position in keys[0, count) whose key is >= k.
PGK_RB_HD Index lower_bound_key(const Key *keys, Index count, Key k) {
  Index lo = 0, hi = count;
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    if (keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Is col in the sorted row colidx[lo, hi)?
PGK_RB_HD bool sorted_contains(const Index *colidx, Index lo, Index hi, Index col) {
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    const Index c = colidx[mid];
    if (c == col) return true;
    if (c < col) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

} // namespace pgk::cuda::rabbitpp_ops
