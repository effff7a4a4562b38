// Where KSP carpcg sweeps: the one place that chooses a backend for an operator, so that the
// device backend (next session: the schemes on kernels/carpcg/ for MATAIJCUSPARSE) plugs in here
// without touching the KSP type.
#include "petsc_plugin/ksp/carpcg/backend.hpp"

PetscErrorCode CarpcgCreateBackend(Mat A, const CarpcgSettings &s, std::unique_ptr<CarpcgBackend> *backend)
{
  PetscFunctionBegin;
  // Every matrix type is swept on the host for now; a device matrix is read from PETSc's host
  // copy (the host backend's -ksp_view says so).
  PetscCall(CarpcgCreateHostBackend(A, s, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}
