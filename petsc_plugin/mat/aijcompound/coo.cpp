// Mat aijcompound: COO assembly (MatSetPreallocationCOO / MatSetValuesCOO, issue 10 item 1), so
// that device-assembling codes keep their values on the GPU.
//
// Preallocation builds, on the host, the block pattern of the coordinates and the map of every
// COO value to its scalar (src/aijcompound/coo.hpp); device coordinates are copied to the host
// first (one logged read each, as PETSc's own types do). Values:
//   * on the device (a device matrix; host values are uploaded, one logged copy): the sums go into
//     a block-kind scratch copy (kernels/aijcompound coo_assemble: one thread per scalar, COO
//     order, deterministic); the entry kind is decided there (-mat_aijcompound_entry auto:
//     has_form, one flag read) and the scratch becomes the matrix values (block: a buffer swap;
//     complex/quaternion: compress). ADD_VALUES adds to the current values on the device (a form
//     that no longer holds converts the matrix to real blocks, through the host). After the first
//     call (which uploads the maps and the pattern) an assembly moves nothing between host and
//     device but the flag of the `auto` check;
//   * on the host (host path): the host reference, then the same kind decision.
#include "petsc_plugin/mat/aijcompound/device.hpp"

#include "src/aijcompound/coo.hpp"

#include <petscdevice.h>

#define Data MatAIJCompoundData

struct MatAIJCompoundCoo {
  ac::CooMap map;
  PetscCount ncoo = 0; // values MatSetValuesCOO reads (ignored coordinates included: perm indexes them)
#if defined(PGK_HAVE_CUDA)
  bool                                uploaded = false;
  pgk::cuda::DeviceBuffer<pgk::Index> jmap, perm;
  pgk::cuda::DeviceBuffer<double>     v; // host values uploaded
  kc::DeviceCompoundCsr               scratch, compressed;
#endif
};

