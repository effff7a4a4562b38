// PetscGpuKitMatLoad: Matrix Market (src/matrix_market.hpp) or PETSc binary into a Mat.
#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <cstring>
#include <vector>

#include "src/matgen/matrix_market.hpp"

static PetscBool EndsWith(const char *s, const char *suffix)
{
  const size_t n = std::strlen(s), k = std::strlen(suffix);
  return n >= k && std::strcmp(s + n - k, suffix) == 0 ? PETSC_TRUE : PETSC_FALSE;
}

// Every rank parses the file and keeps its own rows: simple and fine for test and benchmark
// inputs; for very large files convert once to PETSc binary (examples/pgk-convert), which
// MatLoad reads in parallel.
static PetscErrorCode LoadMatrixMarket(MPI_Comm comm, const char path[], const char prefix[], Mat *A)
{
  pgk::mm::Data               data;
  std::vector<pgk::mm::Entry> entries;
  PetscInt                    rstart, rend, cstart, cend;

  PetscFunctionBegin;
  {
    FILE *probe = fopen(path, "r");
    PetscCheck(probe, comm, PETSC_ERR_FILE_OPEN, "cannot open Matrix Market file %s", path);
    fclose(probe);
  }
  PetscCall(PetscLogEventBegin(PGK_EVENT_LoadMM, 0, 0, 0, 0));
  PgkCallCxx(comm, PETSC_ERR_FILE_UNEXPECTED, data = pgk::mm::read_file(path));
  PetscCheck(data.header.field != pgk::mm::Field::Complex, comm, PETSC_ERR_SUP, "%s: complex Matrix Market data needs complex scalars; PetscScalar is real here (compound entries are handled by Mat aijcompound)", path);
  PgkCallCxx(comm, PETSC_ERR_FILE_UNEXPECTED, entries = pgk::mm::expand(data));
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, data.header.nrows, data.header.ncols));
  if (prefix) PetscCall(MatSetOptionsPrefix(*A, prefix));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSetUp(*A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  PetscCall(MatGetOwnershipRangeColumn(*A, &cstart, &cend));
  std::vector<PetscInt> dnnz(rend - rstart, 0), onnz(rend - rstart, 0);
  for (const auto &e : entries)
    if (e.row >= rstart && e.row < rend) {
      if (e.col >= cstart && e.col < cend) ++dnnz[e.row - rstart];
      else ++onnz[e.row - rstart];
    }
  PetscCall(MatSeqAIJSetPreallocation(*A, 0, dnnz.data()));
  PetscCall(MatMPIAIJSetPreallocation(*A, 0, dnnz.data(), 0, onnz.data()));
  // Duplicate coordinates are summed, the usual reading of a COO file.
  for (const auto &e : entries)
    if (e.row >= rstart && e.row < rend) {
      const PetscInt    i = e.row, j = e.col;
      const PetscScalar v = e.re;
      PetscCall(MatSetValues(*A, 1, &i, 1, &j, &v, ADD_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  if (data.header.symmetry == pgk::mm::Symmetry::Symmetric) PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(PetscLogEventEnd(PGK_EVENT_LoadMM, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscGpuKitMatLoad - loads a matrix from a Matrix Market (*.mtx) or PETSc binary file

  Collective

  Input Parameters:
+ comm   - the communicator
. path   - file name; "*.mtx" is read as Matrix Market, anything else with `MatLoad()`
- prefix - options prefix for `MatSetFromOptions()` (may be NULL)

  Output Parameter:
. A - the assembled matrix

  Notes:
  Matrix Market: coordinate format; general, symmetric, skew-symmetric and hermitian storage
  is expanded; pattern entries get 1.0; integer values become reals; complex files are refused
  (`PETSC_ERR_SUP`). A malformed file gives `PETSC_ERR_FILE_UNEXPECTED` with "file:line: reason".

  Level: intermediate

.seealso: `PetscGpuKitMatCreateGenerated()`, `MatLoad()`
@*/
PetscErrorCode PetscGpuKitMatLoad(MPI_Comm comm, const char path[], const char prefix[], Mat *A)
{
  PetscFunctionBegin;
  PetscAssertPointer(path, 2);
  PetscAssertPointer(A, 4);
  PetscCall(PetscGpuKitInitializePackage());
  if (EndsWith(path, ".mtx")) {
    PetscCall(LoadMatrixMarket(comm, path, prefix, A));
  } else {
    PetscViewer viewer;
    PetscCall(PetscViewerBinaryOpen(comm, path, FILE_MODE_READ, &viewer));
    PetscCall(MatCreate(comm, A));
    if (prefix) PetscCall(MatSetOptionsPrefix(*A, prefix));
    PetscCall(MatSetType(*A, MATAIJ));
    PetscCall(MatSetFromOptions(*A));
    PetscCall(MatLoad(*A, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
  }
  PetscCall(PetscObjectSetName((PetscObject)*A, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}
