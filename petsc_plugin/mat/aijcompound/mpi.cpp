// Mat aijcompound under MPI (issue 10, item 6): MATMPIAIJCOMPOUND, the type, its building from a
// MATMPIAIJ (conversion and assembly end here), conversions, MatDuplicate. The operations are in
// mpi_ops.cpp, MatSetValues assembly in mpi_assembly.cpp, the expansion in mpi_expansion.cpp. The
// blocks are MATSEQAIJCOMPOUND and are used only through the public Mat interface (MatMult,
// MatConvert, ...), so whatever path the sequential type takes (host or device) the MPI type
// follows without changes.
#include "petsc_plugin/mat/aijcompound/mpi.hpp"
#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/device.hpp"

#include <algorithm>

#define Data MatMPIAIJCompoundData

// ---- entry kind, ghost blocks ----------------------------------------------------------------

static PetscInt KindOption(ac::EntryKind kind)
{
  return kind == ac::EntryKind::complex ? MAT_AIJCOMPOUND_ENTRY_COMPLEX : kind == ac::EntryKind::quaternion ? MAT_AIJCOMPOUND_ENTRY_QUATERNION : MAT_AIJCOMPOUND_ENTRY_BLOCK;
}

// The entry kind of both blocks on every rank: a form (complex, quaternion) only where it holds in
// both local blocks of every rank (one MPI_Allreduce), so all ranks store the same kind. dg and of
// come with block entries and leave converted to that kind.
static PetscErrorCode AgreeKind(Mat A, ac::CompoundCsr *dg, ac::CompoundCsr *of, PetscInt bs, PetscInt option, ac::EntryKind *kind)
{
  MPI_Comm  comm    = PetscObjectComm((PetscObject)A);
  const int threads = (int)PgkNodeThreadShare();
  int       ok[2]   = {0, 0}; // every stored block of this rank has the complex / quaternion form

  PetscFunctionBegin;
  if (option == MAT_AIJCOMPOUND_ENTRY_COMPLEX) PetscCheck(bs == 2, comm, PETSC_ERR_ARG_INCOMP, "-mat_aijcompound_entry complex needs block size 2, the matrix has %" PetscInt_FMT, bs);
  if (option == MAT_AIJCOMPOUND_ENTRY_QUATERNION) PetscCheck(bs == 4, comm, PETSC_ERR_ARG_INCOMP, "-mat_aijcompound_entry quaternion needs block size 4, the matrix has %" PetscInt_FMT, bs);
  if (option != MAT_AIJCOMPOUND_ENTRY_BLOCK) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
      ok[0] = bs == 2 && ac::has_form(*dg, ac::EntryKind::complex, threads) && ac::has_form(*of, ac::EntryKind::complex, threads);
      ok[1] = bs == 4 && ac::has_form(*dg, ac::EntryKind::quaternion, threads) && ac::has_form(*of, ac::EntryKind::quaternion, threads);
    });
  }
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, ok, 2, MPI_INT, MPI_LAND, comm));
  *kind = ac::EntryKind::block;
  if (option == MAT_AIJCOMPOUND_ENTRY_AUTO) *kind = ok[0] ? ac::EntryKind::complex : ok[1] ? ac::EntryKind::quaternion : ac::EntryKind::block;
  else if (option == MAT_AIJCOMPOUND_ENTRY_COMPLEX) {
    PetscCheck(ok[0], comm, PETSC_ERR_ARG_WRONG, "-mat_aijcompound_entry complex: not every stored 2x2 block has the complex form [a -b; b a] (on some rank); use -mat_aijcompound_entry auto or block");
    *kind = ac::EntryKind::complex;
  } else if (option == MAT_AIJCOMPOUND_ENTRY_QUATERNION) {
    PetscCheck(ok[1], comm, PETSC_ERR_ARG_WRONG, "-mat_aijcompound_entry quaternion: not every stored 4x4 block has the quaternion form L(q) (left multiplication, Hamilton product) (on some rank); use -mat_aijcompound_entry auto or block");
    *kind = ac::EntryKind::quaternion;
  }
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ac::convert_kind(*dg, *kind, threads); ac::convert_kind(*of, *kind, threads)); // the form holds: both convert
  PetscCall(PetscInfo(A, "aijcompound (MPI): bs %" PetscInt_FMT ", entry kind %s on every rank\n", bs, ac::kind_name(*kind)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The ghost blocks of an off-diagonal block o whose scalar columns are the global columns colmap:
// garray = the distinct global block columns, ascending; off = o with each column renumbered to
// (position of its block in garray) * bs + component, so every ghost block is whole.
static void GhostBlocks(const pgk::CsrView &o, const PetscInt *colmap, PetscInt bs, std::vector<PetscInt> &garray, pgk::Csr &off)
{
  const PetscInt        nnz = o.nrows > 0 ? o.rowptr[o.nrows] : 0;
  std::vector<PetscInt> remap((size_t)o.ncols);

  garray.clear();
  for (PetscInt c = 0; c < o.ncols; ++c) garray.push_back(colmap[c] / bs);
  std::sort(garray.begin(), garray.end());
  garray.erase(std::unique(garray.begin(), garray.end()), garray.end());
  for (PetscInt c = 0; c < o.ncols; ++c) remap[c] = (PetscInt)(std::lower_bound(garray.begin(), garray.end(), colmap[c] / bs) - garray.begin()) * bs + colmap[c] % bs;
  off.nrows = o.nrows;
  off.ncols = (PetscInt)garray.size() * bs;
  off.rowptr.assign(1, 0);
  if (o.nrows > 0) off.rowptr.assign(o.rowptr, o.rowptr + o.nrows + 1);
  off.colidx.resize((size_t)nnz);
  off.values.assign(o.values, o.values + nnz);
  for (PetscInt k = 0; k < nnz; ++k) off.colidx[k] = remap[o.colidx[k]];
  if (std::is_sorted(colmap, colmap + o.ncols)) return; // MPIAIJ's garray is sorted: the renumbering keeps each row ascending
  for (PetscInt r = 0; r < off.nrows; ++r) {
    std::vector<std::pair<PetscInt, double>> row;
    for (PetscInt k = off.rowptr[r]; k < off.rowptr[r + 1]; ++k) row.emplace_back(off.colidx[k], off.values[k]);
    std::sort(row.begin(), row.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t k = 0; k < row.size(); ++k) off.colidx[off.rowptr[r] + k] = row[k].first, off.values[off.rowptr[r] + k] = row[k].second;
  }
}

// The sequential vector type of the matrix's vector type: lvec and the blocks' vectors.
static std::string SeqVecType(VecType t)
{
  const std::string s = t ? t : VECSTANDARD;
  if (s == VECSTANDARD || s == VECSEQ || s == VECMPI) return VECSEQ;
  if (s.rfind("seq", 0) == 0) return s;
  if (s.rfind("mpi", 0) == 0) return "seq" + s.substr(3);
  return "seq" + s; // a root type: cuda -> seqcuda, hip -> seqhip, kokkos -> seqkokkos
}

// lvec and the scatter from a global vector to it, whole blocks; kept when garray and the vector
// type did not change.
static PetscErrorCode SetUpGhosts(Mat A, std::vector<PetscInt> &&garray)
{
  Mat_MPIAIJCompound *d  = Data(A);
  const PetscInt      bs = A->rmap->bs, n = (PetscInt)garray.size() * bs;
  const std::string   vt        = SeqVecType(A->defaultvectype);
  PetscBool           same_type = PETSC_FALSE;
  Vec                 gvec;
  IS                  from;

  PetscFunctionBegin;
  if (d->lvec) PetscCall(PetscObjectTypeCompare((PetscObject)d->lvec, vt.c_str(), &same_type));
  if (d->lvec && same_type && garray == d->garray) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDestroy(&d->lvec));
  PetscCall(VecScatterDestroy(&d->Mvctx));
  d->garray = std::move(garray);
  PetscCall(VecCreate(PETSC_COMM_SELF, &d->lvec));
  PetscCall(VecSetSizes(d->lvec, n, n));
  PetscCall(VecSetBlockSize(d->lvec, bs));
  PetscCall(VecSetType(d->lvec, vt.c_str()));
  PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)A), bs, A->cmap->n, A->cmap->N, NULL, &gvec));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, bs, (PetscInt)d->garray.size(), d->garray.data(), PETSC_COPY_VALUES, &from));
  PetscCall(VecScatterCreate(gvec, from, d->lvec, NULL, &d->Mvctx));
  PetscCall(ISDestroy(&from));
  PetscCall(VecDestroy(&gvec));
  PetscCall(PetscInfo(A, "aijcompound (MPI): %" PetscInt_FMT " ghost blocks (%" PetscInt_FMT " scalars), lvec %s\n", (PetscInt)d->garray.size(), n, vt.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The structure that decides A's nonzero state: both blocks' patterns and garray.
static std::vector<PetscInt> Pattern(const ac::CompoundCsr &dg, const ac::CompoundCsr &of, const std::vector<PetscInt> &garray)
{
  std::vector<PetscInt> p;
  for (const ac::CompoundCsr *c : {&dg, &of}) {
    p.push_back((PetscInt)c->colidx.size());
    p.insert(p.end(), c->rowptr.begin(), c->rowptr.end());
    p.insert(p.end(), c->colidx.begin(), c->colidx.end());
  }
  p.insert(p.end(), garray.begin(), garray.end());
  return p;
}

// Puts new sequential blocks in place. The diagonal block keeps its object (MatHeaderReplace):
// PCBJACOBI's sub-KSP holds it from MatGetDiagonalBlock().
static PetscErrorCode InstallBlocks(Mat A, Mat Ad, Mat Ao, PetscBool new_pattern)
{
  Mat_MPIAIJCompound *d = Data(A);
  const char         *prefix;

  PetscFunctionBegin;
  if (d->Ad) {
    const PetscObjectState nz = d->Ad->nonzerostate;
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)d->Ad, &prefix));
    PetscCall(MatSetOptionsPrefix(Ad, prefix));
    PetscCall(MatHeaderReplace(d->Ad, &Ad));
    d->Ad->nonzerostate = nz + (new_pattern ? 1 : 0);
  } else d->Ad = Ad;
  PetscCall(MatDestroy(&d->Ao));
  d->Ao = Ao;
  if (new_pattern) A->nonzerostate++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckBlockSize(Mat A, PetscInt bs)
{
  PetscFunctionBegin;
  PetscCheck(bs >= 2 && bs <= 8, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Mat aijcompound needs a block size 2..8 (MatSetBlockSize(), or BAIJ), the matrix has block size %" PetscInt_FMT, bs);
  PetscCheck(A->rmap->n % bs == 0 && A->cmap->n % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Mat aijcompound: local sizes %" PetscInt_FMT " x %" PetscInt_FMT " are not multiples of the block size %" PetscInt_FMT, A->rmap->n, A->cmap->n, bs);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMPIAIJCompoundBuild(Mat A, Mat S, PetscInt option)
{
  Mat_MPIAIJCompound   *d = Data(A);
  Mat                   Sd, So, Ad, Ao;
  const PetscInt       *colmap;
  PgkMatCSR             cd, co;
  pgk::Csr              off;
  std::vector<PetscInt> garray, pattern;
  ac::EntryKind         kind = ac::EntryKind::block;
  ac::CompoundCsr       cdiag, coff;
  PetscInt              bs;
  VecType               vt;
  const int             threads = (int)PgkNodeThreadShare();

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(CheckBlockSize(A, bs));
  PetscCall(MatMPIAIJGetSeqAIJ(S, &Sd, &So, &colmap));
  PetscCall(PgkMatGetCSR(Sd, PGK_MEM_HOST, &cd));
  PetscCall(PgkMatGetCSR(So, PGK_MEM_HOST, &co));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, GhostBlocks(co.csr, colmap, bs, garray, off));
  PetscCall(PgkMatRestoreCSR(So, &co));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, cdiag = ac::from_scalar(cd.csr, ac::EntryKind::block, (int)bs, threads); coff = ac::from_scalar(pgk::view_of(off), ac::EntryKind::block, (int)bs, threads));
  PetscCall(PgkMatRestoreCSR(Sd, &cd));
  PetscCall(AgreeKind(A, &cdiag, &coff, bs, option, &kind));
  pattern = Pattern(cdiag, coff, garray);
  PetscCall(MatCreateSeqAIJCompoundWithCsr(PETSC_COMM_SELF, std::move(cdiag), KindOption(kind), &Ad));
  PetscCall(MatCreateSeqAIJCompoundWithCsr(PETSC_COMM_SELF, std::move(coff), KindOption(kind), &Ao));
  PetscCall(InstallBlocks(A, Ad, Ao, pattern != d->pattern ? PETSC_TRUE : PETSC_FALSE));
  d->pattern      = std::move(pattern);
  d->kind         = kind;
  d->entry_option = option;
  // A user's MatBindToCPU outlives a rebuild: the new blocks compute where A does.
  if (A->boundtocpu) {
    PetscCall(MatBindToCPU(d->Ad, PETSC_TRUE));
    PetscCall(MatBindToCPU(d->Ao, PETSC_TRUE));
  }
  // A sequential block that computes on the device asks for device vectors: so does A then.
  PetscCall(MatGetVecType(d->Ad, &vt));
  if (SeqVecType(vt) != VECSEQ) PetscCall(MatSetVecType(A, SeqVecType(vt).substr(3).c_str()));
  PetscCall(SetUpGhosts(A, std::move(garray)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ---- conversions, duplicate ------------------------------------------------------------

// MatConvert(A, MATMPIAIJ or any other type): the expansion, converted further by PETSc.
static PetscErrorCode MatConvert_MPIAIJCompound_Any(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat B;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJCompoundExpand(A, &B));
  PetscCall(MatAIJCompoundFinishConvert(A, B, type, reuse, newmat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatConvert(S, MATAIJCOMPOUND or MATMPIAIJCOMPOUND, ...) from any assembled parallel matrix:
// MPIAIJ and MPIAIJCUSPARSE (its host copy) are read directly, anything else through MATMPIAIJ.
static PetscErrorCode MatConvertFrom_MPIAIJCompound(Mat S, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscInt  option = MAT_AIJCOMPOUND_ENTRY_AUTO;
  PetscBool mpiaij;
  Mat       T = nullptr, B;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundGetEntryOption(S, &option));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)S, &mpiaij, MATMPIAIJ, MATMPIAIJCUSPARSE, ""));
  if (!mpiaij) PetscCall(MatConvert(S, MATMPIAIJ, MAT_INITIAL_MATRIX, &T));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)S), &B));
  PetscCall(MatSetSizes(B, S->rmap->n, S->cmap->n, S->rmap->N, S->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(B, S, S));
  PetscCall(MatSetType(B, MATMPIAIJCOMPOUND));
  PetscCall(MatSetVecType(B, S->defaultvectype)); // MPIAIJCUSPARSE: CUDA vectors, lvec included
  PetscCall(PetscLayoutSetUp(B->rmap));
  PetscCall(PetscLayoutSetUp(B->cmap));
  PetscCall(MatMPIAIJCompoundBuild(B, T ? T : S, option));
  PetscCall(MatDestroy(&T));
  B->preallocated = PETSC_TRUE;
  B->assembled    = PETSC_TRUE;
  if (reuse == MAT_REUSE_MATRIX) PetscCall(MatHeaderReplace(*newmat, &B));
  else if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(S, &B));
  else *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_MPIAIJCompound(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_MPIAIJCompound *d = Data(A), *b;

  PetscFunctionBegin;
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), B));
  PetscCall(MatSetSizes(*B, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(*B, A, A));
  PetscCall(MatSetType(*B, MATMPIAIJCOMPOUND));
  PetscCall(MatSetVecType(*B, A->defaultvectype));
  PetscCall(PetscLayoutSetUp((*B)->rmap));
  PetscCall(PetscLayoutSetUp((*B)->cmap));
  b = Data(*B);
  PetscCall(MatDuplicate(d->Ad, op, &b->Ad));
  PetscCall(MatDuplicate(d->Ao, op, &b->Ao));
  PetscCall(VecDuplicate(d->lvec, &b->lvec));
  PetscCall(VecScatterCopy(d->Mvctx, &b->Mvctx));
  (*B)->boundtocpu   = A->boundtocpu;
  b->garray          = d->garray;
  b->pattern         = d->pattern;
  b->kind            = d->kind;
  b->entry_option    = d->entry_option;
  b->options         = d->options;
  (*B)->preallocated = PETSC_TRUE;
  (*B)->assembled    = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatBindToCPU(A, flg): both blocks and the ghost vector with it, as MATMPIAIJ's: a matrix bound to
// the CPU computes there whole (its blocks copy device values back when they bind). Before the
// first build there are no blocks yet: MatMPIAIJCompoundBuild binds them where A is bound. Where
// no device path is usable, A stays bound (as made).
static PetscErrorCode MatBindToCPU_MPIAIJCompound(Mat A, PetscBool flg)
{
  Mat_MPIAIJCompound *d = Data(A);
  VecType             vt;

  PetscFunctionBegin;
  flg           = (PetscBool)(flg || !PgkDeviceAvailable());
  A->boundtocpu = flg;
  if (!d->Ad) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatBindToCPU(d->Ad, flg));
  PetscCall(MatBindToCPU(d->Ao, flg));
  // KSP's work vectors and lvec follow the diagonal block's type, as in MatMPIAIJCompoundBuild: a
  // host lvec under device blocks (or the reverse) would cost a copy per product.
  PetscCall(MatGetVecType(d->Ad, &vt));
  PetscCall(MatSetVecType(A, SeqVecType(vt) != VECSEQ ? SeqVecType(vt).substr(3).c_str() : VECSTANDARD));
  std::vector<PetscInt> garray = d->garray;
  PetscCall(SetUpGhosts(A, std::move(garray))); // (a new lvec only where its type changed)
  PetscCall(VecBindToCPU(d->lvec, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ---- shared helpers --------------------------------------------------------------------------

PetscErrorCode MatMPIAIJCompoundToBlockKind(Mat A, const char why[])
{
  Mat_MPIAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (d->kind == ac::EntryKind::block) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(A, "converting %s entries to %" PetscInt_FMT "x%" PetscInt_FMT " real blocks on every rank: %s\n", ac::kind_name(d->kind), A->rmap->bs, A->rmap->bs, why));
  for (Mat *M : {&d->Ad, &d->Ao}) {
    Mat             S, N;
    ac::CompoundCsr c;
    const char     *prefix;

    PetscCall(MatConvert(*M, MATSEQAIJ, MAT_INITIAL_MATRIX, &S));
    PetscCall(MatAIJCompoundFromMat(S, A->rmap->bs, MAT_AIJCOMPOUND_ENTRY_BLOCK, &c));
    PetscCall(MatDestroy(&S));
    PetscCall(MatCreateSeqAIJCompoundWithCsr(PETSC_COMM_SELF, std::move(c), MAT_AIJCOMPOUND_ENTRY_BLOCK, &N));
    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)*M, &prefix));
    PetscCall(MatSetOptionsPrefix(N, prefix));
    PetscCall(MatHeaderReplace(*M, &N));
  }
  d->kind = ac::EntryKind::block;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMPIAIJCompoundValuesChanged(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&Data(A)->inner)); // the next assembly rebuilds it from the new values
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundGetLocalVec(MatAIJCompoundLocalVec &lv, Vec v, PetscBool read, Vec *w)
{
  PetscInt n = -1, nw = -1;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  if (lv.w) PetscCall(VecGetLocalSize(lv.w, &nw));
  if (!lv.w || n != nw || lv.parent_type != ((PetscObject)v)->type_name) {
    PetscCall(VecDestroy(&lv.w));
    PetscCall(VecCreateLocalVector(v, &lv.w)); // VECSEQ for host vectors, VECSEQCUDA for CUDA ones
    lv.parent_type = ((PetscObject)v)->type_name;
  }
  if (read) PetscCall(VecGetLocalVectorRead(v, lv.w));
  else PetscCall(VecGetLocalVector(v, lv.w));
  *w = lv.w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundRestoreLocalVec(MatAIJCompoundLocalVec &lv, Vec v, PetscBool read, Vec *w)
{
  PetscFunctionBegin;
  if (read) PetscCall(VecRestoreLocalVectorRead(v, lv.w));
  else PetscCall(VecRestoreLocalVector(v, lv.w));
  *w = nullptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ---- the type --------------------------------------------------------------------------------

static PetscErrorCode MatDestroy_MPIAIJCompound(Mat A)
{
  Mat_MPIAIJCompound *d = Data(A);

  PetscFunctionBegin;
  PetscCall(MatDestroy(&d->Ad));
  PetscCall(MatDestroy(&d->Ao));
  PetscCall(VecDestroy(&d->lvec));
  PetscCall(VecScatterDestroy(&d->Mvctx));
  for (MatAIJCompoundLocalVec *lv : {&d->xl, &d->yl, &d->zl}) PetscCall(VecDestroy(&lv->w));
  PetscCall(MatMPIAIJCompoundDestroyAssembly(A));
  delete d;
  A->data = nullptr;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_mpicompoundaij_mpiaij_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", NULL));
  PetscCall(MatMPIAIJCompoundComposeAssembly(A, PETSC_FALSE));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATMPIAIJCOMPOUND - "mpicompoundaij": the parallel matrix of compound entries (issue 10): real
   k x k blocks (k = 2..8), complex numbers stored as 2 scalars or quaternions stored as 4 scalars,
   distributed by rows as `MATMPIAIJ` is. `MATAIJCOMPOUND` ("aijcompound") is this type on more than
   one rank and `MATSEQAIJCOMPOUND` on one.

   Options Database Key:
.  -mat_aijcompound_entry <auto> - auto: quaternion for block size 4 and complex for block size 2 where every
                                   stored block of every rank has that form, else real blocks; block; complex;
                                   quaternion (an error when the form does not hold on some rank)

   Notes:
   Each rank holds, as `MATMPIAIJ` does, a diagonal block (its rows, its own columns) and an
   off-diagonal block (its rows, the other columns it touches), both `MATSEQAIJCOMPOUND`, and a
   ghost vector. The ghosts are whole blocks: the off-diagonal block's block columns are the global
   block columns it touches, in ascending order, and the scatter moves all bs scalars of each, even
   where only some of its scalars are stored. The entry kind is the same on every rank and in both
   blocks (decided collectively at conversion or final assembly). `MatGetDiagonalBlock()` returns
   the diagonal block, so `PCBJACOBI` sub-solvers see a `MATSEQAIJCOMPOUND`. Where the device path is
   usable the matrix is not bound to the CPU, both blocks compute on the device and `MatCreateVecs()`
   gives `VECMPICUDA`; `MatBindToCPU()` binds both blocks and the ghost vector (through later
   assemblies too) and `MatCreateVecs()` then gives `VECMPI`, as `MATMPIAIJCUSPARSE` does.

   Built by `MatConvert(A, MATAIJCOMPOUND, ...)` from an assembled `MATMPIAIJ`, `MATMPIBAIJ` (through
   `MATMPIAIJ`) or `MATMPIAIJCUSPARSE` (its host copy) with a block size 2..8, or assembled:
   `-mat_type aijcompound` with `MatSetFromOptions()` (or `-dm_mat_type aijcompound` with a `DMDA`),
   `MatMPIAIJSetPreallocation()` / `MatXAIJSetPreallocation()` / `MatSetUp()`, `MatSetValues()`
   (`MatSetValuesBlocked()`, `MatSetValuesLocal()`; values of other ranks' rows too) into an inner
   `MATMPIAIJ` that `MAT_FINAL_ASSEMBLY` converts. Values-only re-assembly works. A rank may own no rows.
   `MatConvert()` to `MATMPIAIJ` (or through it to any type) gives the expanded matrix back exactly.

   Operations (public `Mat` calls on the blocks): `MatMult()`, `MatMultAdd()` (the ghost scatter
   overlapped with the diagonal block's product, as in `MATMPIAIJ`), `MatMultTranspose()`,
   `MatMultTransposeAdd()` (the off-diagonal block's transpose product into the ghost vector, then a
   reverse scatter adding into the result after the diagonal block's product: deterministic, since
   the order in which a reverse scatter adds the contributions of other ranks is fixed for a given
   layout), `MatGetDiagonal()`, `MatInvertBlockDiagonal()` (so `PCJACOBI`, `PCPBJACOBI` and
   `PCBJACOBI` with those sub-preconditioners work), `MatScale()`, `MatShift()`, `MatDiagonalScale()`
   (complex and quaternion entries become real blocks on every rank when a scaling varies inside a
   block), `MatAXPY()` (same kind and ghosts with `SAME_NONZERO_PATTERN` block by block; otherwise
   through `MATMPIAIJ`), `MatDuplicate()`, `MatGetInfo()`, `MatGetDiagonalBlock()`, `MatView()`
   (`::ascii_info`: entry kind, and per rank block rows, stored blocks of both blocks and ghost
   blocks; `::ascii_info_detail` adds each rank's blocks; other formats view the expanded matrix),
   `MatZeroRows()` (any rank may name any row; the pattern is kept, so the rows' stored scalars become
   0 and the diagonal `diag`, which needs the same row and column layouts; complex and quaternion
   entries become real blocks on every rank when the rows cover part of a block row),
   `MatZeroRowsColumns()` (the same with the columns, the off-diagonal block's through a ghost mask
   scattered as the product's ghosts are; b -= A(:, rows) x first),
   `MatCopy()`, `MatNorm()` (of the expansion, computed by `MATMPIAIJ`) and `MatLoad()` (read into
   `MATMPIAIJ`, then converted: `-mat_type aijcompound` with `-matload_block_size` or the .info file),
   `MatCreateSubMatrix()` (by `MATMPIAIJ` on the expansion; of this type when whole blocks are kept,
   else `MATMPIAIJ`), `MatIncreaseOverlap()` with `MatCreateSubMatrices()` (so `PCASM`, whose
   subdomain matrices are `MATSEQAIJ`), `MatSOR()` (local sweeps, by `MATMPIAIJ` on a cached expansion)
   and SNES's colored finite-difference Jacobian (`MatFDColoringCreate()`). `MatGetRow()` and
   `MatGetValues()` of this rank's rows read a cached copy of its expanded rows (no communication).
   Block size 1 at assembly, or row and column block sizes that differ: the matrix becomes `MATMPIAIJ` (a prolongator:
   `MATMPIAIJCUSPARSE` where it computes on the device on every rank). `MatProduct` with a compound operand and
   `MatCreateGraph()` are the expansion's, `MATMPIAIJCUSPARSE` there, else `MATMPIAIJ` (so `PCGAMG` works, its
   hierarchy where the matrix computes; see `MATSEQAIJCOMPOUND`), as are `MatTranspose()` and `MatIsSymmetric()`.
   A factorization of the parallel matrix (`PCLU`, `PCILU` on it) is a clear error, as PETSc's own
   have none in parallel; the default `PCBJACOBI` with its `PCILU` sub-solver, and `PCASM`, factor each
   rank's block (`MATSEQAIJCOMPOUND`'s factorizations, of the expansion). The diagonal block's
   `MatGetRowIJ()` serves the orderings.

   Level: intermediate

.seealso: `MATSEQAIJCOMPOUND`, `MATMPIAIJ`, `MatConvert()`, `MatGetDiagonalBlock()`, `PCBJACOBI`, `PCPBJACOBI`
M*/
PETSC_EXTERN PetscErrorCode MatCreate_MPIAIJCompound(Mat A)
{
  PetscFunctionBegin;
  A->data = new Mat_MPIAIJCompound();
  // MatCreate binds every matrix to the CPU; a device type unbinds itself (as MATMPIAIJCUSPARSE and
  // the sequential compound type do). PETSc reads the flag (PCGAMG's prolongator, MatProduct,
  // MatNorm's vectors) and so does PgkMatScalarOperator.
  A->boundtocpu = (PetscBool)!PgkDeviceAvailable();
  MatMPIAIJCompoundSetComputeOps(A);
  MatAIJCompoundSetFDColoringOps(A);
  MatAIJCompoundSetSubMatrixOps(A);
  MatAIJCompoundSetZeroRowsOps(A, PETSC_TRUE);
  MatAIJCompoundSetExpansionCacheOps(A, PETSC_TRUE);
  PetscCall(MatAIJCompoundSetProductOps(A));
  MatMPIAIJCompoundSetAssemblyOps(A);
  A->ops->destroy     = MatDestroy_MPIAIJCompound;
  A->ops->duplicate   = MatDuplicate_MPIAIJCompound;
  A->ops->convert     = MatConvert_MPIAIJCompound_Any;
  A->ops->convertfrom = MatConvertFrom_MPIAIJCompound;
  A->ops->bindtocpu   = MatBindToCPU_MPIAIJCompound;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_mpicompoundaij_mpiaij_C", MatConvert_MPIAIJCompound_Any));
  PetscCall(MatMPIAIJCompoundComposeAssembly(A, PETSC_TRUE));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATMPIAIJCOMPOUND));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetFactor_MPIAIJCompound(Mat A, MatFactorType ftype, Mat *F)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
          "Mat mpicompoundaij has no %s factorization (PCLU, PCILU, PCCHOLESKY, PCICC; PETSc has none of its own in parallel either): use PCBJACOBI or PCASM, whose sub-solvers factor each rank's block, or PCJACOBI, PCPBJACOBI; or MatConvert() to "
          "MATMPIAIJ for an external package",
          MatFactorTypes[ftype]);
}

PetscErrorCode MatMPIAIJCompoundRegisterFactors(void)
{
  PetscFunctionBegin;
  for (MatFactorType f : {MAT_FACTOR_LU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ILU, MAT_FACTOR_ICC, MAT_FACTOR_ILUDT, MAT_FACTOR_QR}) PetscCall(MatSolverTypeRegister(MATSOLVERPETSC, MATMPIAIJCOMPOUND, f, MatGetFactor_MPIAIJCompound));
  PetscFunctionReturn(PETSC_SUCCESS);
}
