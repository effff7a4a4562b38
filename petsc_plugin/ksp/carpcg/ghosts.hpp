// KSP carpcg across ranks: a rank's rows over its owned unknowns followed by its ghosts (both
// backends sweep these), and the device backend's exchange of ghost values between device arrays
// in that [owned | ghosts] layout. Internal to KSP carpcg.
#pragma once

#include "petsc_plugin/ksp/carpcg/backend.hpp"

#include <vector>

#include "src/common/csr.hpp"

namespace pgk_carpcg {

// Every local row of A with its diagonal-block entries (owned unknowns, numbered 0..n) and its
// off-diagonal-block entries (ghosts, numbered from n in garray order) merged in global column
// order, so that a row's dot product adds in the order it has on one rank. `ghosts`: the global
// index of each ghost (garray; empty on one rank). Read from PETSc's host copy of A (a logged
// GpuToCpu where the device copy is newer). Not collective.
PetscErrorCode CarpcgExtendedRows(Mat A, pgk::Csr *ext, std::vector<PetscInt> *ghosts);

// The ghost exchange of the device backend on more than one rank. Two device arrays of
// n + nghost entries in the [owned | ghosts] layout, x_ext and acc_ext, are wrapped once in
// PETSc vectors (no copies), and PETSc's scatter from the operator's layout to the ghosts (the
// communication pattern of MatMult's Mvctx, built on garray) moves only the halo:
//   fetch:          x_ext's ghost part = the owners' values of x (forward INSERT; x may be
//                   owned_x(), x_ext's own owned part);
//   add_to_owners:  acc_ext's owned part += every rank's ghost part for it (reverse ADD).
// The vectors stay on the device; with -use_gpu_aware_mpi 0 PETSc stages the halo through the
// host (its logged copies).
class DeviceGhosts {
public:
  DeviceGhosts() = default;
  ~DeviceGhosts();
  DeviceGhosts(const DeviceGhosts &)            = delete;
  DeviceGhosts &operator=(const DeviceGhosts &) = delete;

  // layout: a VECMPICUDA of the operator's rows; x_ext, acc_ext: device arrays of
  // n + ghosts.size() entries that outlive this. Collective.
  PetscErrorCode setup(Vec layout, const std::vector<PetscInt> &ghosts, double *x_ext, double *acc_ext);
  PetscErrorCode fetch_begin(Vec x);  // Collective; x is read until fetch_end
  PetscErrorCode fetch_end(Vec x);    // Collective.
  PetscErrorCode add_to_owners(void); // Collective.
  // carp's swap of a half's sums, where every shared unknown is held by two ranks only (its owner
  // and one ghost holder): peer_ext's entry of every ghost and of every owned unknown another rank
  // holds = that other rank's acc_ext entry for the unknown, in one exchange both ways (a scatter
  // between two MPI vectors over acc_ext and peer_ext, n + ghosts entries on every rank). Built on
  // the host from the ghost lists; `mult`: the owned unknowns' global multiplicities, whose ghost
  // values come back in *ghost_mult. *ready = PETSC_FALSE (nothing built) where some unknown has
  // two or more ghost holders (3 or more ranks): the sums then go through add_to_owners and fetch.
  // After setup(). Collective.
  PetscErrorCode setup_swap(Vec layout, const std::vector<PetscInt> &ghosts, const std::vector<double> &mult, double *acc_ext, double *peer_ext, std::vector<double> *ghost_mult, PetscBool *ready);
  PetscErrorCode swap(void);                              // Collective.
  Vec            owned_acc() const { return acc_owned_; } // acc_ext's owned part as a VECMPICUDA
  Vec            owned_x() const { return x_owned_; }     // x_ext's owned part as a VECMPICUDA

private:
  VecScatter scatter_    = nullptr;
  Vec        x_ghosts_   = nullptr; // x_ext + n, VECSEQCUDA
  Vec        acc_ghosts_ = nullptr; // acc_ext + n, VECSEQCUDA
  Vec        acc_owned_  = nullptr; // acc_ext, VECMPICUDA
  Vec        x_owned_    = nullptr; // x_ext, VECMPICUDA
  VecScatter swap_       = nullptr; // setup_swap: acc_all_ -> peer_all_
  Vec        acc_all_    = nullptr; // acc_ext (n + ghosts a rank), VECMPICUDA
  Vec        peer_all_   = nullptr; // peer_ext (n + ghosts a rank), VECMPICUDA
};

} // namespace pgk_carpcg
