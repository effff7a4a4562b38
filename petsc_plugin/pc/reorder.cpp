// PC reorder: solve in another ordering with options only. The operator is permuted
// symmetrically, B = P A P^T, by any registered MatOrdering (batchrcm, rcm, nd, ...); an inner
// KSP with prefix <pc prefix>reorder_ solves with B; the solution is permuted back. For a
// MATSEQAIJCUSPARSE operator, B is MATSEQAIJCUSPARSE and the values and vectors are permuted by
// device kernels: A's values never leave the device. The pattern of B is built once per nonzero
// pattern from the host structure every AIJ matrix keeps.
#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <petsc/private/matimpl.h>
#include <petsc/private/pcimpl.h>
#include <petscksp.h>
#include <petsctime.h>

#include <cstring>
#include <memory>
#include <vector>

#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/device.hpp"
#include "src/common/envelope.hpp"
#include "src/common/permute_pattern.hpp"

PetscLogEvent PGK_EVENT_ReorderSymbolic, PGK_EVENT_ReorderNumeric, PGK_EVENT_ReorderApply;

struct PC_Reorder {
  char                                                 ordering[256] = MATORDERINGBATCHRCM;
  KSP                                                  ksp           = nullptr;
  Mat                                                  B             = nullptr;
  Vec                                                  xp = nullptr, bp = nullptr;
  std::vector<PetscInt>                                perm; // perm[new] = old
  std::vector<PetscInt>                                dst;  // A's entry e lands at B's entry dst[e]
  PetscBool                                            device   = PETSC_FALSE;
  PetscBool                                            compound = PETSC_FALSE; // the operator was a compound matrix's expansion
  pgk::Envelope                                        before, after;
  PetscLogDouble                                       t_ordering = 0, t_symbolic = 0, t_numeric = 0;
  std::unique_ptr<pgk::cuda::DeviceBuffer<pgk::Index>> d_perm, d_dst; // device copies of perm and dst
};