// The entry kind the option asks for, given whether the block values have the complex /
// quaternion form (has_form is called only where it matters).
template <class HasForm> static PetscErrorCode DecideKind(Mat A, int bs, PetscInt option, HasForm has_form, ac::EntryKind *kind)
{
  PetscFunctionBegin;
  *kind                      = ac::EntryKind::block;
  const ac::EntryKind target = bs == 2 ? ac::EntryKind::complex : ac::EntryKind::quaternion;
  if (option == MAT_AIJCOMPOUND_ENTRY_BLOCK || (bs != 2 && bs != 4)) {
    PetscCheck(option == MAT_AIJCOMPOUND_ENTRY_AUTO || option == MAT_AIJCOMPOUND_ENTRY_BLOCK, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-mat_aijcompound_entry %s needs block size %d, the matrix has %d", MatAIJCompoundEntries[option],
               option == MAT_AIJCOMPOUND_ENTRY_COMPLEX ? 2 : 4, bs);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (option == MAT_AIJCOMPOUND_ENTRY_AUTO || ((option == MAT_AIJCOMPOUND_ENTRY_COMPLEX) == (bs == 2))) {
    const bool form = has_form(target);
    PetscCheck(form || option == MAT_AIJCOMPOUND_ENTRY_AUTO, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-mat_aijcompound_entry %s: not every stored block has the %s form; use -mat_aijcompound_entry auto or block", MatAIJCompoundEntries[option],
               ac::kind_name(target));
    if (form) *kind = target;
  } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-mat_aijcompound_entry %s needs block size %d, the matrix has %d", MatAIJCompoundEntries[option], option == MAT_AIJCOMPOUND_ENTRY_COMPLEX ? 2 : 4, bs);
  PetscCall(PetscInfo(A, "aijcompound COO: entry kind %s\n", ac::kind_name(*kind)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The host compound CSR as real blocks (same pattern), e.g. before adding values that break a form.
static void ToBlocks(ac::CompoundCsr &c)
{
  if (c.kind == ac::EntryKind::block) return;
  const pgk::Csr s = ac::expand(c);
  c                = ac::from_scalar(pgk::view_of(s), ac::EntryKind::block, c.bs);
}

static PetscErrorCode MatSetPreallocationCOO_SeqAIJCompound(Mat A, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[])
{
  Mat_SeqAIJCompound   *d = Data(A);
  PetscInt              bs;
  PetscMemType          mt = PETSC_MEMTYPE_HOST;
  std::vector<PetscInt> hi, hj;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCheck(bs >= 2 && bs <= 8, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mat aijcompound needs a block size 2..8 (MatSetBlockSize() before MatSetPreallocationCOO()), the matrix has block size %" PetscInt_FMT, bs);
  if (ncoo) PetscCall(PetscGetMemType(coo_i, &mt));
  if (!PetscMemTypeHost(mt)) { // device coordinates: to the host once (logged)
    hi.resize(ncoo), hj.resize(ncoo);
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
      pgk::cuda::copy_to_host(hi.data(), coo_i, ncoo * sizeof(PetscInt), nullptr);
      pgk::cuda::copy_to_host(hj.data(), coo_j, ncoo * sizeof(PetscInt), nullptr);
    });
    coo_i = hi.data(), coo_j = hj.data();
  }
  auto coo  = std::make_shared<MatAIJCompoundCoo>();
  coo->ncoo = ncoo;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, coo->map = ac::coo_map((pgk::Index)ncoo, coo_i, coo_j, A->rmap->n, A->cmap->n, (int)bs));
  PetscCall(MatDestroy(&d->inner));
  d->c   = coo->map.pattern;
  d->coo = coo;
  d->t.reset();
  PetscCall(MatAIJCompoundDeviceReset(A));
  PetscCall(PetscInfo(A, "aijcompound COO: %" PetscCount_FMT " entries into %" PetscInt_FMT " blocks of %" PetscInt_FMT "x%" PetscInt_FMT "\n", ncoo, (PetscInt)d->c.nnzb(), bs, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetValuesCOOHost(Mat A, const PetscScalar v[], InsertMode imode)
{
  Mat_SeqAIJCompound *d   = Data(A);
  MatAIJCompoundCoo  *coo = d->coo.get();
  ac::EntryKind       kind;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundSyncHost(A));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    ToBlocks(d->c);
    ac::coo_assemble(coo->map.jmap.data(), coo->map.perm.data(), v, (pgk::Index)d->c.values.size(), imode == ADD_VALUES, d->c.values.data());
  });
  pgk::Csr s;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, s = ac::expand(d->c));
  const pgk::CsrView sv = pgk::view_of(s);
  PetscCall(DecideKind(
      A, d->c.bs, d->entry_option, [&](ac::EntryKind k) { return k == ac::EntryKind::complex ? ac::detect_complex(sv) : ac::detect_quaternion(sv); }, &kind));
  if (kind != ac::EntryKind::block) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, d->c = ac::from_scalar(sv, kind, d->c.bs));
  PetscCall(MatAIJCompoundDeviceReset(A)); // the kind may have changed; a host matrix has none anyway
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PGK_HAVE_CUDA)
// The maps and the scratch pattern on the device (first device assembly only).
static PetscErrorCode UploadCoo(MatAIJCompoundCoo *coo, void *stream)
{
  PetscFunctionBegin;
  if (coo->uploaded) PetscFunctionReturn(PETSC_SUCCESS);
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    coo->jmap.upload(coo->map.jmap.data(), coo->map.jmap.size(), stream);
    coo->perm.upload(coo->map.perm.data(), coo->map.perm.size(), stream);
    coo->scratch.upload_pattern(coo->map.pattern, stream);
  });
  coo->uploaded = true;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The host compound CSR gets `kind` (same pattern, values stale) and a device copy of that kind.
