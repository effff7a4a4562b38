static const char help[] = "MatOrdering batchrcm through MatGetOrdering(): the permutation must equal the serial\n"
                           "reference (src/rcm_serial.cpp) for the same start node, for every backend, on every\n"
                           "rank's diagonal block; prints bandwidth next to PETSc's rcm.\n"
                           "  -gen <spec> | -f <file>   the matrix (default lap3d7:n=12)\n"
                           "  -repeat <k>               order k times, every result must be identical\n"
                           "  -case ok|unassembled|nonsquare\n"
                           "  (all -mat_ordering_batchrcm_* options apply)\n";

#include <petscgpukit.h>

#include <cstring>
#include <vector>

#include "petsc_plugin/sys/csr_access.hpp"
#include "src/common/envelope.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/symmetrize.hpp"

static PetscErrorCode Reference(Mat A, std::vector<PetscInt> &ref)
{
  PgkMatCSR csr;
  char      start[64] = "peripheral";
  PetscBool diag      = PETSC_TRUE, sym_set, sym;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_batchrcm_start", start, sizeof start, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_ordering_batchrcm_diagonal_in_valence", &diag, NULL));
  pgk::rcm::Options o;
  if (!std::strcmp(start, "georgeliu")) o.start = pgk::rcm::StartNode::GeorgeLiu;
  else if (std::strcmp(start, "peripheral")) {
    o.start       = pgk::rcm::StartNode::Given;
    o.given_start = (PetscInt)std::atol(start);
  }
  o.count_diagonal_in_valence = diag ? true : false;
  PetscCall(MatIsStructurallySymmetricKnown(A, &sym_set, &sym));
  o.input_is_symmetric = sym_set && sym;
  PetscCall(PgkMatGetCSRStructureHost(A, &csr));
  ref = pgk::rcm::serial_rcm(csr.csr, o);
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Bandwidth(Mat A, const std::vector<PetscInt> &perm, PetscInt *bw)
{
  PgkMatCSR csr;

  PetscFunctionBegin;
  PetscCall(PgkMatGetCSRStructureHost(A, &csr));
  *bw = pgk::envelope(csr.csr, perm).bandwidth;
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Order(Mat A, MatOrderingType type, std::vector<PetscInt> &perm)
{
  IS              r, c;
  const PetscInt *idx;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(MatGetOrdering(A, type, &r, &c));
  PetscCall(ISGetLocalSize(r, &n));
  PetscCall(ISGetIndices(r, &idx));
  // MPIAIJ: PETSc orders the diagonal block and returns global row numbers.
  PetscInt rstart;
  PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
  perm.assign(idx, idx + n);
  for (auto &p : perm) p -= rstart;
  PetscCall(ISRestoreIndices(r, &idx));
  PetscCall(ISDestroy(&r));
  PetscCall(ISDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      spec[256] = "lap3d7:n=12", file[PETSC_MAX_PATH_LEN] = "", which[32] = "ok";
  PetscBool has_file;
  PetscInt  repeat = 1;
  Mat       A;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_batchrcm", NULL);
  PetscCall(PetscOptionsString("-gen", "generator spec", NULL, spec, spec, sizeof spec, NULL));
  PetscCall(PetscOptionsString("-f", "matrix file", NULL, file, file, sizeof file, &has_file));
  PetscCall(PetscOptionsInt("-repeat", "repetitions", NULL, repeat, &repeat, NULL));
  PetscCall(PetscOptionsString("-case", "ok|unassembled|nonsquare", NULL, which, which, sizeof which, NULL));
  PetscOptionsEnd();
  if (!std::strcmp(which, "unassembled") || !std::strcmp(which, "nonsquare")) {
    const PetscBool nonsquare = std::strcmp(which, "nonsquare") ? PETSC_FALSE : PETSC_TRUE;
    PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
    PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, 10, nonsquare ? 12 : 10));
    PetscCall(MatSetFromOptions(A));
    PetscCall(MatSetUp(A));
    if (nonsquare) {
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    }
  } else if (has_file) PetscCall(PetscGpuKitMatLoad(PETSC_COMM_WORLD, file, NULL, &A));
  else PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &A));
  {
    // An application touches its matrix first: for a device type this makes the device copy current.
    Vec x, y;
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, y));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
  }

  std::vector<PetscInt> ref, got, first, petsc_rcm;
  const PetscLogDouble  ctog0 = petsc_ctog_ct, gtoc0 = petsc_gtoc_ct;
  for (PetscInt k = 0; k < repeat; ++k) {
    PetscCall(Order(A, MATORDERINGBATCHRCM, got));
    if (k == 0) first = got;
    PetscCheck(got == first, PETSC_COMM_SELF, PETSC_ERR_PLIB, "run %" PetscInt_FMT " gave a different permutation", k);
  }
  const PetscLogDouble ctog = petsc_ctog_ct - ctog0, gtoc = petsc_gtoc_ct - gtoc0;
  PetscCall(Reference(A, ref));
  PetscCheck(got == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "batchrcm differs from the serial reference (%zu vs %zu entries)", got.size(), ref.size());
  PetscCall(Order(A, MATORDERINGRCM, petsc_rcm));
  PetscInt bw0, bw1, bw2;
  PetscCall(Bandwidth(A, {}, &bw0));
  PetscCall(Bandwidth(A, got, &bw1));
  PetscCall(Bandwidth(A, petsc_rcm, &bw2));
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] %" PetscInt_FMT " rows: identical to the reference in %" PetscInt_FMT " runs; bandwidth natural %" PetscInt_FMT ", batchrcm %" PetscInt_FMT ", PETSc rcm %" PetscInt_FMT "; transfers ctog=%g gtoc=%g\n", PetscGlobalRank, (PetscInt)got.size(), repeat, bw0, bw1, bw2, ctog, gtoc));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "test_batchrcm: all checks passed\n"));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
