// Mat aijcompound (issue 10), host path: a sequential matrix whose entries are compound (real
// k x k blocks, complex numbers as 2x2 blocks, quaternions as 4x4 blocks), stored as the compound
// CSR of src/aijcompound/ and multiplied by its serial reference. The type is built by MatConvert
// from an assembled MATSEQAIJ / MATSEQBAIJ / MATSEQAIJCUSPARSE (its host copy), or assembled with
// MatSetValues (aijcompound/assembly.cpp); it converts back to MATSEQAIJ (and through it to any
// type). The operations are in aijcompound/ops.cpp; the MPI type, MATMPIAIJCOMPOUND, whose blocks
// are of this type, in aijcompound/mpi*.cpp; the device path in aijcompound/device.cpp and tune.cpp.
#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"
#include "petsc_plugin/mat/aijcompound/mpi.hpp"
#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/device.hpp"

#include <algorithm>

#define Data MatAIJCompoundData

const char *const MatAIJCompoundEntries[] = {"auto", "block", "complex", "quaternion", "MatAIJCompoundEntry", "MAT_AIJCOMPOUND_ENTRY_", NULL};

static PetscErrorCode MatConvertFrom_SeqAIJCompound(Mat, MatType, MatReuse, Mat *);

static PetscErrorCode MatDestroy_SeqAIJCompound(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&Data(A)->inner));
  delete Data(A);
  A->data = nullptr;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqcompoundaij_seqaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSeqAIJSetPreallocation_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetPreallocationCOO_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetValuesCOO_C", NULL));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The expanded scalar matrix as a new MATSEQAIJ.
