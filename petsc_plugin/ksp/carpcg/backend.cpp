// Where KSP carpcg sweeps: the one place that chooses a backend for an operator, so that the KSP
// type never depends on it. The device backend (device.cpp, kernels/carpcg/) takes a device
// matrix (MATSEQAIJCUSPARSE or MATMPIAIJCUSPARSE, not bound to the CPU, in a build with the CUDA
// kernels and a usable device) with the multicolor, cimmino or carp scheme, on more than one rank
// carp and cimmino (device_ranks.cpp: ghosts exchanged between device arrays by PETSc's scatter);
// the host backend (host.cpp) everything else:
//   * multicolor on more than one rank: a colour-by-colour exchange of ghost updates (up to two
//     per colour and direction), which the host backend does on PETSc's host copy;
//   * sequential: one row after another is no device scheme (multicolor is the same method in a
//     coloured row order, exact in parallel);
//   * -ksp_carpcg_backend host.
// An aijcompound operator is swept over its scalar expansion (PgkMatScalarOperator): MATAIJCUSPARSE,
// and so the choice above, where it computes on the device on every rank, else MATAIJ on the host.
// -ksp_carpcg_backend device makes any of these an error instead; PetscInfo and -ksp_view say
// where a device matrix is swept and why.
#include "petsc_plugin/ksp/carpcg/backend.hpp"

#include "petsc_plugin/sys/csr_access.hpp"

static const char *const kCompoundNote = "an aijcompound operator is swept on the host, over its scalar expansion";

// Why the device backend cannot take A with these settings (NULL: it can).
static PetscErrorCode CarpcgDeviceRefusal(Mat A, const CarpcgSettings &s, const char **why)
{
  PetscBool   cusparse, compound, usable;
  PetscMPIInt size;

  PetscFunctionBegin;
  *why = NULL;
  PetscCall(PgkMatIsCusparse(A, &cusparse));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &compound, MATSEQAIJCOMPOUND, MATMPIAIJCOMPOUND, ""));
  PetscCall(PgkMatUseDevice(A, &usable));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (compound) *why = kCompoundNote;
  else if (!cusparse) *why = "not a device matrix (use -mat_type aijcusparse -vec_type cuda)";
  else if (!usable) *why = "no usable device in this build or run, or the matrix is bound to the CPU";
  else if (size > 1 && s.scheme == pgk::carpcg::Scheme::Multicolor) *why = "multicolor on more than one rank (its colour-by-colour ghost exchanges run on the host backend; carp and cimmino sweep on the device)";
  else if (s.scheme == pgk::carpcg::Scheme::Sequential) *why = "the sequential scheme sweeps one row after another (multicolor is its exact parallel form)";
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt CarpcgResolveBlocks(PetscInt requested, PetscBool device, PetscInt local_rows)
{
  if (requested > 0) return requested;
  if (!device) return 1;
  return PetscMax(1, (local_rows + CARPCG_DEVICE_ROWS_PER_BLOCK - 1) / CARPCG_DEVICE_ROWS_PER_BLOCK);
}

PetscErrorCode CarpcgCreateBackend(Mat A, const CarpcgSettings &s, std::unique_ptr<CarpcgBackend> *backend)
{
  const char    *why;
  PetscBool      cusparse, compound;
  PetscInt       local_rows;
  Mat            S = NULL; // a compound operator's scalar expansion
  CarpcgSettings r = s;    // with carp's blocks resolved where they are auto

  PetscFunctionBegin;
  PetscCall(PgkCheckSquareAssembled(A, "KSP carpcg"));
  PetscCall(MatGetLocalSize(A, &local_rows, NULL));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &compound, MATSEQAIJCOMPOUND, MATMPIAIJCOMPOUND, ""));
  if (compound && s.backend != CARPCG_BACKEND_HOST) {
    // The sweeps need scalar rows: the expansion PC trilf and PC reorder take too, MATAIJCUSPARSE where
    // the compound operator computes on the device on every rank (the ranks agree, since MatConvert
    // is collective), else MATAIJ. A device expansion goes to the usual choice of backend; a host one
    // to the host backend below. Either is freed once the backend has copied its rows.
    PetscCall(PgkMatScalarOperator(A, NULL, &S));
    PetscCall(PgkMatIsCusparse(S, &cusparse));
    if (cusparse) {
      PetscCall(CarpcgCreateBackend(S, s, backend));
      PetscCall(MatDestroy(&S));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(CarpcgDeviceRefusal(A, s, &why));
  if (s.backend == CARPCG_BACKEND_HOST) why = "-ksp_carpcg_backend host";
  if (s.backend == CARPCG_BACKEND_DEVICE && why) PetscCall(MatDestroy(&S)); // before the error below
  PetscCheck(!(s.backend == CARPCG_BACKEND_DEVICE && why), PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "KSP carpcg: -ksp_carpcg_backend device cannot sweep this operator (%s): %s", ((PetscObject)A)->type_name, why);
  r.blocks_auto = s.blocks == 0 ? PETSC_TRUE : PETSC_FALSE;
  r.blocks      = CarpcgResolveBlocks(s.blocks, why ? PETSC_FALSE : PETSC_TRUE, local_rows);
  if (!why) {
    PetscCall(PetscInfo(A, "KSP carpcg: the device backend sweeps this %s\n", ((PetscObject)A)->type_name));
    PetscCall(CarpcgCreateDeviceBackend(A, r, backend));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (compound) {
    // Issue 11: "works on ... aijcompound". The sweeps need scalar rows: the host backend takes the
    // scalar expansion (MatConvert to MATAIJ builds it from the compound CSR, device-newer values
    // synced first, logged) and copies its rows at set-up, so the expansion is freed at once. Same
    // sizes and row partition, so the KSP's vectors fit. Explicit zeros in a block change no
    // projection, but carp's multiplicities count them (more than one block: more iterations).
    PetscCall(PetscInfo(A, "KSP carpcg: the host backend sweeps the scalar expansion of this %s\n", ((PetscObject)A)->type_name));
    if (!S) PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &S)); // -ksp_carpcg_backend host
    PetscCall(CarpcgCreateHostBackend(S, r, kCompoundNote, backend));
    PetscCall(MatDestroy(&S));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PgkMatIsCusparse(A, &cusparse));
  PetscCall(PetscInfo(A, "KSP carpcg: the host backend sweeps this %s%s%s\n", ((PetscObject)A)->type_name, cusparse ? ", not the device: " : "", cusparse ? why : ""));
  PetscCall(CarpcgCreateHostBackend(A, r, cusparse ? why : NULL, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}
