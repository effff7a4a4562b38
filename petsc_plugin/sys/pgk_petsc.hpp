// Internal header of the PETSc layer: what every petsc_plugin/ file shares.
#pragma once

#include <petscgpukit.h>
#include <petsc/private/petscimpl.h>

#include <exception>
#include <stdexcept>
#include <type_traits>

#include "src/common/csr.hpp"

// src/ and kernels/ use pgk::Index and double; the build fixes them to PETSc's types, so
// PETSc arrays pass through without conversion.
static_assert(std::is_same<PetscInt, pgk::Index>::value, "pgk::Index must be PetscInt (PGK_INDEX_64 mismatch)");
static_assert(std::is_same<PetscScalar, double>::value, "petscgpukit needs a real double-precision PETSc");

// Log events of the platform layer (registered in PetscGpuKitInitializePackage).
extern PetscLogEvent PGK_EVENT_MatGetCSR, PGK_EVENT_CheckCSR, PGK_EVENT_Generate, PGK_EVENT_LoadMM;

// Calls C++ code that may throw (src/, kernels/) and turns an exception into a PETSc error.
// The exception type picks the code where it says more than the caller's: std::domain_error
// (NaN/Inf, overflow) is PETSC_ERR_FP, std::invalid_argument (bad input or options)
// PETSC_ERR_ARG_WRONG; anything else gets `code`.
#define PgkCallCxx(comm, code, ...)                                                                                                                                                                                                                      \
  do {                                                                                                                                                                                                                                                   \
    try {                                                                                                                                                                                                                                                \
      __VA_ARGS__;                                                                                                                                                                                                                                       \
    } catch (const std::domain_error &pgk_e_) {                                                                                                                                                                                                          \
      SETERRQ(comm, PETSC_ERR_FP, "%s", pgk_e_.what());                                                                                                                                                                                                  \
    } catch (const std::invalid_argument &pgk_e_) {                                                                                                                                                                                                      \
      SETERRQ(comm, PETSC_ERR_ARG_WRONG, "%s", pgk_e_.what());                                                                                                                                                                                           \
    } catch (const std::exception &pgk_e_) {                                                                                                                                                                                                             \
      SETERRQ(comm, code, "%s", pgk_e_.what());                                                                                                                                                                                                          \
    }                                                                                                                                                                                                                                                    \
  } while (0)

// PetscObjectContainerCompose with the container on PETSC_COMM_SELF. PETSc's own makes it on the
// object's communicator, and creating any object on a communicator takes a tag from that
// communicator's counter: done by one rank alone (a per-rank operation such as MatGetRow on an
// MPI matrix, where another rank owns no rows and never calls it), the ranks' tags no longer
// match and the next message exchange on the communicator hangs (PCREDISTRIBUTE did).
static inline PetscErrorCode PgkObjectContainerComposeLocal(PetscObject obj, const char name[], void *pointer, PetscCtxDestroyFn *destroy)
{
  PetscContainer container;

  PetscFunctionBegin;
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &container));
  PetscCall(PetscContainerSetPointer(container, pointer));
  if (destroy) PetscCall(PetscContainerSetCtxDestroy(container, destroy));
  PetscCall(PetscObjectCompose(obj, name, (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Registration of each type, defined in its type file and called through the registration
// table (sys/registry.cpp) from PetscGpuKitInitializePackage.
PetscErrorCode PgkRegisterOrderingBatchRCM(void);
PetscErrorCode PgkRegisterOrderingRabbitpp(void);
PetscErrorCode PgkRegisterPCReorder(void);
PetscErrorCode PgkRegisterPCTrilf(void);
PetscErrorCode PgkRegisterKSPCarpcg(void);
PetscErrorCode PgkRegisterMatAIJCompound(void);
