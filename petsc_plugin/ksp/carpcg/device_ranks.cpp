// The device backend of KSP carpcg on more than one rank (carp and cimmino; multicolor's
// colour-by-colour exchanges stay on the host backend, backend.cpp). Each rank holds its rows over
// its owned unknowns followed by its ghosts (ghosts.cpp, the host backend's layout) on the
// device, and two device arrays in that layout: x_ext (x and its ghosts) and acc_ext (the sums of
// a sweep). One half of a double sweep, as on the host backend, in the same order of operations:
//   carp     x_ext = [x | ghosts] (forward INSERT) -> every block sweeps its copy and the copies
//            are summed per unknown, and divided by the global |L_j| where no other rank adds to
//            the unknown (kernels) -> the ghosts' sums added to their owners (reverse ADD) -> the
//            received unknowns divided (kernel); the first half's result stays in x_ext;
//   cimmino  x_ext = [x | ghosts] -> coefficients and column sums over owned and ghost unknowns
//            (kernels) -> reverse ADD -> y = x + acc (VecWAXPY on the device).
// Only the halo moves between ranks (and, without GPU-aware MPI, through the host: PETSc's
// logged copies); the dots are the one-rank kernels over the owned unknowns, the KSP adds them
// up in its one allreduce per iteration. On 2 ranks an owned unknown receives at most one ghost
// sum, so the results are the same bits every run; with more ranks PETSc's device scatter may add
// several ghost sums of one unknown in any order (rounding-level differences between runs).
#include "petsc_plugin/ksp/carpcg/device.hpp"

#include "petsc_plugin/sys/csr_access.hpp"

#if defined(PGK_HAVE_CUDA)

namespace pgk_carpcg {

// The rank's rows over [owned | ghosts] from PETSc's host copy, uploaded once into the kernels'
// operator (logged). Not collective (the value check that follows is).
PetscErrorCode DeviceBackend::setup_ranks(Mat A, const pgk::cuda::CarpcgDeviceOptions &o, pgk::cuda::CarpcgValueCheck *check)
{
  pgk::Csr ext;
  void    *stream;

  PetscFunctionBegin;
  PetscCheck(set_.scheme == Scheme::Carp || set_.scheme == Scheme::Cimmino, comm_, PETSC_ERR_PLIB, "KSP carpcg: the device backend sweeps carp and cimmino on more than one rank");
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(CarpcgExtendedRows(A, &ext, &ghost_index_));
  n_   = ext.nrows;
  nnz_ = ext.nnz();
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, *check = dev_.setup_host(pgk::view_of(ext), o, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// After the value check: the device arrays in the [owned | ghosts] layout and their exchange, the
// second half's input, and carp's global multiplicities (this rank's counts over owned and ghost
// unknowns, the ghosts' added to their owners). Collective.
PetscErrorCode DeviceBackend::finish_ranks(void)
{
  const PetscInt ncols = n_ + (PetscInt)ghost_index_.size();
  void          *stream;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, x_ext_.allocate((std::size_t)ncols); acc_ext_.allocate((std::size_t)ncols));
  PetscCall(ghosts_.setup(tmpl_, ghost_index_, x_ext_.data(), acc_ext_.data()));
  if (set_.scheme != Scheme::Carp) {
    PetscCall(VecDuplicate(tmpl_, &mid_));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const std::vector<pgk::Index> &local = dev_.plan()->multiplicity();
  std::vector<double>            counts(local.begin(), local.end());
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_device(acc_ext_.data(), counts.data(), sizeof(double) * counts.size(), stream));
  PetscCall(ghosts_.add_to_owners());
  mult_.resize((std::size_t)n_);
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_host(mult_.data(), acc_ext_.data(), sizeof(double) * mult_.size(), stream); dev_.set_multiplicity(mult_, stream));
  PetscCall(find_received());
  std::vector<double> ghost_mult;
  if (set_.swap_sums) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, peer_ext_.allocate((std::size_t)ncols));
  if (set_.swap_sums) PetscCall(ghosts_.setup_swap(tmpl_, ghost_index_, mult_, acc_ext_.data(), peer_ext_.data(), &ghost_mult, &swap_ready_));
  if (swap_ready_) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.set_ghost_multiplicity(ghost_mult, stream));
  else peer_ext_ = pgk::cuda::DeviceBuffer<double>();
  if (set_.overlap) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.split_blocks(stream));
    PetscInt boundary = (PetscInt)dev_.boundary_blocks();
    PetscCallMPI(MPIU_Allreduce(&boundary, &boundary_all_, 1, MPIU_INT, MPI_SUM, comm_));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The owned unknowns other ranks hold as ghosts (their sums arrive by the reverse ADD): ones in
