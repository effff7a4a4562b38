// The device backend of KSP carpcg: multicolor, cimmino and carp on kernels/carpcg/
// (pgk::cuda::CarpcgDevice) for a MATSEQAIJCUSPARSE or MATMPIAIJCUSPARSE operator; on more than
// one rank carp and cimmino (device_ranks.cpp: each rank's rows over its owned and ghost
// unknowns, the ghosts exchanged between device arrays by PETSc's scatter).
//
// Set-up on one rank reads the device CSR (PgkMatGetCSR, PGK_MEM_DEVICE) and the host structure
// every AIJ matrix keeps (no transfer), computes the colouring on the host from that structure with
// src/carpcg (the host backend's colouring, so the iterates are the same), checks the values and
// uploads the scheme's data once through kernels/common/transfer.hpp (logged). The vectors are
// the matrix's VECCUDA; a double sweep and a residual move nothing between host and device on one
// rank, and the dots bring back only their scalars (one logged GpuToCpu per call). NaN/Inf
// entries are a PETSc error on every rank, as on the host.
//
// A build without the CUDA kernels does not compile this backend: CarpcgCreateDeviceBackend then
// errors, and backend.cpp never chooses it (PgkMatUseDevice is false without the kernels).
#include "petsc_plugin/ksp/carpcg/device.hpp"

#include "petsc_plugin/sys/csr_access.hpp"

#if defined(PGK_HAVE_CUDA)

