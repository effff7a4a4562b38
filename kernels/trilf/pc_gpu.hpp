// PC trilf on the device: the whole setup (weights -> [0,2]-factor -> cycle breaking -> path
// order -> tridiagonal assembly -> factorization) and apply, on device CSR arrays and device
// vectors, for the scalar and the 2x2 block variant (Klein & Strzodka, ICPP'22).
//
// Plain C++ (no CUDA types): the PETSc layer calls it. The host oracle is pgk::trilf
// (src/trilf_*.hpp); the contract is
//   * the forest (factor slots, broken cycles, permutation, block slots) is IDENTICAL to the
//     reference's for the same options (same tie and charge-hash rules);
//   * T, the pivots, splits and replacements are those of the reference (same rules); values
//     agree to rounding (the device may contract a*b+c);
//   * apply agrees with pgk::trilf::solve / solve_block to about 1e-12 relative for
//     well-conditioned T.
// Nothing is copied to or from the host except a handful of scalars (counts, flags) per
// setup; apply copies nothing.
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

// How apply solves with T~ (scalar variant): the factor-once affine scans of trilf_tridiag.cu
// (default), or cuSPARSE's gtsv2 (partial pivoting), which refactors on every call
// (trilf_gtsv.hpp). Not gtsv2_nopivot: without pivoting its reduction order can meet a zero
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
