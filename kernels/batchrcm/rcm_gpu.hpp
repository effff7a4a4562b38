// Device backend of MatOrdering batchrcm: speculative batch-parallel Reverse Cuthill-McKee on
// the GPU (Mlakar, Winter, Parger, Steinberger), plus the start-node search, so that ordering a
// device matrix never moves the matrix to the host: only the final permutation comes back.
//
// Plain C++ (no CUDA types) so the PETSc layer can call it. The result is exactly that of the
// serial reference (src/rcm_serial.hpp) for the same roots and valence rule, on every run:
//   rcm_gpu            == rcm::serial_rcm(g, opts)
//   rcm_gpu_from_roots == rcm::serial_rcm_from_roots(g, roots, opts)
// for the same rcm::Options (src/batchrcm/rcm.hpp), the one options struct of every backend.
//
// Errors: bad input throws std::invalid_argument with the host reference's message (bad roots,
// roots that leave vertices unordered, malformed CSR); a queue that is too small throws
// rcm::BatchQueueOverflow; CUDA failures throw pgk::cuda::Error. A wait that exceeds
// watchdog_seconds aborts the kernel and throws std::runtime_error instead of hanging.
#pragma once

#include "src/common/csr.hpp"
#include "src/batchrcm/rcm.hpp"
#include "src/batchrcm/start_node.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace pgk::cuda {

// What the device run did, beyond rcm::Stats (which gets the counts the CPU backend reports;
// Stats::threads is the number of worker blocks).
struct RcmGpuInfo {
  int blocks = 0;                     // persistent worker blocks of the batch kernel
  int batch_nodes = 0;                // B the batch kernel ran with (GpuTuning::batch_nodes, or the automatic one)
  int batch_valence = 0;              // T it ran with (GpuTuning::batch_valence, or the automatic one)
  bool levels = false;                // GpuAlgorithm::Levels ordered (false: the batch kernel did, when asked
                                      // or for a row over 128 entries; true too when only singletons)
  int levels_lanes = 0;               // its lanes per parent
  std::uint64_t empty_batches = 0;    // reserved at Counted time but not needed (paper Sec. V-B)
  std::uint64_t big_batches = 0;      // single parents whose row exceeds the scratch
  std::uint64_t histogram_passes = 0; // passes over such rows (count, histogram, gather, copy)
  int peripheral_rounds = 0;          // multi-source BFS rounds of the start-node search
  int bfs_levels = 0;                 // levels over all those rounds
  double plan_ms = 0, order_ms = 0;   // the plan and the ordering (+ copy back), as "Phases" below says
};

// g: device CSR pattern (full rowptr of n+1 entries; values ignored). Returns perm[new] = old
// on the host. Reads every common field of opts and opts.gpu (rcm::GpuTuning); opts.start may be
// Peripheral (the paper's rule) or Given: GeorgeLiu needs the serial BFS visiting order, which a
// level-synchronous device BFS does not produce, and throws std::invalid_argument. With
// opts.input_is_symmetric = false the ordering is that of pattern(A + A^T): the input check counts
// the missing transposes in its pass over the entries (rows must then be sorted, as in PETSc's
// AIJ), and only when some are missing is pattern(A + A^T) built on the device (symmetrize_pattern,
// kernels/common/device_csr.hpp; Stats::symmetrize_seconds); true promises a structurally
// symmetric g. stream is a cudaStream_t passed as void*; the call synchronizes it.
//
// Host <-> device copies (all through kernels/common/transfer.hpp, so the PETSc layer's logger
// counts them): none for n = 0; otherwise no host-to-device copy, and device-to-host
//   * the permutation: 1 copy of n indices;
//   * scalars: 3 for the input check (its check record, nnz, the check record again; 2 when
//     nnz = 0); when transposes are missing, 2 for symmetrize_pattern and 3 for the check of
//     pattern(A + A^T); 3 for the plan (the last seed position and seed flag, which give the
//     number of components; the number of components still searching a start node); 1 for the
//     chain summary; 1 when R > 0 for the search's totals (its R rounds, RcmGpuInfo::
//     peripheral_rounds, run in one kernel); when a component has two or more vertices, 1 for
//     the ordering kernel's error word or control record.
//   So 9 + (R > 0 ? 1 : 0) copies when g is symmetric and has an off-diagonal entry. An error
//   stops the count where it is thrown.
// Phases (Stats, RcmGpuInfo): the plan is the device's time from the call's start to the end of
// the start-node search (the host queues the ordering behind the search without waiting for
// it), less the build of pattern(A + A^T); the ordering is the rest, the copy back included.
std::vector<Index> rcm_gpu(const CsrView &g, const rcm::Options &opts, void *stream, rcm::Stats *stats = nullptr,
                           RcmGpuInfo *info = nullptr);
// rcm_gpu writing the permutation into out_host (g.nrows entries of host memory the caller owns)
// instead of a vector it allocates: the same copies, the one of the permutation straight into
// out_host. The PETSc layer downloads into the array its index set then owns: at 14.7M rows a
// fresh vector (zeroed, then copied into the index set) cost about as much as the copy itself.
// while_ordering, when set, is called once on this thread while the device orders: right after
// the launch of the ordering kernel, before the wait for it (with the levels kernel, the
// start-node search is still queued in front of it, so the hook overlaps both; the batch kernel
// needs the search's totals first); when no component needs that kernel (singletons only),
// just before the download. It is not called for
// n = 0, nor after an error. The download into out_host comes after it, so it may prepare that
// memory: the PETSc layer faults in its fresh array there and builds the index set around it,
// whose creation scans the array once (bench/NOTES.md: 40 + 16 ms at 14.7M rows).
void rcm_gpu_into(const CsrView &g, const rcm::Options &opts, void *stream, Index *out_host,
                  rcm::Stats *stats = nullptr, RcmGpuInfo *info = nullptr,
                  const std::function<void()> &while_ordering = {});

// The core from explicit component roots (same contract as rcm::serial_rcm_from_roots): g must
// be structurally symmetric; reads opts.count_diagonal_in_valence and opts.gpu only. Copies
// (n > 0): the roots to the device (1); to the host the input check's 3 scalars (2 when nnz = 0),
// the control record (1) and the permutation (1).
std::vector<Index> rcm_gpu_from_roots(const CsrView &g, const std::vector<Index> &roots, const rcm::Options &opts,
                                      void *stream, rcm::Stats *stats = nullptr, RcmGpuInfo *info = nullptr);

// The component plan alone, computed on the device: equals rcm::plan_components(g, opts) for
// Peripheral and Given (g structurally symmetric). Copies (n > 0), all to the host: the input
// check's and the plan's scalars as for rcm_gpu (3 or 2, then 3), the roots (1) and the sizes (1).
rcm::ComponentPlan plan_components_gpu(const CsrView &g, const rcm::Options &opts, void *stream);

} // namespace pgk::cuda