namespace pgk_carpcg {

DeviceBackend::~DeviceBackend()
{
  PetscFunctionBeginUser;
  PetscCallVoid(VecDestroy(&tmpl_));
  PetscCallVoid(VecDestroy(&mid_));
  PetscFunctionReturnVoid();
}

// The host backend's colouring on one rank: greedy distance-2 in natural row order.
PetscErrorCode DeviceBackend::colour(const pgk::CsrView &pattern, pgk::carpcg::Coloring *c)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_CarpcgColor, 0, 0, 0, 0));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, *c = pgk::carpcg::distance2_coloring(pattern));
  PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgColor, 0, 0, 0, 0));
  if (set_.colors_view) {
    PetscCall(PetscPrintf(comm_, "KSP carpcg colouring: %d colours (greedy distance-2 in natural row order) for %" PetscInt_FMT " rows; rows per colour:", c->ncolors, n_));
    for (int k = 0; k < c->ncolors; ++k) PetscCall(PetscPrintf(comm_, " %" PetscInt_FMT, (PetscInt)c->class_size(k)));
    PetscCall(PetscPrintf(comm_, "\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One rank: the device CSR as PETSc holds it, the colouring from the host structure.
PetscErrorCode DeviceBackend::setup_one_rank(Mat A, const pgk::cuda::CarpcgDeviceOptions &o, pgk::cuda::CarpcgValueCheck *check)
{
  PgkMatCSR             dc, hc;
  void                 *stream;
  pgk::carpcg::Coloring coloring;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(PgkMatGetCSRStructureHost(A, &hc));
  n_   = hc.csr.nrows;
  nnz_ = hc.csr.nnz_host();
  if (n_ > 0) PetscCall(PgkMatGetCSR(A, PGK_MEM_DEVICE, &dc)); // an empty matrix may have no device arrays
  else dc.csr = hc.csr;                                        // never read (nothing to copy)
  if (set_.scheme == Scheme::Multicolor) PetscCall(colour(hc.csr, &coloring));
  PgkCallCxx(comm_, PETSC_ERR_GPU, *check = dev_.setup(dc.csr, hc.csr, o, stream, set_.scheme == Scheme::Multicolor ? &coloring : nullptr));
  if (n_ > 0) PetscCall(PgkMatRestoreCSR(A, &dc));
  PetscCall(PgkMatRestoreCSR(A, &hc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// NaN/Inf entries: an error on every rank (a rank that found none must not go on into the
// collective rest of the set-up while another one stops).
PetscErrorCode DeviceBackend::check_values(const pgk::cuda::CarpcgValueCheck &check)
{
  PetscInt bad = (PetscInt)check.bad_rows, first = check.bad_rows ? rstart_ + (PetscInt)check.first_bad_row : PETSC_INT_MAX, bad_all, first_all;

  PetscFunctionBegin;
  PetscCallMPI(MPIU_Allreduce(&bad, &bad_all, 1, MPIU_INT, MPI_SUM, comm_));
  PetscCallMPI(MPIU_Allreduce(&first, &first_all, 1, MPIU_INT, MPI_MIN, comm_));
  PetscCheck(bad_all == 0, comm_, PETSC_ERR_FP, "KSP carpcg: the matrix has NaN or Inf entries (or a row whose squared norm overflows) in %" PetscInt_FMT " rows, the first global row %" PetscInt_FMT, bad_all, first_all);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// carp's -ksp_view figures over all ranks, from the owned unknowns' global multiplicities.
PetscErrorCode DeviceBackend::carp_figures(void)
{
  const pgk::carpcg::BlockPlan *p        = dev_.plan();
  PetscInt                      local[3] = {p ? (PetscInt)p->nblocks() : 0, 0, 0}, global[3];

  PetscFunctionBegin;
  for (const double m : mult_) local[1] = PetscMax(local[1], (PetscInt)m), local[2] += m > 1 ? 1 : 0;
  PetscCallMPI(MPIU_Allreduce(&local[0], &global[0], 1, MPIU_INT, MPI_SUM, comm_));
  PetscCallMPI(MPIU_Allreduce(&local[1], &global[1], 1, MPIU_INT, MPI_MAX, comm_));
  PetscCallMPI(MPIU_Allreduce(&local[2], &global[2], 1, MPIU_INT, MPI_SUM, comm_));
  blocks_all_   = global[0];
  max_mult_     = global[1];
  shared_count_ = global[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::setup(Mat A)
{
  pgk::cuda::CarpcgValueCheck    check;
  pgk::cuda::CarpcgDeviceOptions o;
  PetscLogDouble                 t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  comm_ = PetscObjectComm((PetscObject)A);
  PetscCallMPI(MPI_Comm_size(comm_, &size_));
  PetscCall(PetscStrncpy(mat_type_, ((PetscObject)A)->type_name, sizeof mat_type_));
  PetscCall(MatGetOwnershipRange(A, &rstart_, NULL));
  PetscCall(MatCreateVecs(A, &tmpl_, NULL));
  o.scheme             = set_.scheme;
  o.lambda             = lambda_;
  o.blocks             = set_.blocks;
  o.weighted_dot       = set_.weighted_dot ? true : false;
  o.lanes              = (int)set_.lanes;
  o.host_threads       = (int)PgkNodeThreadShare();
  o.graph              = set_.graph ? true : false;
  o.overlap_min_blocks = (long)set_.overlap_min;
  if (size_ == 1) PetscCall(setup_one_rank(A, o, &check));
  else PetscCall(setup_ranks(A, o, &check));
  PetscCall(check_values(check));
  PetscCallMPI(MPIU_Allreduce(&nnz_, &nnz_all_, 1, MPIU_INT, MPI_SUM, comm_));
  if (size_ > 1) PetscCall(finish_ranks());
  else if (dev_.plan()) mult_.assign(dev_.plan()->multiplicity().begin(), dev_.plan()->multiplicity().end());
  if (set_.scheme == Scheme::Carp) PetscCall(carp_figures());
  PetscCall(PetscTime(&t1));
  setup_seconds_ = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Where rank 0's set-up went: the device set-up's phases (each ended by a stream synchronization)
// and the rest (the host CSR, a colouring made here, under MPI the extended rows and the ghost
// plumbing, the reductions).
PetscErrorCode DeviceBackend::view_setup(PetscViewer viewer)
{
  const pgk::cuda::CarpcgSetupTimes &t           = dev_.setup_times();
  const double                       rest        = PetscMax(0.0, (double)setup_seconds_ - (t.operator_copy + t.scheme_host + t.flatten + t.upload));
  static const char *const           host_part[] = {"host data", "colouring", "block plan", "transpose"};
  char                               flat[64]    = "";
  const PetscInt                     threads     = PgkNodeThreadShare();

  PetscFunctionBegin;
  if (set_.scheme == Scheme::Carp) PetscCall(PetscSNPrintf(flat, sizeof flat, ", flat arrays %.3g s", t.flatten));
  PetscCall(PetscViewerASCIIPrintf(viewer, "set-up on rank 0: %.3g s: operator copy and row norms %.3g s, %s %.3g s%s, scheme transfers %.3g s, the rest %.3g s (%" PetscInt_FMT " host thread%s)\n", (double)setup_seconds_, t.operator_copy,
                                   host_part[(int)set_.scheme], t.scheme_host, flat, t.upload, rest, threads, threads > 1 ? "s" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::double_sweep(Vec x, Vec b, Vec y)
{
  return sweep(x, b, y, nullptr);
}

// On one rank nothing overlaps the update (PETSc's VecAXPY, then the sweep).
PetscErrorCode DeviceBackend::update_and_sweep(Vec u, PetscReal a, Vec v, Vec x, Vec y)
{
  const Update update = {u, a, v};

  PetscFunctionBegin;
  if (size_ == 1) PetscCall(CarpcgBackend::update_and_sweep(u, a, v, x, y));
  else PetscCall(sweep(x, NULL, y, &update));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::sweep(Vec x, Vec b, Vec y, const Update *update)
{
  PetscScalar *xa, *ba = nullptr, *ya;
  void        *stream;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_CarpcgSweep, x, y, 0, 0));
  if (size_ > 1) {
    if (b) PetscCall(PgkVecGetArray(b, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ba));
    PetscCall(double_sweep_ranks(x, ba, y, update));
    if (b) PetscCall(PgkVecRestoreArray(b, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ba));
    PetscCall(PetscLogGpuFlops(8.0 * (PetscLogDouble)nnz_));
    PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgSweep, x, y, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  if (b) PetscCall(PgkVecGetArray(b, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ba));
  PetscCall(PgkVecGetArray(y, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &ya));
  PetscCall(PetscLogGpuTimeBegin());
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.double_sweep(xa, ba, ya, stream));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PgkVecRestoreArray(y, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &ya));
  if (b) PetscCall(PgkVecRestoreArray(b, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ba));
  PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PetscLogGpuFlops(8.0 * (PetscLogDouble)nnz_));
  PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgSweep, x, y, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::residual(Vec x, Vec b, Vec t)
{
  PetscScalar *xa = nullptr, *ba, *ta;
  void        *stream;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_CarpcgResidual, x, b, t, 0));
  PetscCall(PgkGetDeviceStream(&stream));
  if (size_ > 1) PetscCall(load(x)); // x_ext = [x | its ghosts]
  else PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PgkVecGetArray(b, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ba));
  PetscCall(PgkVecGetArray(t, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &ta));
  PetscCall(PetscLogGpuTimeBegin());
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.residual(size_ > 1 ? x_ext_.data() : xa, ba, ta, stream));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PgkVecRestoreArray(t, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &ta));
  PetscCall(PgkVecRestoreArray(b, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ba));
  if (size_ == 1) PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PetscLogGpuFlops(2.0 * (PetscLogDouble)nnz_));
  PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgResidual, x, b, t, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The CG loop's vector updates (backend.hpp): the bits of PETSc's device VecAXPY, VecWAXPY(w, -1, y,
// x) and VecAYPX, launched on PETSc's stream without waiting for the device. The vectors are
// distinct (the loop's r, s, t, p, q, x).
PetscErrorCode DeviceBackend::axpy(Vec y, PetscReal a, Vec x)
{
  void *stream;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(update_iterate({y, a, x}, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::subtract(Vec w, Vec x, Vec y)
{
  PetscScalar *xa, *ya, *wa;
  void        *stream;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PgkVecGetArray(y, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ya));
  PetscCall(PgkVecGetArray(w, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &wa));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::CarpcgDevice::subtract(n_, xa, ya, wa, stream));
  PetscCall(PgkVecRestoreArray(w, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &wa));
  PetscCall(PgkVecRestoreArray(y, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ya));
  PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PetscLogGpuFlops((PetscLogDouble)n_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::aypx(Vec y, PetscReal a, Vec x)
{
  PetscScalar *xa, *ya;
  void        *stream;

  PetscFunctionBegin;
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PgkVecGetArray(y, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &ya));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::CarpcgDevice::aypx(n_, a, xa, ya, stream));
  PetscCall(PgkVecRestoreArray(y, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &ya));
  PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PetscLogGpuFlops(2.0 * (PetscLogDouble)n_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The CG's four vector updates in one kernel on one rank (CarpcgDevice::cg_step: their bits), then
// the double sweep; elsewhere (more than one rank, where the sweep schedules x's update, or
// -ksp_carpcg_fused_updates 0) the base class's launches.
PetscErrorCode DeviceBackend::step(PetscBool directions, PetscReal beta, PetscReal alpha, Vec p, Vec q, Vec r, Vec s, Vec x, Vec t)
{
  PetscScalar *pa, *qa, *ra, *sa, *xa;
  void        *stream;

  PetscFunctionBegin;
  if (size_ > 1 || !set_.fuse) {
    PetscCall(CarpcgBackend::step(directions, beta, alpha, p, q, r, s, x, t));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(PgkVecGetArray(p, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &pa));
  PetscCall(PgkVecGetArray(q, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &qa));
  PetscCall(PgkVecGetArray(r, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &ra));
  PetscCall(PgkVecGetArray(s, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &sa));
  PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &xa));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::CarpcgDevice::cg_step(n_, directions ? true : false, beta, alpha, pa, qa, ra, sa, xa, stream));
  PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &xa));
  PetscCall(PgkVecRestoreArray(s, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &sa));
  PetscCall(PgkVecRestoreArray(r, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &ra));
  PetscCall(PgkVecRestoreArray(q, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &qa));
  PetscCall(PgkVecRestoreArray(p, PGK_ACCESS_READ_WRITE, PETSC_MEMTYPE_DEVICE, &pa));
  PetscCall(PetscLogGpuFlops((directions ? 8.0 : 4.0) * (PetscLogDouble)n_));
  PetscCall(double_sweep(r, NULL, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One reduction kernel pair for all n dots; only the n scalars come back (one logged copy). With
// w (subtract_dots, -ksp_carpcg_fused_updates): w = x - y formed in the first kernel.
PetscErrorCode DeviceBackend::dots_with(Vec w, Vec x, Vec y, PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[])
{
  PetscScalar *ua[pgk::cuda::CarpcgDevice::kMaxDots], *va[pgk::cuda::CarpcgDevice::kMaxDots], *xa = nullptr, *ya = nullptr, *wa = nullptr;
  bool         wt[pgk::cuda::CarpcgDevice::kMaxDots];
  void        *stream;

  PetscFunctionBegin;
  PetscCheck(n >= 0 && n <= pgk::cuda::CarpcgDevice::kMaxDots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "KSP carpcg: %" PetscInt_FMT " dots at once (at most %d)", n, pgk::cuda::CarpcgDevice::kMaxDots);
  PetscCall(PgkGetDeviceStream(&stream));
  if (w) { // w first, for writing: the dots' operands that are w then see its new array
    PetscCall(PgkVecGetArray(w, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &wa));
    PetscCall(PgkVecGetArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
    PetscCall(PgkVecGetArray(y, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ya));
  }
  for (PetscInt k = 0; k < n; ++k) {
    if (u[k] == w) ua[k] = wa;
    else PetscCall(PgkVecGetArray(u[k], PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ua[k]));
    if (v[k] == w) va[k] = wa;
    else PetscCall(PgkVecGetArray(v[k], PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &va[k]));
    wt[k] = weighted[k] ? true : false;
  }
  PetscCall(PetscLogGpuTimeBegin());
  if (w) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.subtract_dots(xa, ya, wa, (int)n, ua, va, wt, out, stream));
  else PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, dev_.dots((int)n, ua, va, wt, out, stream));
  PetscCall(PetscLogGpuTimeEnd());
  for (PetscInt k = n - 1; k >= 0; --k) {
    if (v[k] != w) PetscCall(PgkVecRestoreArray(v[k], PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &va[k]));
    if (u[k] != w) PetscCall(PgkVecRestoreArray(u[k], PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ua[k]));
  }
  if (w) {
    PetscCall(PgkVecRestoreArray(y, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &ya));
    PetscCall(PgkVecRestoreArray(x, PGK_ACCESS_READ, PETSC_MEMTYPE_DEVICE, &xa));
    PetscCall(PgkVecRestoreArray(w, PGK_ACCESS_WRITE, PETSC_MEMTYPE_DEVICE, &wa));
    PetscCall(PetscLogGpuFlops((PetscLogDouble)n_));
  }
  PetscCall(PetscLogGpuFlops(3.0 * n * n_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::local_dots(PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[])
{
  return dots_with(NULL, NULL, NULL, n, u, v, weighted, out);
}

PetscErrorCode DeviceBackend::subtract_dots(Vec w, Vec x, Vec y, PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[])
{
  PetscFunctionBegin;
  if (set_.fuse) PetscCall(dots_with(w, x, y, n, u, v, weighted, out));
  else PetscCall(CarpcgBackend::subtract_dots(w, x, y, n, u, v, weighted, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The host backend's scheme lines (multicolor.cpp), from the device set-up's figures.
PetscErrorCode DeviceBackend::view_scheme(PetscViewer viewer)
{
  PetscFunctionBegin;
  switch (set_.scheme) {
  case Scheme::Multicolor: {
    const pgk::carpcg::Coloring *c  = dev_.coloring();
    const int                    nc = c ? c->ncolors : 0;
    PetscInt                     lo = nc ? (PetscInt)c->class_size(0) : 0, hi = lo;
    for (int k = 0; k < nc; ++k) lo = PetscMin(lo, (PetscInt)c->class_size(k)), hi = PetscMax(hi, (PetscInt)c->class_size(k));
    PetscCall(PetscViewerASCIIPrintf(viewer, "scheme multicolor: %d colours (greedy distance-2 in natural row order), %" PetscInt_FMT "..%" PetscInt_FMT " rows per colour; iterates of sequential CGMN in the coloured order\n", nc, lo, hi));
  } break;
  case Scheme::Carp:
    PetscCall(PetscViewerASCIIPrintf(
        viewer, "scheme carp: %" PetscInt_FMT " blocks of contiguous rows (-ksp_carpcg_blocks %" PetscInt_FMT " per rank%s), component averaging%s; one group of lanes per block sweeps its rows in order, so -ksp_carpcg_blocks sets the parallelism\n",
        blocks_all_, set_.blocks, set_.blocks_auto ? ", auto: one per 64 local rows" : "", size_ > 1 ? " across ranks by the MatMult scatter (reverse ADD, divide by |L_j|, forward INSERT)" : ""));
    if (size_ > 1)
      PetscCall(PetscViewerASCIIPrintf(viewer, "%s\n",
                                       swap_ready_
                                           ? "first half: each shared unknown's owner and ghost holder swap their sums in one exchange and divide the same sum (-ksp_carpcg_swap_sums)"
                                           : (set_.swap_sums ? "first half: reverse ADD and forward INSERT (an unknown has more than one ghost holder, so no swap of sums)" : "first half: reverse ADD and forward INSERT (-ksp_carpcg_swap_sums 0)")));
    if (size_ > 1 && set_.overlap)
      PetscCall(PetscViewerASCIIPrintf(viewer, "overlap: the %" PetscInt_FMT " blocks that touch a shared unknown sweep before each exchange, the other %" PetscInt_FMT " on a second stream while it runs (-ksp_carpcg_overlap_sweeps)\n", boundary_all_,
                                       blocks_all_ - boundary_all_));
    else if (size_ > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "overlap: none, every block sweeps before each exchange (-ksp_carpcg_overlap_sweeps 0)\n"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "dots %s; max |L_j| = %" PetscInt_FMT ", %" PetscInt_FMT " unknowns shared by blocks\n",
                                     set_.weighted_dot ? "weighted by the multiplicities W = diag(|L_j|)" : "Euclidean (-ksp_carpcg_weighted_dot 0: CG on a nonsymmetric operator)", max_mult_, shared_count_));
    break;
  case Scheme::Cimmino: PetscCall(PetscViewerASCIIPrintf(viewer, "scheme cimmino: the report's GPU mode, every row projects from the same frozen x, twice (lambda~ scales each pass)\n")); break;
  case Scheme::Sequential: break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceBackend::view(PetscViewer viewer)
{
  static const char *const how[] = {"", "one kernel per colour and direction, a group of lanes per row", "a group of lanes per block on its compact copy, averaged per unknown in block order",
                                    "coefficients per row, then column sums over the explicit transpose"};

  PetscFunctionBegin;
  PetscCall(view_scheme(viewer));
  PetscCall(view_setup(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "relaxation lambda = %g; swept on the device (%s), %" PetscInt_FMT " stored entries on %d rank%s\n", (double)lambda_, how[(int)set_.scheme], nnz_all_, size_, size_ > 1 ? "s" : ""));
  if (size_ > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "each rank sweeps its rows over its owned and ghost unknowns; the ghosts move between device arrays by PETSc's scatter of the MatMult pattern (only the halo)\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%d lanes per row (-ksp_carpcg_lanes_per_row %" PetscInt_FMT "%s)\n", dev_.lanes(), set_.lanes, set_.lanes ? "" : ": from the mean row length"));
  if (size_ == 1 && set_.scheme == Scheme::Multicolor)
    PetscCall(PetscViewerASCIIPrintf(viewer, "double sweep: %s (-ksp_carpcg_graph); %" PetscInt_FMT " graphs held, %" PetscInt_FMT " replays so far\n", set_.graph ? "replayed as one CUDA graph launch" : "kernels launched one by one",
                                     (PetscInt)dev_.graphs(), (PetscInt)dev_.graph_launches()));
  else if (size_ == 1) PetscCall(PetscViewerASCIIPrintf(viewer, "double sweep: kernels launched one by one (-ksp_carpcg_graph: multicolor only)\n"));
  if (set_.scheme == Scheme::Multicolor)
    PetscCall(PetscViewerASCIIPrintf(viewer, "a colour after another starts while that one drains where it has more than %ld blocks of %d rows (-ksp_carpcg_overlap_colour_blocks %" PetscInt_FMT "%s)\n", dev_.overlap_min_blocks(),
                                     dev_.colour_rows_per_block(), set_.overlap_min, set_.overlap_min < 0 ? ": one wave of resident blocks" : ""));
  if (!set_.fuse) PetscCall(PetscViewerASCIIPrintf(viewer, "CG updates: one kernel each, as PETSc's Vec operations (-ksp_carpcg_fused_updates 0)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "CG updates: %ss = r - t formed in the dots' kernel (-ksp_carpcg_fused_updates)\n", size_ == 1 ? "p = r + beta p, q = s + beta q, r -= alpha q, x += alpha p in one kernel; " : ""));
  PetscCall(
      PetscViewerASCIIPrintf(viewer, "operator %s: device CSR, vectors stay on the device; only the dots' scalars come back each iteration%s\n", mat_type_, size_ > 1 ? " (and the halo, staged through the host where MPI is not GPU-aware)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk_carpcg

PetscErrorCode CarpcgCreateDeviceBackend(Mat A, const CarpcgSettings &s, std::unique_ptr<CarpcgBackend> *backend)
{
  PetscFunctionBegin;
  auto dev = std::make_unique<pgk_carpcg::DeviceBackend>(s);
  PetscCall(PetscLogEventBegin(PGK_EVENT_CarpcgSetUp, A, 0, 0, 0));
  PetscCall(dev->setup(A));
  PetscCall(PetscLogEventEnd(PGK_EVENT_CarpcgSetUp, A, 0, 0, 0));
  *backend = std::move(dev);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#else // no CUDA kernels in this build

PetscErrorCode CarpcgCreateDeviceBackend(Mat A, const CarpcgSettings &s, std::unique_ptr<CarpcgBackend> *backend)
{
  PetscFunctionBegin;
  (void)s;
  (void)backend;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "KSP carpcg: this petscgpukit was built without its CUDA kernels (PETSc without CUDA, or PGK_ENABLE_CUDA=OFF): no device backend");
}

#endif
