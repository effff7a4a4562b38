// The multicore backend of MatOrdering rabbitpp: README.md's algorithm in rounds of K vertices,
// each round's vertices aggregated and decided in parallel on a pool of threads. The result
// depends on K but not on the thread count or the schedule: every vertex's aggregation and
// decision reads only the state at the start of its round, sums are exact integers, ties are
// broken by vertex id, and the merges are applied in processing order. With K = 1 it equals the
// serial reference (serial.hpp) exactly. The GPU backend (kernels/rabbitpp/) returns the same
// permutation for the same K.
#pragma once

#include <cstdint>

#include "src/common/prefault.hpp"
#include "src/common/thread_pool.hpp"
#include "src/rabbitpp/rabbitpp.hpp"

namespace pgk::rabbitpp {

// K used for opt.batch <= 0 (auto): a function of n only, never of the thread count.
Index default_batch(Index n);

// G as build_graph returns it (equal arrays), computed on the pool. known_symmetric: the
// caller promises a structurally symmetric A (Options::input_is_symmetric); the check is skipped.
Graph build_graph_parallel(const CsrView &a, ThreadPool &pool, bool known_symmetric = false);

// G for rabbitpp_batch: where the caller promises a structurally symmetric A (known_symmetric) and
// A's rows are strictly increasing (PETSc's are), a view of A's own arrays with the diagonal
// stored (GraphView) and only the strengths computed; otherwise build_graph_parallel's copy.
// Either way the same dendrogram and permutation. A must outlive it. Throws as build_graph.
class BatchGraph {
public:
  BatchGraph(const CsrView &a, ThreadPool &pool, bool known_symmetric);
  BatchGraph(const BatchGraph &) = delete; // the view points into this object
  BatchGraph &operator=(const BatchGraph &) = delete;
  const GraphView &view() const { return view_; }
  bool borrowed() const { return view_.diagonal_stored; }

private:
  Graph owned_;                        // the copy, where A is not borrowed
  std::vector<std::int64_t> strength_; // the strengths, where it is
  GraphView view_;
};

// Community detection in rounds of `batch` vertices; Dendrogram::rounds counts the rounds and
// *deferred (if not null) the vertices deferred to a later round. The lists that merged vertices
// keep for their parents lie in one arena of arena_capacity entries (0: 2 nnz(G) + 1024; never
// below nnz(G), which always suffices), compacted when a round's lists do not fit behind those in
// use (*compactions, if not null, counts it), as the device backend's arena: one allocation for
// the whole run instead of a heap block a list, which other threads freed (the apply did not scale).
// arena_pages: the arena's page size (Options::huge_pages). cycle_walk: how far each vertex of a
// round follows its chain of merges looking for a cycle (only a false symmetry promise makes one,
// src/rabbitpp/README.md; checked where g.symmetry_promised) before the round is left to a serial
// walk; the result is the same for every value (tests pass 0, which sends every chained round to
// the serial walk).
Dendrogram detect_communities_batch(const GraphView &g, Index batch, ThreadPool &pool, Index *deferred = nullptr,
                                    std::int64_t arena_capacity = 0, Index *compactions = nullptr,
                                    Pages arena_pages = Pages::huge, int cycle_walk = 64);

// rabbit_permutation and community_of (dendrogram.hpp), computed on the pool.
std::vector<Index> rabbit_permutation_parallel(const Dendrogram &d, std::vector<Index> &com, ThreadPool &pool);

// regroup (regroup.hpp) on the pool.
std::vector<Index> regroup_parallel(const CsrView &a, const GraphView &g, const std::vector<Index> &com,
                                    const std::vector<Index> &perm_rabbit, const Options &opt, ThreadPool &pool);

// The whole ordering on opt.threads threads (0: all cores). perm[new] = old; info may be null
// (its figures cost an extra pass and are computed only when asked for).
std::vector<Index> rabbitpp_batch(const CsrView &a, const Options &opt, Info *info = nullptr);

} // namespace pgk::rabbitpp
