// KSP carpcg: CARP-CG (Gordon & Gordon), CG on the double Kaczmarz sweep, with the schemes of
// src/carpcg/operators.hpp. This file is the PETSc type: options, view, set-up and the CG loop;
// the sweeps and the local parts of the dots are the backend's (carpcg/backend.hpp; carpcg/host.cpp
// on the host, carpcg/device.cpp on the device, chosen by carpcg/backend.cpp).
//
// The CG is the single-reduction form (Chronopoulos & Gear; src/carpcg/cg.hpp): one
// MPIU_Allreduce per iteration carries <r,r>_W, <r,s>_W and, every k-th iteration, ||b - A x||^2.
//
// Norm (KSP_NORM_UNPRECONDITIONED): the true residual ||b - A x|| every k iterations
// (-ksp_carpcg_true_residual_interval k). In between, the reported norm is an estimate: the CG
// residual's W-norm ||r||_W (r = R (b - A x), available from the reduction at no cost) times the
// ratio ||b - A x|| / ||r||_W at the last true-residual iteration. The convergence test is called
// with it; when it reports convergence or divergence on an estimate, the true residual is computed
// at once and the test repeated with it, so a solve never stops on an estimate.
#include "petsc_plugin/ksp/carpcg/backend.hpp"

#include <cmath>

PetscLogEvent PGK_EVENT_CarpcgSetUp, PGK_EVENT_CarpcgColor, PGK_EVENT_CarpcgSweep, PGK_EVENT_CarpcgResidual;

static const char *const KSPCarpcgSchemes[]  = {"sequential", "multicolor", "carp", "cimmino", "KSPCarpcgScheme", "KSP_CARPCG_", NULL};
static const char *const KSPCarpcgBackends[] = {"auto", "host", "device", "KSPCarpcgBackend", "KSP_CARPCG_BACKEND_", NULL};

struct KSP_Carpcg {
  CarpcgSettings                 set;
  PetscInt                       true_interval = 10;
  std::unique_ptr<CarpcgBackend> backend;
  Vec                            x = nullptr, b = nullptr, r = nullptr, s = nullptr, p = nullptr, q = nullptr, t = nullptr;
  PetscInt                       true_checks = 0; // true residuals computed in the last solve
};

