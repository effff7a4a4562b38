// Device backend of MatOrdering batchrcm: speculative batch-parallel Reverse Cuthill-McKee on
// the GPU (Mlakar, Winter, Parger, Steinberger), plus the start-node search, so that ordering a
// device matrix never moves the matrix to the host: only the final permutation comes back.
//
// Plain C++ (no CUDA types) so the PETSc layer can call it. The result is exactly that of the
// serial reference (src/rcm_serial.hpp) for the same roots and valence rule, on every run:
//   rcm_gpu            == rcm::serial_rcm(g, {start, given_start, count_diagonal})
//   rcm_gpu_from_roots == rcm::serial_rcm_from_roots(g, roots, count_diagonal)
// The graph must be structurally symmetric (the device backend does not symmetrize).
//
// Errors: bad input throws std::invalid_argument with the host reference's message (bad roots,
// roots that leave vertices unordered, malformed CSR); a queue that is too small throws
// rcm::BatchQueueOverflow; CUDA failures throw pgk::cuda::Error. A wait that exceeds
// watchdog_seconds aborts the kernel and throws std::runtime_error instead of hanging.
#pragma once

#include "src/common/csr.hpp"
#include "src/batchrcm/rcm.hpp"
#include "src/batchrcm/start_node.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgk::cuda {

struct RcmGpuOptions {
  // Peripheral (the paper's rule) or Given. GeorgeLiu needs the serial BFS visiting order, which
  // a level-synchronous device BFS does not produce: it throws std::invalid_argument.
  rcm::StartNode start = rcm::StartNode::Peripheral;
  Index given_start = 0;
  bool count_diagonal_in_valence = true;
  // B: parents per batch, 1..512 (the paper's 256). A batch is bounded by T as well, so B above
  // 256 only matters for rows of fewer than 8 entries; measured on a 2D mesh (8M rows) it was
  // slower (more, longer overhang chains), hence the default stays 256.
  int batch_nodes = 256;
  int batch_valence = 2048; // T: shared-memory scratch of a batch in row entries, 2..2048
  // Ring of batch records (64 bytes each); 0 picks min(n + #components + 2, 2^20), which never
  // wraps below a million vertices. Too small a ring is reported (BatchQueueOverflow).
  std::size_t queue_slots = 0;
  int max_blocks = 0; // caps the persistent grids (batch kernel, BFS); 0: occupancy x multiprocessors
  double watchdog_seconds = 60.0; // a single wait longer than this aborts (never a hang)
  // Testing only: nonzero inserts pseudo-random sleeps between the steps of each batch so that
  // the speculative paths overlap differently on every seed. Results are unaffected.
  std::uint64_t stress_seed = 0;
};

// What the device run did, beyond rcm::Stats (which gets the counts the CPU backend reports;
// Stats::threads is the number of worker blocks).
struct RcmGpuInfo {
  int blocks = 0;                     // persistent worker blocks of the batch kernel
  std::uint64_t empty_batches = 0;    // reserved at Counted time but not needed (paper Sec. V-B)
  std::uint64_t big_batches = 0;      // single parents whose row exceeds the scratch
  std::uint64_t histogram_passes = 0; // passes over such rows (count, histogram, gather, copy)
  int peripheral_rounds = 0;          // multi-source BFS rounds of the start-node search
  int bfs_levels = 0;                 // levels over all those rounds
  double plan_ms = 0, order_ms = 0;   // wall-clock of the plan and of the ordering (+ copy back)
};

// g: device CSR pattern (full rowptr of n+1 entries; values ignored), structurally symmetric.
// Returns perm[new] = old on the host. stream is a cudaStream_t passed as void*; the call
// synchronizes it.
//
// Host <-> device copies (all through kernels/common/transfer.hpp, so the PETSc layer's logger
// counts them): none for n = 0; otherwise no host-to-device copy, and device-to-host
//   * the permutation: 1 copy of n indices;
//   * scalars: 3 for the input check (its check record, nnz, the check record again; 2 when
//     nnz = 0), 3 for the plan (the last seed position and seed flag, which give the number of
//     components; the number of components still searching a start node), R + 1 when R > 0
//     (the searching count after each of the R Peripheral rounds, RcmGpuInfo::peripheral_rounds;
//     the BFS level count), 1 for the chain summary and, when a component has two or more
//     vertices, 1 for the batch kernel's control record.
//   So 9 + (R > 0 ? R + 1 : 0) copies when g has an off-diagonal entry. An error stops the
//   count where it is thrown.
std::vector<Index> rcm_gpu(const CsrView &g, const RcmGpuOptions &opts, void *stream,
                           rcm::Stats *stats = nullptr, RcmGpuInfo *info = nullptr);

// The core from explicit component roots (same contract as rcm::serial_rcm_from_roots).
// opts.start and opts.given_start are ignored. Copies (n > 0): the roots to the device (1);
// to the host the input check's 3 scalars (2 when nnz = 0), the control record (1) and the
// permutation (1).
std::vector<Index> rcm_gpu_from_roots(const CsrView &g, const std::vector<Index> &roots,
                                      bool count_diagonal, void *stream,
                                      const RcmGpuOptions &opts = {}, rcm::Stats *stats = nullptr,
                                      RcmGpuInfo *info = nullptr);

// The component plan alone, computed on the device: equals rcm::plan_components(g, opts) for
// Peripheral and Given. Copies (n > 0), all to the host: the input check's and the plan's
// scalars as for rcm_gpu (3 or 2, then 3 + (R > 0 ? R + 1 : 0)), the roots (1) and the sizes (1).
rcm::ComponentPlan plan_components_gpu(const CsrView &g, const RcmGpuOptions &opts, void *stream);

} // namespace pgk::cuda
