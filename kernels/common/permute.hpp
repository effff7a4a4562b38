// Permutation kernels for PC reorder: vector gather/scatter and the value refill of a
// symmetrically permuted matrix (a scatter through the entry map). Plain C++ interface;
// pointers are device pointers; asynchronous on `stream`. No host <-> device copy: the
// permutation and the entry map reach the device once, by DeviceBuffer::upload (one copy each).
#pragma once

#include "src/common/csr.hpp"
#include "kernels/common/device_buffer.hpp" // DeviceBuffer<Index>, for the permutation and value maps

namespace pgk::cuda {

// out[k] = in[perm[k]], k < n
void gather(const double *in, const Index *perm, double *out, Index n, void *stream);
// out[perm[k]] = in[k], k < n
void scatter(const double *in, const Index *perm, double *out, Index n, void *stream);

} // namespace pgk::cuda
