#include "petsc_plugin/sys/permutation_is.hpp"

#include <cstring>
#include <exception>

#include "src/common/thread_pool.hpp"

namespace {

constexpr std::size_t kParallelEntries = std::size_t{1} << 20; // shorter copies stay on this thread

// Both copies of perm, each thread writing (and so first touching) its own slice of each.
void FillCopies(const std::vector<PetscInt> &perm, int threads, PetscInt *row, PetscInt *col)
{
  const std::size_t n = perm.size();
  if (threads <= 1 || n < kParallelEntries) {
    std::memcpy(row, perm.data(), n * sizeof(PetscInt));
    std::memcpy(col, perm.data(), n * sizeof(PetscInt));
    return;
  }
  pgk::ThreadPool pool(threads);
  pool.run([&](int t, int nt) {
    const std::size_t lo = n * (std::size_t)t / (std::size_t)nt, hi = n * ((std::size_t)t + 1) / (std::size_t)nt;
    std::memcpy(row + lo, perm.data() + lo, (hi - lo) * sizeof(PetscInt));
    std::memcpy(col + lo, perm.data() + lo, (hi - lo) * sizeof(PetscInt));
  });
}

} // namespace

PetscErrorCode PgkCreatePermutationISes(const std::vector<PetscInt> &perm, PetscInt threads, IS *irow, IS *icol)
{
  const PetscInt n   = (PetscInt)perm.size();
  PetscInt      *row = nullptr, *col = nullptr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &row));
  PetscCall(PetscMalloc1(n, &col));
  try {
    FillCopies(perm, (int)threads, row, col);
  } catch (const std::exception &e) { // threads could not start: nothing was handed to PETSc yet
    PetscCall(PetscFree(row));
    PetscCall(PetscFree(col));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, row, PETSC_OWN_POINTER, irow));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, col, PETSC_OWN_POINTER, icol));
  PetscFunctionReturn(PETSC_SUCCESS);
}
