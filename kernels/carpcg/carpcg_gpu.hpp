// KSP carpcg on the device: the double Kaczmarz sweeps of the multicolor, cimmino and carp
// schemes, the residual and the CG's local dots, on device CSR arrays and device vectors
// (issue 11, "Device schemes"; the host oracle is src/carpcg/).
//
// Plain C++ (no CUDA types): the PETSc layer (petsc_plugin/ksp/carpcg/device.cpp) and the tests
// call it. The contract against the reference:
//   * every row projection sums its dot product in storage order with no fused multiply-add
//     (internal.cuh), exactly like src/carpcg/sweep.cpp, and the updates are disjoint or summed in
//     a fixed order, so the sweeps are the reference's bit for bit:
//       multicolor_sweep  = pgk::carpcg::sweep over the colouring's rows colour by colour (the
//                           colouring is src/carpcg's distance2_coloring of the pattern, the
//                           host backend's on one rank);
//       cimmino_pass      = pgk::carpcg::cimmino_pass (column sums over the explicit transpose
//                           in row order: no floating atomics);
//       carp_half         = BlockPlan::sweep_sum of contiguous_blocks(n, blocks), divided by the
//                           multiplicities (the sum of copies gathered per unknown in block order);
//       residual          = pgk::carpcg::residual;
//   * dots use a fixed-order tree (deterministic run to run), not the host's sequential sum.
// Copies between host and device go through kernels/common/transfer.hpp (logged): setup makes a
// few uploads and reads (see setup); double_sweep, the pieces and residual make none; dots
// makes exactly one device-to-host copy of `count` doubles.
//
// A rank's block under MPI (carp and cimmino): `a` holds the rank's rows over its owned unknowns
// followed by its ghosts (a.ncols >= a.nrows), and the caller exchanges between the pieces
// (petsc_plugin/ksp/carpcg/device_ranks.cpp, over PETSc's scatter): load_owned + the ghosts into
// x; carp: carp_sweep_divide (the sums over all a.ncols unknowns, the owned unknowns no other rank
// adds to divided at once; or split_blocks' pieces, so that the exchanges overlap the interior's
// sweep), the ghosts' sums added to their owners, then carp_divide_received (by the global
// multiplicities of set_multiplicity); cimmino: cimmino_pass into acc, the ghosts'
// sums added to their owners. The host backend's MPI path (ksp/carpcg/host.cpp) does the same
// operations in the same order.
//
// Errors: std::invalid_argument (fewer columns than rows, bad options), pgk::cuda::Error (CUDA
// failures).
#pragma once

#include "src/carpcg/blocks.hpp"
#include "src/carpcg/coloring.hpp"
#include "src/carpcg/operators.hpp"
#include "src/common/csr.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace pgk::cuda {

struct CarpcgDeviceOptions {
  pgk::carpcg::Scheme scheme = pgk::carpcg::Scheme::Multicolor; // multicolor, cimmino or carp
  double lambda = 1.0;                                          // relaxation (cimmino: lambda~)
  Index blocks = 1;                                             // carp: contiguous row blocks
  bool weighted_dot = true;                                     // carp: dots weighted by |L_j|
  // Lanes that share a row's projection (carp: a block's sweep): 4, 8, 16 or 32, or 0 for the
  // smallest power of two >= the mean stored entries per row (multicolor and cimmino: half of
  // it, two entries a lane), clamped to [4, 32]. The sum order
  // does not depend on it (the results are the same bits); it sets how many rows one warp works
  // on at once, which is what bounds these latency-bound sweeps on short rows.
  int lanes = 0;
  // Host threads that build carp's block plan and flat arrays (src/carpcg): the same arrays for
  // any count; the plugin gives each rank its share of the node's cores.
  int host_threads = 1;
  // multicolor on one rank: replay each double sweep (its copy and its kernels, one per colour and
  // direction) as one CUDA graph launch, captured at its first call on those arrays
  // (kernels/common/graph_cache.hpp). The same kernels in the same order: the same bits.
  bool graph = true;
  // multicolor: a colour launched right after another one starts as a programmatic dependent launch
  // (its rows' bounds, norms and first entries loaded while the colour before it drains, x touched only
  // after that colour has ended) where its grid has more than this many blocks; -1: one wave of
  // resident blocks (from the occupancy API), where the overlap pays (forty-sixth session; a colour that
  // fits one wave only takes the SMs its predecessor drains on); 0: every colour after the first. The
  // same operations: the same bits for every value.
  long overlap_min_blocks = -1;
};

