// The graph corpus every device test runs on: one list of named matrices, each with the traits
// a primitive needs to accept it, generated on first use and kept for the process.
//
// Entries (corpus.cpp has the list):
//   * "suite#<id> ..."  250 random patterns of ten families (sparse random, preferential
//     attachment, hub rows, grids with holes, trees, many components, small dense, paths and
//     cycles, larger random, n = 0..3), relabelled at random, some with stored diagonals,
//     shuffled rows or duplicate entries: the batch RCM stress suite;
//   * generator specs ("lap3d7:n=20", ...): every spec the device tests used;
//   * trilf matrices: random matrices with tied or continuous weights (symmetric or not),
//     disjoint rings, pivot chains (exact cancellations, tiny diagonals), singular 2x2 pairs,
//     zero diagonals, all-ones values;
//   * edge cases: n = 0, n = 1, all rows empty, empty rows, self loops only, isolated vertices,
//     one huge hub row (a star), disconnected parts, structurally nonsymmetric patterns.
// `small` marks the subset the compute-sanitizer runs use (racecheck is slow); in the small
// corpus some suite graphs are generated smaller, as before.
#pragma once

#include "src/common/csr.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pgk::test {

// What a matrix is, so that a test can pick the entries its primitive accepts.
struct Traits {
  bool values = true;            // values stored (false: a pattern)
  bool sorted_unique = true;     // every row sorted ascending without duplicates (PETSc's AIJ)
  bool symmetric_pattern = true; // structurally symmetric
};

class CorpusEntry {
public:
  using Maker = std::function<Csr(bool small, std::string &detail)>;
  CorpusEntry(std::string name, bool small, Traits traits, double apply_tol, Maker make);

  const std::string &name() const { return name_; }
  bool small() const { return small_; }
  const Traits &traits() const { return traits_; }
  // Relative 2-norm tolerance of device applies against the host's (1e-12; 1e-9 for the
  // matrices built to produce tiny pivots).
  double apply_tol() const { return apply_tol_; }
  // Position in the full corpus: a stable per-entry number for option choices and seeds.
  int variant() const { return variant_; }
  // The matrix (generated on first call; traits checked then: a wrong trait throws).
  const Csr &matrix() const;
  // Name plus what generation found (size, flags), for SCOPED_TRACE and failure messages.
  std::string label() const;

private:
  friend const std::vector<CorpusEntry> &corpus_entries();
  std::string name_;
  bool small_;
  Traits traits_;
  double apply_tol_;
  int variant_ = 0;
  Maker make_;
  mutable std::shared_ptr<Csr> matrix_;
  mutable bool generated_small_ = false; // the corpus size matrix_ was generated for
  mutable std::string detail_;
};

// Which corpus a run uses: the full one, or the small subset (set from the command line by the
// device tests' main, "--small", or the environment, PGK_TEST_CORPUS=small).
void set_small_corpus(bool small);
bool small_corpus();

// Every entry of the full corpus, in its fixed order.
const std::vector<CorpusEntry> &corpus_entries();

// The entries of the current corpus (full or small) whose traits meet `needs`: an entry is
// taken when it has every trait that `needs` sets to true.
struct Needs {
  bool values = false;
  bool sorted_unique = false;
  bool symmetric_pattern = false;
};
std::vector<const CorpusEntry *> corpus(const Needs &needs = Needs());

// Whether pattern(A) == pattern(A^T) (rows may be unsorted or hold duplicates): checks the
// declared traits.
bool structurally_symmetric(const Csr &a);

} // namespace pgk::test
