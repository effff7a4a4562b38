static const char help[] = "MatOrdering rabbitpp / rabbit through MatGetOrdering(): the permutation must equal the\n"
                           "host reference (src/rabbitpp/batch.hpp on one thread, and src/rabbitpp/serial.hpp for\n"
                           "-mat_ordering_rabbitpp_batch 1) on every rank's diagonal block, for every backend.\n"
                           "  -gen <spec> | -f <file>   the matrix (default communities:n=3000)\n"
                           "  -type rabbitpp|rabbit     the ordering (default rabbitpp)\n"
                           "  -repeat <k>               order k times, every result must be identical\n"
                           "  Transfers of the orderings: exactly kernels/rabbitpp/rabbitpp_gpu.hpp's list on the\n"
                           "  device (none to the device), none on the host.\n"
                           "  -case ok|unassembled|nonsquare|false_flag (false_flag: an unsymmetric pattern of 222 rows\n"
                           "  flagged MAT_STRUCTURALLY_SYMMETRIC, one process; the reference takes the flag as the plugin does)\n"
                           "  -compare_rabbit           also order with rabbit and say whether rabbitpp's result equals it\n"
                           "  (all -mat_ordering_rabbitpp_* options apply)\n";

#include <petscgpukit.h>

#include <cstring>
#include <vector>

#include "petsc_plugin/sys/csr_access.hpp"
#include "src/common/rng.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/serial.hpp"

// The options as MatOrdering rabbitpp reads them, for the reference.
static PetscErrorCode ReferenceOptions(PetscBool regroup, PetscInt n, pgk::rabbitpp::Options *o)
{
  PetscInt          batch = 0, scope = 0, hub_factor = 1;
  PetscReal         min_skew = 0.25; // the documented default of -mat_ordering_rabbitpp_min_skew
  PetscBool         first    = PETSC_FALSE;
  const char *const scopes[] = {"noninsular", "all"};

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_ordering_rabbitpp_batch", &batch, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_ordering_rabbitpp_insular_first", &first, NULL));
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-mat_ordering_rabbitpp_hub_scope", scopes, 2, &scope, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_ordering_rabbitpp_hub_factor", &hub_factor, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mat_ordering_rabbitpp_min_skew", &min_skew, NULL));
  o->regroup       = regroup ? true : false;
  o->hub_factor    = regroup ? (int)hub_factor : 1;
  o->min_skew      = regroup ? (double)min_skew : 0.0;
  o->insular_first = regroup && first;
  o->hub_scope     = regroup && scope == 1 ? pgk::rabbitpp::HubScope::All : pgk::rabbitpp::HubScope::NonInsular;
  o->batch         = batch > 0 ? (pgk::Index)batch : pgk::rabbitpp::default_batch(n);
  o->threads       = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The host reference on this rank's diagonal block; *rounds: its merge rounds.
