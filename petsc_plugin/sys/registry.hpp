// The types petscgpukit registers, in one table (registry.cpp): name, PETSc class, register
// function and a one-line description. The package registers and views them from it; a new
// type is one line there.
#pragma once

#include "petsc_plugin/sys/pgk_petsc.hpp"

// Calls every type's register function, in table order (from PetscGpuKitInitializePackage).
PetscErrorCode PgkRegisterTypes(void);
// The "registered types" lines of PetscGpuKitView().
PetscErrorCode PgkViewRegisteredTypes(PetscViewer viewer);
