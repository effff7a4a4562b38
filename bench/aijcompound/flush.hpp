// bench_aijcompound's L2 flush (flush.cu): reads every byte of `bytes` at buf on `stream`, so the
// next timed product starts with nothing of its own data in L2. Throws pgk::cuda::Error.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace pgk::bench::aijcompound {
void FlushL2(const unsigned char *buf, std::size_t bytes, unsigned int *sink, cudaStream_t stream);
} // namespace pgk::bench::aijcompound