static PetscErrorCode KSPCarpcgDestroyVecs(KSP_Carpcg *c)
{
  PetscFunctionBegin;
  for (Vec *v : {&c->x, &c->b, &c->r, &c->s, &c->p, &c->q, &c->t}) PetscCall(VecDestroy(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The sweeps are the preconditioner: PC none is required, and chosen when nothing was chosen.
static PetscErrorCode KSPCarpcgRequirePCNone(KSP ksp, PetscBool error)
{
  PC        pc;
  PetscBool none;

  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &pc));
  if (!((PetscObject)pc)->type_name) PetscCall(PCSetType(pc, PCNONE));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCNONE, &none));
  // The option named with the PC's prefix (a multigrid smoother's PC is -mg_levels_pc_type, set to SOR by PCMG).
  PetscCheck(none || !error, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSP carpcg needs -%spc_type none: its double Kaczmarz sweep is the preconditioner (got PC %s)", ((PetscObject)pc)->prefix ? ((PetscObject)pc)->prefix : "",
             ((PetscObject)pc)->type_name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetUp_Carpcg(KSP ksp)
{
  KSP_Carpcg *c = (KSP_Carpcg *)ksp->data;
  Mat         A;

  PetscFunctionBegin;
  PetscCall(KSPCarpcgRequirePCNone(ksp, PETSC_TRUE));
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  c->backend.reset();
  PetscCall(KSPCarpcgDestroyVecs(c));
  PetscCall(CarpcgCreateBackend(A, c->set, &c->backend));
  for (Vec *v : {&c->x, &c->b, &c->r, &c->s, &c->p, &c->q, &c->t}) PetscCall(c->backend->create_vec(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Copies between the KSP's vectors and the backend's: VecCopy where the types agree, else through
// host arrays (a device vector with a host backend: one logged transfer per solve, not per iteration).
static PetscErrorCode KSPCarpcgCopy(Vec from, Vec to)
{
  const PetscScalar *f;
  PetscScalar       *t;
  PetscInt           nf, nt;
  PetscBool          same;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(from, &nf));
  PetscCall(VecGetLocalSize(to, &nt));
  PetscCheck(nf == nt, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "KSP carpcg: vector of local size %" PetscInt_FMT " for an operator of local size %" PetscInt_FMT, nf, nt);
  PetscCall(PetscObjectTypeCompare((PetscObject)from, ((PetscObject)to)->type_name, &same));
  if (same) {
    PetscCall(VecCopy(from, to));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayRead(from, &f));
  PetscCall(VecGetArrayWrite(to, &t));
  PetscCall(PetscArraycpy(t, f, nf));
  PetscCall(VecRestoreArrayWrite(to, &t));
  PetscCall(VecRestoreArrayRead(from, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// s = r - t, then the local dots {<r,r>_W, <r,s>_W[, <t,t>]} summed over the ranks in one
// reduction. With the true residual t = b - A x is computed between the two (t, the sweep's
// result, is free once s is formed); without it the backend may form s inside the dots.
static PetscErrorCode KSPCarpcgDots(KSP_Carpcg *c, PetscBool with_true, PetscReal sums[3], MPI_Comm comm)
{
  const Vec       u[3] = {c->r, c->r, c->t}, v[3] = {c->r, c->s, c->t};
  const PetscBool w[3]     = {PETSC_TRUE, PETSC_TRUE, PETSC_FALSE};
  PetscReal       local[3] = {0, 0, 0};
  const PetscInt  n        = with_true ? 3 : 2;

  PetscFunctionBegin;
  if (with_true) {
    PetscCall(c->backend->subtract(c->s, c->r, c->t));
    PetscCall(c->backend->residual(c->x, c->b, c->t));
    c->true_checks++;
    PetscCall(c->backend->local_dots(n, u, v, w, local));
  } else PetscCall(c->backend->subtract_dots(c->s, c->r, c->t, n, u, v, w, local));
  PetscCallMPI(MPIU_Allreduce(local, sums, (PetscMPIInt)n, MPIU_REAL, MPIU_SUM, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// t = b - A x and its norm (an extra reduction: the confirmation of a convergence decision).
static PetscErrorCode KSPCarpcgTrueNorm(KSP_Carpcg *c, PetscReal *norm)
{
  PetscFunctionBegin;
  PetscCall(c->backend->residual(c->x, c->b, c->t));
  PetscCall(c->backend->norm2(c->t, norm));
  c->true_checks++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Monitor, history and convergence test of iteration `its` with the norm of the iterate: the
// true residual when `true_norm`, else the estimate, confirmed by a true residual when the test
// would stop on it. Updates the ratio of the estimate.
static PetscErrorCode KSPCarpcgTest(KSP ksp, PetscInt its, PetscReal norm, PetscBool true_norm, PetscReal rw, PetscReal *ratio)
{
  KSP_Carpcg *c = (KSP_Carpcg *)ksp->data;

  PetscFunctionBegin;
  if (ksp->normtype == KSP_NORM_NONE) norm = 0;
  else {
    PetscCall((*ksp->converged)(ksp, its, norm, &ksp->reason, ksp->cnvP));
    if (ksp->reason != KSP_CONVERGED_ITERATING && !true_norm) {
      PetscCall(KSPCarpcgTrueNorm(c, &norm));
      true_norm   = PETSC_TRUE;
      ksp->reason = KSP_CONVERGED_ITERATING;
      PetscCall((*ksp->converged)(ksp, its, norm, &ksp->reason, ksp->cnvP));
    }
    if (true_norm && rw > 0) *ratio = norm / rw;
  }
  ksp->rnorm = norm;
  PetscCall(KSPLogResidualHistory(ksp, norm));
  PetscCall(KSPMonitor(ksp, its, norm));
  if (ksp->normtype == KSP_NORM_NONE) PetscCall((*ksp->converged)(ksp, its, norm, &ksp->reason, ksp->cnvP));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// r = DCSWP(x; b) - x, s = M r = r - DCSWP(r; 0), and the first step length.
static PetscErrorCode KSPCarpcgStart(KSP ksp, PetscReal *gamma, PetscReal *alpha)
{
  KSP_Carpcg *c = (KSP_Carpcg *)ksp->data;
  PetscReal   sums[3];

  PetscFunctionBegin;
  PetscCall(c->backend->double_sweep(c->x, c->b, c->t));
  PetscCall(c->backend->subtract(c->r, c->t, c->x));
  PetscCall(c->backend->double_sweep(c->r, NULL, c->t));
  PetscCall(KSPCarpcgDots(c, PETSC_FALSE, sums, PetscObjectComm((PetscObject)ksp)));
  *gamma = sums[0];
  if (!std::isfinite(sums[0]) || !std::isfinite(sums[1])) ksp->reason = KSP_DIVERGED_NANORINF;
  else if (!(sums[0] > 0 && sums[1] > 0)) ksp->reason = KSP_DIVERGED_BREAKDOWN; // R (b - A x0) = 0 or M singular on it
  else *alpha = sums[0] / sums[1];
  PetscCall(VecCopy(c->r, c->p));
  PetscCall(VecCopy(c->s, c->q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSolve_Carpcg(KSP ksp)
{
  KSP_Carpcg *c    = (KSP_Carpcg *)ksp->data;
  MPI_Comm    comm = PetscObjectComm((PetscObject)ksp);
  PetscReal   bnorm, norm, gamma = 0, alpha = 0, beta = 0, ratio = 1, sums[3];

  PetscFunctionBegin;
  PetscCheck(c->backend, comm, PETSC_ERR_ORDER, "KSP carpcg: KSPSetUp() first");
  PetscCheck(!ksp->transpose_solve, comm, PETSC_ERR_SUP, "KSP carpcg: KSPSolveTranspose() is not supported (solve with the transposed matrix instead)");
  c->true_checks = 0;
  PetscCall(KSPCarpcgCopy(ksp->vec_rhs, c->b));
  PetscCall(c->backend->norm2(c->b, &bnorm));
  PetscCheck(std::isfinite(bnorm), comm, PETSC_ERR_FP, "KSP carpcg: the right-hand side has NaN or Inf entries");
  ksp->its = 0;
  if (ksp->guess_zero) {
    PetscCall(VecSet(c->x, 0.0));
    norm = bnorm;
  } else {
    PetscCall(KSPCarpcgCopy(ksp->vec_sol, c->x));
    PetscCall(KSPCarpcgTrueNorm(c, &norm));
  }
  PetscCall(KSPCarpcgTest(ksp, 0, norm, PETSC_TRUE, 0, &ratio));
  if (!ksp->reason) PetscCall(KSPCarpcgStart(ksp, &gamma, &alpha));
  if (gamma > 0) ratio = norm / PetscSqrtReal(gamma);
  PetscInt i = 0;
  for (; i < ksp->max_it && !ksp->reason; ++i) {
    ksp->its = i + 1;
    // p = r + beta p, q = s + beta q (from the second iteration: the previous one's directions,
    // applied here so that the device can fuse them with the updates); r -= alpha q; x += alpha p;
    // t = DCSWP(r; 0)
    PetscCall(c->backend->step(i > 0 ? PETSC_TRUE : PETSC_FALSE, beta, alpha, c->p, c->q, c->r, c->s, c->x, c->t));
    const PetscBool true_due = ksp->normtype != KSP_NORM_NONE && ksp->its % c->true_interval == 0 ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(KSPCarpcgDots(c, true_due, sums, comm)); // s = r - t [; t = b - A x]; the dots
    if (!std::isfinite(sums[0]) || !std::isfinite(sums[1]) || (true_due && !std::isfinite(sums[2]))) {
      ksp->reason = KSP_DIVERGED_NANORINF;
      break;
    }
    const PetscReal rw = PetscSqrtReal(PetscMax(sums[0], 0.0));
    PetscCall(KSPCarpcgTest(ksp, ksp->its, true_due ? PetscSqrtReal(sums[2]) : ratio * rw, true_due, rw, &ratio));
    if (ksp->reason) break;
    beta                  = sums[0] / gamma;
    const PetscReal denom = sums[1] - beta * sums[0] / alpha;
    if (!(sums[0] > 0 && denom > 0)) { // M is singular on the search direction
      PetscCall(PetscInfo(ksp, "breakdown at iteration %" PetscInt_FMT ": <r,r>_W = %g, <p,Mp>_W = %g\n", ksp->its, (double)sums[0], (double)denom));
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      break;
    }
    alpha = sums[0] / denom;
    gamma = sums[0];
  }
  if (!ksp->reason) ksp->reason = KSP_DIVERGED_ITS;
  PetscCall(KSPCarpcgCopy(c->x, ksp->vec_sol));
  PetscCall(PetscInfo(ksp, "carpcg: %" PetscInt_FMT " iterations, %" PetscInt_FMT " true residuals computed\n", ksp->its, c->true_checks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The iterate lives in the backend's vector during a solve (monitors ask for it).
static PetscErrorCode KSPBuildSolution_Carpcg(KSP ksp, Vec v, Vec *V)
{
  KSP_Carpcg *c = (KSP_Carpcg *)ksp->data;

  PetscFunctionBegin;
  if (!v) v = ksp->vec_sol;
  if (c->x) PetscCall(KSPCarpcgCopy(c->x, v));
  if (V) *V = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_Carpcg(KSP ksp)
{
  KSP_Carpcg *c = (KSP_Carpcg *)ksp->data;

  PetscFunctionBegin;
  c->backend.reset();
  PetscCall(KSPCarpcgDestroyVecs(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_Carpcg(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_Carpcg(ksp));
  delete (KSP_Carpcg *)ksp->data;
  ksp->data = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_Carpcg(KSP ksp, PetscOptionItems PetscOptionsObject)
{
  KSP_Carpcg          *c      = (KSP_Carpcg *)ksp->data;
  PetscInt             scheme = (PetscInt)c->set.scheme;
  MPI_Comm             comm   = PetscObjectComm((PetscObject)ksp);
  const CarpcgSettings before = c->set;

  PetscFunctionBegin;
  PetscCall(KSPCarpcgRequirePCNone(ksp, PETSC_FALSE)); // before PCSetFromOptions() picks a default
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP carpcg (CARP-CG, CG on the double Kaczmarz sweep) options");
  PetscCall(
      PetscOptionsEList("-ksp_carpcg_scheme", "sequential (CGMN), multicolor (exact parallel sweeps), carp (block component averaging), cimmino (the report's GPU mode)", "KSPCARPCG", KSPCarpcgSchemes, 4, KSPCarpcgSchemes[scheme], &scheme, NULL));
  c->set.scheme    = (pgk::carpcg::Scheme)scheme;
  PetscReal lambda = c->set.relaxation();
  PetscBool set;
  PetscCall(PetscOptionsReal("-ksp_carpcg_relax", "Relaxation lambda of the row projections, in (0, 2) (default 1.9 for carp and sequential, 1 for multicolor; cimmino: lambda~ > 0, default 0.35)", "KSPCARPCG", lambda, &lambda, &set));
  if (set) c->set.lambda = lambda;
  PetscCall(PetscOptionsInt("-ksp_carpcg_blocks", "carp: blocks of contiguous rows per rank (0: auto, 1 on the host, one per 64 rows on the device)", "KSPCARPCG", c->set.blocks, &c->set.blocks, NULL));
  PetscCall(PetscOptionsBool("-ksp_carpcg_weighted_dot", "carp: weight the CG dots by the multiplicities |L_j| (false: Euclidean, for comparison)", "KSPCARPCG", c->set.weighted_dot, &c->set.weighted_dot, NULL));
  PetscCall(PetscOptionsBool("-ksp_carpcg_colors_view", "multicolor: print the colouring at set-up", "KSPCARPCG", c->set.colors_view, &c->set.colors_view, NULL));
  PetscInt backend = (PetscInt)c->set.backend;
  PetscCall(PetscOptionsEList("-ksp_carpcg_backend", "Where the sweeps run: auto (the device for a device matrix, except the sequential scheme and multicolor on more than one rank), host, device (an error where it cannot)", "KSPCARPCG",
                              KSPCarpcgBackends, 3, KSPCarpcgBackends[backend], &backend, NULL));
  c->set.backend = (CarpcgBackendType)backend;
  PetscCall(PetscOptionsInt("-ksp_carpcg_lanes_per_row", "Device: lanes sharing a row's projection, 4, 8, 16 or 32 (0: the power of two from the mean row length, halved for multicolor and cimmino); the results do not depend on it", "KSPCARPCG",
                            c->set.lanes, &c->set.lanes, NULL));
  PetscCall(PetscOptionsBool("-ksp_carpcg_swap_sums",
                             "Device, carp on more than one rank: where every shared unknown has one ghost holder, its two holders swap the first half's sums in one exchange (false: reverse ADD, then forward INSERT; the same bits)", "KSPCARPCG",
                             c->set.swap_sums, &c->set.swap_sums, NULL));
  PetscCall(PetscOptionsBool("-ksp_carpcg_overlap_sweeps", "Device, carp on more than one rank: sweep the blocks that touch no shared unknown on a second stream while the halo exchanges run (false: the exchanges wait for every block; the same bits)",
                             "KSPCARPCG", c->set.overlap, &c->set.overlap, NULL));
  PetscCall(PetscOptionsBool("-ksp_carpcg_graph",
                             "Device, multicolor on one rank: replay each double sweep (one kernel per colour and direction) as one CUDA graph launch, captured at its first call (false: launch the kernels one by one; the same bits)", "KSPCARPCG",
                             c->set.graph, &c->set.graph, NULL));
  PetscCall(PetscOptionsBool("-ksp_carpcg_fused_updates", "Device: the CG's four vector updates in one kernel (one rank) and s = r - t inside the dots' kernel (false: one kernel each, as PETSc's Vec operations; the same bits)", "KSPCARPCG",
                             c->set.fuse, &c->set.fuse, NULL));
  PetscCall(PetscOptionsInt("-ksp_carpcg_overlap_colour_blocks",
                            "Device, multicolor: a colour launched after another one starts as a programmatic dependent launch (its rows' heads loaded while the colour before it drains) where its grid has more than this many blocks (-1: one wave of "
                            "resident blocks; 0: every colour after the first; the same bits)",
                            "KSPCARPCG", c->set.overlap_min, &c->set.overlap_min, NULL));
  PetscCall(PetscOptionsInt("-ksp_carpcg_true_residual_interval", "Compute ||b - A x|| every k iterations (between them: the CG residual's W-norm, scaled)", "KSPCARPCG", c->true_interval, &c->true_interval, NULL));
  PetscOptionsHeadEnd();
  PetscCheck(c->set.blocks >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "KSP carpcg: -ksp_carpcg_blocks must be >= 1, or 0 for auto, got %" PetscInt_FMT, c->set.blocks);
  PetscCheck(c->set.lanes == 0 || c->set.lanes == 4 || c->set.lanes == 8 || c->set.lanes == 16 || c->set.lanes == 32, comm, PETSC_ERR_ARG_OUTOFRANGE, "KSP carpcg: -ksp_carpcg_lanes_per_row must be 0, 4, 8, 16 or 32, got %" PetscInt_FMT,
             c->set.lanes);
  PetscCheck(c->set.overlap_min >= -1, comm, PETSC_ERR_ARG_OUTOFRANGE, "KSP carpcg: -ksp_carpcg_overlap_colour_blocks must be -1 (one wave) or >= 0, got %" PetscInt_FMT, c->set.overlap_min);
  PetscCheck(c->true_interval >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "KSP carpcg: -ksp_carpcg_true_residual_interval must be >= 1, got %" PetscInt_FMT, c->true_interval);
  lambda = c->set.relaxation();
  if (c->set.scheme == pgk::carpcg::Scheme::Cimmino) PetscCheck(lambda > 0 && std::isfinite(lambda), comm, PETSC_ERR_ARG_OUTOFRANGE, "KSP carpcg: the cimmino relaxation lambda~ must be > 0, got %g", (double)lambda);
  else PetscCheck(lambda > 0 && lambda < 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "KSP carpcg: -ksp_carpcg_relax must be in (0, 2) for Kaczmarz sweeps, got %g", (double)lambda);
  if (!(c->set == before)) ksp->setupstage = KSP_SETUP_NEW; // another scheme: set up again
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_Carpcg(KSP ksp, PetscViewer viewer)
{
  KSP_Carpcg *c = (KSP_Carpcg *)ksp->data;
  PetscBool   ascii, set, compound = PETSC_FALSE;
  Mat         A = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGetOperatorsSet(ksp, &set, NULL)); // (KSPGetOperators would create empty ones)
  if (set) PetscCall(KSPGetOperators(ksp, &A, NULL));
  if (A) PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &compound, MATSEQAIJCOMPOUND, MATMPIAIJCOMPOUND, ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "CARP-CG: CG on the double Kaczmarz sweep (single-reduction CG, one allreduce per iteration), scheme %s, relaxation %g\n", KSPCarpcgSchemes[(int)c->set.scheme], (double)c->set.relaxation()));
  PetscCall(PetscViewerASCIIPrintf(viewer, "norm: ||b - A x|| every %" PetscInt_FMT " iterations and before stopping; in between the CG residual's W-norm scaled by the last true/W ratio\n", c->true_interval));
  // The backend names the matrix it sweeps: for a compound operator that is its scalar expansion.
  if (compound && c->backend) PetscCall(PetscViewerASCIIPrintf(viewer, "operator %s: swept over its scalar expansion, made at set-up and freed; the lines below name the expansion's type\n", ((PetscObject)A)->type_name));
  if (c->backend) PetscCall(c->backend->view(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPCARPCG - "carpcg": CARP-CG (Gordon & Gordon, Parallel Computing 36, 2010), CG applied to the
   symmetric positive semi-definite operator of a double Kaczmarz sweep. It converges for any
   nonsingular system, including the nonsymmetric and indefinite ones (Helmholtz, strong
   convection) where GMRES and BiCGStab with Jacobi stall.

   Options Database Keys:
+  -ksp_carpcg_scheme <carp>                 - sequential: CGMN, KSWP then BKSWP in natural row order (one rank);
                                               multicolor: a greedy distance-2 colouring of the row-overlap graph, swept
                                               colour by colour: the iterates of CGMN in the coloured order, on any number of ranks;
                                               carp: rows in blocks (ranks, -ksp_carpcg_blocks per rank), each sweeping its own copy
                                               of the unknowns it touches, copies averaged (component averaging);
                                               cimmino: the report's GPU mode (every row projects from the same frozen x, twice)
.  -ksp_carpcg_relax <lambda>                - relaxation in (0, 2), default 1.9 (carp, sequential) or 1 (multicolor); cimmino: lambda~ > 0, default 0.35
.  -ksp_carpcg_blocks <0>                    - carp: blocks of contiguous rows per rank; 0 (auto): 1 on the host (CGMN on one
                                               rank), one block per 64 rows on the device (enough blocks to fill it: one
                                               block is swept by one group of lanes, so a single block runs serially)
.  -ksp_carpcg_weighted_dot <true>           - carp: CG dots weighted by the multiplicities W = diag(|L_j|)
.  -ksp_carpcg_colors_view                   - multicolor: print the colouring at set-up
.  -ksp_carpcg_backend <auto>                - auto: the device for a device matrix (MATAIJCUSPARSE) with carp or cimmino
                                               (any number of ranks) or multicolor (one rank), else the host; host; device
                                               (an error where it cannot)
.  -ksp_carpcg_lanes_per_row <0>            - device: lanes of a warp that share one row's projection (carp: one block's sweep),
                                               4, 8, 16 or 32; 0: the smallest power of two >= the mean stored entries per row
                                               (multicolor and cimmino: >= half of it, two entries a lane; at least 4). The sums
                                               keep their order, so the iterates are the same bits for every value
.  -ksp_carpcg_swap_sums <true>              - device, carp on more than one rank: where every shared unknown has one ghost holder
                                               (2 ranks; in general unless a rank is thinner than the stencil), its owner and its
                                               holder swap their sums of the first half in one exchange and both divide the same sum,
                                               instead of a reverse ADD and a forward INSERT (one exchange less an iteration, the same bits)
.  -ksp_carpcg_overlap_sweeps <true>         - device, carp on more than one rank: the blocks that touch no shared unknown (no ghost,
                                               no unknown another rank holds) sweep on a second stream while the halo exchanges of
                                               the blocks that do run, so the exchanges do not leave the device idle (the same bits)
.  -ksp_carpcg_graph <true>                  - device, multicolor on one rank: each double sweep (a copy and one kernel per colour and
                                               direction) is captured into a CUDA graph at its first call on those vectors and replayed
                                               as one launch afterwards, which saves the host's launch cost of every kernel (the same
                                               kernels in the same order: the same bits); carp and cimmino launch their few kernels directly
.  -ksp_carpcg_fused_updates <true>          - device: the CG's updates p = r + beta p, q = s + beta q, r -= alpha q, x += alpha p
                                               in one kernel (one rank), and s = r - t formed inside the kernel of the dots (iterations
                                               without a true residual); entry by entry the same operations, so the same bits
.  -ksp_carpcg_overlap_colour_blocks <-1>    - device, multicolor: a colour launched right after another one is a programmatic
                                               dependent launch (it loads its rows' bounds, norms and first entries while the colour
                                               before it drains, and touches x only after that one has ended) where its grid has more
                                               than this many blocks; -1: one wave of resident blocks (where the overlap pays: an iteration
                                               -10% at 1M rows on an H200); 0: every colour after the first (the same bits)
-  -ksp_carpcg_true_residual_interval <10>   - compute ||b - A x|| every k iterations

   Notes:
   The double sweep is the preconditioner: the PC must be `PCNONE` (it is chosen when no PC type
   was set; any other is an error). The norm is `KSP_NORM_UNPRECONDITIONED`: the true residual
   every k iterations; between them an estimate, the CG residual's W-norm times the last ratio of
   true to W-norm; a convergence or divergence decision on an estimate is confirmed with a true
   residual before the solve stops. `KSP_NORM_NONE` is supported.

   The CG is the single-reduction variant (Chronopoulos & Gear): one `MPIU_Allreduce` per
   iteration. For carp the dots are weighted by W = diag(|L_j|), |L_j| the number of blocks
   touching unknown j: component averaging is an orthogonal projection only in the space of the
   duplicated components, and with Euclidean dots CG converges much more slowly or breaks down.

   Rows whose entries are all exactly zero are skipped (no threshold); with b_i != 0 the system is
   inconsistent and the solve ends with `KSP_DIVERGED_ITS` or `KSP_DIVERGED_BREAKDOWN`. NaN or Inf
   in the matrix or the right-hand side is an error. Singular systems end with a
   `KSP_DIVERGED_*` reason (breakdown of CG, `-ksp_max_it`), never a hang.

   In parallel, each rank sweeps its rows on its owned unknowns and ghost copies of the others
   (the columns of the MPIAIJ off-diagonal block); the copies are kept consistent with PETSc's
   MatMult scatter pattern: reverse ADD into the owners, forward INSERT to the ghosts. carp
   averages over all blocks of all ranks; multicolor uses one global colouring (computed on
   rank 0 at set-up), so its iterates do not depend on the number of ranks, at the price of two
   exchanges per colour and sweep direction; sequential needs one rank.

   Works on `MATAIJ` and `MATAIJCUSPARSE` (sequential or MPI). A `MATAIJCUSPARSE` operator with
   multicolor (one rank), carp or cimmino (any number of ranks) is swept on the device
   (kernels/carpcg/: the same colouring and blocks as the host, results equal to the host's up to
   the dots' summation order; the vectors stay on the device and only the dots' scalars and, between
   ranks, the halo move each iteration). On more than one rank carp's interior blocks sweep on a
   second stream while the halo exchanges run (-ksp_carpcg_overlap_sweeps). Everything else runs on
   the host; a device matrix there (multicolor on more than one rank, the sequential scheme,
   `-ksp_carpcg_backend host`) is read from PETSc's host copy, logged, and `-ksp_view` and
   `-info` say why. A `MATAIJCOMPOUND` operator (k x k blocks, complex or quaternion entries) is
   swept over its scalar expansion, made at each set-up and freed once the backend has copied its
   rows: `MatConvert()` to `MATAIJCUSPARSE` where the compound operator computes on the device on
   every rank (then the choice above, as for any MATAIJCUSPARSE), to `MATAIJ` for the host backend
   otherwise; -ksp_view names the compound operator, then the expansion it sweeps.
   -log_view: `PgkCarpcgSetUp`, `PgkCarpcgColor`, `PgkCarpcgSweep`, `PgkCarpcgResidual`; on the
   device -ksp_view also splits rank 0's set-up into its phases.

   Level: intermediate

.seealso: `KSPCG`, `KSPCGNE`, `KSPLSQR`, `PCKACZMARZ`, `PCNONE`
M*/
PETSC_EXTERN PetscErrorCode KSPCreate_Carpcg(KSP ksp)
{
  PetscFunctionBegin;
  ksp->data = new KSP_Carpcg();
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));
  ksp->setupnewmatrix      = PETSC_TRUE; // new values: new row norms, copies and weights
  ksp->ops->setup          = KSPSetUp_Carpcg;
  ksp->ops->solve          = KSPSolve_Carpcg;
  ksp->ops->reset          = KSPReset_Carpcg;
  ksp->ops->destroy        = KSPDestroy_Carpcg;
  ksp->ops->setfromoptions = KSPSetFromOptions_Carpcg;
  ksp->ops->view           = KSPView_Carpcg;
  ksp->ops->buildsolution  = KSPBuildSolution_Carpcg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkRegisterKSPCarpcg(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("PgkCarpcgSetUp", PETSCGPUKIT_CLASSID, &PGK_EVENT_CarpcgSetUp));
  PetscCall(PetscLogEventRegister("PgkCarpcgColor", PETSCGPUKIT_CLASSID, &PGK_EVENT_CarpcgColor));
  PetscCall(PetscLogEventRegister("PgkCarpcgSweep", PETSCGPUKIT_CLASSID, &PGK_EVENT_CarpcgSweep));
  PetscCall(PetscLogEventRegister("PgkCarpcgResidual", PETSCGPUKIT_CLASSID, &PGK_EVENT_CarpcgResidual));
  PetscCall(KSPRegister(KSPCARPCG, KSPCreate_Carpcg));
  PetscFunctionReturn(PETSC_SUCCESS);
}
