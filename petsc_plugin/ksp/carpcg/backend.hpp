// KSP carpcg internals shared by the type (ksp/carpcg.cpp: options, view, the CG loop) and its
// backends (ksp/carpcg/), which own the operator's data and apply the double sweeps and the local
// parts of the dots where that data lives. ksp/carpcg/host.cpp is the host backend (every scheme,
// any number of ranks); ksp/carpcg/device.cpp the device backend (on kernels/carpcg/; multicolor,
// cimmino and carp on one rank, carp and cimmino on more: device_ranks.cpp). The CG loop is the same for both: it only calls the backend and
// PETSc's Vec operations on the vectors the backend creates.
#pragma once

#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <petsc/private/kspimpl.h>

#include <memory>

#include "src/carpcg/operators.hpp"

extern PetscLogEvent PGK_EVENT_CarpcgSetUp, PGK_EVENT_CarpcgColor, PGK_EVENT_CarpcgSweep, PGK_EVENT_CarpcgResidual;

// Where the sweeps run (-ksp_carpcg_backend): auto = the device for a device matrix where the
// device backend can take it (backend.cpp), else the host.
typedef enum { CARPCG_BACKEND_AUTO, CARPCG_BACKEND_HOST, CARPCG_BACKEND_DEVICE } CarpcgBackendType;

// What -ksp_carpcg_* selected.
struct CarpcgSettings {
  pgk::carpcg::Scheme scheme       = pgk::carpcg::Scheme::Carp;
  PetscReal           lambda       = PETSC_DETERMINE; // resolved: 1, or 0.35 for cimmino
  PetscInt            blocks       = 0;               // carp: blocks per rank (0: auto, CarpcgResolveBlocks)
  PetscBool           weighted_dot = PETSC_TRUE;
  PetscBool           colors_view  = PETSC_FALSE;
  CarpcgBackendType   backend      = CARPCG_BACKEND_AUTO;
  PetscInt            lanes        = 0;           // device: lanes per row (0: from the mean row length)
  PetscBool           blocks_auto  = PETSC_FALSE; // set by CarpcgCreateBackend: blocks came from 0
  PetscBool           swap_sums    = PETSC_TRUE;  // device, carp on ranks: swap the first half's sums (device_ranks.cpp)
  PetscBool           overlap      = PETSC_TRUE;  // device, carp on ranks: sweep the interior blocks during the exchanges
  PetscBool           graph        = PETSC_TRUE;  // device, multicolor on one rank: each double sweep replayed as one CUDA graph launch
  PetscBool           fuse         = PETSC_TRUE;  // device: the CG's vector updates in one kernel, s = r - t in the dots' kernel
  PetscInt            overlap_min  = -1;          // device, multicolor: a colour overlaps the one before it above this many blocks (-1: one wave)

  PetscReal relaxation() const { return lambda == PETSC_DETERMINE ? pgk::carpcg::default_relaxation(scheme) : lambda; }
  bool      operator==(const CarpcgSettings &o) const
  {
    return scheme == o.scheme && lambda == o.lambda && blocks == o.blocks && weighted_dot == o.weighted_dot && colors_view == o.colors_view && backend == o.backend && lanes == o.lanes && swap_sums == o.swap_sums && overlap == o.overlap &&
           graph == o.graph && fuse == o.fuse && overlap_min == o.overlap_min;
  }
};

