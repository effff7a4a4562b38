// C++ calls (src/, kernels/) from the PETSc code of the benchmarks: an exception becomes a PETSc
// error carrying its message (std::domain_error -> PETSC_ERR_FP, std::invalid_argument ->
// PETSC_ERR_ARG_WRONG, anything else -> `code`). Usable in any function or lambda that returns
// PetscErrorCode.
#pragma once

#include <petscsys.h>

#include <exception>
#include <stdexcept>

#define PGK_BENCH_CALL_CXX(comm, code, ...)                                                                                                                                                                                                              \
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
