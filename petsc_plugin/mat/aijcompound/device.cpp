// Mat aijcompound, the CUDA path (issue 10): the compound CSR on the device (the values every
// product layout is re-packed from), the tuned packed layout of the products (tune.cpp chooses
// it), the explicit transpose built lazily on the device, and the operations that change values.
//
// Where the values are current is A->offloadmask. The host compound CSR always holds the pattern;
// its values are stale while the mask is GPU (device operations, device COO assembly), and
// MatAIJCompoundSyncHost brings them back (one logged download) before any host use. Host value
// changes (MatSetValues assembly, host operations) set the mask to CPU; the next device use
// uploads the values once and re-packs on the device, keeping the tuned layout (values-only
// re-assembly). A new pattern or entry kind drops the device copy (MatAIJCompoundDeviceReset).
// Every copy goes through kernels/common/transfer.hpp, logged to PETSc's CpuToGpu/GpuToCpu.
#include "petsc_plugin/mat/aijcompound/device.hpp"

#include "petsc_plugin/sys/csr_access.hpp"

#define Data MatAIJCompoundData

PetscBool MatAIJCompoundUseDevice(Mat A)
{
  return PgkMatDeviceUsable(A);
}

PetscErrorCode MatAIJCompoundDeviceReset(Mat A)
{
  PetscFunctionBegin;
  Data(A)->dev.reset();
  A->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundSyncHost(Mat A)
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (d->dev && A->offloadmask == PETSC_OFFLOAD_GPU) PetscCall(MatAIJCompoundDeviceDownload(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PGK_HAVE_CUDA)

PetscErrorCode MatAIJCompoundDeviceDownload(Mat A)
{
  Mat_SeqAIJCompound *d = Data(A);
  void               *stream;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(PetscInfo(A, "aijcompound: device values newer, copying them to the host\n"));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, d->dev->master.download_values(d->c, stream));
  A->offloadmask = PETSC_OFFLOAD_BOTH;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The device compound CSR current: created (pattern + values, 4 uploads) at the first use, the
// values uploaded (1 copy) when the host's are newer; every derived copy then re-packs.
PetscErrorCode MatAIJCompoundDeviceEnsure(Mat A, void *stream)
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (!d->dev) {
    d->dev = std::make_shared<MatAIJCompoundDevice>();
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, d->dev->master.upload(d->c, stream));
    A->offloadmask = PETSC_OFFLOAD_BOTH;
  } else if (A->offloadmask == PETSC_OFFLOAD_CPU || A->offloadmask == PETSC_OFFLOAD_UNALLOCATED) {
    const size_t bytes = d->c.values.size() * sizeof(double);
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, pgk::cuda::copy_to_device(d->dev->master.values.data(), d->c.values.data(), bytes, stream));
    A->offloadmask = PETSC_OFFLOAD_BOTH;
    MatAIJCompoundDeviceValuesChanged(A, PETSC_FALSE);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundDeviceValuesChanged(Mat A, PetscBool on_device)
{
  MatAIJCompoundDevice *dev = Data(A)->dev.get();

  dev->packed_stale = true;
  dev->at_stale     = true;
  if (on_device) A->offloadmask = PETSC_OFFLOAD_GPU;
}

// The transposed product's matrix: pattern and source map from the host (ac::transpose on the
// host pattern, built once), values gathered on the device whenever the values changed.
static PetscErrorCode MatAIJCompoundDeviceTranspose(Mat A, void *stream)
{
  Mat_SeqAIJCompound   *d   = Data(A);
  MatAIJCompoundDevice *dev = d->dev.get();

  PetscFunctionBegin;
  if (!dev->at_built) {
    PetscCall(PetscInfo(A, "building the explicit compound transpose on the device (%" PetscInt_FMT " blocks)\n", (PetscInt)d->c.nnzb()));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
      const ac::Transpose t = ac::transpose(d->c);
      std::vector<int>    source(t.source.begin(), t.source.end());
      dev->at.upload_pattern(t.at, stream);
      dev->at_source.allocate(source.size());
      pgk::cuda::copy_to_device(dev->at_source.data(), source.data(), source.size() * sizeof(int), stream);
    });
    dev->at_built = true;
    dev->at_stale = true;
  }
  if (dev->at_stale) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::transpose_values(dev->master, dev->at_source.data(), dev->at, stream));
  dev->at_stale = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The product on PETSc's stream, or (fork) on A's side stream after everything queued on
