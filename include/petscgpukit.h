/*
   petscgpukit: GPU-resident orderings, preconditioners, solvers and SpMV for PETSc.

   Load it into any PETSc program at run time with
       -dll_append <prefix>/lib/libpetscgpukit.so
   (PETSc then calls PetscDLLibraryRegister_petscgpukit()), or link against it and call
   PetscGpuKitInitializePackage() after PetscInitialize().

   Every function here is collective on the communicator it is given unless it says otherwise.
*/
#pragma once

#include <petscksp.h>

#define PETSCGPUKIT_VERSION_MAJOR 0
#define PETSCGPUKIT_VERSION_MINOR 1
#define PETSCGPUKIT_VERSION_PATCH 0

/* The class id under which petscgpukit logs its events (-log_view, -info). */
PETSC_EXTERN PetscClassId PETSCGPUKIT_CLASSID;

/* Package set-up and tear-down. Initialize is idempotent and registers everything; Finalize is
   registered with PetscRegisterFinalize() and runs in PetscFinalize(). */
PETSC_EXTERN PetscErrorCode PetscGpuKitInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscGpuKitFinalizePackage(void);
/* Entry point that PETSc's -dll_append calls. */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscgpukit(void);

/* Version and build configuration; any argument may be NULL. has_cuda says whether the
   library was built with its CUDA kernels; the run-time device check is separate. */
PETSC_EXTERN PetscErrorCode PetscGpuKitGetVersion(PetscInt *major, PetscInt *minor, PetscInt *patch, const char **commit, PetscBool *has_cuda);
/* Whether this build has its CUDA kernels and a CUDA device is usable now (Not Collective). */
PETSC_EXTERN PetscErrorCode PetscGpuKitDeviceAvailable(PetscBool *available);
/* Prints version, commit, build configuration, the device in use and the registered types. */
PETSC_EXTERN PetscErrorCode PetscGpuKitView(PetscViewer viewer);

/* ---- Types ------------------------------------------------------------------------------ */

/* MatOrdering: speculative batch-parallel Reverse Cuthill-McKee, on the GPU or all CPU cores,
   identical to the serial reference for the same start node (-mat_ordering_batchrcm_*). */
#define MATORDERINGBATCHRCM "batchrcm"

/* PC: solve with the operator permuted by any MatOrdering (on the device for device matrices),
   an inner KSP with prefix <pc prefix>reorder_, and the solution permuted back. */
#define PCREORDER "reorder"
PETSC_EXTERN PetscErrorCode PCReorderGetKSP(PC pc, KSP *ksp);
PETSC_EXTERN PetscErrorCode PCReorderSetMatOrderingType(PC pc, MatOrderingType type);

/* ---- Test and benchmark matrices -------------------------------------------------------- */

/*
   PetscGpuKitMatCreateGenerated - creates a matrix from a generator specification, each rank
   generating only its own rows. The type comes from MatSetFromOptions() with the given prefix
   (so -mat_type aijcusparse works), MATAIJ otherwise.

   spec: "kind:param=value,..." such as "lap3d7:n=64", "elast3d:nx=20,ny=20,nz=40",
         "aniso2d:n=500,variant=2", "powerlaw:n=100000,communities=32".
         PetscGpuKitGeneratorList() prints every kind with its parameters.
*/
PETSC_EXTERN PetscErrorCode PetscGpuKitMatCreateGenerated(MPI_Comm comm, const char spec[], const char prefix[], Mat *A);
PETSC_EXTERN PetscErrorCode PetscGpuKitGeneratorList(PetscViewer viewer);

/*
   PetscGpuKitMatLoad - loads a matrix from a Matrix Market file (*.mtx, coordinate format,
   general/symmetric/skew-symmetric/hermitian, real/integer/pattern) or from a PETSc binary
   file (anything else). Malformed Matrix Market input gives PETSC_ERR_FILE_UNEXPECTED with
   "file:line: reason". Pattern files get the value 1.0; complex files are refused (PetscScalar
   is real). Type from MatSetFromOptions() with the given prefix.
*/
PETSC_EXTERN PetscErrorCode PetscGpuKitMatLoad(MPI_Comm comm, const char path[], const char prefix[], Mat *A);
