// Atomics and memory-order helpers shared by the kernels.
//
// Data that one block writes and another reads (the ordering, the batch records, the marks of
// the device RCM) is read through device-scope atomic loads: they go to L2, so a stale L1 line
// can never be read, and the release/acquire pairs on the signal words order everything
// written before a signal with everything read after it (PTX memory model, gpu scope).
//
// The atomic_*_t operations take pgk::Index (int32 or int64) and other 32- or 64-bit integers:
// std::int64_t is `long` on LP64, which has no atomicAdd/atomicCAS/... overloads.
#pragma once

#include <cuda/atomic>

namespace pgk::cuda {

// Adds x, summed over the calling warp, to *counter: one atomic per warp, none when the sum is 0.
// Every lane of the warp must call it (a full-warp shuffle). Integer sums, so the order of the
// warps' atomics does not change the result.
__device__ __forceinline__ void warp_counter_add(unsigned long long *counter, unsigned long long x) {
#pragma unroll
  for (int off = 16; off > 0; off /= 2) x += __shfl_xor_sync(0xffffffffu, x, off);
  if (threadIdx.x % 32 == 0 && x) atomicAdd(counter, x);
}

template <class T> using DeviceRef = ::cuda::atomic_ref<T, ::cuda::thread_scope_device>;

template <class T> __device__ __forceinline__ T load_relaxed(const T &x) {
  return DeviceRef<T>(const_cast<T &>(x)).load(::cuda::memory_order_relaxed);
}
template <class T> __device__ __forceinline__ T load_acquire(const T &x) {
  return DeviceRef<T>(const_cast<T &>(x)).load(::cuda::memory_order_acquire);
}
template <class T> __device__ __forceinline__ void store_relaxed(T &x, T v) {
  DeviceRef<T>(x).store(v, ::cuda::memory_order_relaxed);
}
template <class T> __device__ __forceinline__ void store_release(T &x, T v) {
  DeviceRef<T>(x).store(v, ::cuda::memory_order_release);
}

// The global nanosecond timer (watchdogs).
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <class T> __device__ __forceinline__ T atomic_cas_t(T *p, T expected, T desired) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit integers only");
  if constexpr (sizeof(T) == 4)
    return static_cast<T>(atomicCAS(reinterpret_cast<int *>(p), static_cast<int>(expected), static_cast<int>(desired)));
  else
    return static_cast<T>(atomicCAS(reinterpret_cast<unsigned long long *>(p),
                                    static_cast<unsigned long long>(expected),
                                    static_cast<unsigned long long>(desired)));
}
template <class T> __device__ __forceinline__ T atomic_min_t(T *p, T v) {
  if constexpr (sizeof(T) == 4) return static_cast<T>(atomicMin(reinterpret_cast<int *>(p), static_cast<int>(v)));
  else return static_cast<T>(atomicMin(reinterpret_cast<long long *>(p), static_cast<long long>(v)));
}
template <class T> __device__ __forceinline__ T atomic_max_t(T *p, T v) {
  if constexpr (sizeof(T) == 4) return static_cast<T>(atomicMax(reinterpret_cast<int *>(p), static_cast<int>(v)));
  else return static_cast<T>(atomicMax(reinterpret_cast<long long *>(p), static_cast<long long>(v)));
}
// Old value of *p; *p += v. The add is done on the unsigned type of T's width: two's complement
// makes it exact for signed values (negative v included).
template <class T> __device__ __forceinline__ T atomic_add_t(T *p, T v) {
  if constexpr (sizeof(T) == 4)
    return static_cast<T>(atomicAdd(reinterpret_cast<unsigned int *>(p), static_cast<unsigned int>(v)));
  else return static_cast<T>(atomicAdd(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v)));
}
// Largest value of a signed integer type, usable in device code.
template <class T> __host__ __device__ constexpr T max_of() { return static_cast<T>(~0ull >> (65 - 8 * sizeof(T))); }

} // namespace pgk::cuda
