// Host helpers to build, check, measure and reorder CSR matrices (see csr.hpp).
// They serve the generators, the Matrix Market reader and the tests of the ordering
// algorithms; none of them knows about PETSc.
#pragma once

#include "src/common/csr.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pgk {

// CSR from coordinate triplets (0-based). Duplicates are summed, in input order, so the
// result is bit-identical for the same input; columns come out sorted and unique.
// `values` empty builds a pattern (Csr::values empty). Throws std::invalid_argument on
// mismatched array lengths or an index outside the matrix, std::length_error if the entry
// count does not fit in Index.
Csr csr_from_coo(Index nrows, Index ncols, const std::vector<Index> &rows, const std::vector<Index> &cols,
                 const std::vector<double> &values);

// Pattern of A + A^T (values empty), sorted and unique. Accepts unsorted rows and
// duplicates. Used to turn a directed random graph into an undirected one.
// Throws std::invalid_argument if A is not square.
Csr symmetrize_pattern(const CsrView &a);

// A^T, with values if A has them. Rows of the result are sorted even if A's are not
// (row j of A^T lists the rows i of A in increasing i); duplicates in A stay duplicates.
Csr transpose(const CsrView &a);

// Rows [begin, end) of A: local row pointer starting at 0, column indices unchanged
// (global). This is the slice an MPI rank owns. Throws std::invalid_argument on a bad range.
Csr row_slice(const Csr &a, Index begin, Index end);

// Structural validity: non-negative sizes, rowptr present, rowptr[0] == 0, rowptr
// non-decreasing, every column index in [0, ncols), colidx present when nnz > 0.
// On failure returns false and, if `why` is not null, stores a one-line reason.
// Sortedness is a separate question: see rows_sorted_unique.
bool validate_csr(const CsrView &a, std::string *why = nullptr);

class ThreadPool;
// The same check and the same reason, the passes over the rows split among the pool's threads
// (one thread reading 10^8 column indices took a tenth of a second of a multicore ordering).
bool validate_csr(const CsrView &a, std::string *why, ThreadPool &pool);

// True if every row's column indices are strictly increasing (sorted, no duplicates).
// Requires validate_csr(a) to hold.
bool rows_sorted_unique(const CsrView &a, std::string *why = nullptr);
// The same check and the same reason, the rows split among the pool's threads.
bool rows_sorted_unique(const CsrView &a, std::string *why, ThreadPool &pool);

// Number of stored values that are NaN or +-Inf (0 for a pattern).
Index count_nonfinite(const CsrView &a);

// max |i - j| over stored entries (0 for an empty or diagonal matrix).
Index bandwidth(const CsrView &a);

// Envelope (profile) size of the lower triangle:
//   sum over rows i of (i - f_i),  f_i = min(i, smallest column stored in row i),
// rows without entries contributing 0. It counts the positions between each row's first
// entry and the diagonal, i.e. the storage of an envelope (skyline) Cholesky factor
// without its diagonal, the quantity Cuthill-McKee style orderings reduce. For a
// symmetric pattern it equals the upper-triangle envelope too. 64-bit: it can reach n^2/2.
std::int64_t profile(const CsrView &a);

// True if perm has n entries forming a permutation of 0..n-1.
bool is_permutation(const std::vector<Index> &perm, Index n);

// Symmetric permutation B = P A P^T with perm[new] = old: B(k, l) = A(perm[k], perm[l]).
// Columns of B are sorted; values follow if A has them. Throws std::invalid_argument if A
// is not square or perm is not a permutation of 0..nrows-1.
Csr permute_symmetric(const Csr &a, const std::vector<Index> &perm);

} // namespace pgk
