// Builders of the corpus matrices that no generator spec names (corpus.hpp has the list): the
// batch RCM random suite, the trilf matrices and the edge cases. Deterministic (SplitMix64).
#pragma once

#include "src/common/csr.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pgk::test::graphs {

// Graph `id` of the batch RCM random suite (a pattern, structurally symmetric; rows may be
// shuffled or hold duplicates); the family cycles with id. `small` shrinks the hub and the
// larger random families (the sanitizer runs). `what` receives the family and the flags.
Csr rcm_suite_graph(int id, bool small, std::string &what);
// The graphs of the batch RCM error tests: 200 vertices, 400 random edges, several
// components; and a star of 3000 vertices whose leaf 1 carries a tail of 10 (the hub's batch
// then reserves ~1500 batches ahead of itself).
Csr rcm_error_graph();
Csr star_with_tail();

// Random matrix with values: deg partners per row; levels > 0 gives |a| in {1..levels} (ties);
// sym_pattern / sym_values; dominance scales the diagonal against the row sum; zero_diag > 0:
// every zero_diag-th row has a 0 diagonal.
Csr random_matrix(Index n, int deg, std::uint64_t seed, bool sym_pattern, bool sym_values, int levels, double dominance,
                  int zero_diag = 0);
// Disjoint rings of the given lengths (every vertex of degree 2); levels > 0: weights in {1..levels}.
Csr rings(const std::vector<Index> &lengths, std::uint64_t seed, int levels);
// 1D chain, off-diagonals +-1, diagonals from {0, +-1, 2, 1e-20}: pivot splits and replacements.
Csr pivot_chain(Index n, std::uint64_t seed);
// Pairs [[1, 1], [1, 1]] chained weakly: exact zero pivots.
Csr singular_pairs(Index pairs);
// A with the diagonal value of every `every`-th row set to 0.
Csr zero_diagonal_every(Csr a, Index every);
// A with every value 1.
Csr all_ones(Csr a);

// Edge cases.
Csr all_rows_empty(Index n);                                   // n rows, no entries at all
Csr without_vertices(const Csr &a, Index every, Index offset); // rows and columns v % every == offset emptied
Csr isolated_vertices(const Csr &a, Index every);        // off-diagonals of v % every == 0 dropped (diagonal kept)
Csr self_loops_only(Index n);                            // diagonal only, mixed signs and magnitudes
Csr star(Index n);                                       // vertex 0 coupled to every other vertex
Csr lower_bidiagonal(Index n);                           // structurally nonsymmetric
Csr drop_offdiagonals(const Csr &a, std::uint64_t seed); // a quarter of the off-diagonals dropped: nonsymmetric

} // namespace pgk::test::graphs
