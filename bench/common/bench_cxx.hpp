// C++ calls (src/, kernels/) from the PETSc code of the benchmarks: an exception becomes a PETSc
// error carrying its message (std::domain_error -> PETSC_ERR_FP, std::invalid_argument ->
// PETSC_ERR_ARG_WRONG, anything else -> `code`). Usable in any function or lambda that returns
// PetscErrorCode.
#pragma once

#include <petscsys.h>
#include <petsctime.h>

#include <cstddef>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

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

// The non-empty items of a list option ("a;b;c", "1,2,4"), in order.
inline std::vector<std::string> Split(const std::string &s, char sep)
{
  std::vector<std::string> out;
  std::stringstream        ss(s);
  std::string              item;
  while (std::getline(ss, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

// Where a long benchmark is: one line as each matrix starts, "[bench_trilf 3/12, 41 s] <spec>"
// (the first rank prints), so that a user sees it working and how far along it is.
class BenchProgress {
public:
  BenchProgress(const char *name, std::size_t total) : name_(name), total_(total) { (void)PetscTime(&t0_); }

  PetscErrorCode Start(const std::string &what)
  {
    PetscLogDouble t;

    PetscFunctionBegin;
    PetscCall(PetscTime(&t));
    ++done_;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "[%s %zu/%zu, %.0f s] %s\n", name_, done_, total_, (double)(t - t0_), what.c_str()));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

private:
  const char    *name_;
  std::size_t    total_, done_ = 0;
  PetscLogDouble t0_ = 0;
};
