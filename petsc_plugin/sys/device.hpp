// This rank's machine, as the PETSc layer sees it: whether the CUDA kernels were built and a
// device is usable, PETSc's current stream, the device's description, this rank's share of the
// node's cores, and the logger that adds every host<->device copy of kernels/ to PETSc's
// CpuToGpu / GpuToCpu counts. Calls go one way: the types call this and csr_access; the package
// initializes it (PgkDeviceInitialize) and views it; this calls kernels/common only.
//
// It also gives the shared device interface of kernels/common that the types call (buffers,
// permutations, checks, the logged copies) a definition in a build without the CUDA kernels:
// stubs of the same names that throw, so that every caller is written once, without #if. The
// stubs are never reached in practice: a type takes its device path only where
// PgkDeviceAvailable() or a device matrix type says so, and neither holds without the kernels.
#pragma once

#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

#if defined(PGK_HAVE_CUDA)
#  include "kernels/common/device_buffer.hpp" // DeviceBuffer
#  include "kernels/common/kernels.hpp"       // check_csr
#  include "kernels/common/permute.hpp"       // gather, scatter
#  include "kernels/common/transfer.hpp"      // copy_to_device, copy_to_host (logged)
#else
#  include "src/common/csr_check.hpp"

namespace pgk::cuda {

// What a stub throws (PgkCallCxx turns it into a PETSc error).
[[noreturn]] inline void no_kernels(const char *what)
{
  throw std::logic_error(std::string(what) + ": this petscgpukit was built without its CUDA kernels (PETSc without CUDA, or PGK_ENABLE_CUDA=OFF)");
}

template <class T> class DeviceBuffer {
public:
  void        allocate(std::size_t) { no_kernels("device buffer"); }
  T          *data() { return nullptr; }
  const T    *data() const { return nullptr; }
  std::size_t size() const { return 0; }
};

inline void gather(const double *, const Index *, double *, Index, void *)
{
  no_kernels("device gather");
}
inline void scatter(const double *, const Index *, double *, Index, void *)
{
  no_kernels("device scatter");
}
inline CsrCheck check_csr(const CsrView &, void *)
{
  no_kernels("device CSR check");
}
inline void copy_to_device(void *, const void *, std::size_t, void *)
{
  no_kernels("host-to-device copy");
}
inline void copy_to_host(void *, const void *, std::size_t, void *)
{
  no_kernels("device-to-host copy");
}

} // namespace pgk::cuda
#endif

// Whether this build has the CUDA kernels and a device is usable now (probed once, then cached;
// the device count does not change during a run). Not Collective.
PetscBool PgkDeviceAvailable(void);

// PETSc's current CUDA stream as the void* that kernels/ takes. Errors (PETSC_ERR_SUP) in a
// build without the CUDA kernels. Not Collective.
PetscErrorCode PgkGetDeviceStream(void **stream);

// The default thread count of the multicore backends (at least 1): the hardware threads of this
// node divided among this job's ranks on it, and no more than the cores this rank may run on (its
// affinity mask: a launcher that binds the rank to one core gives it one thread, where the node's
// share would put 16-32 threads on that core). Known without communication once
// PgkDeviceInitialize ran. Not Collective.
PetscInt PgkNodeThreadShare(void);

// Package initialization: counts this job's ranks on the node (collective on PETSC_COMM_WORLD,
// done here once because every rank initializes the package, never inside a type where only
// some ranks may be) and installs the transfer logger. Finalize uninstalls the logger.
PetscErrorCode PgkDeviceInitialize(void);
void           PgkDeviceFinalize(void);

// The "CUDA kernels: ..." line of PetscGpuKitView(), and whether the kernels were built.
PetscErrorCode PgkDeviceView(PetscViewer viewer);
PetscBool      PgkHaveCudaKernels(void);
