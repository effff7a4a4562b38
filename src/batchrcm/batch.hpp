// Multicore speculative batch RCM (Mlakar, Winter, Parger, Steinberger, Alg. 4/5): the order
// is cut into batches of parents that worker threads process concurrently. A batch discovers
// its children speculatively (atomic min of its batch id on a per-vertex mark), sorts them,
// rediscovers when a predecessor might have claimed some, and passes Discovered / Counted /
// Completed signals down the chain of batches; output positions and the queue ids of the next
// batches are fixed at Counted time, small outputs are forwarded as an overhang to the next
// batch, and workers hold several batches so that a blocked one does not stall them.
//
// The result is exactly serial_rcm_from_roots for the same roots and valence rule, in every
// run and for every thread count and batch limit (the batch ids follow the output order, so
// the smallest claiming id is the parent that comes first in the Cuthill-McKee order).
//
// Components: the batch that finds its component exhausted (no output, nothing reserved after
// it) seeds the next root as the next batch, so the components are ordered back to back on one
// chain of batches, in the order of the roots, exactly as the serial reference orders them.
// Early termination: once the output covers every vertex, batches still in the queue are
// dropped (paper Sec. IV-D); batches of earlier components always drain, producing nothing.
#pragma once

#include "src/common/csr.hpp"
#include "src/batchrcm/rcm.hpp"

#include <stdexcept>
#include <vector>

namespace pgk::rcm {

// Thrown when the batches reserved ahead of a running batch would not fit in the queue ring
// (queue_slots). Which batch overflows is a property of the graph and the options, not of the
// timing, so a run either always throws this or never does.
class BatchQueueOverflow : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Core ordering from explicit component roots: the same permutation as
// serial_rcm_from_roots, and std::invalid_argument in the same cases (bad roots, roots that
// leave vertices unordered); BatchQueueOverflow besides. The graph must be structurally
// symmetric. Reads opts.count_diagonal_in_valence and opts.cpu (Options::cpu: threads, batch
// limits, queue). Workers spin and then yield while they wait (no sleeping), so use at most as
// many threads as there are cores to spare.
std::vector<Index> batch_rcm_cpu_from_roots(const CsrView &g, const std::vector<Index> &roots, const Options &opts = {},
                                            Stats *stats = nullptr);

// plan_components (roots per Options, on opts.cpu.threads threads) followed by
// batch_rcm_cpu_from_roots.
std::vector<Index> batch_rcm_cpu(const CsrView &g, const Options &opts = {}, Stats *stats = nullptr);

} // namespace pgk::rcm