static PetscErrorCode SetDeviceKind(Mat A, ac::EntryKind kind, void *stream)
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (d->dev && d->c.kind == kind) PetscFunctionReturn(PETSC_SUCCESS);
  d->c      = d->coo->map.pattern;
  d->c.kind = kind;
  d->c.values.assign((size_t)d->c.nnzb() * d->c.esize(), 0.0);
  d->t.reset();
  PetscCall(MatAIJCompoundDeviceReset(A));
  PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetValuesCOODevice(Mat A, const PetscScalar v[], PetscMemType mt, InsertMode imode)
{
  Mat_SeqAIJCompound *d   = Data(A);
  MatAIJCompoundCoo  *coo = d->coo.get();
  void               *stream;
  ac::EntryKind       kind;
  const pgk::Index    nvalues = coo->map.pattern.nnzb() * coo->map.pattern.esize();

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(UploadCoo(coo, stream));
  if (PetscMemTypeHost(mt)) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, coo->v.upload(v, (size_t)coo->ncoo, stream));
    v = coo->v.data();
  }
  if (imode == ADD_VALUES) {
    PetscCall(MatAIJCompoundDeviceEnsure(A, stream)); // the current values on the device
    bool in_place = d->c.kind == ac::EntryKind::block, form = false;
    if (!in_place) { // complex/quaternion: sums of the same form are compressed and added
      PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
        kc::coo_assemble(coo->jmap.data(), coo->perm.data(), v, nvalues, false, coo->scratch.values.data(), stream);
        form = kc::has_form(coo->scratch, d->c.kind, stream);
        if (form) {
          kc::compress(coo->scratch, d->c.kind, coo->compressed, stream);
          kc::axpy(d->dev->master, 1.0, coo->compressed, stream);
        }
      });
      if (!form) { // the form breaks: real blocks (through the host), then the sums added in place
        PetscCall(PetscInfo(A, "aijcompound COO: added values break the %s form; storing real blocks\n", ac::kind_name(d->c.kind)));
        PetscCall(MatAIJCompoundSyncHost(A));
        PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ToBlocks(d->c));
        PetscCall(MatAIJCompoundDeviceReset(A));
        PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
        in_place = true;
      }
    }
    if (in_place) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::coo_assemble(coo->jmap.data(), coo->perm.data(), v, nvalues, true, d->dev->master.values.data(), stream));
  } else {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::coo_assemble(coo->jmap.data(), coo->perm.data(), v, nvalues, false, coo->scratch.values.data(), stream));
    PetscCall(DecideKind(
        A, (int)coo->map.pattern.bs, d->entry_option, [&](ac::EntryKind k) { return kc::has_form(coo->scratch, k, stream); }, &kind));
    PetscCall(SetDeviceKind(A, kind, stream));
    if (kind == ac::EntryKind::block) std::swap(d->dev->master.values, coo->scratch.values); // same sizes
    else PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::compress(coo->scratch, kind, d->dev->master, stream));
  }
  MatAIJCompoundDeviceValuesChanged(A, PETSC_TRUE);
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

static PetscErrorCode MatSetValuesCOO_SeqAIJCompound(Mat A, const PetscScalar v[], InsertMode imode)
{
  Mat_SeqAIJCompound *d  = Data(A);
  PetscMemType        mt = PETSC_MEMTYPE_HOST;

  PetscFunctionBegin;
  PetscCheck(d->coo, PETSC_COMM_SELF, PETSC_ERR_ORDER, "MatSetValuesCOO on seqcompoundaij needs MatSetPreallocationCOO first");
  PetscCheck(imode == INSERT_VALUES || imode == ADD_VALUES, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MatSetValuesCOO: INSERT_VALUES or ADD_VALUES");
  PetscCall(MatAIJCompoundGetEntryOption(A, &d->entry_option));
  if (d->coo->ncoo) PetscCall(PetscGetMemType(v, &mt));
  PetscCall(MatDestroy(&d->inner));
#if defined(PGK_HAVE_CUDA)
  if (MatAIJCompoundUseDevice(A)) {
    PetscCall(SetValuesCOODevice(A, v, mt, imode));
    PetscCall(MatAIJCompoundDeviceValuesDone(A));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCheck(PetscMemTypeHost(mt), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MatSetValuesCOO on seqcompoundaij: device values but the matrix is on the host (bound to the CPU, or no device)");
  PetscCall(SetValuesCOOHost(A, v, imode));
  PetscCall(MatAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundComposeCOO(Mat A)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetPreallocationCOO_C", MatSetPreallocationCOO_SeqAIJCompound));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetValuesCOO_C", MatSetValuesCOO_SeqAIJCompound));
  PetscFunctionReturn(PETSC_SUCCESS);
}
