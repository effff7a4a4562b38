// This rank's machine: device availability, stream, description, the node's cores, and the
// transfer logger (device.hpp). The one file of the PETSc layer that asks which build it is.
#include "petsc_plugin/sys/device.hpp"

#include <thread>

#include "src/common/thread_pool.hpp"

#if defined(PGK_HAVE_CUDA)
#  include <petscdevice_cuda.h>
#endif

namespace {

PetscMPIInt g_ranks_on_node = 1; // set by PgkDeviceInitialize

#if defined(PGK_HAVE_CUDA)
// Every copy kernels/ makes (copy_to_device / copy_to_host / read_scalar) lands here once.
void LogTransfer(pgk::cuda::CopyDirection direction, std::size_t bytes)
{
  // The logger must not throw; PETSc's counters cannot fail.
  if (direction == pgk::cuda::CopyDirection::HostToDevice) (void)PetscLogCpuToGpu((PetscLogDouble)bytes);
  else (void)PetscLogGpuToCpu((PetscLogDouble)bytes);
}
#endif

} // namespace

PetscBool PgkHaveCudaKernels(void)
{
#if defined(PGK_HAVE_CUDA)
  return PETSC_TRUE;
#else
  return PETSC_FALSE;
#endif
}

PetscBool PgkDeviceAvailable(void)
{
#if defined(PGK_HAVE_CUDA)
  static int cached = -1; // the device count does not change during a run
  if (cached < 0) cached = pgk::cuda::device_count() > 0;
  return cached ? PETSC_TRUE : PETSC_FALSE;
#else
  return PETSC_FALSE;
#endif
}

/*@
  PetscGpuKitDeviceAvailable - whether the CUDA kernels were built and a CUDA device is usable

  Not Collective

  Output Parameter:
. available - `PETSC_TRUE` when GPU paths can run

  Level: beginner

.seealso: `PetscGpuKitGetVersion()`
@*/
PetscErrorCode PetscGpuKitDeviceAvailable(PetscBool *available)
{
  PetscFunctionBegin;
  PetscAssertPointer(available, 1);
  *available = PgkDeviceAvailable();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkGetDeviceStream(void **stream)
{
  PetscFunctionBegin;
#if defined(PGK_HAVE_CUDA)
  cudaStream_t s;
  PetscCall(PetscGetCurrentCUDAStream(&s));
  *stream = s;
#else
  *stream = nullptr;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "this petscgpukit was built without CUDA kernels; rebuild against a CUDA PETSc");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt PgkNodeThreadShare(void)
{
  const unsigned hw    = std::thread::hardware_concurrency();
  const PetscInt share = PetscMax(1, (PetscInt)(hw ? hw : 1) / g_ranks_on_node);
  return PetscMin(share, (PetscInt)pgk::usable_cores());
}

PetscErrorCode PgkDeviceInitialize(void)
{
  MPI_Comm node;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_size(node, &g_ranks_on_node));
  PetscCallMPI(MPI_Comm_free(&node));
#if defined(PGK_HAVE_CUDA)
  pgk::cuda::set_transfer_logger(LogTransfer);
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

void PgkDeviceFinalize(void)
{
#if defined(PGK_HAVE_CUDA)
  pgk::cuda::set_transfer_logger(nullptr); // PETSc's counters are gone after PetscFinalize
#endif
}

PetscErrorCode PgkDeviceView(PetscViewer viewer)
{
  PetscFunctionBegin;
#if defined(PGK_HAVE_CUDA)
  if (PgkDeviceAvailable()) {
    std::string desc;
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, desc = pgk::cuda::current_device_description());
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA kernels: built; device: %s\n", desc.c_str()));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA kernels: built; device: none usable (CPU paths only)\n"));
  }
#else
  PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA kernels: not built (PETSc without CUDA); CPU paths only\n"));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
