// The community graph of a matrix (rabbitpp.hpp: Graph) and the processing order.
#pragma once

#include "src/rabbitpp/rabbitpp.hpp"

namespace pgk::rabbitpp {

// G = pattern(A + A^T) without the diagonal, w(i,j) = [a_ij stored] + [a_ji stored]. Rows of A
// may be unsorted and hold duplicates (a duplicate counts once). Throws std::invalid_argument
// unless A is a square, well-formed CSR pattern; std::overflow_error if total^2 would not fit
// in int64 (the exact gain comparison needs it).
Graph build_graph(const CsrView &a);

// Vertices by ascending degree, ties by ascending id (order[pos] = vertex).
std::vector<Index> processing_order(const GraphView &g);

} // namespace pgk::rabbitpp
