// Device backend of MatOrdering rabbitpp: src/rabbitpp/README.md's algorithm (rounds of K
// vertices) on the GPU, for a matrix whose CSR lives in device memory. The permutation equals
// the multicore backend's (pgk::rabbitpp::rabbitpp_batch) bit for bit for the same options, on
// every run. Only the permutation and a few scalars (counts, flags) come back to the host, all
// through kernels/common/transfer.hpp (logged).
//
// Plain C++ (no CUDA types) so that the PETSc layer can call it.
#pragma once

#include "src/common/csr.hpp"
#include "src/rabbitpp/rabbitpp.hpp"

#include <vector>

namespace pgk::cuda {

// a: device CSR (full row pointer; values ignored), square; rows sorted and unique (PETSc's AIJ
// storage; others are refused with std::invalid_argument). opt.batch <= 0 picks
// rabbitpp::default_batch(n); opt.threads is ignored. perm[new] = old on the host. info (may be
// null) gets the figures of README.md section 5 and the time of each phase (device events).
// stream: a cudaStream_t as void*. Throws std::invalid_argument / std::overflow_error like the
// host backends, pgk::cuda::Error on CUDA failures.
std::vector<Index> rabbitpp_gpu(const CsrView &a, const rabbitpp::Options &opt, void *stream,
                                rabbitpp::Info *info = nullptr);

} // namespace pgk::cuda
