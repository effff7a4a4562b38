// The host backend of KSP carpcg: every scheme on MATAIJ / MATAIJCUSPARSE (PETSc's host copy),
// one rank or many, on top of the reference sweeps of src/carpcg/. A device matrix comes here
// where the device backend (device.cpp) cannot take it: multicolor on more than one rank, the
// sequential scheme, or -ksp_carpcg_backend host (backend.cpp).
//
// Each rank holds its rows over its owned unknowns followed by its ghosts (the columns of the
// MPIAIJ off-diagonal block, in garray order), merged per row in global column order, so a row's
// dot product is computed exactly as on one rank. Ghost values come from a ghosted vector built
// on garray, i.e. the communication pattern of PETSc's MatMult scatter (Mvctx/lvec): forward
// INSERT refreshes the ghost copies from their owners, reverse ADD sums the ghost copies into
// the owners.
//
//   carp       every rank is one CARP block, or `blocks` blocks of contiguous local rows; DCSWP =
//              forward sweep per block on its compact copy -> sum of the copies -> reverse ADD ->
//              divide by the global multiplicity |L_j| -> forward INSERT -> backward sweep ->
//              the same averaging. CG dots weighted by |L_j| (one rank, one block: CGMN).
//   multicolor a global greedy distance-2 colouring in natural row order (computed on rank 0 from
//              the gathered pattern at set-up), so the colouring, and the iterates, do not depend
//              on the number of ranks. Colour by colour every rank sweeps its rows of that colour;
//              the updates of ghost copies are logged, summed into the owners by a reverse ADD
//              (exactly one rank updates an unknown per colour) and the ghosts refreshed by a
//              forward INSERT: 2 exchanges per colour and direction, skipped for colours that
//              touch no shared unknown anywhere. Exactly sequential CGMN in the coloured order.
//   sequential one rank only (CGMN in natural order).
//   cimmino    every row reads the frozen x; contributions summed locally and by reverse ADD.
#include "petsc_plugin/ksp/carpcg/host.hpp"

#include <algorithm>
#include <cmath>

#include "petsc_plugin/ksp/carpcg/ghosts.hpp"
#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/device.hpp"
#include "src/carpcg/cg.hpp"
#include "src/carpcg/sweep.hpp"

