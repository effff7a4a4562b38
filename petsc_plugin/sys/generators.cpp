// PetscGpuKitMatCreateGenerated: generator specifications (src/generators.hpp) as PETSc
// matrices. Each rank generates only its own rows, so large problems scale with ranks.
#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <vector>

#include "src/matgen/generators.hpp"

// Fills preallocation counts for local rows [rstart, rend) of a CSR with global columns.
static void CountDiagOffdiag(const pgk::Csr &rows, PetscInt rstart, PetscInt rend, std::vector<PetscInt> &dnnz, std::vector<PetscInt> &onnz)
{
  dnnz.assign(rows.nrows, 0);
  onnz.assign(rows.nrows, 0);
  for (PetscInt i = 0; i < rows.nrows; ++i)
    for (PetscInt k = rows.rowptr[i]; k < rows.rowptr[i + 1]; ++k) {
      const PetscInt j = rows.colidx[k];
      if (j >= rstart && j < rend) ++dnnz[i];
      else ++onnz[i];
    }
}

static PetscErrorCode PgkMatFillFromLocalCSR(Mat A, const pgk::Csr &rows)
{
  PetscInt              rstart, rend;
  std::vector<PetscInt> dnnz, onnz;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCheck(rows.nrows == rend - rstart, PETSC_COMM_SELF, PETSC_ERR_PLIB, "generated %" PetscInt_FMT " rows for %" PetscInt_FMT " local rows", (PetscInt)rows.nrows, rend - rstart);
  CountDiagOffdiag(rows, rstart, rend, dnnz, onnz);
  PetscCall(MatSeqAIJSetPreallocation(A, 0, dnnz.data()));
  PetscCall(MatMPIAIJSetPreallocation(A, 0, dnnz.data(), 0, onnz.data()));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  for (PetscInt i = 0; i < rows.nrows; ++i) {
    const PetscInt row = rstart + i, b = rows.rowptr[i], len = rows.rowptr[i + 1] - b;
    PetscCall(MatSetValues(A, 1, &row, len, rows.colidx.data() + b, rows.values.data() + b, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscGpuKitMatCreateGenerated - creates a test or benchmark matrix from a generator specification

  Collective

  Input Parameters:
+ comm   - the communicator; each rank generates its own block of rows
. spec   - "kind:param=value,...", e.g. "lap3d7:n=64" (see `PetscGpuKitGeneratorList()`)
- prefix - options prefix for `MatSetFromOptions()` (may be NULL)

  Output Parameter:
. A - the assembled matrix, `MATAIJ` unless -[prefix]mat_type says otherwise; block size set
      for block operators (3 for elast3d, 2 for helmholtz2dc, 4 for quatsurf); `MAT_SYMMETRIC` set
      where the kind is symmetric

  Level: intermediate

.seealso: `PetscGpuKitMatLoad()`, `PetscGpuKitGeneratorList()`
@*/
PetscErrorCode PetscGpuKitMatCreateGenerated(MPI_Comm comm, const char spec[], const char prefix[], Mat *A)
{
  pgk::gen::Spec  s;
  pgk::gen::Shape shape{};
  pgk::Csr        rows;
  PetscInt        rstart, rend;

  PetscFunctionBegin;
  PetscAssertPointer(spec, 2);
  PetscAssertPointer(A, 4);
  PetscCall(PetscGpuKitInitializePackage());
  PgkCallCxx(comm, PETSC_ERR_ARG_WRONG, s = pgk::gen::parse_spec(spec); shape = pgk::gen::describe(s));
  PetscCall(PetscLogEventBegin(PGK_EVENT_Generate, 0, 0, 0, 0));
  const PetscInt bs = shape.block_size, N = shape.nrows;
  PetscInt       nblocks = N / bs, mblocks = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(comm, &mblocks, &nblocks));
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, mblocks * bs, mblocks * bs, N, N));
  PetscCall(MatSetBlockSize(*A, bs));
  if (prefix) PetscCall(MatSetOptionsPrefix(*A, prefix));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSetUp(*A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  PgkCallCxx(comm, PETSC_ERR_LIB, rows = pgk::gen::generate_rows(s, rstart, rend));
  PetscCall(PgkMatFillFromLocalCSR(*A, rows));
  if (shape.symmetric) {
    PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(*A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  }
  PetscCall(PetscObjectSetName((PetscObject)*A, spec));
  PetscCall(PetscLogEventEnd(PGK_EVENT_Generate, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscGpuKitGeneratorList - prints every generator kind with its parameters

  Level: beginner

.seealso: `PetscGpuKitMatCreateGenerated()`
@*/
PetscErrorCode PetscGpuKitGeneratorList(PetscViewer viewer)
{
  PetscFunctionBegin;
  for (const auto &k : pgk::gen::kinds()) PetscCall(PetscViewerASCIIPrintf(viewer, "  %-12s %-48s %s\n", k.name.c_str(), k.params.c_str(), k.help.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}
