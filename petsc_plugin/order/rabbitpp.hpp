// The device backend MatOrdering rabbitpp calls: pgk::cuda::rabbitpp_gpu
// (kernels/rabbitpp/rabbitpp_gpu.hpp, plain C++). A build without the CUDA kernels gets a stub of
// the same name that throws, so that rabbitpp.cpp is written once; the ordering never takes its
// gpu backend in such a build (auto needs a current device copy, and gpu a device matrix, which
// PgkMatGetCSR refuses first).
#pragma once

#include "petsc_plugin/sys/device.hpp"

#include "kernels/rabbitpp/rabbitpp_gpu.hpp" // declarations only: no CUDA types

#if !defined(PGK_HAVE_CUDA)
namespace pgk::cuda {
inline std::vector<Index> rabbitpp_gpu(const CsrView &, const rabbitpp::Options &, void *, rabbitpp::Info *)
{
  no_kernels("MatOrdering rabbitpp gpu backend");
}
} // namespace pgk::cuda
#endif
