// CSR and vector array access with the memory type; see csr_access.hpp.
#include "petsc_plugin/sys/csr_access.hpp"

#include <petsc/private/matimpl.h>

#include "petsc_plugin/sys/device.hpp"

PetscErrorCode PgkCheckSquareAssembled(Mat A, const char who[])
{
  PetscBool assembled;
  PetscInt  M, N, m, n;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(MatAssembled(A, &assembled));
  PetscCheck(assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "%s requires an assembled matrix: call MatAssemblyBegin/End() first", who);
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCheck(M == N, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "%s requires a square matrix; got %" PetscInt_FMT " x %" PetscInt_FMT, who, M, N);
  PetscCheck(m == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s requires equal local row and column sizes (a square diagonal block); got %" PetscInt_FMT " x %" PetscInt_FMT, who, m, n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatScalarOperator(Mat A, PetscBool *compound, Mat *S)
{
  PetscBool is_compound;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &is_compound, MATSEQAIJCOMPOUND, MATMPIAIJCOMPOUND, ""));
  if (compound) *compound = is_compound;
  if (!is_compound) {
    PetscCall(PetscObjectReference((PetscObject)A));
    *S = A;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // Where the compound matrix computes, so the component's set-up and apply run where the products
  // and vectors do; every rank alike, since MatConvert is collective (a rank without a device would
  // otherwise ask for another type than its neighbours).
  PetscBool device;
  PetscCall(PgkMatDeviceUsableOnEveryRank(A, &device));
  PetscCall(PetscInfo(A, "the scalar expansion of this %s as %s\n", ((PetscObject)A)->type_name, device ? MATAIJCUSPARSE : MATAIJ));
  PetscCall(MatConvert(A, device ? MATAIJCUSPARSE : MATAIJ, MAT_INITIAL_MATRIX, S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatIsAIJ(Mat A, PetscBool *seq, PetscBool *mpi)
{
  PetscFunctionBegin;
  if (seq) PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, seq));
  if (mpi) PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, mpi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool PgkMatDeviceUsable(Mat A)
{
#if defined(PETSC_HAVE_DEVICE)
  return !A->boundtocpu && PgkDeviceAvailable() ? PETSC_TRUE : PETSC_FALSE; // (PgkDeviceAvailable: false without the kernels)
#else
  (void)A;
  return PETSC_FALSE;
#endif
}

PetscErrorCode PgkMatDeviceUsableOnEveryRank(Mat A, PetscBool *device)
{
  int on_device = PgkMatDeviceUsable(A) ? 1 : 0;

  PetscFunctionBegin;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &on_device, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)A)));
  *device = on_device ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatIsCusparse(Mat A, PetscBool *cusparse)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, cusparse, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatUseDevice(Mat A, PetscBool *device)
{
  PetscBool cusparse;

  PetscFunctionBegin;
  PetscCall(PgkMatIsCusparse(A, &cusparse));
  *device = cusparse && PgkMatDeviceUsable(A) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The device copy of a SEQAIJCUSPARSE matrix is current (no transfer needed to read it).
static PetscBool DeviceCopyCurrent(Mat A)
{
#if defined(PETSC_HAVE_DEVICE)
  return (A->offloadmask == PETSC_OFFLOAD_GPU || A->offloadmask == PETSC_OFFLOAD_BOTH) && !A->boundtocpu ? PETSC_TRUE : PETSC_FALSE;
#else
  (void)A;
  return PETSC_FALSE; // a PETSc without devices has no device copy
#endif
}

// The sequential matrix whose arrays a PgkMatCSR of A holds: A, or its local diagonal block.
static PetscErrorCode LocalBlock(Mat A, Mat *block)
{
  PetscBool ismpi;

  PetscFunctionBegin;
  *block = A;
  PetscCall(PgkMatIsAIJ(A, NULL, &ismpi));
  if (ismpi) PetscCall(MatMPIAIJGetSeqAIJ(A, block, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatDeviceCurrent(Mat A, PetscBool *current)
{
  Mat       block;
  PetscBool cusparse;

  PetscFunctionBegin;
  PetscCall(LocalBlock(A, &block));
  PetscCall(PetscObjectTypeCompare((PetscObject)block, MATSEQAIJCUSPARSE, &cusparse));
  *current = cusparse && DeviceCopyCurrent(block) && PgkDeviceAvailable() ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// seq's host row pointer and column indices into c (MatGetRowIJ with these flags, which
// PgkMatRestoreCSR undoes with the same ones); the one host structure walk of both access paths.
static PetscErrorCode GetHostRowIJ(Mat seq, PetscBool symmetric, PetscBool blocks, PetscInt *nrow, PgkMatCSR *c)
{
  const PetscInt *i, *j;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(seq, 0, symmetric, blocks, nrow, &i, &j, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "no host CSR structure for matrix type %s", ((PetscObject)seq)->type_name);
  c->csr.rowptr      = i;
  c->csr.colidx      = j;
  c->mtype           = PETSC_MEMTYPE_HOST;
  c->restore_rowij   = PETSC_TRUE;
  c->rowij_symmetric = symmetric;
  c->rowij_blocks    = blocks;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetSeqCSR(Mat A, PgkMemPolicy policy, PgkMatCSR *c)
{
  PetscBool isseqaij, iscusparse;
  PetscInt  m, n;

  PetscFunctionBegin;
  PetscCall(PgkMatIsAIJ(A, &isseqaij, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCUSPARSE, &iscusparse));
  PetscCheck(isseqaij, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "petscgpukit needs MATAIJ or MATAIJCUSPARSE (sequential or MPI, or a type derived from them); got %s. Use -mat_type aij / aijcusparse or MatConvert()",
             ((PetscObject)A)->type_name);
  PetscCall(MatGetLocalSize(A, &m, &n));
  c->block         = A;
  c->csr.nrows     = m;
  c->csr.ncols     = n;
  PetscBool device = PETSC_FALSE;
  if (iscusparse) {
    if (policy == PGK_MEM_DEVICE) device = PETSC_TRUE;
    else if (policy == PGK_MEM_AUTO) device = DeviceCopyCurrent(A);
  } else {
    PetscCheck(policy != PGK_MEM_DEVICE, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "device CSR requested for the host matrix type %s; use -mat_type aijcusparse", ((PetscObject)A)->type_name);
  }
  if (device) {
#if defined(PGK_HAVE_CUDA)
    const PetscInt    *i, *j;
    const PetscScalar *v;
    // Full row pointer (compressed=FALSE): if PETSc stores compressed rows it uploads the full
    // one once, logged as CpuToGpu; later calls reuse it.
    PetscCall(MatSeqAIJCUSPARSEGetIJ(A, PETSC_FALSE, &i, &j));
    PetscCall(MatSeqAIJCUSPARSEGetArrayRead(A, &v));
    c->csr.rowptr     = i;
    c->csr.colidx     = j;
    c->csr.values     = v;
    c->mtype          = PETSC_MEMTYPE_CUDA;
    c->restore_device = PETSC_TRUE;
#else
    SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "this petscgpukit was built without CUDA kernels; rebuild against a CUDA PETSc");
#endif
  } else {
    const PetscScalar *v;
    PetscInt           nrow;
    // Uncompressed, unsymmetrized: SeqAIJ hands out its own a->i, a->j (no copy).
    PetscCall(GetHostRowIJ(A, PETSC_FALSE, PETSC_FALSE, &nrow, c));
    PetscCall(MatSeqAIJGetArrayRead(A, &v)); // device-newer values come back here, logged
    c->csr.values          = v;
    c->restore_host_values = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatGetCSR(Mat A, PgkMemPolicy policy, PgkMatCSR *c)
{
  PetscBool   ismpi;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(c, 3);
  *c = PgkMatCSR();
  PetscCall(PetscLogEventBegin(PGK_EVENT_MatGetCSR, A, 0, 0, 0));
  PetscCall(PgkMatIsAIJ(A, NULL, &ismpi));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (ismpi) {
    Mat Ad, Ao;
    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
    PetscCall(GetSeqCSR(Ad, policy, c));
    PetscCall(MatGetOwnershipRange(A, &c->rstart, NULL));
  } else {
    PetscCheck(size == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "petscgpukit needs MATAIJ or MATAIJCUSPARSE on a parallel communicator; got %s", ((PetscObject)A)->type_name);
    PetscCall(GetSeqCSR(A, policy, c));
  }
  PetscCall(PetscLogEventEnd(PGK_EVENT_MatGetCSR, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The sequential matrix whose structure PgkMatGetCSRStructureHost reads (A, or its local
// diagonal block) and whether it is a BAIJ / SBAIJ one (block rows; SBAIJ stores one triangle).
// Parallel BAIJ / SBAIJ are refused, as PETSc's own orderings refuse them: PETSc has no rule
// for their index sets (MPIAIJ's MatGetOrdering orders the diagonal block in global numbers).
static PetscErrorCode StructureBlock(Mat A, Mat *seq, PetscBool *blocks, PetscBool *one_triangle)
{
  PetscBool mpiblocks;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &mpiblocks, MATMPIBAIJ, MATMPISBAIJ, ""));
  PetscCheck(!mpiblocks, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "no host CSR structure for the parallel matrix type %s (PETSc's orderings have none either): order its diagonal block (MatGetDiagonalBlock()), or order per block (-pc_type bjacobi or asm), or use MATAIJ", ((PetscObject)A)->type_name);
  PetscCall(LocalBlock(A, seq));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)*seq, blocks, MATSEQBAIJ, MATSEQSBAIJ, ""));
  PetscCall(PetscObjectTypeCompare((PetscObject)*seq, MATSEQSBAIJ, one_triangle));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatGetCSRStructureHost(Mat A, PgkMatCSR *c)
{
  Mat       seq;
  PetscBool blocks, one_triangle;
  PetscInt  nrow, m, n;

  PetscFunctionBegin;
  *c = PgkMatCSR();
  PetscCall(StructureBlock(A, &seq, &blocks, &one_triangle));
  if (seq != A) PetscCall(MatGetOwnershipRange(A, &c->rstart, NULL));
  PetscCall(MatGetLocalSize(seq, &m, &n));
  // AIJ: uncompressed and unsymmetrized, SeqAIJ's own arrays. BAIJ: the block rows, its own arrays.
  // SBAIJ: the block rows with both triangles (PETSc builds them; MatRestoreRowIJ frees them).
  PetscCall(GetHostRowIJ(seq, one_triangle, blocks, &nrow, c));
  if (blocks) m = n = nrow;
  c->block     = seq;
  c->csr.nrows = m;
  c->csr.ncols = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatRestoreCSR(Mat A, PgkMatCSR *c)
{
  PetscFunctionBegin;
  (void)A;
  if (c->restore_rowij) {
    PetscInt        nrow;
    PetscBool       done;
    const PetscInt *i = c->csr.rowptr, *j = c->csr.colidx;
    PetscCall(MatRestoreRowIJ(c->block, 0, c->rowij_symmetric, c->rowij_blocks, &nrow, &i, &j, &done));
  }
  if (c->restore_host_values) {
    const PetscScalar *v = c->csr.values;
    PetscCall(MatSeqAIJRestoreArrayRead(c->block, &v));
  }
#if defined(PGK_HAVE_CUDA)
  if (c->restore_device) {
    const PetscInt    *i = c->csr.rowptr, *j = c->csr.colidx;
    const PetscScalar *v = c->csr.values;
    PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(c->block, &v));
    PetscCall(MatSeqAIJCUSPARSERestoreIJ(c->block, PETSC_FALSE, &i, &j));
  }
#endif
  *c = PgkMatCSR();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatGetDeviceValues(Mat A, PgkAccess access, PetscScalar **v)
{
  PetscFunctionBegin;
#if defined(PGK_HAVE_CUDA)
  if (access == PGK_ACCESS_READ) PetscCall(MatSeqAIJCUSPARSEGetArrayRead(A, (const PetscScalar **)v));
  else if (access == PGK_ACCESS_WRITE) PetscCall(MatSeqAIJCUSPARSEGetArrayWrite(A, v));
  else PetscCall(MatSeqAIJCUSPARSEGetArray(A, v));
#else
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "this petscgpukit was built without CUDA kernels; rebuild against a CUDA PETSc");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatRestoreDeviceValues(Mat A, PgkAccess access, PetscScalar **v)
{
  PetscFunctionBegin;
#if defined(PGK_HAVE_CUDA)
  if (access == PGK_ACCESS_READ) PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(A, (const PetscScalar **)v));
  else if (access == PGK_ACCESS_WRITE) PetscCall(MatSeqAIJCUSPARSERestoreArrayWrite(A, v));
  else PetscCall(MatSeqAIJCUSPARSERestoreArray(A, v));
#else
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "this petscgpukit was built without CUDA kernels; rebuild against a CUDA PETSc");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatCSRCheck(const PgkMatCSR *c, pgk::CsrCheck *check)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_CheckCSR, c->block, 0, 0, 0));
  if (c->mtype == PETSC_MEMTYPE_HOST) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, *check = pgk::check_csr(c->csr));
  } else {
    void *stream;
    PetscCall(PgkGetDeviceStream(&stream));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, *check = pgk::cuda::check_csr(c->csr, stream)); // reads the counts back: 1 GpuToCpu (logged)
  }
  PetscCall(PetscLogEventEnd(PGK_EVENT_CheckCSR, c->block, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkMatCSRRequire(Mat A, const PgkMatCSR *c, int requirements, const char who[])
{
  pgk::CsrCheck k;

  PetscFunctionBegin;
  PetscCall(PgkMatCSRCheck(c, &k));
  // Structure defects cannot come from PETSc's own assembly; they mean corrupted arrays.
  PetscCheck(k.structure_ok(), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: corrupted CSR (%lld bad row pointers, %lld bad column indices, %lld unsorted rows)", who, k.bad_rowptr, k.bad_colidx, k.unsorted_rows);
  if (requirements & PGK_REQUIRE_FINITE) PetscCheck(k.nonfinite == 0, PETSC_COMM_SELF, PETSC_ERR_FP, "%s: the matrix has %lld NaN or Inf entries (local rows from %" PetscInt_FMT ")", who, k.nonfinite, c->rstart);
  if (requirements & PGK_REQUIRE_DIAGONAL)
    PetscCheck(k.missing_diagonal == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "%s: %lld rows have no stored diagonal entry (local rows from %" PetscInt_FMT "); insert explicit zeros or use a different preconditioner", who, k.missing_diagonal,
               c->rstart);
  (void)A;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool PgkVecIsDevice(Vec v)
{
  PetscBool cuda = PETSC_FALSE, bound = PETSC_FALSE;
  PetscCallAbort(PETSC_COMM_SELF, PetscObjectTypeCompareAny((PetscObject)v, &cuda, VECSEQCUDA, VECMPICUDA, VECCUDA, ""));
  if (cuda) PetscCallAbort(PETSC_COMM_SELF, VecBoundToCPU(v, &bound));
  return cuda && !bound ? PETSC_TRUE : PETSC_FALSE;
}

PetscErrorCode PgkVecGetArray(Vec v, PgkAccess access, PetscMemType want, PetscScalar **a)
{
  PetscMemType got = PETSC_MEMTYPE_HOST;

  PetscFunctionBegin;
  if (want == PETSC_MEMTYPE_HOST) {
    switch (access) {
    case PGK_ACCESS_READ: PetscCall(VecGetArrayRead(v, (const PetscScalar **)a)); break;
    case PGK_ACCESS_WRITE: PetscCall(VecGetArrayWrite(v, a)); break;
    case PGK_ACCESS_READ_WRITE: PetscCall(VecGetArray(v, a)); break;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  switch (access) {
  case PGK_ACCESS_READ: PetscCall(VecGetArrayReadAndMemType(v, (const PetscScalar **)a, &got)); break;
  case PGK_ACCESS_WRITE: PetscCall(VecGetArrayWriteAndMemType(v, a, &got)); break;
  case PGK_ACCESS_READ_WRITE: PetscCall(VecGetArrayAndMemType(v, a, &got)); break;
  }
  if (PetscMemTypeHost(got)) {
    PetscCall(PgkVecRestoreArray(v, access, want, a));
    SETERRQ(PetscObjectComm((PetscObject)v), PETSC_ERR_ARG_WRONG, "device array requested for a host vector (type %s); use -vec_type cuda", ((PetscObject)v)->type_name);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkVecRestoreArray(Vec v, PgkAccess access, PetscMemType want, PetscScalar **a)
{
  PetscFunctionBegin;
  if (want == PETSC_MEMTYPE_HOST) {
    switch (access) {
    case PGK_ACCESS_READ: PetscCall(VecRestoreArrayRead(v, (const PetscScalar **)a)); break;
    case PGK_ACCESS_WRITE: PetscCall(VecRestoreArrayWrite(v, a)); break;
    case PGK_ACCESS_READ_WRITE: PetscCall(VecRestoreArray(v, a)); break;
    }
  } else {
    switch (access) {
    case PGK_ACCESS_READ: PetscCall(VecRestoreArrayReadAndMemType(v, (const PetscScalar **)a)); break;
    case PGK_ACCESS_WRITE: PetscCall(VecRestoreArrayWriteAndMemType(v, a)); break;
    case PGK_ACCESS_READ_WRITE: PetscCall(VecRestoreArrayAndMemType(v, a)); break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