namespace pgk_carpcg {

HostBackend::~HostBackend()
{
  PetscFunctionBeginUser;
  PetscCallVoid(VecDestroy(&tmpl_));
  PetscCallVoid(VecDestroy(&mid_));
  PetscCallVoid(VecDestroy(&z_));
  PetscCallVoid(VecDestroy(&acc_));
  PetscCallVoid(VecDestroy(&delta_));
  PetscFunctionReturnVoid();
}

// ext_: every local row over [owned | ghosts] (ghosts.cpp, shared with the device backend).
PetscErrorCode HostBackend::build_extended(Mat A)
{
  PetscFunctionBegin;
  PetscCall(CarpcgExtendedRows(A, &ext_, &ghosts_));
  PetscCall(MatGetOwnershipRange(A, &rstart_, NULL));
  n_      = ext_.nrows;
  nghost_ = (PetscInt)ghosts_.size();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// NaN/Inf entries or an overflowing row norm: an error on every rank (a rank that found none
// must not go on into the collective set-up while another one stops).
PetscErrorCode HostBackend::check_values()
{
  PetscInt local[2] = {0, PETSC_INT_MAX}, global[2];

  PetscFunctionBegin;
  norms2_.assign((size_t)n_, 0.0);
  for (PetscInt i = 0; i < n_; ++i) {
    double s   = 0;
    bool   bad = false;
    for (PetscInt k = ext_.rowptr[i]; k < ext_.rowptr[i + 1]; ++k) {
      bad = bad || !std::isfinite(ext_.values[k]);
      s += ext_.values[k] * ext_.values[k];
    }
    if (bad || !std::isfinite(s)) {
      local[0]++;
      local[1] = PetscMin(local[1], rstart_ + i);
    }
    norms2_[i] = s;
  }
  local[1] = -local[1]; // one MAX reduction for the count and the first row
  PetscCallMPI(MPIU_Allreduce(local, global, 2, MPIU_INT, MPI_MAX, comm_));
  PetscInt bad_rows;
  PetscCallMPI(MPIU_Allreduce(&local[0], &bad_rows, 1, MPIU_INT, MPI_SUM, comm_));
  PetscCheck(bad_rows == 0, comm_, PETSC_ERR_FP, "KSP carpcg: the matrix has NaN or Inf entries (or a row whose squared norm overflows) in %" PetscInt_FMT " rows, the first global row %" PetscInt_FMT, bad_rows, -global[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostBackend::setup(Mat A)
{
  PetscFunctionBegin;
  comm_ = PetscObjectComm((PetscObject)A);
  PetscCallMPI(MPI_Comm_size(comm_, &size_));
  PetscCall(PgkCheckSquareAssembled(A, "KSP carpcg"));
  PetscCheck(!(set_.scheme == Scheme::Sequential && size_ > 1), comm_, PETSC_ERR_SUP, "KSP carpcg: -ksp_carpcg_scheme sequential needs one rank; use multicolor (the same method in a coloured row order, exact in parallel) or carp");
  PetscCall(PetscStrncpy(mat_type_, ((PetscObject)A)->type_name, sizeof mat_type_));
  PetscCall(PgkMatIsCusparse(A, &device_matrix_));
  PetscCall(MatGetSize(A, &N_, NULL));
  PetscCall(build_extended(A));
  PetscCall(check_values());
  PetscInt nnz = ext_.nnz();
  PetscCallMPI(MPIU_Allreduce(&nnz, &nnz_all_, 1, MPIU_INT, MPI_SUM, comm_));
  PetscCall(VecCreateMPI(comm_, n_, N_, &tmpl_));
  PetscCall(VecDuplicate(tmpl_, &mid_));
  PetscCall(VecCreateGhost(comm_, n_, N_, nghost_, ghosts_.data(), &z_));
  PetscCall(VecDuplicate(z_, &acc_));
  if (set_.scheme == Scheme::Carp) PetscCall(setup_carp());
  if (set_.scheme == Scheme::Multicolor) PetscCall(setup_multicolor());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostBackend::setup_carp()
{
  LocalForm m;
  PetscInt  local[2], global[2];
  const int threads = (int)PgkNodeThreadShare(); // the plan is the same for any count

  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, plan_ = pgk::carpcg::BlockPlan(ext(), norms2_, pgk::carpcg::contiguous_blocks(n_, set_.blocks, threads), PetscMax(1, PetscMin(set_.blocks, PetscMax(n_, 1))), threads));
  // |L_j|: this rank's blocks touching each owned or ghost unknown, summed into the owners.
  PetscCall(m.get(acc_));
  for (PetscInt j = 0; j < n_ + nghost_; ++j) m.data()[j] = (PetscScalar)plan_.multiplicity()[j];
  PetscCall(m.restore());
  PetscCall(VecGhostUpdateBegin(acc_, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecGhostUpdateEnd(acc_, ADD_VALUES, SCATTER_REVERSE));
  const PetscScalar *a;
  PetscCall(VecGetArrayRead(acc_, &a));
  mult_.assign(a, a + n_);
  PetscCall(VecRestoreArrayRead(acc_, &a));
  weights_.clear();
  if (set_.weighted_dot)
    for (const double w : mult_) weights_.push_back(PetscMax(w, 1.0));
  local[0] = 0, local[1] = 0;
  for (const double w : mult_) local[0] = PetscMax(local[0], (PetscInt)w), local[1] += w > 1 ? 1 : 0;
  PetscCallMPI(MPIU_Allreduce(&local[0], &global[0], 1, MPIU_INT, MPI_MAX, comm_));
  PetscCallMPI(MPIU_Allreduce(&local[1], &global[1], 1, MPIU_INT, MPI_SUM, comm_));
  max_mult_     = global[0];
  shared_count_ = global[1];
  PetscInt nb   = plan_.nblocks();
  PetscCallMPI(MPIU_Allreduce(&nb, &blocks_all_, 1, MPIU_INT, MPI_SUM, comm_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// z = [x owned | ghosts of x].
PetscErrorCode HostBackend::load(Vec x)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(x, z_));
  if (size_ > 1) {
    PetscCall(VecGhostUpdateBegin(z_, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGhostUpdateEnd(z_, INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One half of DCSWP for carp: sweeps per block, the sum of the copies over all blocks of all
// ranks, divided by |L_j| (an unknown no block touches keeps x_j).
PetscErrorCode HostBackend::carp_half(Vec x, const PetscScalar *b, bool backward, Vec y)
{
  LocalForm          z, acc;
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(load(x));
  PetscCall(z.get(z_));
  PetscCall(acc.get(acc_));
  plan_.sweep_sum(ext(), norms2_.data(), b, lambda_, backward, z.data(), acc.data());
  PetscCall(acc.restore());
  PetscCall(z.restore());
  if (size_ > 1) {
    PetscCall(VecGhostUpdateBegin(acc_, ADD_VALUES, SCATTER_REVERSE));
    PetscCall(VecGhostUpdateEnd(acc_, ADD_VALUES, SCATTER_REVERSE));
  }
  PetscCall(VecGetArrayRead(acc_, &xa));
  PetscCall(VecGetArray(z_, &ya)); // z's owned part still holds x
  for (PetscInt j = 0; j < n_; ++j) ya[j] = mult_[j] > 0 ? xa[j] / mult_[j] : ya[j];
  PetscCall(VecRestoreArray(z_, &ya));
  PetscCall(VecRestoreArrayRead(acc_, &xa));
  PetscCall(VecCopy(z_, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One frozen-x pass of the report's GPU mode: y = x + sum_i coef_i(x) a_i^T over all ranks.
PetscErrorCode HostBackend::cimmino_half(Vec x, const PetscScalar *b, Vec y)
{
  LocalForm z, acc;
  Vec       al;

  PetscFunctionBegin;
  PetscCall(load(x));
  PetscCall(VecGhostGetLocalForm(acc_, &al));
  PetscCall(VecSet(al, 0.0));
  PetscCall(VecGhostRestoreLocalForm(acc_, &al));
  PetscCall(z.get(z_));
  PetscCall(acc.get(acc_));
  pgk::carpcg::cimmino_pass(ext(), norms2_.data(), b, lambda_, z.data(), acc.data());
  PetscCall(acc.restore());
  PetscCall(z.restore());
  if (size_ > 1) {
    PetscCall(VecGhostUpdateBegin(acc_, ADD_VALUES, SCATTER_REVERSE));
    PetscCall(VecGhostUpdateEnd(acc_, ADD_VALUES, SCATTER_REVERSE));
  }
  PetscCall(VecWAXPY(y, 1.0, x, acc_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostBackend::double_sweep(Vec x, Vec b, Vec y)
{
  const PetscScalar *ba = nullptr;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_CarpcgSweep, x, y, 0, 0));
  if (b) PetscCall(VecGetArrayRead(b, &ba));
  switch (set_.scheme) {
  case Scheme::Sequential: {
    LocalForm z;
    PetscCall(load(x));
    PetscCall(z.get(z_));
    pgk::carpcg::sweep(ext(), norms2_.data(), ba, lambda_, nullptr, n_, false, z.data());
    pgk::carpcg::sweep(ext(), norms2_.data(), ba, lambda_, nullptr, n_, true, z.data());
    PetscCall(z.restore());
    PetscCall(VecCopy(z_, y));
  } break;
  case Scheme::Multicolor:
    PetscCall(load(x));
    PetscCall(sweep_multicolor(ba, y));
    break;
  case Scheme::Carp:
    PetscCall(carp_half(x, ba, false, mid_));
    PetscCall(carp_half(mid_, ba, true, y));
    break;
  case Scheme::Cimmino:
    PetscCall(cimmino_half(x, ba, mid_));
    PetscCall(cimmino_half(mid_, ba, y));
    break;
  }
  if (b) PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(PetscLogFlops(8.0 * (PetscLogDouble)ext_.nnz()));
  PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgSweep, x, y, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostBackend::residual(Vec x, Vec b, Vec t)
{
  LocalForm          z;
  const PetscScalar *ba;
  PetscScalar       *ta;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_CarpcgResidual, x, b, t, 0));
  PetscCall(load(x));
  PetscCall(z.get(z_));
  PetscCall(VecGetArrayRead(b, &ba));
  PetscCall(VecGetArrayWrite(t, &ta));
  pgk::carpcg::residual(ext(), ba, z.data(), ta);
  PetscCall(VecRestoreArrayWrite(t, &ta));
  PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(z.restore());
  PetscCall(PetscLogFlops(2.0 * (PetscLogDouble)ext_.nnz()));
  PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgResidual, x, b, t, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostBackend::local_dots(PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; ++k) {
    const PetscScalar *ua, *va;
    PetscCall(VecGetArrayRead(u[k], &ua));
    PetscCall(VecGetArrayRead(v[k], &va));
    const double *w = weighted[k] && !weights_.empty() ? weights_.data() : nullptr;
    out[k]          = pgk::carpcg::weighted_dot(ua, va, w, n_);
    PetscCall(VecRestoreArrayRead(v[k], &va));
    PetscCall(VecRestoreArrayRead(u[k], &ua));
  }
  PetscCall(PetscLogFlops(3.0 * n * n_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostBackend::axpy(Vec y, PetscReal a, Vec x)
{
  PetscScalar       *ya;
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGetArray(y, &ya));
  PetscCall(VecGetArrayRead(x, &xa));
  pgk::carpcg::axpy(ya, a, xa, n_);
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArray(y, &ya));
  PetscCall(PetscLogFlops(2.0 * n_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// sqrt of the ranks' summed local dots: one rank's norm is the reference's (||b|| and ||b - A x||
// decide convergence).
PetscErrorCode HostBackend::norm2(Vec v, PetscReal *norm)
{
  const PetscBool unweighted = PETSC_FALSE;
  PetscReal       local = 0, sum = 0;

  PetscFunctionBegin;
  PetscCall(local_dots(1, &v, &v, &unweighted, &local));
  PetscCallMPI(MPIU_Allreduce(&local, &sum, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)v)));
  *norm = PetscSqrtReal(sum);
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk_carpcg

PetscErrorCode CarpcgCreateHostBackend(Mat A, const CarpcgSettings &s, const char *device_note, std::unique_ptr<CarpcgBackend> *backend)
{
  PetscFunctionBegin;
  auto host = std::make_unique<pgk_carpcg::HostBackend>(s, device_note);
  PetscCall(PetscLogEventBegin(PGK_EVENT_CarpcgSetUp, A, 0, 0, 0));
  PetscCall(host->setup(A));
  PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgSetUp, A, 0, 0, 0));
  *backend = std::move(host);
  PetscFunctionReturn(PETSC_SUCCESS);
}