// The lanes a set-up of `scheme` with `requested` (CarpcgDeviceOptions::lanes) uses on a matrix of
// `nrows` rows and `nnz` stored entries; std::invalid_argument for a request other than 0, 4, 8, 16, 32.
int carpcg_lanes_per_row(int requested, Index nrows, Index nnz, pgk::carpcg::Scheme scheme);

// Rows with a NaN or Inf entry, or whose squared norm overflows (the host's check_values).
struct CarpcgValueCheck {
  Index bad_rows = 0;
  Index first_bad_row = -1;
};

// Host wall-clock seconds of the last set-up's phases, each ended with the stream synchronized
// (its device work included): what -ksp_view reports of KSPSetUp.
struct CarpcgSetupTimes {
  double operator_copy = 0; // A's arrays into the operator, its row norms and the value check
  double scheme_host = 0;   // the scheme's data built on the host: colouring, transpose, or block plan
  double flatten = 0;       // carp: the plan's flat arrays (src/carpcg/flat.hpp)
  double upload = 0;        // the scheme's uploads (and carp's download of the norms)
};

class CarpcgDevice {
public:
  static constexpr int kMaxDots = 4;

  CarpcgDevice();
  ~CarpcgDevice();
  CarpcgDevice(const CarpcgDevice &) = delete;
  CarpcgDevice &operator=(const CarpcgDevice &) = delete;

  // a: device CSR (full row pointer, ncols >= nrows, device values; ncols == nrows for multicolor
  // and for double_sweep, ncols > nrows only for a rank's block under MPI); pattern: the same row
  // pointer and column indices in host memory (values unused). Copies a's arrays on the device
  // (later changes of a do not matter), computes |a_i|^2 there and checks the values (1 scalar
  // read). With bad rows it stops there (ready() stays false) and returns them. Otherwise the
  // scheme's data is built on the host from `pattern` and uploaded: multicolor 1 upload (the
  // coloured rows); cimmino 3 (the transpose); carp 1 download (the norms, which decide the
  // zero rows BlockPlan leaves out) and 7 or 8 uploads (blocks, copies, gather map, weights).
  // multicolor: `coloring` (a distance-2 colouring of `pattern`) is used when given, else
  // distance2_coloring(pattern) is computed; the operator's device copy is then stored with its
  // rows in colour order (a second copy exists during that step: the set-up's peak is twice A's
  // arrays), so each colour's kernel reads contiguous rows.
  CarpcgValueCheck setup(const CsrView &a, const CsrView &pattern, const CarpcgDeviceOptions &o, void *stream,
                         const pgk::carpcg::Coloring *coloring = nullptr);
  // The same from a host CSR with values (a rank's extended rows, built on the host): its arrays
  // are uploaded straight into the operator's (3 more logged copies) instead of copied on the
  // device; `a` is also the pattern.
  CarpcgValueCheck setup_host(const CsrView &a, const CarpcgDeviceOptions &o, void *stream);
  bool ready() const;
  Index size() const;  // rows (owned unknowns)
  Index ncols() const; // owned unknowns, then ghosts
  Index nnz() const;