// The sweeps of one scheme on one operator. All vectors are created by create_vec() (the
// backend's layout and memory). Every call is collective on the operator's communicator.
class CarpcgBackend {
public:
  virtual ~CarpcgBackend()                  = default;
  virtual PetscErrorCode create_vec(Vec *v) = 0;
  // y = DCSWP(x; b), b == NULL: 0 (the scheme's forward sweep, averaging, backward sweep,
  // averaging). x and y are distinct.
  virtual PetscErrorCode double_sweep(Vec x, Vec b, Vec y) = 0;
  // t = b - A x.
  virtual PetscErrorCode residual(Vec x, Vec b, Vec t) = 0;
  // This rank's parts of n dots: out[k] = sum_i u_k[i] v_k[i] (w_i if weighted[k]), where w
  // is the scheme's inner-product weight (1 except for carp with W-dots).
  virtual PetscErrorCode local_dots(PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[]) = 0;
  // y += a x and the Euclidean norm of v, for the CG loop. PETSc's VecAXPY and VecNorm by default;
  // the host backend uses the reference's loops instead (src/carpcg/cg.hpp), because PETSc's host
  // VecAXPY and VecNorm are the BLAS's, whose rounding is the library's and the CPU's choice
  // (OpenBLAS's Haswell/Zen daxpy fuses the multiply-add): the host path then gives the
  // reference's bits on any machine.
  virtual PetscErrorCode axpy(Vec y, PetscReal a, Vec x) { return VecAXPY(y, a, x); }
  virtual PetscErrorCode norm2(Vec v, PetscReal *norm) { return VecNorm(v, NORM_2, norm); }
  // w = x - y and y = x + a y, for the CG loop: PETSc's VecWAXPY and VecAYPX by default. The device
  // backend runs the same arithmetic (and its axpy) on PETSc's stream without the wait for the
  // device that each of PETSc's device Vec operations ends with: an iteration then waits once, for
  // its dots.
  virtual PetscErrorCode subtract(Vec w, Vec x, Vec y) { return VecWAXPY(w, -1.0, y, x); }
  virtual PetscErrorCode aypx(Vec y, PetscReal a, Vec x) { return VecAYPX(y, a, x); }
  // The CG's step: u += a v (axpy), then y = DCSWP(x; 0). The device backend on more than one rank
  // fuses the update into its sweep's schedule (device_ranks.cpp).
  virtual PetscErrorCode update_and_sweep(Vec u, PetscReal a, Vec v, Vec x, Vec y)
  {
    PetscFunctionBegin;
    PetscCall(axpy(u, a, v));
    PetscCall(double_sweep(x, NULL, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // The CG's step at the top of an iteration: with `directions` (every iteration but the first,
  // whose p and q are copies of r and s), p = r + beta p and q = s + beta q (aypx); then r -= alpha q
  // (axpy) and x += alpha p, t = DCSWP(r; 0) (update_and_sweep). The device backend on one rank
  // runs the four vector updates as one kernel (-ksp_carpcg_fused_updates).
  virtual PetscErrorCode step(PetscBool directions, PetscReal beta, PetscReal alpha, Vec p, Vec q, Vec r, Vec s, Vec x, Vec t)
  {
    PetscFunctionBegin;
    if (directions) {
      PetscCall(aypx(p, beta, r));
      PetscCall(aypx(q, beta, s));
    }
    PetscCall(axpy(r, -alpha, q));
    PetscCall(update_and_sweep(x, alpha, p, r, t));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // w = x - y (subtract), then local_dots: the CG's s = r - t and its dots. The device backend
  // forms w inside the dots' kernel (-ksp_carpcg_fused_updates); u[k] or v[k] may be w.
  virtual PetscErrorCode subtract_dots(Vec w, Vec x, Vec y, PetscInt n, const Vec u[], const Vec v[], const PetscBool weighted[], PetscReal out[])
  {
    PetscFunctionBegin;
    PetscCall(subtract(w, x, y));
    PetscCall(local_dots(n, u, v, weighted, out));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // The -ksp_view lines of the scheme (collective).
  virtual PetscErrorCode view(PetscViewer viewer) = 0;
};

// carp's blocks per rank for -ksp_carpcg_blocks 0 (auto): 1 on the host (one rank: CGMN, the fewest
// iterations), on the device one block per CARPCG_DEVICE_ROWS_PER_BLOCK local rows. A block is
// swept in order by one group of lanes, so one block per rank would leave the device almost idle
// (736 ms an iteration at 361k rows on the H100); 64 rows a block gives about 65k blocks at 4M rows,
// where the H100 measured 1.9 ms an iteration. More blocks cost iterations (bench/NOTES.md).
#define CARPCG_DEVICE_ROWS_PER_BLOCK 64
PetscInt CarpcgResolveBlocks(PetscInt requested, PetscBool device, PetscInt local_rows);

// The backend for A: where the sweeps run (backend.cpp decides: the device backend for a device
// matrix with a device scheme (on more than one rank carp or cimmino), else the host). Collective.
PetscErrorCode CarpcgCreateBackend(Mat A, const CarpcgSettings &s, std::unique_ptr<CarpcgBackend> *backend);

// The host backend for A (MATAIJ or MATAIJCUSPARSE, sequential or MPI): builds each rank's rows
// over its owned and ghost unknowns, checks the values (NaN/Inf is an error on every rank), and
// sets the scheme up. `device_note`: for a device matrix, why it is swept on the host; for the
// expansion of an aijcompound operator, that it is one (shown by -ksp_view), or NULL. Collective.
PetscErrorCode CarpcgCreateHostBackend(Mat A, const CarpcgSettings &s, const char *device_note, std::unique_ptr<CarpcgBackend> *backend);

// The device backend for A (MATSEQAIJCUSPARSE or MATMPIAIJCUSPARSE) and the multicolor (one rank),
// cimmino or carp scheme, on kernels/carpcg/ (ksp/carpcg/device.cpp, device_ranks.cpp): the
// vectors are VECCUDA and stay on the device; only the dots' scalars (and between ranks the halo)
// move. Errors (PETSC_ERR_SUP) in a
// build without the CUDA kernels. Collective.
PetscErrorCode CarpcgCreateDeviceBackend(Mat A, const CarpcgSettings &s, std::unique_ptr<CarpcgBackend> *backend);
