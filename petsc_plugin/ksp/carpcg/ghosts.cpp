// KSP carpcg across ranks (ghosts.hpp): the extended rows both backends sweep, and the device
// backend's ghost exchange on PETSc's scatter.
#include "petsc_plugin/ksp/carpcg/ghosts.hpp"

#include "petsc_plugin/sys/csr_access.hpp"

namespace pgk_carpcg {

PetscErrorCode CarpcgExtendedRows(Mat A, pgk::Csr *ext, std::vector<PetscInt> *ghosts)
{
  PgkMatCSR       dc, oc;
  PetscBool       mpi;
  const PetscInt *garray = nullptr;
  PetscInt        nghost = 0;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &mpi, MATMPIAIJ, MATMPIAIJCUSPARSE, ""));
  PetscCall(PgkMatGetCSR(A, PGK_MEM_HOST, &dc));
  const PetscInt n = dc.csr.nrows, rstart = dc.rstart;
  if (mpi) {
    Mat Ao;
    PetscCall(MatMPIAIJGetSeqAIJ(A, NULL, &Ao, &garray));
    PetscCall(PgkMatGetCSR(Ao, PGK_MEM_HOST, &oc));
    nghost = oc.csr.ncols;
  }
  ghosts->assign(garray, garray + nghost);
  *ext       = pgk::Csr();
  ext->nrows = n;
  ext->ncols = n + nghost;
  ext->rowptr.assign((size_t)n + 1, 0);
  const pgk::CsrView d = dc.csr;
  for (PetscInt i = 0; i < n; ++i) {
    PetscInt       e = d.rowptr[i], f = mpi ? oc.csr.rowptr[i] : 0;
    const PetscInt eend = d.rowptr[i + 1], fend = mpi ? oc.csr.rowptr[i + 1] : 0;
    while (e < eend || f < fend) { // both parts are sorted by global column
      const bool take_diag = f >= fend || (e < eend && rstart + d.colidx[e] < garray[oc.csr.colidx[f]]);
      if (take_diag) {
        ext->colidx.push_back(d.colidx[e]);
        ext->values.push_back(d.values[e++]);
      } else {
        ext->colidx.push_back(n + oc.csr.colidx[f]);
        ext->values.push_back(oc.csr.values[f++]);
      }
    }
    ext->rowptr[i + 1] = (PetscInt)ext->colidx.size();
  }
  if (mpi) PetscCall(PgkMatRestoreCSR(A, &oc));
  PetscCall(PgkMatRestoreCSR(A, &dc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PGK_HAVE_CUDA)

DeviceGhosts::~DeviceGhosts()
{
  PetscFunctionBeginUser;
  PetscCallVoid(VecScatterDestroy(&scatter_));
  PetscCallVoid(VecDestroy(&x_ghosts_));
  PetscCallVoid(VecDestroy(&acc_ghosts_));
  PetscCallVoid(VecDestroy(&acc_owned_));
  PetscCallVoid(VecDestroy(&x_owned_));
  PetscFunctionReturnVoid();
}

PetscErrorCode DeviceGhosts::setup(Vec layout, const std::vector<PetscInt> &ghosts, double *x_ext, double *acc_ext)
{
  PetscInt n, N;
  IS       from;
  MPI_Comm comm = PetscObjectComm((PetscObject)layout);

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(layout, &n));
  PetscCall(VecGetSize(layout, &N));
  const PetscInt nghost = (PetscInt)ghosts.size();
  PetscCall(VecCreateSeqCUDAWithArray(PETSC_COMM_SELF, 1, nghost, x_ext + n, &x_ghosts_));
  PetscCall(VecCreateSeqCUDAWithArray(PETSC_COMM_SELF, 1, nghost, acc_ext + n, &acc_ghosts_));
  PetscCall(VecCreateMPICUDAWithArray(comm, 1, n, N, acc_ext, &acc_owned_));
  PetscCall(VecCreateMPICUDAWithArray(comm, 1, n, N, x_ext, &x_owned_));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nghost, ghosts.data(), PETSC_USE_POINTER, &from));
  PetscCall(VecScatterCreate(layout, from, x_ghosts_, NULL, &scatter_));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceGhosts::fetch_begin(Vec x)
{
  PetscFunctionBegin;
  PetscCall(VecScatterBegin(scatter_, x, x_ghosts_, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceGhosts::fetch_end(Vec x)
{
  PetscFunctionBegin;
  PetscCall(VecScatterEnd(scatter_, x, x_ghosts_, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceGhosts::add_to_owners(void)
{
  PetscFunctionBegin;
  PetscCall(VecScatterBegin(scatter_, acc_ghosts_, acc_owned_, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(scatter_, acc_ghosts_, acc_owned_, ADD_VALUES, SCATTER_REVERSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif

} // namespace pgk_carpcg
