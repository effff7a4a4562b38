// KSP carpcg host backend: the multicolour scheme (a global colouring, exact in parallel) and
// the -ksp_view lines of every scheme. See host.cpp for the layout of a rank's data.
#include "petsc_plugin/ksp/carpcg/host.hpp"

#include "src/carpcg/sweep.hpp"

namespace pgk_carpcg {

// The greedy colouring of the whole matrix in natural row order, whatever the number of
// ranks: rank 0 gathers the pattern (global column indices, O(nnz) memory there), colours it
// and scatters every rank its rows' colours.
PetscErrorCode HostBackend::gather_coloring(std::vector<int> *local, int *ncolors)
{
  PetscMPIInt rank, nrows, nnz;

  PetscFunctionBegin;
  if (size_ == 1) {
    pgk::carpcg::Coloring c;
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, c = pgk::carpcg::distance2_coloring(ext()));
    *local   = c.color;
    *ncolors = c.ncolors;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Comm_rank(comm_, &rank));
  PetscCall(PetscMPIIntCast(n_, &nrows));
  PetscCall(PetscMPIIntCast(ext_.nnz(), &nnz));
  std::vector<PetscInt> rowlen((size_t)n_), cols((size_t)ext_.nnz());
  for (PetscInt i = 0; i < n_; ++i) {
    rowlen[i] = ext_.rowptr[i + 1] - ext_.rowptr[i];
    for (PetscInt k = ext_.rowptr[i]; k < ext_.rowptr[i + 1]; ++k) cols[k] = ext_.colidx[k] < n_ ? rstart_ + ext_.colidx[k] : ghosts_[ext_.colidx[k] - n_];
  }
  std::vector<PetscMPIInt> row_counts(rank == 0 ? size_ : 0), nnz_counts(rank == 0 ? size_ : 0), row_displs, nnz_displs;
  PetscCallMPI(MPI_Gather(&nrows, 1, MPI_INT, row_counts.data(), 1, MPI_INT, 0, comm_));
  PetscCallMPI(MPI_Gather(&nnz, 1, MPI_INT, nnz_counts.data(), 1, MPI_INT, 0, comm_));
  PetscInt total_rows = 0, total_nnz = 0;
  for (PetscMPIInt r = 0; r < (PetscMPIInt)row_counts.size(); ++r) {
    row_displs.push_back((PetscMPIInt)total_rows);
    nnz_displs.push_back((PetscMPIInt)total_nnz);
    total_rows += row_counts[r];
    total_nnz += nnz_counts[r];
  }
  PetscCheck(total_nnz <= PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "KSP carpcg: the multicolor scheme gathers the pattern to rank 0, and %" PetscInt_FMT " entries exceed MPI's int counts", total_nnz);
  std::vector<PetscInt> all_len((size_t)total_rows), all_cols((size_t)total_nnz), rowptr;
  PetscCallMPI(MPI_Gatherv(rowlen.data(), nrows, MPIU_INT, all_len.data(), row_counts.data(), row_displs.data(), MPIU_INT, 0, comm_));
  PetscCallMPI(MPI_Gatherv(cols.data(), nnz, MPIU_INT, all_cols.data(), nnz_counts.data(), nnz_displs.data(), MPIU_INT, 0, comm_));
  std::vector<int> all_colors;
  int              nc = 0;
  if (rank == 0) {
    rowptr.assign((size_t)total_rows + 1, 0);
    for (PetscInt i = 0; i < total_rows; ++i) rowptr[i + 1] = rowptr[i] + all_len[i];
    pgk::carpcg::Coloring c;
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, c = pgk::carpcg::distance2_coloring(pgk::CsrView{total_rows, N_, rowptr.data(), all_cols.data(), nullptr}));
    all_colors = std::move(c.color);
    nc         = c.ncolors;
  }
  local->assign((size_t)n_, 0);
  PetscCallMPI(MPI_Scatterv(all_colors.data(), row_counts.data(), row_displs.data(), MPI_INT, local->data(), nrows, MPI_INT, 0, comm_));
  PetscCallMPI(MPI_Bcast(&nc, 1, MPI_INT, 0, comm_));
  *ncolors = nc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Owned unknowns that are ghosts on some rank: a reverse ADD of ones from every ghost copy.