// Device set-up of a device operator: B's structure goes to the device once here (PETSc's
// accessor uploads it, logged; later refills only write values), and the permutation and the
// value map follow through the logged copy of kernels/common/transfer.hpp (2 CpuToGpu).
static PetscErrorCode PCReorderUploadMaps(PC_Reorder *r)
{
  void          *stream;
  PetscScalar   *v;
  const PetscInt n = (PetscInt)r->perm.size(), nnz = (PetscInt)r->dst.size();

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(PgkMatGetDeviceValues(r->B, PGK_ACCESS_READ, &v));
  PetscCall(PgkMatRestoreDeviceValues(r->B, PGK_ACCESS_READ, &v));
  r->d_perm = std::make_unique<pgk::cuda::DeviceBuffer<pgk::Index>>();
  r->d_dst  = std::make_unique<pgk::cuda::DeviceBuffer<pgk::Index>>();
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, r->d_perm->allocate(n); r->d_dst->allocate(nnz));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_device(r->d_perm->data(), r->perm.data(), sizeof(PetscInt) * (std::size_t)n, stream));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_device(r->d_dst->data(), r->dst.data(), sizeof(PetscInt) * (std::size_t)nnz, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReorderSymbolic(PC pc, PC_Reorder *r, Mat A)
{
  IS              rperm, cperm;
  const PetscInt *idx;
  PetscInt        n;
  PetscLogDouble  t0, t1, t2;
  PgkMatCSR       h;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_ReorderSymbolic, pc, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(MatGetOrdering(A, r->ordering, &rperm, &cperm));
  PetscCall(PetscTime(&t1));
  PetscCall(ISGetLocalSize(rperm, &n));
  PetscCall(ISGetIndices(rperm, &idx));
  r->perm.assign(idx, idx + n);
  PetscCall(ISRestoreIndices(rperm, &idx));
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));

  pgk::PermutedPattern p;
  PetscCall(PgkMatGetCSRStructureHost(A, &h));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, p = pgk::permute_pattern_symmetric(h.csr, r->perm); r->before = pgk::envelope(h.csr); r->after = pgk::envelope(pgk::view_of(p.pattern)));
  PetscCall(PgkMatRestoreCSR(A, &h));
  r->dst.swap(p.dst);

  PetscCall(PgkMatUseDevice(A, &r->device)); // A is sequential here (PCSetUp_Reorder refused MPI types)
  PetscCall(MatDestroy(&r->B));
  PetscCall(MatCreate(PETSC_COMM_SELF, &r->B));
  PetscCall(MatSetSizes(r->B, n, n, n, n));
  PetscCall(MatSetType(r->B, r->device ? MATSEQAIJCUSPARSE : MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(r->B, p.pattern.rowptr.data(), p.pattern.colidx.data(), NULL));
  PetscCall(MatSetOption(r->B, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  PetscCall(VecDestroy(&r->xp));
  PetscCall(VecDestroy(&r->bp));
  PetscCall(MatCreateVecs(r->B, &r->xp, &r->bp));
  if (r->device) PetscCall(PCReorderUploadMaps(r));
  PetscCall(PetscTime(&t2));
  r->t_ordering = t1 - t0;
  r->t_symbolic = t2 - t1;
  PetscCall(PetscLogEventEnd(PGK_EVENT_ReorderSymbolic, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// B.values[dst[e]] = A.values[e], where A's values live (device for a device operator).
static PetscErrorCode PCReorderNumeric(PC pc, PC_Reorder *r, Mat A)
{
  PgkMatCSR      c;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_ReorderNumeric, pc, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  const PetscInt nnz = (PetscInt)r->dst.size();
  if (r->device) {
    void        *stream;
    PetscScalar *bv;
    PetscCall(PgkGetDeviceStream(&stream));
    PetscCall(PgkMatGetCSR(A, PGK_MEM_DEVICE, &c));
    PetscCall(PgkMatGetDeviceValues(r->B, PGK_ACCESS_WRITE, &bv));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::scatter(c.csr.values, r->d_dst->data(), bv, nnz, stream));
    PetscCall(PgkMatRestoreDeviceValues(r->B, PGK_ACCESS_WRITE, &bv));
    PetscCall(PgkMatRestoreCSR(A, &c));
  } else {
    PetscScalar *bv;
    PetscCall(PgkMatGetCSR(A, PGK_MEM_HOST, &c));
    PetscCall(MatSeqAIJGetArrayWrite(r->B, &bv));
    for (PetscInt e = 0; e < nnz; ++e) bv[r->dst[e]] = c.csr.values[e];
    PetscCall(MatSeqAIJRestoreArrayWrite(r->B, &bv));
    PetscCall(PgkMatRestoreCSR(A, &c));
  }
  PetscCall(PetscTime(&t1));
  r->t_numeric = t1 - t0;
  PetscCall(PetscLogEventEnd(PGK_EVENT_ReorderNumeric, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_Reorder(PC pc)
{
  PC_Reorder *r = (PC_Reorder *)pc->data;
  PetscBool   ismpi;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(PgkCheckSquareAssembled(pc->pmat, "PC reorder"));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc->pmat), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC reorder permutes a sequential operator; in parallel use it per block: -pc_type bjacobi -sub_pc_type reorder (or asm)");
  // A compound-entry operator is reordered as its scalar expansion (freed after the set-up).
  Mat       A;
  PetscBool aij;
  PetscCall(PgkMatScalarOperator(pc->pmat, &r->compound, &A));
  PetscCall(PgkMatIsAIJ(A, &aij, &ismpi));
  // Before the ordering: on a BAIJ/SBAIJ operator MatGetOrdering() permutes block rows, which this
  // point-wise permutation of A's entries cannot use.
  if (!aij || ismpi) PetscCall(MatDestroy(&A));
  PetscCheck(!ismpi, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC reorder permutes a sequential operator; got %s on one rank. Use -mat_type aij / aijcusparse", ((PetscObject)pc->pmat)->type_name);
  PetscCheck(aij, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC reorder needs a MATAIJ, MATAIJCUSPARSE or MATAIJCOMPOUND operator (or a type derived from them); got %s. Use -mat_type aij / aijcusparse or MatConvert()",
             ((PetscObject)pc->pmat)->type_name);
  if (!pc->setupcalled || pc->flag != SAME_NONZERO_PATTERN || !r->B) PetscCall(PCReorderSymbolic(pc, r, A));
  PetscCall(PCReorderNumeric(pc, r, A));
  PetscCall(MatDestroy(&A));
  PetscCall(KSPSetOperators(r->ksp, r->B, r->B));
  PetscCall(KSPSetUp(r->ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y = P^T solve(B, P x): gather, inner solve, scatter, in the memory the vectors live in.
static PetscErrorCode PCApplyReorder(PC pc, Vec x, Vec y, PetscBool transpose)
{
  PC_Reorder    *r = (PC_Reorder *)pc->data;
  PetscScalar   *xa, *ya, *ba, *pa;
  const PetscInt n = (PetscInt)r->perm.size();

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_ReorderApply, pc, x, y, 0));
  const PetscMemType mt = r->device && PgkVecIsDevice(x) && PgkVecIsDevice(y) ? PETSC_MEMTYPE_DEVICE : PETSC_MEMTYPE_HOST;
  PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, mt, &xa));
  PetscCall(PgkVecGetArray(r->bp, PGK_ACCESS_WRITE, mt, &ba));
  if (PetscMemTypeHost(mt)) {
    for (PetscInt k = 0; k < n; ++k) ba[k] = xa[r->perm[k]];
  } else {
    void *stream;
    PetscCall(PgkGetDeviceStream(&stream));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::gather(xa, r->d_perm->data(), ba, n, stream));
  }
  PetscCall(PgkVecRestoreArray(r->bp, PGK_ACCESS_WRITE, mt, &ba));
  PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, mt, &xa));
  if (transpose) PetscCall(KSPSolveTranspose(r->ksp, r->bp, r->xp));
  else PetscCall(KSPSolve(r->ksp, r->bp, r->xp));
  PetscCall(KSPCheckSolve(r->ksp, pc, r->xp));
  PetscCall(PgkVecGetArray(r->xp, PGK_ACCESS_READ, mt, &pa));
  PetscCall(PgkVecGetArray(y, PGK_ACCESS_WRITE, mt, &ya));
  if (PetscMemTypeHost(mt)) {
    for (PetscInt k = 0; k < n; ++k) ya[r->perm[k]] = pa[k];
  } else {
    void *stream;
    PetscCall(PgkGetDeviceStream(&stream));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::scatter(pa, r->d_perm->data(), ya, n, stream));
  }
  PetscCall(PgkVecRestoreArray(y, PGK_ACCESS_WRITE, mt, &ya));
  PetscCall(PgkVecRestoreArray(r->xp, PGK_ACCESS_READ, mt, &pa));
  PetscCall(PetscLogEventEnd(PGK_EVENT_ReorderApply, pc, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_Reorder(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApplyReorder(pc, x, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyTranspose_Reorder(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApplyReorder(pc, x, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_Reorder(PC pc)
{
  PC_Reorder *r = (PC_Reorder *)pc->data;

  PetscFunctionBegin;
  PetscCall(MatDestroy(&r->B));
  PetscCall(VecDestroy(&r->xp));
  PetscCall(VecDestroy(&r->bp));
  r->perm.clear();
  r->dst.clear();
  r->d_perm.reset();
  r->d_dst.reset();
  if (r->ksp) PetscCall(KSPReset(r->ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_Reorder(PC pc)
{
  PC_Reorder *r = (PC_Reorder *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCReset_Reorder(pc));
  PetscCall(KSPDestroy(&r->ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCReorderGetKSP_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCReorderSetMatOrderingType_C", NULL));
  delete r;
  pc->data = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_Reorder(PC pc, PetscOptionItems PetscOptionsObject)
{
  PC_Reorder *r = (PC_Reorder *)pc->data;
  char        type[256];
  PetscBool   set;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Reorder options");
  PetscCall(PetscStrncpy(type, r->ordering, sizeof type));
  PetscCall(PetscOptionsFList("-pc_reorder_mat_ordering_type", "MatOrdering that permutes the operator", "PCReorderSetMatOrderingType", MatOrderingList, type, type, sizeof type, &set));
  if (set) PetscCall(PCReorderSetMatOrderingType(pc, type));
  PetscOptionsHeadEnd();
  PetscCall(KSPSetFromOptions(r->ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_Reorder(PC pc, PetscViewer viewer)
{
  PC_Reorder *r = (PC_Reorder *)pc->data;
  PetscBool   iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "ordering: %s; operator permuted on the %s\n", r->ordering, r->device ? "device (MATSEQAIJCUSPARSE)" : "host"));
  if (r->compound) PetscCall(PetscViewerASCIIPrintf(viewer, "operator: compound entries (aijcompound), reordered as its scalar expansion (MatConvert at each set-up, freed after it)\n"));
  if (r->B) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "bandwidth %" PetscInt_FMT " -> %" PetscInt_FMT ", profile %lld -> %lld\n", (PetscInt)r->before.bandwidth, (PetscInt)r->after.bandwidth, (long long)r->before.profile, (long long)r->after.profile));
    PetscCall(PetscViewerASCIIPrintf(viewer, "last setup: ordering %.3e s, symbolic %.3e s, value permutation %.3e s\n", r->t_ordering, r->t_symbolic, r->t_numeric));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "inner KSP (prefix %sreorder_):\n", ((PetscObject)pc)->prefix ? ((PetscObject)pc)->prefix : ""));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(KSPView(r->ksp, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReorderGetKSP_Reorder(PC pc, KSP *ksp)
{
  PetscFunctionBegin;
  *ksp = ((PC_Reorder *)pc->data)->ksp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReorderSetMatOrderingType_Reorder(PC pc, MatOrderingType type)
{
  PC_Reorder *r = (PC_Reorder *)pc->data;

  PetscFunctionBegin;
  if (std::strcmp(r->ordering, type)) {
    PetscCall(PetscStrncpy(r->ordering, type, sizeof r->ordering));
    pc->setupcalled = PETSC_FALSE; // a new ordering needs a new symbolic setup
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCReorderGetKSP - the inner `KSP` of a `PCREORDER`, which solves with the permuted operator

  Not Collective

  Input Parameter:
. pc - the preconditioner

  Output Parameter:
. ksp - the inner solver (options prefix <pc prefix>reorder_)

  Level: intermediate

.seealso: `PCREORDER`, `PCReorderSetMatOrderingType()`
@*/
PetscErrorCode PCReorderGetKSP(PC pc, KSP *ksp)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(ksp, 2);
  PetscUseMethod(pc, "PCReorderGetKSP_C", (PC, KSP *), (pc, ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCReorderSetMatOrderingType - the `MatOrderingType` that permutes the operator of a `PCREORDER`

  Logically Collective

  Input Parameters:
+ pc   - the preconditioner
- type - any registered ordering: `MATORDERINGBATCHRCM` (default), `MATORDERINGRCM`, `MATORDERINGND`, ...

  Options Database Key:
. -pc_reorder_mat_ordering_type <type> - the ordering

  Level: intermediate

.seealso: `PCREORDER`, `PCReorderGetKSP()`
@*/
PetscErrorCode PCReorderSetMatOrderingType(PC pc, MatOrderingType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCReorderSetMatOrderingType_C", (PC, MatOrderingType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCREORDER - "reorder": solves with the operator permuted symmetrically by a `MatOrdering`
   (default `MATORDERINGBATCHRCM`), B = P A P^T, using an inner `KSP`, and permutes the solution
   back. A `MATSEQAIJCUSPARSE` operator stays on the device: B is `MATSEQAIJCUSPARSE`, and its
   values and the vectors are permuted by device kernels.

   Options Database Keys:
+  -pc_reorder_mat_ordering_type <type> - the ordering (batchrcm, rcm, nd, qmd, 1wd, natural, ...)
-  -reorder_ksp_type, -reorder_pc_type, ... - the inner solver (prefix <pc prefix>reorder_; default preonly + ILU(0))

   Notes:
   Typical use: `-pc_type reorder -reorder_pc_type ilu` gives ILU(0) in the RCM ordering on the
   device, where `-pc_factor_mat_ordering_type` would factor on the host (the cuSPARSE ILU runs
   only in the natural ordering). The pattern of B is built once per nonzero pattern;
   `SAME_NONZERO_PATTERN` set-ups only permute the values. In parallel, use it per block:
   `-pc_type bjacobi -sub_pc_type reorder`. The operator must be `MATSEQAIJ`,
   `MATSEQAIJCUSPARSE` or `MATSEQAIJCOMPOUND` (on BAIJ / SBAIJ an ordering permutes block rows,
   which this entry-by-entry permutation cannot use): use `-pc_factor_mat_ordering_type` there.
   A compound operator is reordered as its scalar expansion (`MatConvert()` to `MATAIJCUSPARSE`
   where it computes on the device, else `MATAIJ`, at each set-up and freed after it); B is scalar.

   Level: intermediate

.seealso: `PCReorderGetKSP()`, `PCReorderSetMatOrderingType()`, `MATORDERINGBATCHRCM`, `PCREDISTRIBUTE`
M*/
PETSC_EXTERN PetscErrorCode PCCreate_Reorder(PC pc)
{
  PC_Reorder *r = new PC_Reorder();
  PC          inner;
  const char *prefix;

  PetscFunctionBegin;
  pc->data                = r;
  pc->ops->setup          = PCSetUp_Reorder;
  pc->ops->apply          = PCApply_Reorder;
  pc->ops->applytranspose = PCApplyTranspose_Reorder;
  pc->ops->reset          = PCReset_Reorder;
  pc->ops->destroy        = PCDestroy_Reorder;
  pc->ops->setfromoptions = PCSetFromOptions_Reorder;
  pc->ops->view           = PCView_Reorder;
  PetscCall(KSPCreate(PETSC_COMM_SELF, &r->ksp));
  PetscCall(KSPSetNestLevel(r->ksp, pc->kspnestlevel));
  PetscCall(KSPSetErrorIfNotConverged(r->ksp, pc->erroriffailure));
  PetscCall(PetscObjectIncrementTabLevel((PetscObject)r->ksp, (PetscObject)pc, 1));
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(KSPSetOptionsPrefix(r->ksp, prefix));
  PetscCall(KSPAppendOptionsPrefix(r->ksp, "reorder_"));
  PetscCall(KSPSetType(r->ksp, KSPPREONLY));
  PetscCall(KSPGetPC(r->ksp, &inner));
  PetscCall(PCSetType(inner, PCILU));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCReorderGetKSP_C", PCReorderGetKSP_Reorder));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCReorderSetMatOrderingType_C", PCReorderSetMatOrderingType_Reorder));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkRegisterPCReorder(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("PgkReorderSymb", PETSCGPUKIT_CLASSID, &PGK_EVENT_ReorderSymbolic));
  PetscCall(PetscLogEventRegister("PgkReorderNum", PETSCGPUKIT_CLASSID, &PGK_EVENT_ReorderNumeric));
  PetscCall(PetscLogEventRegister("PgkReorderApply", PETSCGPUKIT_CLASSID, &PGK_EVENT_ReorderApply));
  PetscCall(PCRegister(PCREORDER, PCCreate_Reorder));
  PetscFunctionReturn(PETSC_SUCCESS);
}
