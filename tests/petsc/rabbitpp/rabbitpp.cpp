static const char help[] = "MatOrdering rabbitpp / rabbit through MatGetOrdering(): the permutation must equal the\n"
                           "host reference (src/rabbitpp/batch.hpp on one thread, and src/rabbitpp/serial.hpp for\n"
                           "-mat_ordering_rabbitpp_batch 1) on every rank's diagonal block, for every backend.\n"
                           "  -gen <spec> | -f <file>   the matrix (default communities:n=3000)\n"
                           "  -type rabbitpp|rabbit     the ordering (default rabbitpp)\n"
                           "  -repeat <k>               order k times, every result must be identical\n"
                           "  -case ok|unassembled|nonsquare\n"
                           "  (all -mat_ordering_rabbitpp_* options apply)\n";

#include <petscgpukit.h>

#include <cstring>
#include <vector>

#include "petsc_plugin/sys/csr_access.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/serial.hpp"

// The options as MatOrdering rabbitpp reads them, for the reference.
static PetscErrorCode ReferenceOptions(PetscBool regroup, PetscInt n, pgk::rabbitpp::Options *o)
{
  PetscInt  batch = 0, scope = 0;
  PetscBool first = PETSC_FALSE;
  const char *const scopes[] = {"noninsular", "all"};

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_ordering_rabbitpp_batch", &batch, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_ordering_rabbitpp_insular_first", &first, NULL));
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-mat_ordering_rabbitpp_hub_scope", scopes, 2, &scope, NULL));
  o->regroup       = regroup ? true : false;
  o->insular_first = regroup && first;
  o->hub_scope     = regroup && scope == 1 ? pgk::rabbitpp::HubScope::All : pgk::rabbitpp::HubScope::NonInsular;
  o->batch         = batch > 0 ? (pgk::Index)batch : pgk::rabbitpp::default_batch(n);
  o->threads       = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Reference(Mat A, PetscBool regroup, std::vector<PetscInt> &ref)
{
  PgkMatCSR              csr;
  pgk::rabbitpp::Options o;

  PetscFunctionBegin;
  PetscCall(PgkMatGetCSRStructureHost(A, &csr));
  PetscCall(ReferenceOptions(regroup, csr.csr.nrows, &o));
  ref = pgk::rabbitpp::rabbitpp_batch(csr.csr, o);
  if (o.batch == 1) { // the classic Rabbit Order: the batched code with K = 1 is the serial reference
    const std::vector<PetscInt> serial = pgk::rabbitpp::rabbitpp_serial(csr.csr, o);
    PetscCheck(serial == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "K = 1 differs from the serial reference");
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "K = 1 equals the serial reference\n"));
  }
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BuildMatrix(MPI_Comm comm, const char *which, Mat *A)
{
  char      spec[256] = "communities:n=3000", file[PETSC_MAX_PATH_LEN] = "";
  PetscBool has_file;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", spec, sizeof spec, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof file, &has_file));
  if (!std::strcmp(which, "nonsquare")) {
    PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, 10, 12, 1, NULL, 1, NULL, A));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  } else if (!std::strcmp(which, "unassembled")) {
    PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, 10, 10, 1, NULL, 0, NULL, A));
    PetscCall(MatSetValue(*A, 0, 0, 1.0, INSERT_VALUES));
  } else if (has_file) PetscCall(PetscGpuKitMatLoad(comm, file, NULL, A));
  else PetscCall(PetscGpuKitMatCreateGenerated(comm, spec, NULL, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat                   A;
  char                  which[32] = "ok", type[32] = "rabbitpp";
  PetscInt              repeat    = 1;
  std::vector<PetscInt> ref, first;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof which, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof type, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-repeat", &repeat, NULL));
  const PetscBool regroup = std::strcmp(type, "rabbit") ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(BuildMatrix(PETSC_COMM_WORLD, which, &A));
  Mat block = A;
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscInt rstart = 0; // the reference reads the local diagonal block (PgkMatGetCSRStructureHost)
  if (size > 1 && std::strcmp(which, "ok") == 0) PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
  for (PetscInt r = 0; r < repeat; ++r) {
    IS              rperm, cperm;
    const PetscInt *p;
    PetscInt        n;
    PetscBool       same;
    PetscCall(MatGetOrdering(A, type, &rperm, &cperm));
    PetscCall(ISEqual(rperm, cperm, &same));
    PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "row and column permutations differ");
    PetscCall(ISGetLocalSize(rperm, &n));
    PetscCall(ISGetIndices(rperm, &p));
    std::vector<PetscInt> perm(p, p + n);
    for (PetscInt &v : perm) v -= rstart; // MatGetOrdering of an MPIAIJ matrix returns global rows
    PetscCall(ISRestoreIndices(rperm, &p));
    PetscCall(ISDestroy(&rperm));
    PetscCall(ISDestroy(&cperm));
    if (r == 0) {
      first = perm;
      PetscCall(Reference(block, regroup, ref));
      PetscCheck(perm == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatOrdering %s differs from the host reference", type);
    } else PetscCheck(perm == first, PETSC_COMM_SELF, PETSC_ERR_PLIB, "run %" PetscInt_FMT " differs from run 0", r);
  }
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] %s: %zu rows, identical to the reference in %" PetscInt_FMT " run(s)\n", PetscGlobalRank, type, ref.size(), repeat));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