PetscErrorCode HostBackend::shared_owned(std::vector<char> *shared)
{
  LocalForm f;
  Vec       local;

  PetscFunctionBegin;
  PetscCall(VecGhostGetLocalForm(acc_, &local));
  PetscCall(VecSet(local, 0.0));
  PetscCall(VecGhostRestoreLocalForm(acc_, &local));
  PetscCall(f.get(acc_));
  for (PetscInt g = 0; g < nghost_; ++g) f.data()[n_ + g] = 1.0;
  PetscCall(f.restore());
  PetscCall(VecGhostUpdateBegin(acc_, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecGhostUpdateEnd(acc_, ADD_VALUES, SCATTER_REVERSE));
  const PetscScalar *a;
  PetscCall(VecGetArrayRead(acc_, &a));
  shared->assign((size_t)n_, 0);
  for (PetscInt j = 0; j < n_; ++j) (*shared)[j] = a[j] > 0;
  PetscCall(VecRestoreArrayRead(acc_, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostBackend::setup_multicolor()
{
  std::vector<int> colors;
  int              nc;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_CarpcgColor, 0, 0, 0, 0));
  PetscCall(gather_coloring(&colors, &nc));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_PLIB, coloring_ = pgk::carpcg::coloring_from_colors(std::move(colors), nc));
  PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgColor, 0, 0, 0, 0));
  exchange_.assign((size_t)nc, 0);
  shared_.clear();
  if (size_ > 1) {
    std::vector<char> shared;
    std::vector<int>  touch((size_t)nc, 0);
    PetscCall(shared_owned(&shared));
    for (PetscInt j = 0; j < n_; ++j)
      if (shared[j]) shared_.push_back(j);
    for (PetscInt i = 0; i < n_; ++i)
      for (PetscInt k = ext_.rowptr[i]; k < ext_.rowptr[i + 1]; ++k) {
        const PetscInt j = ext_.colidx[k];
        if (j >= n_ || shared[j]) touch[coloring_.color[i]] = 1;
      }
    PetscCallMPI(MPIU_Allreduce(touch.data(), exchange_.data(), nc, MPI_INT, MPI_MAX, comm_));
    PetscCall(VecDuplicate(z_, &delta_));
    Vec local;
    PetscCall(VecGhostGetLocalForm(delta_, &local));
    PetscCall(VecSet(local, 0.0));
    PetscCall(VecGhostRestoreLocalForm(delta_, &local));
  }
  // Global class sizes for -ksp_view and -ksp_carpcg_colors_view.
  std::vector<PetscInt> sizes((size_t)nc);
  for (int c = 0; c < nc; ++c) sizes[c] = coloring_.class_size(c);
  class_sizes_.assign((size_t)nc, 0);
  if (nc > 0) PetscCallMPI(MPIU_Allreduce(sizes.data(), class_sizes_.data(), nc, MPIU_INT, MPI_SUM, comm_));
  if (set_.colors_view) {
    PetscCall(PetscPrintf(comm_, "KSP carpcg colouring: %d colours (greedy distance-2 in natural row order) for %" PetscInt_FMT " rows; rows per colour:", nc, N_));
    for (int c = 0; c < nc; ++c) PetscCall(PetscPrintf(comm_, " %" PetscInt_FMT, class_sizes_[c]));
    PetscCall(PetscPrintf(comm_, "\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// After one colour under MPI: the logged updates of ghost copies go to their owners (one rank
// updated each unknown, the others add exact zeros), then every ghost copy is refreshed.
PetscErrorCode HostBackend::exchange_deltas()
{
  LocalForm z, d;

  PetscFunctionBegin;
  PetscCall(VecGhostUpdateBegin(delta_, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecGhostUpdateEnd(delta_, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(z.get(z_));
  PetscCall(d.get(delta_));
  for (const PetscInt j : shared_) {
    z.data()[j] += d.data()[j];
    d.data()[j] = 0;
  }
  for (PetscInt g = 0; g < nghost_; ++g) d.data()[n_ + g] = 0;
  PetscCall(d.restore());
  PetscCall(z.restore());
  PetscCall(VecGhostUpdateBegin(z_, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGhostUpdateEnd(z_, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Colours 0..c-1 forward, then c-1..0 backward, on z (loaded with x and its ghosts).
PetscErrorCode HostBackend::sweep_multicolor(const PetscScalar *b, Vec y)
{
  const int nc = coloring_.ncolors;

  PetscFunctionBegin;
  for (int pass = 0; pass < 2; ++pass) {
    const bool backward = pass == 1;
    for (int t = 0; t < nc; ++t) {
      const int  c        = backward ? nc - 1 - t : t;
      const bool exchange = size_ > 1 && exchange_[c];
      LocalForm  z, d;
      PetscCall(z.get(z_));
      if (exchange) PetscCall(d.get(delta_));
      const pgk::carpcg::UpdateLog log = exchange ? pgk::carpcg::UpdateLog{n_, d.data() + n_} : pgk::carpcg::UpdateLog{};
      pgk::carpcg::sweep(ext(), norms2_.data(), b, lambda_, coloring_.rows.data() + coloring_.class_ptr[c], coloring_.class_size(c), backward, z.data(), log);
      if (exchange) PetscCall(d.restore());
      PetscCall(z.restore());
      if (exchange) PetscCall(exchange_deltas());
    }
  }
  PetscCall(VecCopy(z_, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HostBackend::view(PetscViewer viewer)
{
  PetscFunctionBegin;
  switch (set_.scheme) {
  case Scheme::Sequential: PetscCall(PetscViewerASCIIPrintf(viewer, "scheme sequential: CGMN, KSWP then BKSWP over the rows in natural order\n")); break;
  case Scheme::Multicolor: {
    const int nc = coloring_.ncolors;
    PetscInt  lo = nc ? class_sizes_[0] : 0, hi = lo, ex = 0;
    for (int c = 0; c < nc; ++c) lo = PetscMin(lo, class_sizes_[c]), hi = PetscMax(hi, class_sizes_[c]), ex += exchange_[c] ? 1 : 0;
    PetscCall(PetscViewerASCIIPrintf(viewer, "scheme multicolor: %d colours (greedy distance-2 in natural row order), %" PetscInt_FMT "..%" PetscInt_FMT " rows per colour; iterates of sequential CGMN in the coloured order\n", nc, lo, hi));
    if (size_ > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "global colouring on %d ranks (gathered on rank 0 at set-up); ghost updates exchanged after %" PetscInt_FMT " of %d colours per sweep direction\n", size_, ex, nc));
  } break;
  case Scheme::Carp:
    PetscCall(PetscViewerASCIIPrintf(viewer, "scheme carp: %" PetscInt_FMT " blocks of contiguous rows (-ksp_carpcg_blocks %" PetscInt_FMT " per rank%s), component averaging%s\n", blocks_all_, set_.blocks,
                                     set_.blocks_auto ? ", auto on the host" : "", size_ > 1 ? " across ranks by the MatMult scatter (reverse ADD, divide by |L_j|, forward INSERT)" : ""));
    PetscCall(PetscViewerASCIIPrintf(viewer, "dots %s; max |L_j| = %" PetscInt_FMT ", %" PetscInt_FMT " unknowns shared by blocks\n",
                                     set_.weighted_dot ? "weighted by the multiplicities W = diag(|L_j|)" : "Euclidean (-ksp_carpcg_weighted_dot 0: CG on a nonsymmetric operator)", max_mult_, shared_count_));
    break;
  case Scheme::Cimmino: PetscCall(PetscViewerASCIIPrintf(viewer, "scheme cimmino: the report's GPU mode, every row projects from the same frozen x, twice (lambda~ scales each pass)\n")); break;
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "relaxation lambda = %g; swept on the host, %" PetscInt_FMT " stored entries on %d rank%s\n", (double)lambda_, nnz_all_, size_, size_ > 1 ? "s" : ""));
  if (device_matrix_)
    PetscCall(PetscViewerASCIIPrintf(viewer, "operator %s: read from PETSc's host copy of the matrix (a logged GpuToCpu when the device copy is newer); not on the device: %s\n", mat_type_,
                                     device_note_.empty() ? "not a usable device" : device_note_.c_str()));
  else if (!device_note_.empty()) PetscCall(PetscViewerASCIIPrintf(viewer, "operator: %s\n", device_note_.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk_carpcg
