// The device backend of KSP carpcg (device.cpp: set-up on one rank, the sweeps, residual, dots
// and -ksp_view; device_ranks.cpp: more than one rank). Internal to KSP carpcg; compiled only
// with the CUDA kernels.
#pragma once

#include "petsc_plugin/ksp/carpcg/backend.hpp"

#if defined(PGK_HAVE_CUDA)
#  include "kernels/carpcg/carpcg_gpu.hpp"
#  include "kernels/common/side_stream.hpp"
#  include "petsc_plugin/ksp/carpcg/ghosts.hpp"
#  include "petsc_plugin/sys/device.hpp"

namespace pgk_carpcg {

using pgk::carpcg::Scheme;

class DeviceBackend : public CarpcgBackend {
public:
  explicit DeviceBackend(const CarpcgSettings &s) : set_(s), lambda_(s.relaxation()) {}
  ~DeviceBackend() override;
  PetscErrorCode setup(Mat A);

  PetscErrorCode create_vec(Vec *v) override { return VecDuplicate(tmpl_, v); }
  PetscErrorCode double_sweep(Vec x, Vec b, Vec y) override;
  PetscErrorCode update_and_sweep(Vec u, PetscReal a, Vec v, Vec x, Vec y) override;
  PetscErrorCode residual(Vec x, Vec b, Vec t) override;
  PetscErrorCode local_dots(PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[]) override;
  PetscErrorCode axpy(Vec y, PetscReal a, Vec x) override;
  PetscErrorCode subtract(Vec w, Vec x, Vec y) override;
  PetscErrorCode aypx(Vec y, PetscReal a, Vec x) override;
  PetscErrorCode step(PetscBool directions, PetscReal beta, PetscReal alpha, Vec p, Vec q, Vec r, Vec s, Vec x, Vec t) override;
  PetscErrorCode subtract_dots(Vec w, Vec x, Vec y, PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[]) override;
  PetscErrorCode view(PetscViewer viewer) override;

private:
  PetscErrorCode view_setup(PetscViewer viewer);
  // device.cpp
  PetscErrorCode setup_one_rank(Mat A, const pgk::cuda::CarpcgDeviceOptions &o, pgk::cuda::CarpcgValueCheck *check);
  PetscErrorCode check_values(const pgk::cuda::CarpcgValueCheck &check);
  PetscErrorCode carp_figures(void);
  PetscErrorCode colour(const pgk::CsrView &pattern, pgk::carpcg::Coloring *c);
  PetscErrorCode view_scheme(PetscViewer viewer);
  PetscErrorCode dots_with(Vec w, Vec x, Vec y, PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[]);
  struct Update { // u += a v, the CG's update, scheduled by the double sweep on more than one rank
    Vec       u;
    PetscReal a;
    Vec       v;
  };
  PetscErrorCode sweep(Vec x, Vec b, Vec y, const Update *update);
  // device_ranks.cpp: a rank's rows over [owned | ghosts], the exchanges around the kernels' pieces
  PetscErrorCode setup_ranks(Mat A, const pgk::cuda::CarpcgDeviceOptions &o, pgk::cuda::CarpcgValueCheck *check);
  PetscErrorCode finish_ranks(void);
  PetscErrorCode load(Vec x, const Update *update = nullptr, bool copy_owned = true);
  PetscErrorCode update_iterate(const Update &update, void *on_stream);
  PetscErrorCode find_received(void);
  PetscErrorCode carp_half(const PetscScalar *b, bool backward, PetscScalar *y);
  PetscErrorCode carp_double_sweep(Vec x, const PetscScalar *b, Vec y, const Update *update);
  PetscErrorCode first_half_shared(const PetscScalar *xa);
  PetscErrorCode carp_double_sweep_overlapped(Vec x, const PetscScalar *b, Vec y, const Update *update);
  PetscErrorCode cimmino_half(Vec x, const PetscScalar *b, Vec y, const Update *update);
  PetscErrorCode double_sweep_ranks(Vec x, const PetscScalar *b, Vec y, const Update *update);

  CarpcgSettings          set_;
  PetscReal               lambda_;
  MPI_Comm                comm_ = MPI_COMM_NULL;
  PetscMPIInt             size_ = 1;
  PetscInt                n_ = 0, nnz_ = 0, nnz_all_ = 0, rstart_ = 0;
  PetscLogDouble          setup_seconds_ = 0; // this rank's whole set-up (-ksp_view splits it)
  Vec                     tmpl_          = nullptr;
  char                    mat_type_[64]  = "";
  pgk::cuda::CarpcgDevice dev_;
  // carp over all ranks (-ksp_view)
  std::vector<double> mult_; // the owned unknowns' multiplicities |L_j| over all ranks
  PetscInt            blocks_all_ = 0, max_mult_ = 0, shared_count_ = 0;
  PetscInt            boundary_all_ = 0; // -ksp_carpcg_overlap_sweeps: the blocks touching a shared unknown, all ranks
  // more than one rank: [owned | ghosts] device arrays, their exchange, the first half's result
  pgk::cuda::DeviceBuffer<double> x_ext_, acc_ext_;
  std::vector<PetscInt>           ghost_index_; // global index of each ghost
  DeviceGhosts                    ghosts_;
  // carp on ranks whose shared unknowns have one ghost holder each: the other holder's sums
  // (DeviceGhosts::setup_swap), and whether that swap replaces the reverse ADD and fetch
  pgk::cuda::DeviceBuffer<double> peer_ext_;
  PetscBool                       swap_ready_ = PETSC_FALSE;
  pgk::cuda::SideStream           side_;          // the CG's update during a fetch, or the interior blocks' sweep
  Vec                             mid_ = nullptr; // cimmino's first half
};

} // namespace pgk_carpcg
#endif
