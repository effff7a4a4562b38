// Package registration: class id, log events, options, the -dll_append entry point, version and
// view. The types come from the registration table (registry.cpp); this rank's machine (device,
// cores, transfer logger) from device.cpp.
#include "petsc_plugin/sys/pgk_petsc.hpp"

#include "petsc_plugin/sys/device.hpp"
#include "petsc_plugin/sys/registry.hpp"

#include "pgk_commit.h" // generated at build time (cmake/commit.cmake)

PetscClassId  PETSCGPUKIT_CLASSID;
PetscLogEvent PGK_EVENT_MatGetCSR, PGK_EVENT_CheckCSR, PGK_EVENT_Generate, PGK_EVENT_LoadMM;

static PetscBool PgkPackageInitialized = PETSC_FALSE;

/*@C
  PetscGpuKitFinalizePackage - called from PetscFinalize() to undo PetscGpuKitInitializePackage()

  Level: developer

.seealso: `PetscGpuKitInitializePackage()`
@*/
PetscErrorCode PetscGpuKitFinalizePackage(void)
{
  PetscFunctionBegin;
  PgkDeviceFinalize();
  PgkPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscGpuKitInitializePackage - registers petscgpukit's class id, log events and types

  Collective on `PETSC_COMM_WORLD` (the first call)

  Options Database Key:
. -petscgpukit_view - print version, commit, build configuration and device

  Level: beginner

  Note:
  Called by `PetscDLLibraryRegister_petscgpukit()` when the library is loaded with `-dll_append`;
  programs that link the library call it on every rank after `PetscInitialize()`. Calling it
  again does nothing. The first call counts the ranks that share this node (the default thread
  count of the multicore backends), so that no type makes a collective call of its own.

.seealso: `PetscGpuKitFinalizePackage()`, `PetscGpuKitView()`
@*/
PetscErrorCode PetscGpuKitInitializePackage(void)
{
  PetscBool view = PETSC_FALSE;

  PetscFunctionBegin;
  if (PgkPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PgkPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("PetscGpuKit", &PETSCGPUKIT_CLASSID));
  PetscCall(PetscLogEventRegister("PgkMatGetCSR", PETSCGPUKIT_CLASSID, &PGK_EVENT_MatGetCSR));
  PetscCall(PetscLogEventRegister("PgkCheckCSR", PETSCGPUKIT_CLASSID, &PGK_EVENT_CheckCSR));
  PetscCall(PetscLogEventRegister("PgkGenerate", PETSCGPUKIT_CLASSID, &PGK_EVENT_Generate));
  PetscCall(PetscLogEventRegister("PgkLoadMM", PETSCGPUKIT_CLASSID, &PGK_EVENT_LoadMM));
  // Per-rank bookkeeping events; do not force a collective synchronization in -log_view.
  PetscCall(PetscLogEventSetCollective(PGK_EVENT_MatGetCSR, PETSC_FALSE));
  PetscCall(PetscLogEventSetCollective(PGK_EVENT_CheckCSR, PETSC_FALSE));
  PetscCall(PgkDeviceInitialize());
  PetscCall(PgkRegisterTypes());

  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "petscgpukit package options", "Sys");
  PetscCall(PetscOptionsBool("-petscgpukit_view", "Print petscgpukit's version, commit, build and device", "PetscGpuKitView", view, &view, NULL));
  PetscOptionsEnd();
  PetscCall(PetscInfo(NULL, "petscgpukit %d.%d.%d (%s) registered; CUDA kernels %s\n", PETSCGPUKIT_VERSION_MAJOR, PETSCGPUKIT_VERSION_MINOR, PETSCGPUKIT_VERSION_PATCH, PGK_COMMIT, PgkDeviceAvailable() ? "active" : "not available"));
  PetscCall(PetscRegisterFinalize(PetscGpuKitFinalizePackage));
  if (view) PetscCall(PetscGpuKitView(PETSC_VIEWER_STDOUT_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscDLLibraryRegister_petscgpukit - entry point called by PETSc when the library is loaded
  with `-dll_append <prefix>/lib/libpetscgpukit.so`

  Level: beginner

.seealso: `PetscGpuKitInitializePackage()`
@*/
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscgpukit(void)
{
  PetscFunctionBegin;
  PetscCall(PetscGpuKitInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscGpuKitGetVersion - version, commit and build configuration of the loaded library

  Not Collective

  Output Parameters:
+ major, minor, patch - version numbers
. commit - the git commit it was built from
- has_cuda - whether the CUDA kernels were built (`PETSC_FALSE` for a CPU-only build)

  Level: beginner
@*/
PetscErrorCode PetscGpuKitGetVersion(PetscInt *major, PetscInt *minor, PetscInt *patch, const char **commit, PetscBool *has_cuda)
{
  PetscFunctionBegin;
  if (major) *major = PETSCGPUKIT_VERSION_MAJOR;
  if (minor) *minor = PETSCGPUKIT_VERSION_MINOR;
  if (patch) *patch = PETSCGPUKIT_VERSION_PATCH;
  if (commit) *commit = PGK_COMMIT;
  if (has_cuda) *has_cuda = PgkHaveCudaKernels();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscGpuKitView - prints version, commit, build configuration, device and registered types

  Collective

  Input Parameter:
. viewer - an ASCII viewer

  Level: beginner
@*/
PetscErrorCode PetscGpuKitView(PetscViewer viewer)
{
  PetscBool iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "petscgpukit %d.%d.%d (commit %s)\n", PETSCGPUKIT_VERSION_MAJOR, PETSCGPUKIT_VERSION_MINOR, PETSCGPUKIT_VERSION_PATCH, PGK_COMMIT));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "built against PETSc %d.%d.%d, PetscInt %d-bit\n", PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR, (int)(8 * sizeof(PetscInt))));
  PetscCall(PgkDeviceView(viewer));
  PetscCall(PgkViewRegisteredTypes(viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
