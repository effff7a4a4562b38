// KSP carpcg across ranks (ghosts.hpp): the extended rows both backends sweep, and the device
// backend's ghost exchange on PETSc's scatter.
#include "petsc_plugin/ksp/carpcg/ghosts.hpp"

#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/device.hpp"
#include "src/common/prefault.hpp"
#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <cstdint>

namespace pgk_carpcg {

PetscErrorCode CarpcgExtendedRows(Mat A, pgk::Csr *ext, std::vector<PetscInt> *ghosts)
{
  PgkMatCSR       dc, oc;
  PetscBool       mpi;
  const PetscInt *garray = nullptr;
  PetscInt        nghost = 0;

  PetscFunctionBegin;
  PetscCall(PgkMatIsAIJ(A, NULL, &mpi));
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
  const pgk::CsrView d = dc.csr, o = mpi ? oc.csr : pgk::CsrView{}; // o: read only where off
  const bool         off = mpi == PETSC_TRUE;
  for (PetscInt i = 0; i < n; ++i) ext->rowptr[i + 1] = ext->rowptr[i] + (d.rowptr[i + 1] - d.rowptr[i]) + (off ? o.rowptr[i + 1] - o.rowptr[i] : 0);
  // Each row is a merge of its two sorted parts into its own place: rows on the rank's share of
  // the node's threads, the same arrays for any count.
  const PetscInt  nnz = ext->rowptr[n];
  pgk::ThreadPool pool(nnz < (PetscInt(1) << 16) ? 1 : (int)PgkNodeThreadShare());
  ext->colidx = pgk::prefaulted_vector<pgk::Index>((size_t)nnz, 0, pool);
  ext->values = pgk::prefaulted_vector<double>((size_t)nnz, 0.0, pool);
  pool.parallel_for(0, n, 4096, [&](std::int64_t row) {
    const PetscInt i = (PetscInt)row;
    PetscInt       e = d.rowptr[i], f = off ? o.rowptr[i] : 0, out = ext->rowptr[i];
    const PetscInt eend = d.rowptr[i + 1], fend = off ? o.rowptr[i + 1] : 0;
    while (e < eend || f < fend) { // both parts are sorted by global column
      const bool take_diag = f >= fend || (e < eend && rstart + d.colidx[e] < garray[o.colidx[f]]);
      if (take_diag) {
        ext->colidx[out]   = d.colidx[e];
        ext->values[out++] = d.values[e++];
      } else {
        ext->colidx[out]   = n + o.colidx[f];
        ext->values[out++] = o.values[f++];
      }
    }
  });
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
  PetscCallVoid(VecScatterDestroy(&swap_));
  PetscCallVoid(VecDestroy(&acc_all_));
  PetscCallVoid(VecDestroy(&peer_all_));
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

// The host side of setup_swap: a host copy of the operator's layout and of the ghosts with the
// scatter between them (the device one's pattern), to count each owned unknown's ghost holders,
// to send each ghost's extended position to its owner and the multiplicities to the ghosts.
namespace {
struct HostGhosts {
  Vec        owned = nullptr, ghosts = nullptr;
  VecScatter sc = nullptr;
  ~HostGhosts()
  {
    PetscFunctionBeginUser;
    PetscCallVoid(VecScatterDestroy(&sc));
    PetscCallVoid(VecDestroy(&owned));
    PetscCallVoid(VecDestroy(&ghosts));
    PetscFunctionReturnVoid();
  }
  PetscErrorCode create(MPI_Comm comm, PetscInt n, PetscInt N, const std::vector<PetscInt> &ghost_index)
  {
    IS from;

    PetscFunctionBegin;
    PetscCall(VecCreateMPI(comm, n, N, &owned));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, (PetscInt)ghost_index.size(), &ghosts));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, (PetscInt)ghost_index.size(), ghost_index.data(), PETSC_USE_POINTER, &from));
    PetscCall(VecScatterCreate(owned, from, ghosts, NULL, &sc));
    PetscCall(ISDestroy(&from));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // owned = `fill` everywhere, then the ghosts' values sent to their owners with `mode`.
  PetscErrorCode to_owners(PetscScalar fill, InsertMode mode)
  {
    PetscFunctionBegin;
    PetscCall(VecSet(owned, fill));
    PetscCall(VecScatterBegin(sc, ghosts, owned, mode, SCATTER_REVERSE));
    PetscCall(VecScatterEnd(sc, ghosts, owned, mode, SCATTER_REVERSE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
};
} // namespace

PetscErrorCode DeviceGhosts::setup_swap(Vec layout, const std::vector<PetscInt> &ghosts, const std::vector<double> &mult, double *acc_ext, double *peer_ext, std::vector<double> *ghost_mult, PetscBool *ready)
{
  MPI_Comm        comm = PetscObjectComm((PetscObject)layout);
  PetscMPIInt     size;
  PetscInt        n, N, off, most = 0, most_all;
  const PetscInt  nghost = (PetscInt)ghosts.size();
  const PetscInt *ranges;
  HostGhosts      h;
  PetscScalar    *a;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecGetLocalSize(layout, &n));
  PetscCall(VecGetSize(layout, &N));
  PetscCall(VecGetOwnershipRanges(layout, &ranges));
  PetscCall(h.create(comm, n, N, ghosts));
  PetscCall(VecSet(h.ghosts, 1.0)); // ghost holders per owned unknown
  PetscCall(h.to_owners(0.0, ADD_VALUES));
  PetscCall(VecGetArray(h.owned, &a));
  for (PetscInt j = 0; j < n; ++j) most = PetscMax(most, (PetscInt)PetscRealPart(a[j]));
  PetscCall(VecRestoreArray(h.owned, &a));
  PetscCallMPI(MPIU_Allreduce(&most, &most_all, 1, MPIU_INT, MPI_MAX, comm));
  *ready = most_all <= 1 ? PETSC_TRUE : PETSC_FALSE;
  if (!*ready) PetscFunctionReturn(PETSC_SUCCESS);

  // The extended numbering: every rank's [owned | ghosts] after the ranks before it.
  const PetscInt        ncols = n + nghost;
  std::vector<PetscInt> offs((size_t)size);
  PetscCallMPI(MPI_Scan(&ncols, &off, 1, MPIU_INT, MPI_SUM, comm));
  off -= ncols;
  PetscCallMPI(MPI_Allgather(&off, 1, MPIU_INT, offs.data(), 1, MPIU_INT, comm));
  std::vector<PetscInt> from, to;
  // Owned unknowns another rank holds: the holder's ghost position, sent to the owner.
  PetscCall(VecGetArray(h.ghosts, &a));
  for (PetscInt g = 0; g < nghost; ++g) a[g] = (PetscScalar)(off + n + g);
  PetscCall(VecRestoreArray(h.ghosts, &a));
  PetscCall(h.to_owners(-1.0, INSERT_VALUES));
  PetscCall(VecGetArray(h.owned, &a));
  for (PetscInt j = 0; j < n; ++j)
    if (PetscRealPart(a[j]) >= 0) from.push_back((PetscInt)PetscRealPart(a[j])), to.push_back(off + j);
  PetscCall(VecRestoreArray(h.owned, &a));
  // Ghosts: the owner's position of the unknown.
  for (PetscInt g = 0; g < nghost; ++g) {
    const PetscInt G = ghosts[(size_t)g], p = (PetscInt)(std::upper_bound(ranges, ranges + size + 1, G) - ranges) - 1;
    from.push_back(offs[(size_t)p] + G - ranges[p]);
    to.push_back(off + n + g);
  }
  // The ghosts' multiplicities from their owners.
  PetscCall(VecGetArray(h.owned, &a));
  for (PetscInt j = 0; j < n; ++j) a[j] = mult[(size_t)j];
  PetscCall(VecRestoreArray(h.owned, &a));
  PetscCall(VecScatterBegin(h.sc, h.owned, h.ghosts, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(h.sc, h.owned, h.ghosts, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArray(h.ghosts, &a));
  ghost_mult->assign(a, a + nghost);
  PetscCall(VecRestoreArray(h.ghosts, &a));

  IS ix, iy;
  PetscCall(VecCreateMPICUDAWithArray(comm, 1, ncols, PETSC_DECIDE, acc_ext, &acc_all_));
  PetscCall(VecCreateMPICUDAWithArray(comm, 1, ncols, PETSC_DECIDE, peer_ext, &peer_all_));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, (PetscInt)from.size(), from.data(), PETSC_USE_POINTER, &ix));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, (PetscInt)to.size(), to.data(), PETSC_USE_POINTER, &iy));
  PetscCall(VecScatterCreate(acc_all_, ix, peer_all_, iy, &swap_));
  PetscCall(ISDestroy(&ix));
  PetscCall(ISDestroy(&iy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceGhosts::swap(void)
{
  PetscFunctionBegin;
  PetscCall(VecScatterBegin(swap_, acc_all_, peer_all_, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(swap_, acc_all_, peer_all_, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif

} // namespace pgk_carpcg