// every ghost part added to zeros in the owned parts. Collective.
PetscErrorCode DeviceBackend::find_received(void)
{
  const PetscInt          ncols = n_ + (PetscInt)ghost_index_.size();
  std::vector<double>     marks((std::size_t)ncols, 0.0);
  std::vector<pgk::Index> rows;
  void                   *stream;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  std::fill(marks.begin() + n_, marks.end(), 1.0);
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_device(acc_ext_.data(), marks.data(), sizeof(double) * marks.size(), stream));
  PetscCall(ghosts_.add_to_owners());
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_host(marks.data(), acc_ext_.data(), sizeof(double) * (std::size_t)n_, stream));
  for (PetscInt j = 0; j < n_; ++j)
    if (marks[(std::size_t)j] > 0) rows.push_back((pgk::Index)j);
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.set_received(rows, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// x_ext = [x | the owners' values of this rank's ghosts] (copy_owned false: the ghosts only, for a
// sweep that reads the owned unknowns from x's own array); the owned copy runs while the halo moves,
// and so does `update` (u += a v, the CG's iterate) where given: on a side stream, since PETSc's
// host-staged scatter waits for its own stream only (the update's 3 passes over the owned
// unknowns would otherwise queue behind the exchange). PETSc's stream waits for it before the
// sweep that follows.
PetscErrorCode DeviceBackend::load(Vec x, const Update *update, bool copy_owned)
{
  PetscScalar *xa;
  void        *stream;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  if (update) PetscCall(update_iterate(*update, side_.fork(stream)));
  PetscCall(ghosts_.fetch_begin(x));
  if (copy_owned) {
    PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.load_owned(xa, x_ext_.data(), stream));
    PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  }
  PetscCall(ghosts_.fetch_end(x));
  if (update) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, side_.join(stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The CG's update u += a v on `on_stream` (asynchronous; PETSc's stream must wait for it before u is
// used again where on_stream is another).
PetscErrorCode DeviceBackend::update_iterate(const Update &update, void *on_stream)
{
  PetscScalar *ua, *va;

  PetscFunctionBegin;
  PetscCall(PgkVecGetArray(update.u, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &ua));
  PetscCall(PgkVecGetArray(update.v, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &va));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::CarpcgDevice::axpy(n_, update.a, va, ua, on_stream));
  PetscCall(PgkVecRestoreArray(update.v, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &va));
  PetscCall(PgkVecRestoreArray(update.u, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &ua));
  PetscCall(PetscLogGpuFlops(2.0 * (PetscLogDouble)n_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One half of carp from x_ext (owned part and ghosts current) into y, which may be x_ext's owned
// part. The owned unknowns no other rank adds to are divided with the sums (one pass); only the
// received ones wait for the reverse ADD.
PetscErrorCode DeviceBackend::carp_half(const PetscScalar *b, bool backward, PetscScalar *y)
{
  void *stream;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_sweep_divide(b, backward, x_ext_.data(), acc_ext_.data(), y, stream));
  PetscCall(ghosts_.add_to_owners());
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_divide_received(acc_ext_.data(), x_ext_.data(), y, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// carp's double sweep. The first half reads the owned unknowns from x's own array and the ghosts
// from x_ext (no copy of x), and leaves its result in x_ext's owned part. Its ghosts for the second
// half: where every shared unknown has one ghost holder (2 ranks), the two holders swap their sums
// in one exchange and each divides the same sum (x_ext's owned and ghost parts final at once);
// otherwise the reverse ADD, the owners' division, and a fetch from x_ext.
PetscErrorCode DeviceBackend::carp_double_sweep(Vec x, const PetscScalar *b, Vec y, const Update *update)
{
  PetscScalar *xa, *ya;
  void        *stream;
  double      *ext = x_ext_.data(), *acc = acc_ext_.data();

  PetscFunctionBegin;
  if (set_.overlap) {
    PetscCall(carp_double_sweep_overlapped(x, b, y, update));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(load(x, update, false));
  PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_sweep_divide(b, false, xa, acc, ext, stream, ext + n_));
  PetscCall(first_half_shared(xa));
  PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PgkVecGetArray(y, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &ya));
  PetscCall(carp_half(b, true, ya));
  PetscCall(PgkVecRestoreArray(y, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &ya));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The first half's shared unknowns, from their sums in acc_ext: x_ext's received owned unknowns and
// its ghosts final (xa: the half's operand, for an unknown no block touches). Collective.
PetscErrorCode DeviceBackend::first_half_shared(const PetscScalar *xa)
{
  void   *stream;
  double *ext = x_ext_.data(), *acc = acc_ext_.data();

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  if (swap_ready_) {
    PetscCall(ghosts_.swap());
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_divide_shared(acc, peer_ext_.data(), xa, ext, stream));
  } else {
    PetscCall(ghosts_.add_to_owners());
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_divide_received(acc, xa, ext, stream));
    PetscCall(ghosts_.fetch_begin(ghosts_.owned_x()));
    PetscCall(ghosts_.fetch_end(ghosts_.owned_x()));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The same double sweep with the interior blocks (which touch no shared unknown) on the side stream
// and the exchanges on PETSc's stream, whose host staging waits for that stream only: the fetch of
// x's halo, the exchange of the first half's shared sums and the second half's reverse ADD each run
// while the interior sweeps (kernels/carpcg: interior + boundary + divide_unshared = the unsplit
// half, the same bits). The CG's update u += a v runs first, alone: beside the interior sweep it
// would get only the few SM slots the sweep leaves free, and a streaming kernel needs them all.
PetscErrorCode DeviceBackend::carp_double_sweep_overlapped(Vec x, const PetscScalar *b, Vec y, const Update *update)
{
  PetscScalar *xa, *ya;
  void        *stream;
  double      *ext = x_ext_.data(), *acc = acc_ext_.data();

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  if (update) PetscCall(update_iterate(*update, stream));
  PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_sweep_interior(b, false, xa, side_.fork(stream)));
  PetscCall(ghosts_.fetch_begin(x));
  PetscCall(ghosts_.fetch_end(x));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_sweep_boundary(b, false, xa, ext + n_, acc, stream));
  PetscCall(first_half_shared(xa));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, side_.join(stream); dev_.carp_divide_unshared(xa, ext, stream));
  PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  // The second half, from x_ext: the interior's inputs are final after carp_divide_unshared.
  PetscCall(PgkVecGetArray(y, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &ya));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_sweep_interior(b, true, ext, side_.fork(stream)));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_sweep_boundary(b, true, ext, ext + n_, acc, stream));
  PetscCall(ghosts_.add_to_owners());
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.carp_divide_received(acc, ext, ya, stream); side_.join(stream); dev_.carp_divide_unshared(ext, ya, stream));
  PetscCall(PgkVecRestoreArray(y, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &ya));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::cimmino_half(Vec x, const PetscScalar *b, Vec y, const Update *update)
{
  void *stream;

  PetscFunctionBegin;
  PetscCall(load(x, update));
  PetscCall(PgkGetDeviceStream(&stream));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.cimmino_pass(b, x_ext_.data(), nullptr, acc_ext_.data(), stream));
  PetscCall(ghosts_.add_to_owners());
  PetscCall(VecWAXPY(y, 1.0, x, ghosts_.owned_acc()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::double_sweep_ranks(Vec x, const PetscScalar *b, Vec y, const Update *update)
{
  PetscFunctionBegin;
  if (set_.scheme == Scheme::Carp) {
    PetscCall(carp_double_sweep(x, b, y, update));
  } else {
    PetscCall(cimmino_half(x, b, mid_, update));
    PetscCall(cimmino_half(mid_, b, y, nullptr));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk_carpcg

#endif
