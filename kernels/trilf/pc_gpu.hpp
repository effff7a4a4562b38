// PC trilf on the device: the whole setup (weights -> [0,2]-factor -> cycle breaking -> path
// order -> tridiagonal assembly -> factorization) and apply, on device CSR arrays and device
// vectors, for the scalar and the 2x2 block variant (Klein & Strzodka, ICPP'22).
//
// Plain C++ (no CUDA types): the PETSc layer calls it. The host oracle is pgk::trilf
// (src/trilf/*.hpp); the contract is
//   * the forest (factor slots, broken cycles, permutation, block slots) is IDENTICAL to the
//     reference's for the same options (same tie and charge-hash rules);
//   * T, the pivots, splits and replacements are those of the reference (same rules); values
//     agree to rounding (the device may contract a*b+c);
//   * apply agrees with pgk::trilf::solve / solve_block to about 1e-12 relative for
//     well-conditioned T.
// Nothing is copied to or from the host except a handful of scalars (counts, flags) per
// setup; apply copies nothing. Exactly (every copy goes through kernels/common/transfer.hpp,
// which reports it to the PETSc layer's logger; a copy is one array or one scalar record; U is
// the number of uncharged proposal rounds a [0,n]-factor runs: the rounds k < rounds_run with
// k % charge_period == charge_offset, 1 with the default options):
//   setup, scalar variant: none for n = 0; otherwise 11 + U scalar reads and no host-to-device
//     copy: weights 2 (nnz of A; the pass's counters) and 4 more when A's pattern is not
//     symmetric (symmetrize_pattern's 2, nnz of pattern(A + A^T), the overflow flag);
//     [0,2]-factor 2 + U (nnz of W; the edge count; one "proposed" flag per uncharged round);
//     cycle breaking 2 (the splitter count; the cycles broken); path order 3 (the splitter
//     count; number and longest length of the paths; the cycle flag); assembly 1 (the coverage
//     sums); factorization 1 (splits, replacements, first failure).
//   setup, block variant: weights as above (none for n = 0); pairing 2 + U (none for n = 0);
//     coarse numbering 2 (none for n = 0); coarse graph 2 (1 when W has no edge); on a
//     nonempty coarse graph: its [0,2]-factor 2 + U, cycle breaking 2, path order 3, assembly 2
//     (the coverage sums; the non-finite flag) and the block factorization 1 read and 1
//     host-to-device copy (its counters' initial values). So 18 + U1 + U2 reads (+4 for a
//     nonsymmetric pattern) and 1 host-to-device copy when n > 0 and W has an edge.
//   update_values (n > 0): scalar variant 2 reads (check_csr's counts; the factorization's
//     counters); block variant 2 reads (the non-finite flag; the factorization's counters) and
//     the 1 host-to-device copy.
//   Errors: the reads that name the failing entry (at most 3) come before the throw.
//   apply, apply_transpose, set_solver (cuSPARSE set-up included): none.
//   The test accessors below: one device-to-host array copy per array they return.
//
// Errors: std::invalid_argument (bad options, non-square, malformed CSR), std::domain_error
// (NaN/Inf in A, or a factorization that overflows: the message names the row, like the
// reference), pgk::cuda::Error (CUDA failures).
#pragma once

#include "src/common/csr.hpp"
#include "src/trilf/pc.hpp" // pgk::trilf::Options, SetupInfo

#include <memory>
#include <vector>

namespace pgk::cuda {

// Wall-clock of each setup phase in milliseconds (pgk::trilf::PhaseTimes, the host
// reference's struct), measured with CUDA events on the stream.
using TrilfPhaseTimes = pgk::trilf::PhaseTimes;

// How apply solves with T~ (scalar variant): the factor-once affine scans of apply_scan.cu
// (default), or cuSPARSE's gtsv2 (partial pivoting), which refactors on every call
// (gtsv.hpp). Not gtsv2_nopivot: without pivoting its reduction order can meet a zero
// pivot that T~'s own LU avoids, and return Inf/NaN. The block variant uses its own scans.
enum class TrilfSolver { Scan, Gtsv2 };

class TrilfDevice {
public:
  TrilfDevice();
  ~TrilfDevice();
  TrilfDevice(const TrilfDevice &) = delete;
  TrilfDevice &operator=(const TrilfDevice &) = delete;

  // Full setup. a: device CSR with a full row pointer (nrows + 1), sorted unique columns per
  // row, device values. stream: cudaStream_t as void*; the call synchronizes it.
  void setup(const CsrView &a, const pgk::trilf::Options &opt, void *stream);
  // New values, same pattern: keeps the forest, re-assembles and refactors.
  void update_values(const CsrView &a, void *stream);

  // Takes effect at once when set up (scalar), else at the next setup, which throws
  // std::invalid_argument for a cuSPARSE solver with the block variant.
  void set_solver(TrilfSolver solver, void *stream);
  TrilfSolver solver() const;

  // z = M^-1 r and z = M^-T r, both in the original ordering, device pointers, r != z.
  // Asynchronous on stream.
  void apply(const double *r, double *z, void *stream) const;
  void apply_transpose(const double *r, double *z, void *stream) const;

  bool ready() const;
  Index size() const;
  const pgk::trilf::SetupInfo &info() const; // same fields the reference fills
  const TrilfPhaseTimes &times() const;

  // Copies for tests (host vectors, reference layouts).
  std::vector<Index> factor_neighbours() const; // scalar: [0,2]-factor before cycle breaking
  std::vector<Index> forest_neighbours() const; // scalar: LinearForest::nbr
  std::vector<Index> permutation() const;       // scalar: PathOrder::perm; block: BlockOrder::slots
  pgk::trilf::Tridiagonal tridiagonal() const;  // scalar: T as assembled (before pivot fixes)
  std::vector<double> pivots() const;           // scalar: TridiagonalFactor::pivot (d'_k)
  std::vector<double> multipliers() const;      // scalar: TridiagonalFactor::mult (m_k)

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace pgk::cuda
