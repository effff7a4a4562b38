// The host backend of KSP carpcg (host.cpp: set-up, carp, cimmino, sequential;
// multicolor.cpp: the multicolour scheme and -ksp_view). Internal to KSP carpcg.
#pragma once

#include "petsc_plugin/ksp/carpcg/backend.hpp"

#include <string>
#include <vector>

#include "src/carpcg/blocks.hpp"
#include "src/carpcg/coloring.hpp"

namespace pgk_carpcg {

using pgk::carpcg::Scheme;

// A ghosted vector's local form (owned entries, then ghosts) as one array.
class LocalForm {
public:
  LocalForm() = default;
  PetscErrorCode get(Vec v)
  {
    PetscFunctionBegin;
    vec_ = v;
    PetscCall(VecGhostGetLocalForm(v, &local_));
    PetscCall(VecGetArray(local_, &a_));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscErrorCode restore()
  {
    PetscFunctionBegin;
    PetscCall(VecRestoreArray(local_, &a_));
    PetscCall(VecGhostRestoreLocalForm(vec_, &local_));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscScalar *data() { return a_; }

private:
  Vec          vec_ = nullptr, local_ = nullptr;
  PetscScalar *a_ = nullptr;
};

class HostBackend : public CarpcgBackend {
public:
  HostBackend(const CarpcgSettings &s, const char *device_note) : set_(s), lambda_(s.relaxation()), device_note_(device_note ? device_note : "") {}
  ~HostBackend() override;
  PetscErrorCode setup(Mat A);

  PetscErrorCode create_vec(Vec *v) override { return VecDuplicate(tmpl_, v); }
  PetscErrorCode double_sweep(Vec x, Vec b, Vec y) override;
  PetscErrorCode residual(Vec x, Vec b, Vec t) override;
  PetscErrorCode local_dots(PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[]) override;
  PetscErrorCode axpy(Vec y, PetscReal a, Vec x) override;
  PetscErrorCode norm2(Vec v, PetscReal *norm) override;
  PetscErrorCode view(PetscViewer viewer) override;

private:
  PetscErrorCode build_extended(Mat A);
  PetscErrorCode check_values();
  PetscErrorCode setup_carp();
  PetscErrorCode setup_multicolor();
  PetscErrorCode gather_coloring(std::vector<int> *local_colors, int *ncolors);
  PetscErrorCode shared_owned(std::vector<char> *shared);
  PetscErrorCode load(Vec x);
  PetscErrorCode sweep_multicolor(const PetscScalar *b, Vec y);
  PetscErrorCode exchange_deltas();
  PetscErrorCode carp_half(Vec x, const PetscScalar *b, bool backward, Vec y);
  PetscErrorCode cimmino_half(Vec x, const PetscScalar *b, Vec y);
  pgk::CsrView   ext() const { return pgk::view_of(ext_); }

  CarpcgSettings        set_;
  PetscReal             lambda_;
  MPI_Comm              comm_ = MPI_COMM_NULL;
  PetscMPIInt           size_ = 1;
  PetscInt              n_ = 0, nghost_ = 0, N_ = 0, rstart_ = 0;
  PetscInt              nnz_all_ = 0;
  pgk::Csr              ext_;    // rows over [owned | ghosts]
  std::vector<PetscInt> ghosts_; // global index of each ghost
  std::vector<double>   norms2_;
  Vec                   tmpl_ = nullptr, mid_ = nullptr;                // plain vectors of the layout
  Vec                   z_ = nullptr, acc_ = nullptr, delta_ = nullptr; // ghosted
  char                  mat_type_[64]  = "";
  PetscBool             device_matrix_ = PETSC_FALSE;
  std::string           device_note_; // why a device matrix is swept here
  // carp
  pgk::carpcg::BlockPlan plan_;
  std::vector<double>    mult_, weights_; // owned: |L_j| (0: untouched) and the dot weights
  PetscInt               max_mult_ = 0, shared_count_ = 0, blocks_all_ = 0;
  // multicolor
  pgk::carpcg::Coloring coloring_;    // this rank's rows in the global colour classes
  std::vector<int>      exchange_;    // per colour: some row of it touches a shared unknown
  std::vector<PetscInt> shared_;      // owned unknowns that are ghosts elsewhere
  std::vector<PetscInt> class_sizes_; // rows per colour over all ranks
};

} // namespace pgk_carpcg