PetscErrorCode MatAIJCompoundExpand(Mat A, Mat *B)
{
  PetscFunctionBegin;
  PetscCall(MatAIJCompoundExpandInodes(A, PETSC_TRUE, B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The expansion's three arrays are one allocation owned by the matrix made on them: a container
// composed on it frees them with it (MatHeaderReplace moves the container with the data).
static PetscErrorCode ExpansionArraysFree(void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*(void **)ctx)); // (the PetscMalloc3 block: rowptr first)
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundExpandArrays(Mat A, PetscInt **rowptr, PetscInt **colidx, PetscScalar **values)
{
  const ac::CompoundCsr &c     = Data(A)->c;
  const std::int64_t     nnz64 = ac::expanded_nnz(c);
  const PetscInt         nnz   = (PetscInt)nnz64;

  PetscFunctionBegin;
  PetscCheck(nnz64 <= PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mat aijcompound: the scalar expansion of this block has %" PetscInt64_FMT " nonzeros, more than PetscInt holds: configure PETSc --with-64-bit-indices", (PetscInt64)nnz64);
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(PetscMalloc3(A->rmap->n + 1, rowptr, nnz, colidx, nnz, values));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ac::expand_into(c, *rowptr, *colidx, *values, (int)PgkNodeThreadShare()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundOwnArrays(Mat B, const char *name, PetscInt *rowptr)
{
  PetscFunctionBegin;
  PetscCall(PgkObjectContainerComposeLocal((PetscObject)B, name, rowptr, ExpansionArraysFree)); // (this rank's arrays)
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscLogEvent MAT_AIJCompoundExpand = 0;

// The scalar CSR written straight into the arrays the MATSEQAIJ keeps (no MatSetValues pass: the
// CSR preallocation path cost more than the expansion itself). Its assembly answers no -mat_view
// (viewers from options are off around it); with inodes off it is assembled once more, also
// silently, since MATSEQAIJ makes its inode table at assembly.
PetscErrorCode MatAIJCompoundExpandInodes(Mat A, PetscBool use_inodes, Mat *B)
{
  PetscInt    *rowptr, *colidx;
  PetscScalar *values;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_AIJCompoundExpand, A, 0, 0, 0));
  PetscCall(MatAIJCompoundExpandArrays(A, &rowptr, &colidx, &values));
  PetscCall(PetscOptionsPushCreateViewerOff(PETSC_TRUE));
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, A->rmap->n, A->cmap->n, rowptr, colidx, values, B));
  PetscCall(MatAIJCompoundOwnArrays(*B, "PetscGpuKitAIJCompoundExpansionArrays", rowptr));
  PetscCall(MatSetBlockSizesFromMats(*B, A, A));
  if (!use_inodes) {
    PetscCall(MatSetOption(*B, MAT_USE_INODES, PETSC_FALSE));
    PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(PetscOptionsPopCreateViewerOff());
  PetscCall(MatAIJCompoundCopyPrefix(A, *B));
  PetscCall(PetscLogEventEnd(MAT_AIJCompoundExpand, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundCopyPrefix(Mat A, Mat B)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)A, &prefix));
  PetscCall(MatSetOptionsPrefix(B, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The end of every MatConvert away from aijcompound (sequential and MPI): B, A's expansion as (MPI)AIJ,
// is converted further by PETSc where `type` is not AIJ, then handed out as `reuse` asks.
PetscErrorCode MatAIJCompoundFinishConvert(Mat A, Mat B, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscBool isaij;

  PetscFunctionBegin;
  PetscCall(PetscStrcmpAny(type, &isaij, MATSEQAIJ, MATMPIAIJ, MATAIJ, ""));
  if (!isaij) PetscCall(MatConvert(B, type, MAT_INPLACE_MATRIX, &B)); // (B is ours: no copy of it)
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &B));
  else if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(B, *newmat, DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatDestroy(&B));
  } else *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatConvert(A, MATSEQAIJ or any other type): the expansion, converted further by PETSc.
static PetscErrorCode MatConvert_SeqAIJCompound_Any(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat B;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundExpand(A, &B));
  PetscCall(MatAIJCompoundFinishConvert(A, B, type, reuse, newmat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_SeqAIJCompound(Mat A, MatDuplicateOption op, Mat *B)
{
  PetscFunctionBegin;
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), B));
  PetscCall(MatSetSizes(*B, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(*B, A, A));
  PetscCall(MatSetType(*B, MATSEQAIJCOMPOUND));
  PetscCall(MatBindToCPU(*B, A->boundtocpu));
  Data(*B)->c            = Data(A)->c;
  Data(*B)->entry_option = Data(A)->entry_option;
  if (op == MAT_DO_NOT_COPY_VALUES) std::fill(Data(*B)->c.values.begin(), Data(*B)->c.values.end(), 0.0);
  PetscCall(PetscLayoutSetUp((*B)->rmap));
  PetscCall(PetscLayoutSetUp((*B)->cmap));
  (*B)->preallocated = PETSC_TRUE;
  (*B)->assembled    = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// c (block entries, block size bs) converted in place to the entry kind -mat_aijcompound_entry asks
// for: the matrix is blocked once, then each form is tested on the blocks (no second blocking).
static PetscErrorCode MatAIJCompoundChooseKind(Mat A, PetscInt option, ac::CompoundCsr *c)
{
  const PetscInt threads = PgkNodeThreadShare();
  const PetscInt bs      = c->bs;
  bool           ok      = false;

  PetscFunctionBegin;
  if (option == MAT_AIJCOMPOUND_ENTRY_AUTO) {
    if (bs == 2) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ok = ac::convert_kind(*c, ac::EntryKind::complex, (int)threads));
    if (bs == 4) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ok = ac::convert_kind(*c, ac::EntryKind::quaternion, (int)threads));
  } else if (option == MAT_AIJCOMPOUND_ENTRY_COMPLEX) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ok = ac::convert_kind(*c, ac::EntryKind::complex, (int)threads));
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-mat_aijcompound_entry complex: not every stored 2x2 block has the complex form [a -b; b a]; use -mat_aijcompound_entry auto or block");
  } else if (option == MAT_AIJCOMPOUND_ENTRY_QUATERNION) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ok = ac::convert_kind(*c, ac::EntryKind::quaternion, (int)threads));
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-mat_aijcompound_entry quaternion: not every stored 4x4 block has the quaternion form L(q) (left multiplication, Hamilton product); use -mat_aijcompound_entry auto or block");
  }
  PetscCall(PetscInfo(A, "aijcompound: bs %" PetscInt_FMT ", entry kind %s\n", bs, ac::kind_name(c->kind)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The compound CSR of A (any sequential type MatConvert takes to MATSEQAIJ; AIJ and AIJCUSPARSE read
// directly). The host passes are split among this rank's share of the node's cores (large matrices).
PetscErrorCode MatAIJCompoundFromMat(Mat A, PetscInt bs, PetscInt option, ac::CompoundCsr *c)
{
  Mat       S = nullptr;
  PetscBool direct;
  PgkMatCSR csr;

  PetscFunctionBegin;
  PetscCheck(bs >= 2 && bs <= 8, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mat aijcompound needs a block size 2..8 (MatSetBlockSize(), or BAIJ), the matrix has block size %" PetscInt_FMT, bs);
  PetscCheck(A->rmap->n % bs == 0 && A->cmap->n % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Mat aijcompound: sizes %" PetscInt_FMT " x %" PetscInt_FMT " are not multiples of the block size %" PetscInt_FMT, A->rmap->n, A->cmap->n, bs);
  PetscCheck(option != MAT_AIJCOMPOUND_ENTRY_COMPLEX || bs == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-mat_aijcompound_entry complex needs block size 2, the matrix has %" PetscInt_FMT, bs);
  PetscCheck(option != MAT_AIJCOMPOUND_ENTRY_QUATERNION || bs == 4, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-mat_aijcompound_entry quaternion needs block size 4, the matrix has %" PetscInt_FMT, bs);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &direct, MATSEQAIJ, MATSEQAIJCUSPARSE, ""));
  if (!direct) PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &S));
  PetscCall(PgkMatGetCSR(S ? S : A, PGK_MEM_HOST, &csr));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, *c = ac::from_scalar(csr.csr, ac::EntryKind::block, (int)bs, (int)PgkNodeThreadShare()));
  PetscCall(PgkMatRestoreCSR(S ? S : A, &csr));
  PetscCall(MatDestroy(&S));
  PetscCall(MatAIJCompoundChooseKind(A, option, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// An assembled MATSEQAIJCOMPOUND on comm (one rank) holding c (moved in; validated).
PetscErrorCode MatCreateSeqAIJCompoundWithCsr(MPI_Comm comm, ac::CompoundCsr &&c, PetscInt option, Mat *B)
{
  PetscFunctionBegin;
  PgkCallCxx(comm, PETSC_ERR_ARG_WRONG, ac::validate(c, (int)PgkNodeThreadShare()));
  PetscCall(MatCreate(comm, B));
  PetscCall(MatSetSizes(*B, c.nbrows * c.bs, c.nbcols * c.bs, c.nbrows * c.bs, c.nbcols * c.bs));
  PetscCall(MatSetBlockSizes(*B, c.bs, c.bs));
  PetscCall(MatSetType(*B, MATSEQAIJCOMPOUND));
  Data(*B)->c            = std::move(c);
  Data(*B)->entry_option = option;
  PetscCall(PetscLayoutSetUp((*B)->rmap));
  PetscCall(PetscLayoutSetUp((*B)->cmap));
  (*B)->preallocated = PETSC_TRUE;
  (*B)->assembled    = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundGetEntryOption(Mat A, PetscInt *option)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, ((PetscObject)A)->prefix, "Mat aijcompound options", "Mat");
  PetscCall(PetscOptionsEList("-mat_aijcompound_entry", "entry kind: auto (quaternion for bs 4, complex for bs 2 where every block has the form, else block), block, complex, quaternion", "MATSEQAIJCOMPOUND", MatAIJCompoundEntries, 4,
                              MatAIJCompoundEntries[*option], option, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatConvert(A, MATSEQAIJCOMPOUND or MATAIJCOMPOUND, ...) from any assembled sequential matrix.
static PetscErrorCode MatConvertFrom_SeqAIJCompound(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscInt bs, option = MAT_AIJCOMPOUND_ENTRY_AUTO;
  Mat      B;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatAIJCompoundGetEntryOption(A, &option));

  {
    ac::CompoundCsr c;
    PetscCall(MatAIJCompoundFromMat(A, bs, option, &c));
    PetscCall(MatCreateSeqAIJCompoundWithCsr(PetscObjectComm((PetscObject)A), std::move(c), option, &B));
    PetscCall(MatSetOptionsPrefix(B, ((PetscObject)A)->prefix)); // its -mat_aijcompound_* options are the source's
  }
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &B));
  else if (reuse == MAT_REUSE_MATRIX) PetscCall(MatHeaderReplace(*newmat, &B));
  else *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatLoad(A, viewer) with A of this type (either): the file is read into MATAIJ with A's sizes and
// block size (or -matload_block_size, which the .info file PETSc writes beside a binary file
// holds), converted as MatConvert does (-mat_aijcompound_entry with A's
// prefix) and swapped into A's header, as PETSc's converting loaders do. What MatLoad and the user
// set on A before (symmetry flags, CPU binding) is kept.
PetscErrorCode MatLoad_AIJCompound(Mat A, PetscViewer viewer)
{
  Mat        L, C;
  PetscBool  bound = A->boundtocpu;
  PetscBool3 sym = A->symmetric, herm = A->hermitian, ssym = A->structurally_symmetric, spd = A->spd;
  PetscBool  symeternal = A->symmetry_eternal, ssymeternal = A->structural_symmetry_eternal, spdeternal = A->spd_eternal;

  PetscFunctionBegin;
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &L));
  PetscCall(MatSetOptionsPrefix(L, MAT_AIJCOMPOUND_EXPANSION_PREFIX)); // the user's -mat_view is for A, not this step
  if (A->rmap->n >= 0 || A->rmap->N >= 0) PetscCall(MatSetSizes(L, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  if (A->rmap->bs > 1) PetscCall(MatSetBlockSizes(L, A->rmap->bs, A->cmap->bs > 1 ? A->cmap->bs : A->rmap->bs));
  PetscCall(MatSetType(L, MATAIJ));
  PetscCall(MatLoad(L, viewer));             // -matload_block_size has no prefix (PETSc's MatLoad)
  PetscCall(MatAIJCompoundCopyPrefix(A, L)); // -mat_aijcompound_entry of A's prefix
  PetscCall(MatConvert(L, ((PetscObject)A)->type_name, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatDestroy(&L));
  PetscCall(MatAIJCompoundCopyPrefix(A, C));
  PetscCall(MatHeaderReplace(A, &C));
  A->symmetric                   = sym;
  A->hermitian                   = herm;
  A->structurally_symmetric      = ssym;
  A->spd                         = spd;
  A->symmetry_eternal            = symeternal;
  A->structural_symmetry_eternal = ssymeternal;
  A->spd_eternal                 = spdeternal;
  if (bound) PetscCall(MatBindToCPU(A, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatNorm (either type): the norm of the expansion, computed by MATAIJ (a diagnostic, not a hot path).
PetscErrorCode MatNorm_AIJCompound(Mat A, NormType type, PetscReal *norm)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &E));
  PetscCall(MatNorm(E, type, norm));
  PetscCall(MatDestroy(&E));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATSEQAIJCOMPOUND - "seqcompoundaij": a sequential sparse matrix whose stored entries are compound
   (issue 10): real k x k blocks (k = 2..8), complex numbers stored as 2 scalars (the 2x2 real
   block [a -b; b a]) or quaternions stored as 4 scalars (the 4x4 left-multiplication block of the
   Hamilton product), in a compound CSR. `MATAIJCOMPOUND` ("aijcompound") is `MATSEQAIJCOMPOUND`
   on one rank and `MATMPIAIJCOMPOUND` on more (whose diagonal and off-diagonal blocks are of this type).

   Options Database Key:
.  -mat_aijcompound_entry <auto> - auto: quaternion for block size 4 and complex for block size 2 where every
                                   stored block has that form, else real blocks; block; complex; quaternion
                                   (an error when the form does not hold)

   Notes:
   Built by conversion: `MatConvert(A, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, &C)` (or `MAT_INPLACE_MATRIX`)
   from an assembled `MATSEQAIJ`, `MATSEQBAIJ` or `MATSEQAIJCUSPARSE` (its host copy) whose block size
   (`MatSetBlockSize()`, `MatGetBlockSize()`) is 2..8. A block is stored where any of its scalars is.
   `MatConvert()` to `MATSEQAIJ` (or through it to any other type) gives the expanded matrix back.
   Or assembled: `MatSetType()` / `-mat_type aijcompound` with `MatSetFromOptions()`, a block size,
   `MatSetUp()` or `MatSeqAIJSetPreallocation()` / `MatXAIJSetPreallocation()`, `MatSetValues()`
   (`MatSetValuesBlocked()`), `MatAssemblyBegin/End()`: the values go into an inner `MATSEQAIJ` that
   `MAT_FINAL_ASSEMBLY` converts (the entry kind is chosen again at every final assembly). Values-only
   re-assembly works (after `MatScale()` & co. the inner matrix is rebuilt from the compound values).

   Operations, on the host through the serial reference of src/aijcompound/: `MatMult()`,
   `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` (an explicit compound transpose
   built at the first use and kept; new values refresh it), `MatGetDiagonal()`,
   `MatInvertBlockDiagonal()` (so `PCJACOBI`, `PCPBJACOBI` and `PCNONE` work), `MatScale()`,
   `MatShift()`, `MatDiagonalScale()` (complex and quaternion entries become real blocks when the
   scalings vary inside a block), `MatAXPY()` (same kind and pattern), `MatDuplicate()`,
   `MatGetInfo()`, `MatView()` (`-mat_view ::ascii_info`: entry kind, block size, block rows, stored
   blocks, layout; other formats view the expanded matrix), `MatZeroRows()` (Dirichlet rows: the
   pattern is kept, as with `MAT_KEEP_NONZERO_PATTERN`, so the rows' stored scalars become 0 and the
   diagonal `diag`, an error where its block is not stored; complex and quaternion entries become
   real blocks when the rows cover part of a block row), `MatZeroRowsColumns()` (the same with the
   columns, b -= A(:, rows) x first), `MatCopy()`, `MatNorm()` (of the expansion,
   computed by `MATSEQAIJ`: a diagnostic) and `MatLoad()` (the file is read into `MATSEQAIJ`, then
   converted; the block size from `-matload_block_size` or the .info file beside a binary file).
   `MatCreateSubMatrix()` (by `MATSEQAIJ` on the expansion; of this type again when the index sets keep
   whole blocks, else `MATSEQAIJ`), `MatIncreaseOverlap()` and `MatCreateSubMatrices()` (so `PCASM`:
   `MATSEQAIJ` subdomain matrices of the expansion, which every sub-solver can factor). These host
   operations change the host values; a device copy uploads them at its next use.
   Factorizations (`MATSOLVERPETSC`: LU, ILU(k), Cholesky, ICC(k); so `PCLU`, `PCILU`, GMRES's default
   `PCILU`, `PCBJACOBI`'s and `PCASM`'s sub-solvers, `PCFIELDSPLIT` blocks) are `MATSEQAIJ`'s of the
   expansion (aijcompound/factor.cpp), triangular solves on the host; ILU(k) has the fill of whole
   blocks, as `MATSEQBAIJ`'s does. `MatGetRowIJ()` gives the expansion's scalar structure (never
   inode-compressed), so every `MatGetOrdering()` type works (PETSc's rcm, nd, qmd order scalar rows
   here, the inodes of a `MATSEQAIJ`). ILUDT and QR are a clear error.
   `MatSOR()` (`PCSOR`, `PCEISENSTAT` with `MatMultDiagonalBlock()`, `PCMG`'s smoothers), `MatGetRow()`
   (`PCKACZMARZ`) and `MatGetValues()` run on a cached expansion, rebuilt when the matrix's state has
   changed (aijcompound/expansion_cache.cpp; it costs the expanded matrix's memory while kept).
   Assembled with block size 1 (no compound entries: PETSc's DMDA makes its interpolation with the DM's
   matrix type) or with row and column block sizes that differ (`PCGAMG`'s prolongator, made with the
   operator's type), the matrix becomes the `MATSEQAIJ` it was assembled into (a prolongator: `MATSEQAIJCUSPARSE`
   where the matrix computes on the device); `MatConvert()` of block size 1 is an error. `MatProduct` with a
   compound operand (`MatMatMult()`, `MatPtAP()`, ...) is that of the cached expansions, values refreshed when the
   operand changed (`MATSEQAIJCUSPARSE` on the device, else `MATSEQAIJ`; host copies with a host `MATAIJ` operand);
   with `MatCreateGraph()` this makes `PCGAMG` work, its hierarchy where the matrix computes (aijcompound/product.cpp).
   `MatTranspose()` (of this type again) and `MatIsSymmetric()` / `MatIsHermitian()` are the expansion's.
   Anything else (`PCGASM`, ...) is PETSc's "no support" error: convert to `MATSEQAIJ`, or give
   `KSPSetOperators()` an AIJ preconditioning matrix.

   The type name is "seqcompoundaij" (not "seqaijcompound"): PETSc finds solver types, and some
   packages decide that a matrix is AIJ, by type-name prefix, and a name beginning with "seqaij" had
   `MATSEQAIJ`'s factorization run on this type's data (a crash); the factorizations registered for
   this type hand `MATSEQAIJ`'s steps the expansion.

   COO assembly (`MatSetPreallocationCOO()`, `MatSetValuesCOO()`) works. With `-dm_mat_type aijcompound`
   a DMDA assembles the matrix, and SNES's colored finite-difference Jacobian works
   (`MatFDColoringCreate()`: PETSc's coloring on an AIJ workspace of the pattern assembled through
   `MatSetValues()`, else of the whole-block expansion, whose values are then copied in). On the device (CUDA vectors, not bound to the CPU) the products and
   the value operations run in the tuned layout (`-mat_aijcompound_*` options, `-mat_view ::ascii_info`).
   MPI: `MATMPIAIJCOMPOUND`.

   Level: intermediate

.seealso: `MatConvert()`, `MATSEQAIJ`, `MATSEQBAIJ`, `PCPBJACOBI`, `MATMPIAIJCOMPOUND`
M*/
// MatBindToCPU(A, PETSC_TRUE): the host path from now on (device values copied back first);
// PETSC_FALSE: the device path where one is usable; where none is, A stays bound (as made).
static PetscErrorCode MatBindToCPU_SeqAIJCompound(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  if (flg) PetscCall(MatAIJCompoundSyncHost(A));
  A->boundtocpu = (PetscBool)(flg || !PgkDeviceAvailable());
  PetscCall(MatSetVecType(A, MatAIJCompoundUseDevice(A) ? VECCUDA : VECSTANDARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode MatCreate_SeqAIJCompound(Mat A)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Mat seqcompoundaij needs a communicator of one rank (%d ranks); use MATAIJCOMPOUND or MATMPIAIJCOMPOUND in parallel", size);
  A->data = new Mat_SeqAIJCompound();
  // MatCreate binds every matrix to the CPU; a device type unbinds itself (as AIJCUSPARSE does).
  A->boundtocpu = (PetscBool)!PgkDeviceAvailable();
  // Vectors on the device wherever the device path runs (KSP's work vectors come from here).
  if (MatAIJCompoundUseDevice(A)) PetscCall(MatSetVecType(A, VECCUDA));
  A->offloadmask = PETSC_OFFLOAD_CPU;
  MatAIJCompoundSetComputeOps(A);
  MatAIJCompoundSetFDColoringOps(A);
  MatAIJCompoundSetSubMatrixOps(A);
  MatAIJCompoundSetZeroRowsOps(A, PETSC_FALSE);
  MatAIJCompoundSetFactorOps(A);
  MatAIJCompoundSetExpansionCacheOps(A, PETSC_FALSE);
  PetscCall(MatAIJCompoundSetProductOps(A));
  MatAIJCompoundSetAssemblyOps(A);
  A->ops->destroy     = MatDestroy_SeqAIJCompound;
  A->ops->duplicate   = MatDuplicate_SeqAIJCompound;
  A->ops->convert     = MatConvert_SeqAIJCompound_Any;
  A->ops->convertfrom = MatConvertFrom_SeqAIJCompound;
  A->ops->bindtocpu   = MatBindToCPU_SeqAIJCompound;
  PetscCall(MatAIJCompoundComposeCOO(A));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqcompoundaij_seqaij_C", MatConvert_SeqAIJCompound_Any));
  PetscCall(MatAIJCompoundComposeAssembly(A));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATSEQAIJCOMPOUND));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ILUDT and QR are a clear error (with the type's name not beginning with "seqaij", PETSc's prefix
// lookup finds this handler, for the default solver type and for an explicit "petsc"); LU, ILU,
// Cholesky and ICC factor the expansion (aijcompound/factor.cpp).
static PetscErrorCode MatGetFactor_SeqAIJCompound(Mat A, MatFactorType ftype, Mat *F)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Mat seqcompoundaij has no %s factorization (it has LU, ILU, Cholesky and ICC, of its expansion): MatConvert() to MATSEQAIJ", MatFactorTypes[ftype]);
}

PetscErrorCode PgkRegisterMatAIJCompound(void)
{
  PetscFunctionBegin;
  for (MatFactorType f : {MAT_FACTOR_LU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ILU, MAT_FACTOR_ICC}) PetscCall(MatSolverTypeRegister(MATSOLVERPETSC, MATSEQAIJCOMPOUND, f, MatGetFactor_SeqAIJCompound_Petsc));
  for (MatFactorType f : {MAT_FACTOR_ILUDT, MAT_FACTOR_QR}) PetscCall(MatSolverTypeRegister(MATSOLVERPETSC, MATSEQAIJCOMPOUND, f, MatGetFactor_SeqAIJCompound));
  PetscCall(PetscLogEventRegister("MatAIJCmpTune", MAT_CLASSID, &MAT_AIJCompoundTune));
  PetscCall(PetscLogEventSetCollective(MAT_AIJCompoundTune, PETSC_FALSE)); // each rank tunes its own block
  PetscCall(PetscLogEventRegister("MatAIJCmpExpand", MAT_CLASSID, &MAT_AIJCompoundExpand));
  PetscCall(PetscLogEventSetCollective(MAT_AIJCompoundExpand, PETSC_FALSE)); // (the sequential blocks' are per rank)
  PetscCall(MatRegister(MATSEQAIJCOMPOUND, MatCreate_SeqAIJCompound));
  PetscCall(MatMPIAIJCompoundRegisterFactors());
  PetscCall(MatRegister(MATMPIAIJCOMPOUND, MatCreate_MPIAIJCompound));
  PetscCall(MatRegisterRootName(MATAIJCOMPOUND, MATSEQAIJCOMPOUND, MATMPIAIJCOMPOUND));
  PetscFunctionReturn(PETSC_SUCCESS);
}