static PetscErrorCode Reference(Mat A, PetscBool regroup, std::vector<PetscInt> &ref, PetscInt *rounds)
{
  PgkMatCSR              csr;
  pgk::rabbitpp::Options o;
  pgk::rabbitpp::Info    info;

  PetscFunctionBegin;
  PetscCall(PgkMatGetCSRStructureHost(A, &csr));
  PetscCall(ReferenceOptions(regroup, csr.csr.nrows, &o));
  PetscBool known, symmetric; // the plugin trusts PETSc's flag, a false one too (README)
  PetscCall(MatIsStructurallySymmetricKnown(A, &known, &symmetric));
  o.input_is_symmetric = known && symmetric;
  ref                  = pgk::rabbitpp::rabbitpp_batch(csr.csr, o, &info);
  *rounds              = (PetscInt)info.rounds;
  if (o.batch == 1) { // the classic Rabbit Order: the batched code with K = 1 is the serial reference
    const std::vector<PetscInt> serial = pgk::rabbitpp::rabbitpp_serial(csr.csr, o);
    PetscCheck(serial == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "K = 1 differs from the serial reference");
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "K = 1 equals the serial reference\n"));
  }
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether MatOrdering rabbitpp computes on the device here: the plugin's rule (order/rabbitpp.cpp).
static PetscErrorCode OrdersOnDevice(Mat A, PetscBool *device)
{
  char backend[16] = "auto";

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_rabbitpp_backend", backend, sizeof backend, NULL));
  PetscCall(PgkMatDeviceCurrent(A, device));
  if (!std::strcmp(backend, "gpu")) *device = PETSC_TRUE;
  else if (std::strcmp(backend, "auto")) *device = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The transfers of one MatGetOrdering on the device (kernels/rabbitpp/rabbitpp_gpu.hpp's list),
// with n local rows and R merge rounds (the reference's): none for n = 0; otherwise to the host
// the input check's record (1), symmetrize_pattern's 2 scalars, the graph record (1), a round
// record per round and the last one (R + 1), the list ranking's splitter count (1) and the
// permutation (1); with -mat_ordering_rabbitpp_view the figures' record and community sums (2).
// Nothing goes to the device: the matrix is read where it is.
static PetscErrorCode ExpectedDeviceTransfers(PetscInt n, PetscInt rounds, PetscLogDouble *gtoc)
{
  PetscBool view = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_ordering_rabbitpp_view", &view, NULL));
  *gtoc = n == 0 ? 0 : (PetscLogDouble)(rounds + 7 + (view ? 2 : 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A directed random pattern (up to 5 columns a row, the diagonal in about half the rows) that a
// user flags structurally symmetric by mistake. With rounds of 16 it made the multicore backend's
// merges close a cycle, which hung it before a62575e (the unit test's seed 474).
static PetscErrorCode BuildFalselyFlagged(MPI_Comm comm, Mat *A)
{
  const PetscInt  n = 222;
  pgk::SplitMix64 rng(474);

  PetscFunctionBegin;
  PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, n, n, 6, NULL, 6, NULL, A));
  for (PetscInt i = 0; i < n; ++i) {
    const PetscInt k = (PetscInt)rng.bounded(6);
    for (PetscInt t = 0; t < k; ++t) PetscCall(MatSetValue(*A, i, (PetscInt)rng.bounded(n), 1.0, ADD_VALUES));
    if (rng.bounded(2)) PetscCall(MatSetValue(*A, i, i, 1.0, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(*A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
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
  } else if (!std::strcmp(which, "false_flag")) PetscCall(BuildFalselyFlagged(comm, A));
  else if (has_file) PetscCall(PetscGpuKitMatLoad(comm, file, NULL, A));
  else PetscCall(PetscGpuKitMatCreateGenerated(comm, spec, NULL, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat                   A;
  char                  which[32] = "ok", type[32] = "rabbitpp";
  PetscInt              repeat = 1;
  std::vector<PetscInt> ref, first;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof which, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof type, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-repeat", &repeat, NULL));
  const PetscBool regroup = std::strcmp(type, "rabbit") ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(BuildMatrix(PETSC_COMM_WORLD, which, &A));
  if (!std::strcmp(which, "ok")) {
    // An application touches its matrix first: for a device type this makes the device copy current.
    Vec x, y;
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, y));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
  }
  Mat         block = A;
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscInt rstart = 0; // the reference reads the local diagonal block (PgkMatGetCSRStructureHost)
  if (size > 1 && std::strcmp(which, "ok") == 0) PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
  PetscLogDouble ctog = 0, gtoc = 0, gtoc_bytes = 0; // of the MatGetOrdering calls only
  PetscInt       rounds = 0;
  for (PetscInt r = 0; r < repeat; ++r) {
    IS                   rperm, cperm;
    const PetscInt      *p;
    PetscInt             n;
    const PetscLogDouble ctog0 = petsc_ctog_ct, gtoc0 = petsc_gtoc_ct, gtoc_bytes0 = petsc_gtoc_sz;
    PetscCall(MatGetOrdering(A, type, &rperm, &cperm));
    ctog += petsc_ctog_ct - ctog0;
    gtoc += petsc_gtoc_ct - gtoc0;
    gtoc_bytes += petsc_gtoc_sz - gtoc_bytes0;
    // A sequential matrix: one index set for rows and columns, referenced twice (the man page says
    // so). PETSc's MPIAIJ layer makes two (global numbers), which must hold the same order.
    PetscBool same = (PetscBool)(rperm == cperm);
    PetscCheck(same || size > 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected one index set returned as rows and columns");
    if (!same) PetscCall(ISEqualUnsorted(rperm, cperm, &same)); // the same order, not only the same set
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
      PetscCall(Reference(block, regroup, ref, &rounds));
      PetscCheck(perm == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatOrdering %s differs from the host reference", type);
    } else PetscCheck(perm == first, PETSC_COMM_SELF, PETSC_ERR_PLIB, "run %" PetscInt_FMT " differs from run 0", r);
  }
  // Exactly the listed transfers per ordering on the device (ExpectedDeviceTransfers), none on the
  // host; in bytes, the permutations and the scalar records (about 64 bytes a round).
  PetscBool      on_device    = PETSC_FALSE;
  PetscLogDouble per_ordering = 0;
  if (!std::strcmp(which, "ok")) PetscCall(OrdersOnDevice(A, &on_device));
  if (on_device) PetscCall(ExpectedDeviceTransfers((PetscInt)ref.size(), rounds, &per_ordering));
  const PetscLogDouble perm_bytes = (PetscLogDouble)(repeat * sizeof(PetscInt) * ref.size());
  const PetscLogDouble slack      = (PetscLogDouble)repeat * (128.0 * (PetscLogDouble)(rounds + 8) + 32.0 * (PetscLogDouble)ref.size());
  PetscCheck(ctog == 0 && gtoc == repeat * per_ordering, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] transfers ctog=%g gtoc=%g, expected ctog=0 gtoc=%g (%" PetscInt_FMT " orderings on the %s, %" PetscInt_FMT " rounds)", PetscGlobalRank, ctog, gtoc,
             repeat * per_ordering, repeat, on_device ? "device" : "host", rounds);
  PetscCheck(!on_device || ref.empty() || (gtoc_bytes >= perm_bytes && gtoc_bytes <= perm_bytes + slack), PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] %g bytes came back for %g bytes of permutations", PetscGlobalRank, gtoc_bytes, perm_bytes);
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] %s: %zu rows, identical to the reference in %" PetscInt_FMT " run(s); transfers ctog=%g gtoc=%g as listed (%" PetscInt_FMT " rounds, %g bytes back)\n", PetscGlobalRank, type, ref.size(),
                                    repeat, ctog, gtoc, rounds, gtoc_bytes));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscBool compare_rabbit = PETSC_FALSE; // the skew gate's tests: is rabbitpp's result rabbit's?
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_rabbit", &compare_rabbit, NULL));
  if (compare_rabbit && size == 1) {
    IS        rperm, cperm, rabbit;
    PetscBool equal;
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, (PetscInt)first.size(), first.data(), PETSC_USE_POINTER, &rperm));
    PetscCall(MatGetOrdering(A, MATORDERINGRABBIT, &rabbit, &cperm));
    PetscCall(ISEqualUnsorted(rperm, rabbit, &equal));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s rabbit's permutation\n", type, equal ? "equal to" : "differs from"));
    PetscCall(ISDestroy(&rperm));
    PetscCall(ISDestroy(&rabbit));
    PetscCall(ISDestroy(&cperm));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
