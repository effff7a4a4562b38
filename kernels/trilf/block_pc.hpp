// PC trilf, 2x2 block variant (Klein & Strzodka's AlgTriBlockPrecond) on the device: the
// steps after the weight graph, i.e. pairing (along the scalar forest's paths, or the paper's
// [0,1]-factor: pgk::trilf::PairRule), coarse graph, coarse [0,2]-factor,
// cycle breaking, path order, block order, assembly of the 2x2 block tridiagonal T from A,
// its block LU with the reference's pivot rules, and z = M^-1 r / z = M^-T r.
//
// Host oracle: src/trilf/block.hpp (pair_along_paths, pair_vertices, coarse_graph, order_blocks,
// assemble_block, factor_block, solve_block, solve_block_transpose). Contract:
//   * partner, coarse graph (arrays and weights bit for bit), slots: identical;
//   * T: identical (every block entry is one value of A, no sums);
//   * the factor: identical decisions (splits, replacements) and values: the factor kernel
//     rounds every operation separately (no contraction), like the host build;
//   * apply / apply_transpose: to rounding (parallel scans, a different summation order);
//   * SetupInfo: the integers equal, c_id and c_pi to rounding (device reductions).
// Deterministic: two runs give the same bits (no floating-point atomics, fixed-shape scans).
//
// Plain C++; CsrView pointers are device pointers, `stream` is a cudaStream_t as void*.
// apply/apply_transpose use a workspace owned by the object: do not run two of them on the
// same object concurrently on different streams.
#pragma once

#include "src/common/csr.hpp"
#include "src/trilf/block.hpp"
#include "kernels/trilf/pc_gpu.hpp"     // TrilfPhaseTimes
#include "src/trilf/pc.hpp"             // Options, SetupInfo
#include "kernels/trilf/primitives.hpp" // DeviceBuffer, DeviceFactor, DevicePathOrder, ...

#include <vector>

namespace pgk::cuda::trilf {

class BlockPipeline {
public:
  // a: device CSR of A (full rowptr, sorted unique columns, device values; values == nullptr
  // reads as all ones). w: the device weight graph built by build_weight_graph from a (entries
  // with w <= 0 are not edges). Synchronizes `stream`. Fills info as
  // pgk::trilf::Preconditioner does for the block variant (info.forest stays default) and
  // times.factor/cycles/paths/assemble/lu (times.weights is the caller's).
  // Throws std::invalid_argument (options), std::domain_error (non-finite A, factor overflow;
  // the message names the row like the reference's), pgk::cuda::Error. Its host <-> device
  // copies are listed in pc_gpu.hpp (block variant, after the weights).
  void setup(const CsrView &a, const CsrView &w, const pgk::trilf::Options &opt, void *stream,
             pgk::trilf::SetupInfo &info, TrilfPhaseTimes &times);
  // Same pattern, new values: re-assembles and refactors (info.splits/replaced, times.assemble
  // and times.lu are updated). Synchronizes `stream`.
  void update_values(const CsrView &a, void *stream, pgk::trilf::SetupInfo &info, TrilfPhaseTimes &times);

  // z = M^-1 r and z = M^-T r, original ordering, device pointers, r != z. Asynchronous; no
  // host <-> device copy.
  void apply(const double *r, double *z, void *stream) const;
  void apply_transpose(const double *r, double *z, void *stream) const;

  Index size() const { return n_; }
  Index nblocks() const { return nb_; }

  // Copies for tests, in the reference's layouts (synchronous).
  std::vector<Index> slots(void *stream) const;      // BlockOrder::slots
  std::vector<Index> partner(void *stream) const;    // Pairing::partner
  std::vector<Index> path_start(void *stream) const; // BlockOrder::path_start
  pgk::Csr coarse_graph(void *stream) const;         // coarse_graph(W, pairing)
  // T assembled from a on the current block order (assemble_block), into scratch memory.
  pgk::trilf::BlockTridiagonal assembled(const CsrView &a, void *stream) const;
  // The factor of the last setup/update_values (slots, mult, inv_pivot, effective, counts).
  pgk::trilf::BlockTridiagonalFactor factor(void *stream) const;

private:
  // pairing_ by the rule: pair_along_paths of the [0,2]-factor's forest (o2), or the
  // [0,1]-factor (o1). Synchronizes `stream` (Forest: its temporaries are freed on return).
  void pair(const CsrView &w, pgk::trilf::PairRule rule, const pgk::trilf::FactorOptions &o1,
            const pgk::trilf::FactorOptions &o2, void *stream);
  void assemble_and_factor(const CsrView &a, bool with_coverage, void *stream, pgk::trilf::SetupInfo &info,
                           TrilfPhaseTimes &times);

  pgk::trilf::PivotOptions pivot_;
  Index n_ = 0, nb_ = 0, nnz_ = 0;
  bool ready_ = false;
  // Pairing and coarse graph.
  DeviceFactor pairing_;                    // n = 1: partner (Pairing::partner)
  DeviceBuffer<Index> coarse_of_, members_; // as pgk::trilf::Pairing
  DeviceBuffer<Index> crow_, ccol_;         // coarse graph (CSR)
  DeviceBuffer<double> cval_;
  // Coarse path order and block order.
  DevicePathOrder corder_;          // perm, path_head per block
  DeviceBuffer<Index> slots_, pos_; // 2 per block / slot of every row
  // Factor, in place on T: lower/diag/upper become T~ (BlockTridiagonalFactor::effective).
  DeviceBuffer<double> lower_, diag_, upper_;
  DeviceBuffer<double> neg_mult_, inv_, back_; // -M_k, D'_k^-1, -D'_k^-1 U~_k (4 per block)
  Index splits_ = 0, replaced_ = 0;
  // apply workspace: 2 doubles per block, and the per-tile aggregates of the scans.
  mutable DeviceBuffer<double> tmp_;
  mutable DeviceBuffer<unsigned char> tiles_;
  DeviceBuffer<unsigned char> scratch_; // CUB temporaries, flags (setup only)
};

} // namespace pgk::cuda::trilf