// PETSc's stream so far: the uploads, tuning and packing it needs, and the vectors' own copies,
// all happen on PETSc's stream before the fork.
static PetscErrorCode DeviceProduct(Mat A, Vec x, Vec z, Vec y, PetscBool transpose, PetscBool fork, PetscBool *done)
{
  Mat_SeqAIJCompound *d  = Data(A);
  PetscScalar        *xa = nullptr, *za = nullptr, *ya = nullptr;
  const PgkAccess     ya_access = z == y ? PGK_ACCESS_READ_WRITE : PGK_ACCESS_WRITE;
  void               *stream;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!MatAIJCompoundUseDevice(A)) PetscFunctionReturn(PETSC_SUCCESS);
  // Device vectors only: any host vector among x, y, z (e.g. a host-vector product of an MPI
  // matrix, whose ghost vector is a device one) sends the product to the host reference.
  for (Vec v : {x, z, y})
    if (v && !PgkVecIsDevice(v)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
  if (transpose) PetscCall(MatAIJCompoundDeviceTranspose(A, stream));
  else PetscCall(MatAIJCompoundDevicePrepareProduct(A, stream));
  PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  if (z && z != y) PetscCall(PgkVecGetArray(z, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &za));
  PetscCall(PgkVecGetArray(y, ya_access, PETSC_MEMTYPE_DEVICE, &ya));
  if (z == y) za = ya;
  MatAIJCompoundDevice *dev = d->dev.get();
  if (fork) { // not in PETSc's GPU time: that is measured on PETSc's stream
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, dev->packed.mult(dev->shape, xa, za, ya, dev->side.fork(stream)));
  } else {
    PetscCall(PetscLogGpuTimeBegin());
    if (transpose) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::mult(dev->at, xa, za, ya, stream));
    else PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, dev->packed.mult(dev->shape, xa, za, ya, stream));
    PetscCall(PetscLogGpuTimeEnd());
  }
  PetscCall(PetscLogGpuFlops(2.0 * d->c.nnzb() * d->c.bs * d->c.bs));
  PetscCall(PgkVecRestoreArray(y, ya_access, PETSC_MEMTYPE_DEVICE, &ya));
  if (z && z != y) PetscCall(PgkVecRestoreArray(z, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &za));
  PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundDeviceMult(Mat A, Vec x, Vec z, Vec y, PetscBool transpose, PetscBool *done)
{
  PetscFunctionBegin;
  PetscCall(DeviceProduct(A, x, z, y, transpose, PETSC_FALSE, done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundDeviceMultForked(Mat A, Vec x, Vec z, Vec y, PetscBool *done)
{
  PetscFunctionBegin;
  PetscCall(DeviceProduct(A, x, z, y, PETSC_FALSE, PETSC_TRUE, done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundDeviceJoin(Mat A)
{
  void *stream;

  PetscFunctionBegin;
  if (!Data(A)->dev) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PgkGetDeviceStream(&stream));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, Data(A)->dev->side.join(stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The device array of v, or nullptr (and nothing held) for a host vector.
static PetscErrorCode GetDeviceArray(Vec v, PgkAccess access, PetscScalar **a)
{
  PetscMemType m;

  PetscFunctionBegin;
  *a = nullptr;
  if (!v) PetscFunctionReturn(PETSC_SUCCESS);
  if (access == PGK_ACCESS_READ) PetscCall(VecGetArrayReadAndMemType(v, (const PetscScalar **)a, &m));
  else PetscCall(VecGetArrayWriteAndMemType(v, a, &m));
  if (PetscMemTypeHost(m)) {
    if (access == PGK_ACCESS_READ) PetscCall(VecRestoreArrayReadAndMemType(v, (const PetscScalar **)a));
    else PetscCall(VecRestoreArrayWriteAndMemType(v, a));
    *a = nullptr;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RestoreDeviceArray(Vec v, PgkAccess access, PetscScalar **a)
{
  PetscFunctionBegin;
  if (!v || !*a) PetscFunctionReturn(PETSC_SUCCESS);
  if (access == PGK_ACCESS_READ) PetscCall(VecRestoreArrayReadAndMemType(v, (const PetscScalar **)a));
  else PetscCall(VecRestoreArrayWriteAndMemType(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundDeviceGetDiagonal(Mat A, Vec v, PetscBool *done)
{
  PetscScalar *va;
  void        *stream;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!MatAIJCompoundUseDevice(A)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(GetDeviceArray(v, PGK_ACCESS_WRITE, &va));
  if (!va) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::diagonal(Data(A)->dev->master, va, stream));
  PetscCall(RestoreDeviceArray(v, PGK_ACCESS_WRITE, &va));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The inverse blocks are computed on the device and copied to d->ibdiag (1 download + the flag):
// MatInvertBlockDiagonal hands out host memory (PCPBJACOBI uploads it for its device apply).
PetscErrorCode MatAIJCompoundDeviceInvertBlockDiagonal(Mat A, PetscBool *done)
{
  Mat_SeqAIJCompound *d = Data(A);
  void               *stream;
  pgk::Index          bad = -1;
  const size_t        n   = (size_t)d->c.nbrows * d->c.bs * d->c.bs;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!MatAIJCompoundUseDevice(A) || !d->dev) PetscFunctionReturn(PETSC_SUCCESS); // no device copy yet: host
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
  d->ibdiag.assign(n, 0.0);
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    pgk::cuda::DeviceBuffer<double> inv(n > 0 ? n : 1);
    bad = kc::invert_block_diagonal(d->dev->master, inv.data(), stream);
    pgk::cuda::copy_to_host(d->ibdiag.data(), inv.data(), n * sizeof(double), stream);
  });
  if (bad >= 0) {
    PetscCheck(!A->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "MatInvertBlockDiagonal on seqcompoundaij: zero pivot (or missing diagonal block) in block row %" PetscInt_FMT, (PetscInt)bad);
    A->factorerrortype = MAT_FACTOR_NUMERIC_ZEROPIVOT;
    PetscCall(PetscInfo(A, "zero pivot in block row %" PetscInt_FMT "\n", (PetscInt)bad));
  }
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The value-changing operations run on the device when a device copy exists (the matrix has been
// used there); a matrix only ever used on the host keeps changing on the host.
static PetscBool OnDevice(Mat A)
{
  return (PetscBool)(MatAIJCompoundUseDevice(A) && Data(A)->dev);
}

PetscErrorCode MatAIJCompoundDeviceScale(Mat A, PetscScalar a, PetscBool *done)
{
  void *stream;

  PetscFunctionBegin;
  *done = OnDevice(A);
  if (!*done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::scale(Data(A)->dev->master, a, stream));
  MatAIJCompoundDeviceValuesChanged(A, PETSC_TRUE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundDeviceShift(Mat A, PetscScalar a, PetscBool *done)
{
  Mat_SeqAIJCompound *d = Data(A);
  void               *stream;

  PetscFunctionBegin;
  *done = OnDevice(A);
  if (!*done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
  // A missing diagonal block is refused before anything changes (the device copy knows the first one
  // from its upload): std::invalid_argument, a PETSC_ERR_ARG_WRONG naming the block row.
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::shift(d->dev->master, a, stream));
  MatAIJCompoundDeviceValuesChanged(A, PETSC_TRUE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Complex/quaternion entries whose scalings vary inside a block: *done stays false and the host
// path converts them to real blocks (a kind change: the device copy is rebuilt afterwards).
PetscErrorCode MatAIJCompoundDeviceDiagonalScale(Mat A, Vec l, Vec r, PetscBool *done)
{
  PetscScalar *la = nullptr, *ra = nullptr;
  void        *stream;
  bool         ok = false;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!OnDevice(A)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(GetDeviceArray(l, PGK_ACCESS_READ, &la));
  PetscCall(GetDeviceArray(r, PGK_ACCESS_READ, &ra));
  if ((!l || la) && (!r || ra)) {
    PetscCall(PgkGetDeviceStream(&stream));
    PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ok = kc::diagonal_scale(Data(A)->dev->master, la, ra, stream));
    if (ok) MatAIJCompoundDeviceValuesChanged(A, PETSC_TRUE);
  }
  PetscCall(RestoreDeviceArray(r, PGK_ACCESS_READ, &ra));
  PetscCall(RestoreDeviceArray(l, PGK_ACCESS_READ, &la));
  *done = (PetscBool)ok;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Y += a X with both on the device (same kind, bs and pattern; the caller checked the type).
PetscErrorCode MatAIJCompoundDeviceAXPY(Mat Y, PetscScalar a, Mat X, PetscBool *done)
{
  const ac::CompoundCsr &cy = Data(Y)->c, &cx = Data(X)->c;
  void                  *stream;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!OnDevice(Y) || !MatAIJCompoundUseDevice(X)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(cy.kind == cx.kind && cy.bs == cx.bs && cy.rowptr == cx.rowptr && cy.colidx == cx.colidx, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "MatAXPY on seqcompoundaij needs the same entry kind, block size and pattern (SAME_NONZERO_PATTERN); convert both to MATSEQAIJ");
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(MatAIJCompoundDeviceEnsure(Y, stream));
  PetscCall(MatAIJCompoundDeviceEnsure(X, stream));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, kc::axpy(Data(Y)->dev->master, a, Data(X)->dev->master, stream));
  MatAIJCompoundDeviceValuesChanged(Y, PETSC_TRUE);
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#else // no CUDA kernels: every device entry point declines (MatAIJCompoundUseDevice is false)

PetscErrorCode MatAIJCompoundDeviceEnsure(Mat, void *)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "aijcompound: this petscgpukit was built without its CUDA kernels");
}
void MatAIJCompoundDeviceValuesChanged(Mat, PetscBool) {}

PetscErrorCode MatAIJCompoundDeviceDownload(Mat)
{
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceMult(Mat, Vec, Vec, Vec, PetscBool, PetscBool *done)
{
  *done = PETSC_FALSE;
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceMultForked(Mat, Vec, Vec, Vec, PetscBool *done)
{
  *done = PETSC_FALSE;
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceJoin(Mat)
{
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceGetDiagonal(Mat, Vec, PetscBool *done)
{
  *done = PETSC_FALSE;
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceInvertBlockDiagonal(Mat, PetscBool *done)
{
  *done = PETSC_FALSE;
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceScale(Mat, PetscScalar, PetscBool *done)
{
  *done = PETSC_FALSE;
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceShift(Mat, PetscScalar, PetscBool *done)
{
  *done = PETSC_FALSE;
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceDiagonalScale(Mat, Vec, Vec, PetscBool *done)
{
  *done = PETSC_FALSE;
  return PETSC_SUCCESS;
}
PetscErrorCode MatAIJCompoundDeviceAXPY(Mat, PetscScalar, Mat, PetscBool *done)
{
  *done = PETSC_FALSE;
  return PETSC_SUCCESS;
}

#endif
