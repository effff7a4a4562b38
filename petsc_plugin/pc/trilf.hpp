// The device pipeline PC trilf calls: pgk::cuda::TrilfDevice (kernels/trilf/pc_gpu.hpp, plain
// C++). A build without the CUDA kernels gets stub definitions of the members trilf.cpp uses,
// which throw, so that trilf.cpp is written once; the PC never sets up on the device in such a
// build (PgkMatUseDevice needs a usable device).
#pragma once

#include "petsc_plugin/sys/device.hpp"

#include "kernels/trilf/pc_gpu.hpp" // declarations only: no CUDA types

#if !defined(PGK_HAVE_CUDA)
namespace pgk::cuda {
struct TrilfDevice::Impl {};
inline TrilfDevice::TrilfDevice()  = default;
inline TrilfDevice::~TrilfDevice() = default;
inline void TrilfDevice::setup(const CsrView &, const pgk::trilf::Options &, void *)
{
  no_kernels("PC trilf device set-up");
}
inline void TrilfDevice::update_values(const CsrView &, void *)
{
  no_kernels("PC trilf device set-up");
}
inline void TrilfDevice::set_solver(TrilfSolver, void *)
{
  no_kernels("PC trilf device solver");
}
inline TrilfSolver TrilfDevice::solver() const
{
  return TrilfSolver::Scan;
}
inline void TrilfDevice::apply(const double *, double *, void *) const
{
  no_kernels("PC trilf device apply");
}
inline void TrilfDevice::apply_transpose(const double *, double *, void *) const
{
  no_kernels("PC trilf device apply");
}
inline bool TrilfDevice::ready() const
{
  return false;
}
inline const pgk::trilf::SetupInfo &TrilfDevice::info() const
{
  no_kernels("PC trilf device info");
}
inline const TrilfPhaseTimes &TrilfDevice::times() const
{
  no_kernels("PC trilf device times");
}
} // namespace pgk::cuda
#endif