  // y = DCSWP(x; b) of the scheme (b == nullptr: 0); device arrays of size() entries, y != x.
  // Asynchronous on stream.
  void double_sweep(const double *x, const double *b, double *y, void *stream);
  // Double sweeps replayed from CUDA graphs so far, and the graphs held (CarpcgDeviceOptions::graph).
  std::size_t graph_launches() const;
  std::size_t graphs() const;
  // t = b - A x (b == nullptr: 0), asynchronous.
  void residual(const double *x, const double *b, double *t, void *stream) const;
  // out[k] = sum_i u_k[i] v_k[i] (times w_i where weighted[k]; w = the carp weights, 1 for the
  // other schemes), k < count <= kMaxDots; waits for the result (1 copy of count doubles).
  void dots(int count, const double *const u[], const double *const v[], const bool weighted[], double out[],
            void *stream);
  // w = x - y (subtract's bits), then dots(count, u, v, weighted, out) in the same kernel, where u[k] or
  // v[k] may be w (its entries then come from the subtraction, not from memory): the same bits as
  // subtract followed by dots, and the same one copy. w aliases neither x nor y.
  void subtract_dots(const double *x, const double *y, double *w, int count, const double *const u[],
                     const double *const v[], const bool weighted[], double out[], void *stream);

  // The pieces, for the tests (asynchronous):
  // multicolor: the colours 0..C-1 (backward: C-1..0) swept in place on x.
  void multicolor_sweep(const double *b, bool backward, double *x, void *stream);
  // cimmino: out = base + sum_i coef_i(x) a_i^T (base == nullptr: 0) over all ncols() unknowns;
  // x, base and out have ncols() entries; out may alias neither.
  void cimmino_pass(const double *b, const double *x, const double *base, double *out, void *stream);
  // carp: every block sweeps its copy of x, then y_j = (sum of the copies) / |L_j| (x_j where
  // no block touches j); y != x.
  void carp_half(const double *b, bool backward, const double *x, double *y, void *stream);

  // A rank's block under MPI (ncols() > size(); see the top of this file), asynchronous:
  // x_ext[0..size()) = x (the owned part of the extended vector; the caller fills the ghosts).
  void load_owned(const double *x, double *x_ext, void *stream);
  // carp: every block sweeps its copy of x (ncols() entries); s_j = the sum of j's copies in block
  // order (0 where no block of this rank touches j). Owned unknowns that are not received (see
  // set_received) are finished: y_j = s_j / m_j, or x_j where m_j == 0; every other unknown (the
  // received ones, and the ghosts j >= size()) gets acc_j = s_j. y may be x (in place).
  // `ghosts` given: x holds the owned unknowns only and the ghosts are read from there (the
  // operand's own array, no copy into an extended vector).
  void carp_sweep_divide(const double *b, bool backward, const double *x, double *acc, double *y, void *stream,
                         const double *ghosts = nullptr);
  // carp, after the reverse ADD: y_j = acc_j / m_j (x_j where m_j == 0) for the received j. y may be x.
  void carp_divide_received(const double *acc, const double *x, double *y, void *stream);
  // carp: the owned unknowns that other ranks add their ghost sums to (ascending, < size(); 2 uploads).
  void set_received(const std::vector<Index> &rows, void *stream);
  // carp, where every shared unknown is held by two ranks (its owner and one ghost holder), after
  // an exchange that put in `peer` (ncols() entries) the other holder's sum of each received owned
  // unknown and of each ghost: x_ext_j = (acc_j + peer_j) / m_j for the received j and every ghost
  // j >= size() (a ghost's x_ext_j kept where m_j == 0; m: set_multiplicity, set_ghost_multiplicity). The sum
  // is the one the reverse ADD forms on the owner (its own sum plus the holder's), so the owner and
  // the holder compute the same bits, and the holder has its ghosts' values without a forward
  // exchange. A received j with m_j == 0 gets x_j (x: the owned unknowns of the half's operand).
  // Needs set_received and set_ghost_multiplicity.
  void carp_divide_shared(const double *acc, const double *peer, const double *x, double *x_ext, void *stream);
  // carp, the sweep split so that a halo exchange overlaps it (after set_received): the boundary
  // blocks touch a shared unknown (a received owned one or a ghost), the interior blocks do not.
  //   carp_sweep_interior(b, bw, x) ; carp_sweep_boundary(b, bw, x, ghosts, acc) ; carp_divide_unshared(x, y)
  // is carp_sweep_divide(b, bw, x, acc, y, ghosts) bit for bit, the two sweeps in either order or
  // concurrently (on two streams; the divide after both): only boundary blocks touch the shared
  // unknowns, so their sums (acc) are final after the boundary sweep, and the exchange that needs
  // them can run while the interior sweeps. The interior sweep never reads ghosts and leaves room on
  // the device for the boundary's and the exchange's kernels (one resident CUDA block per SM).
  // split_blocks builds the two lists on the host from the plan (2 uploads).
  void split_blocks(void *stream);
  Index boundary_blocks() const; // after split_blocks
  void carp_sweep_interior(const double *b, bool backward, const double *x, void *stream);
  // The boundary blocks' sweep, then acc_j = the sum of j's copies for every shared unknown j.
  void carp_sweep_boundary(const double *b, bool backward, const double *x, const double *ghosts, double *acc,
                           void *stream);
  // y_j = s_j / m_j (x_j where m_j == 0) for the owned unknowns that are not received; y may be x.
  void carp_divide_unshared(const double *x, double *y, void *stream);
  // carp: the global multiplicities of the ghosts (ncols() - size() entries; 1 upload).
  void set_ghost_multiplicity(const std::vector<double> &m, void *stream);
  // carp: the global multiplicities of the owned unknowns (size() entries: the blocks of all ranks
  // touching each), the divisors of carp_sweep_divide and, with weighted dots, the weights max(m_j, 1)
  // (1 upload each). A one-rank set-up has them already (the plan's own multiplicities).
  void set_multiplicity(const std::vector<double> &m, void *stream);

