// Permutation kernels for PC reorder: vector gather/scatter and the value refill of a
// symmetrically permuted matrix. Plain C++ interface; pointers are device pointers.
#pragma once

#include <cstddef>

#include "csr.hpp"

namespace pgk::cuda {

// An Index array in device memory, freed on destruction.
class DeviceIndexArray {
public:
  DeviceIndexArray() = default;
  DeviceIndexArray(const DeviceIndexArray &) = delete;
  DeviceIndexArray &operator=(const DeviceIndexArray &) = delete;
  ~DeviceIndexArray();
  // Copies n host values to the device (synchronous on `stream`).
  void upload(const Index *host, Index n, void *stream);
  const Index *data() const { return data_; }
  Index size() const { return size_; }

private:
  Index *data_ = nullptr;
  Index size_ = 0;
};

// out[k] = in[perm[k]], k < n
void gather(const double *in, const Index *perm, double *out, Index n, void *stream);
// out[perm[k]] = in[k], k < n
void scatter(const double *in, const Index *perm, double *out, Index n, void *stream);

} // namespace pgk::cuda
