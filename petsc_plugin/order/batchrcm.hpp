// The device backend MatOrdering batchrcm calls: pgk::cuda::rcm_gpu (kernels/batchrcm/rcm_gpu.hpp,
// plain C++). A build without the CUDA kernels gets a stub of the same name that throws, so that
// batchrcm.cpp is written once; the ordering never takes its gpu backend in such a build (auto
// needs a usable device, and gpu a device matrix, which PgkMatGetCSR refuses first).
#pragma once

#include "petsc_plugin/sys/device.hpp"

#include "kernels/batchrcm/rcm_gpu.hpp" // declarations and RcmGpuInfo only: no CUDA types

#if !defined(PGK_HAVE_CUDA)
namespace pgk::cuda {
inline std::vector<Index> rcm_gpu(const CsrView &, const rcm::Options &, void *, rcm::Stats *, RcmGpuInfo *)
{
  no_kernels("MatOrdering batchrcm gpu backend");
}
} // namespace pgk::cuda
#endif
