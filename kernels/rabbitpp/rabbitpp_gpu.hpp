// Device backend of MatOrdering rabbitpp: src/rabbitpp/README.md's algorithm (rounds of K
// vertices) on the GPU, for a matrix whose CSR lives in device memory. The permutation equals
// the multicore backend's (pgk::rabbitpp::rabbitpp_batch) bit for bit for the same options, on
// every run. Only the permutation and a few scalars (counts, flags) come back to the host, all
// through kernels/common/transfer.hpp (logged).
//
// Phases (kernels/rabbitpp/, one .cu each, mirroring src/rabbitpp/): graph.cu (input check, G,
// processing order), batch.cu (the merge rounds; element operations in batch_ops.hpp),
// dendrogram.cu (the Rabbit numbering by an Euler tour and list ranking), regroup.cu (RABBIT++
// and the figures), rabbitpp_gpu.cu (this interface). The element operations (*_ops.hpp) are
// shared with a host emulation (tests/unit/rabbitpp/gpu_emulation.cpp).
//
// Plain C++ (no CUDA types) so that the PETSc layer can call it.
#pragma once

#include "src/common/csr.hpp"
#include "src/rabbitpp/rabbitpp.hpp"

#include <vector>

namespace pgk::cuda {

// a: device CSR (full row pointer; values ignored), square; rows sorted and unique (PETSc's AIJ
// storage; others are refused with std::invalid_argument naming the row). opt.batch <= 0 picks
// rabbitpp::default_batch(n); opt.threads is ignored. perm[new] = old on the host. info (may be
// null) gets the figures of README.md section 5, rounds, deferrals, the time of each phase and of
// each step of the rounds summed over them, and the arena's compactions (CUDA events; timing the
// steps makes the host wait for each round's end). stream: a cudaStream_t as void*; the call synchronizes it. Throws
// std::invalid_argument (malformed, non-square or unsorted input) / std::overflow_error (total
// edge weight above 3037000499) like the host backends, pgk::cuda::Error on CUDA failures,
// std::logic_error on an internal inconsistency (never expected).
//
// Host <-> device copies (all through kernels/common/transfer.hpp, so the PETSc layer's logger
// counts them): none for n = 0 (and none of any kind to the device); otherwise, to the host:
//   * the input check: 1 (its record: rowptr[0], nnz and the first offending rows);
//   * symmetrize_pattern (kernels/common/device_csr.hpp, the structural-symmetry test): 2;
//   * the graph record (nnz(G), diagonal entries): 1;
//   * the merge rounds: R + 1, R = the number of rounds (Info::rounds; the rounds of
//     detect_communities_batch for the same K): one round record per round and the one that
//     finds no vertex left;
//   * the numbering: 1 (the number of splitters of the list ranking);
//   * the permutation: 1 copy of n indices;
//   * with info: 2 more (the figures' record of counts, then the per-community sums: one copy of
//     3 int64 per community).
// So R + 7 copies (R + 9 with info), the permutation the only one that grows with n (and the
// community sums with info).
//
// Device memory (stream-ordered, freed on return): G (5 bytes per entry of G), about 80 bytes per
// vertex, the list arena (8 bytes x (2 nnz(G) + 1024), a second one after its first compaction)
// and the gathered entries of the largest round (28 bytes each, at most nnz(G)).
// Work per round: O(n) for four passes over the vertices, O(T log) for the T gathered entries
// (one radix sort and a reduction by key), O(K) for the decisions; one host synchronization. An error stops the count
// where it is thrown.
std::vector<Index> rabbitpp_gpu(const CsrView &a, const rabbitpp::Options &opt, void *stream,
                                rabbitpp::Info *info = nullptr);

// ---- for the device tests (tests/gpu/rabbitpp): the phases' results on the host ---------------

// G as build_graph returns it (equal arrays). Copies: the graph phase's 4, then G's arrays (4; 2
// when G has no entry: a zero-byte copy is not made).
rabbitpp::Graph rabbitpp_gpu_graph(const CsrView &a, void *stream);

// Graph, processing order and community detection with K = batch (<= 0: default_batch(n)): the
// Dendrogram as detect_communities_batch returns it (parent, round, order, pos, rounds);
// deferred (if not null): the deferrals; compactions (if not null): how often the list arena was
// compacted. arena_capacity > 0 sets the arena's entries (at least nnz(G) is used: the smallest
// safe size, which compacts often); 0: the default (2 nnz(G) + 1024).
rabbitpp::Dendrogram rabbitpp_gpu_dendrogram(const CsrView &a, Index batch, void *stream, Index *deferred = nullptr,
                                             long long arena_capacity = 0, Index *compactions = nullptr);

} // namespace pgk::cuda
