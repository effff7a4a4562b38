static const char help[] = "Checks the CSR view of PETSc matrices (host, device, MPI diagonal block):\n"
                           "memory type, exactly the listed transfers, validation counts, bad-input errors.\n"
                           "  -gen <spec>              generator specification (default lap3d7:n=10)\n"
                           "  -sparse_rows             use a matrix with 80% empty rows (compressed row storage)\n"
                           "  -policy auto|host|device where to ask for the arrays\n"
                           "  -expect_memtype host|device\n"
                           "  -case ok|nan|missing_diag|unassembled|nonsquare\n";

#include <petscgpukit.h>

#include <cstring>
#include <limits>

#include "petsc_plugin/sys/csr_access.hpp"

static PetscErrorCode BuildSpecial(const char *which, Mat *A)
{
  PetscInt n = 100, M, N;

  PetscFunctionBegin;
  M = n, N = std::strcmp(which, "nonsquare") == 0 ? n + 2 : n;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, M, N));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSetUp(*A));
  if (std::strcmp(which, "unassembled") == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscInt rstart, rend;
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; ++i) {
    const PetscBool sparse = std::strcmp(which, "sparse_rows") == 0 ? PETSC_TRUE : PETSC_FALSE;
    if (sparse && i % 5) continue; // 80% of rows empty: PETSc switches to compressed rows
    if (!(std::strcmp(which, "missing_diag") == 0 && i == 3)) PetscCall(MatSetValue(*A, i, i, 4.0, INSERT_VALUES));
    if (i + 1 < N) PetscCall(MatSetValue(*A, i, i + 1, -1.0, INSERT_VALUES));
  }
  if (std::strcmp(which, "nan") == 0 && rstart == 0) PetscCall(MatSetValue(*A, 0, 0, std::numeric_limits<PetscReal>::quiet_NaN(), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Reference counts from MatGetRow on the sequential block (host data; may transfer).
static PetscErrorCode ReferenceCounts(Mat block, pgk::CsrCheck *ref)
{
  PetscInt m, n;

  PetscFunctionBegin;
  *ref = pgk::CsrCheck();
  PetscCall(MatGetLocalSize(block, &m, &n));
  for (PetscInt i = 0; i < m; ++i) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscBool          diag = PETSC_FALSE;
    PetscCall(MatGetRow(block, i, &nc, &cols, &vals));
    if (nc == 0) ref->empty_rows++;
    for (PetscInt k = 0; k < nc; ++k) {
      if (cols[k] == i) diag = PETSC_TRUE;
      if (PetscIsInfOrNanScalar(vals[k])) ref->nonfinite++;
    }
    if (i < n && !diag) ref->missing_diagonal++;
    PetscCall(MatRestoreRow(block, i, &nc, &cols, &vals));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char          spec[256] = "lap3d7:n=10", which[32] = "ok", policy_name[16] = "auto", expect[16] = "";
  PetscBool     sparse = PETSC_FALSE;
  Mat           A;
  PgkMatCSR     csr;
  pgk::CsrCheck got, ref;
  PgkMemPolicy  policy = PGK_MEM_AUTO;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_csr_access", NULL);
  PetscCall(PetscOptionsString("-gen", "generator spec", NULL, spec, spec, sizeof spec, NULL));
  PetscCall(PetscOptionsBool("-sparse_rows", "80% empty rows", NULL, sparse, &sparse, NULL));
  PetscCall(PetscOptionsString("-case", "ok|nan|missing_diag|unassembled|nonsquare", NULL, which, which, sizeof which, NULL));
  PetscCall(PetscOptionsString("-policy", "auto|host|device", NULL, policy_name, policy_name, sizeof policy_name, NULL));
  PetscCall(PetscOptionsString("-expect_memtype", "host|device", NULL, expect, expect, sizeof expect, NULL));
  PetscOptionsEnd();
  if (!std::strcmp(policy_name, "host")) policy = PGK_MEM_HOST;
  else if (!std::strcmp(policy_name, "device")) policy = PGK_MEM_DEVICE;

  if (sparse) PetscCall(BuildSpecial("sparse_rows", &A));
  else if (std::strcmp(which, "ok")) PetscCall(BuildSpecial(which, &A));
  else PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &A));
  PetscCall(PgkCheckSquareAssembled(A, "test_csr_access"));

  // Touch the matrix as an application would: for a device type this makes the device copy current.
  Vec x, y;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y));

  for (int pass = 0; pass < 2; ++pass) {
    const PetscLogDouble ctog0 = petsc_ctog_ct, gtoc0 = petsc_gtoc_ct;
    PetscCall(PgkMatGetCSR(A, policy, &csr));
    PetscCall(PgkMatCSRCheck(&csr, &got));
    Mat                block = csr.block;
    const PetscMemType mtype = csr.mtype;
    // Empty rows (-sparse_rows) have no diagonal by construction: only finiteness is required there.
    PetscCall(PgkMatCSRRequire(A, &csr, sparse ? PGK_REQUIRE_FINITE : PGK_REQUIRE_FINITE | PGK_REQUIRE_DIAGONAL, "test_csr_access"));
    PetscCall(PgkMatRestoreCSR(A, &csr));
    const PetscLogDouble ctog = petsc_ctog_ct - ctog0, gtoc = petsc_gtoc_ct - gtoc0;
    // Listed transfers: the access itself moves nothing (pass 0 of a device matrix stored with
    // compressed rows uploads the full row pointer once, PETSc's own logged copy); each of the
    // two checks on device arrays (PgkMatCSRCheck, and PgkMatCSRRequire's) reads its counts
    // back: 1 GpuToCpu each (kernels/common/csr_check.cu), none for an empty block.
    PetscInt rows;
    PetscCall(MatGetLocalSize(block, &rows, NULL));
    const PetscLogDouble checks = PetscMemTypeHost(mtype) || rows == 0 ? 0 : 2;
    PetscCheck(gtoc == checks && (pass == 0 || ctog == 0), PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] pass %d: transfers ctog=%g gtoc=%g, expected ctog=0 gtoc=%g", PetscGlobalRank, pass, ctog, gtoc, checks);
    PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] pass %d memtype %s transfers during access: ctog=%g gtoc=%g as listed\n", PetscGlobalRank, pass, PetscMemTypeHost(mtype) ? "host" : "device", ctog, gtoc));
    if (expect[0]) PetscCheck(!std::strcmp(expect, PetscMemTypeHost(mtype) ? "host" : "device"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "memtype is not %s", expect);
    PetscCall(ReferenceCounts(block, &ref));
    PetscCheck(got.empty_rows == ref.empty_rows && got.missing_diagonal == ref.missing_diagonal && got.nonfinite == ref.nonfinite && got.structure_ok(), PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "check counts differ from the reference: empty %lld/%lld diag %lld/%lld nonfinite %lld/%lld", got.empty_rows, ref.empty_rows, got.missing_diagonal, ref.missing_diagonal, got.nonfinite, ref.nonfinite);
    PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] pass %d counts match the reference: empty rows %lld, missing diagonal %lld\n", PetscGlobalRank, pass, got.empty_rows, got.missing_diagonal));
  }
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "test_csr_access: all checks passed\n"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