  // y += a x over n entries, fused multiply-add as cuBLAS's daxpy (PETSc's VecAXPY on the
  // device), asynchronous on `stream` (the CG's update of its iterate on more than one rank: before
  // the overlapped double sweep, or on a side stream during the fetch of the operand's halo).
  static void axpy(Index n, double a, const double *x, double *y, void *stream);
  // The CG loop's other vector updates, each the bits of PETSc's device operation: y = x + a y
  // (VecAYPX: y scaled, then x added; a == 0 copies x) and w = x - y (VecWAXPY(w, -1, y, x)).
  // Asynchronous on `stream`: unlike PETSc's Vec operations, which wait for the device after each,
  // so that the loop waits only for its dots.
  static void aypx(Index n, double a, const double *x, double *y, void *stream);
  static void subtract(Index n, const double *x, const double *y, double *w, void *stream);
  // The CG's step at the top of an iteration in one kernel: with `directions`, aypx(p, beta, r) and
  // aypx(q, beta, s); then axpy(r, -alpha, q) and axpy(x, alpha, p). Entry by entry the same
  // operations, so the same bits as those four launches; p, q, r, s, x distinct. Asynchronous.
  static void cg_step(Index n, bool directions, double beta, double alpha, double *p, double *q, double *r,
                      const double *s, double *x, void *stream);

  // Set-up figures on the host (the scheme's, else nullptr / empty).
  const pgk::carpcg::Coloring *coloring() const;
  const pgk::carpcg::BlockPlan *plan() const;
  const CarpcgSetupTimes &setup_times() const;
  const std::vector<double> &weights() const; // carp with weighted dots: max(|L_j|, 1)
  int lanes() const;                          // lanes per row in use (carpcg_lanes_per_row)
  long overlap_min_blocks() const;            // multicolor: the resolved CarpcgDeviceOptions field
  int colour_rows_per_block() const;          // multicolor: rows one CUDA block of a colour kernel projects
  Index carp_shared_doubles() const;          // carp: shared doubles a group sweeps its block's copy in (0: none)

  struct Impl;

private:
  // double_sweep's work on `stream`, directly (it is what a graph captures).
  void enqueue_double_sweep(const double *x, const double *b, double *y, void *stream);
  CarpcgValueCheck setup_from(const CsrView &a, const CsrView &pattern, const CarpcgDeviceOptions &o, void *stream,
                              const pgk::carpcg::Coloring *coloring, bool a_on_host);
  std::unique_ptr<Impl> impl_;
};

} // namespace pgk::cuda
