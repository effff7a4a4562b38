// The device tests' graph corpus (corpus.hpp): the list, lazy generation, trait checks.
#include "tests/support/corpus.hpp"

#include "src/common/csr_build.hpp"
#include "src/matgen/generators.hpp"
#include "tests/support/corpus_graphs.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace pgk::test {

namespace {

bool g_small = [] {
  const char *env = std::getenv("PGK_TEST_CORPUS");
  return env && std::strcmp(env, "small") == 0;
}();

constexpr Traits kMatrix{true, true, true}; // values, sorted unique rows, symmetric pattern
constexpr Traits kNonsymmetric{true, true, false};
constexpr Traits kSuitePattern{false, false, true}; // rows may be shuffled or hold duplicates

// Every generator spec the device tests used, with the sanitizer subset marked.
struct SpecItem {
  const char *spec;
  bool small;
};
const SpecItem kSpecs[] = {
    // sizes n = 0, 1, 2, 3 and self loops only ("empty" is the identity)
    {"empty:n=0", true},
    {"empty:n=1", true},
    {"empty:n=2", true},
    {"empty:n=4", true},
    {"empty:n=7", false},
    {"empty:n=9", true},
    {"empty:n=100", false},
    {"empty:n=3000", false},
    {"path:n=1", true},
    {"path:n=2", true},
    {"path:n=3", true},
    {"path:n=70", true},
    {"path:n=1000", false},
    {"path:n=1001", false},
    {"path:n=2001", true},
    {"path:n=4097", false},
    {"path:n=5000", false},
    {"path:n=200001", false},
    // meshes
    {"lap2d5:n=12", true},
    {"lap2d5:n=15", true},
    {"lap2d5:n=33", false},
    {"lap2d5:n=40", false},
    {"lap2d5:n=150", false},
    {"lap2d5:n=301", false},
    {"lap3d7:n=8", true},
    {"lap3d7:n=9", true},
    {"lap3d7:n=12", false},
    {"lap3d7:n=20", false},
    {"lap3d7:n=30", false},
    {"lap3d27:n=6", false},
    {"lap3d27:n=16", false},
    {"elast3d:n=5", false},
    {"elast3d:n=6", false},
    {"elast3d:n=7", false},
    {"elast3d:n=7,lambda=10", false},
    {"elast3d:n=14", false},
    {"aniso2d:n=10,variant=2", true},
    {"aniso2d:n=25,variant=3", false},
    {"aniso2d:n=31,variant=1", false},
    {"aniso2d:n=40,variant=1", false},
    {"aniso2d:n=40,variant=2", false},
    {"aniso2d:nx=37,ny=29,variant=3", false},
    {"aniso2d:nx=40,ny=27,variant=2", false},
    {"aniso3d:n=10", false},
    {"convdiff2d:n=9", true},
    {"convdiff2d:n=9,peclet=30", true},
    {"convdiff2d:n=25,peclet=50", false},
    {"convdiff2d:n=30,peclet=3", false},
    {"convdiff2d:n=40", false},
    {"convdiff3d:n=9,peclet=20", false},
    {"convdiff3d:n=12", false},
    // random graphs: hubs, power laws, geometric, disconnected parts
    {"random:n=501,deg=5", true},
    {"random:n=2000,deg=7", false},
    {"random:n=3000,deg=7", false},
    {"random:n=3001,deg=6", false},
    {"random:n=3000,deg=9,seed=4", false},
    {"random:n=40000,deg=12,seed=9", false},
    {"hubrow:n=301", true},
    {"hubrow:n=400", true},
    {"hubrow:n=2300,hubdeg=2299", true},
    {"hubrow:n=2999", false},
    {"hubrow:n=3000", false},
    {"hubrow:n=5000", false},
    {"hubrow:n=5000,hubdeg=4999", false},
    {"hubrow:n=20000,deg=6,seed=3", false},
    {"powerlaw:n=4000", false},
    {"powerlaw:n=4001", false},
    {"powerlaw:n=5000", false},
    {"powerlaw:n=30000,seed=5", false},
    {"rgg2d:n=3000", false},
    {"disconnected:n=400,parts=5", true},
    {"disconnected:n=500,parts=4", false},
    {"disconnected:n=999,parts=7", false},
    {"disconnected:n=2000,parts=5", false},
    {"disconnected:n=2001,parts=5", false},
    {"disconnected:n=20000,parts=11,deg=3", false},
};

Csr spec(const char *s) { return gen::generate(gen::parse_spec(s)); }

// The batch RCM random suite: 250 graphs, the first 12 in the sanitizer subset (generated
// smaller there, as the RCM program's --small did).
void add_suite(std::vector<CorpusEntry> &v) {
  for (int id = 0; id < 250; ++id)
    v.emplace_back("suite#" + std::to_string(id), id < 12, kSuitePattern, 1e-12,
                   [id](bool small, std::string &what) { return graphs::rcm_suite_graph(id, small, what); });
}

void add_specs(std::vector<CorpusEntry> &v) {
  for (const SpecItem &s : kSpecs) {
    const char *text = s.spec;
    v.emplace_back(text, s.small, kMatrix, 1e-12, [text](bool, std::string &) { return spec(text); });
  }
}

// Adds an entry whose matrix does not depend on the corpus size.
template <class F> void add(std::vector<CorpusEntry> &v, std::string name, bool small, Traits t, double tol, F make) {
  v.emplace_back(std::move(name), small, t, tol, [make](bool, std::string &) { return make(); });
}

// The trilf matrices: ties, continuous weights, nonsymmetric values or patterns, cycles to
// break, pivot splits and replacements, singular blocks, zero diagonals, all-ones values.
void add_trilf(std::vector<CorpusEntry> &v) {
  using namespace graphs;
  add(v, "random ties n=300", true, kMatrix, 1e-12, [] { return random_matrix(300, 4, 3, true, true, 2, 1.0); });
  add(v, "random nonsym n=200", true, kNonsymmetric, 1e-12,
      [] { return random_matrix(200, 4, 4, false, false, 0, 1.0); });
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    add(v, "random ties seed " + std::to_string(seed), false, kMatrix, 1e-12,
        [seed] { return random_matrix(1500, 4, seed, true, true, static_cast<int>(seed % 3 + 1), 1.0); });
    add(v, "random cont seed " + std::to_string(seed), false, seed % 2 == 0 ? kMatrix : kNonsymmetric, 1e-12,
        [seed] { return random_matrix(1500, 5, seed, seed % 2 == 0, seed % 3 == 0, 0, 1.0); });
  }
  add(v, "random nonsym ties", false, kNonsymmetric, 1e-12,
      [] { return random_matrix(2000, 3, 9, false, false, 2, 1.0); });
  add(v, "rings 3..33", true, kMatrix, 1e-12, [] { return rings({3, 4, 5, 8, 16, 17, 32, 33}, 1, 0); });
  add(v, "rings pow2", false, kMatrix, 1e-12, [] {
    return rings({2 + 1, 4, 8, 16, 32, 64, 128, 256, 512, 1024}, 3, 0);
  });
  add(v, "rings mixed", false, kMatrix, 1e-12, [] {
    return rings({3, 5, 7, 9, 31, 33, 63, 65, 100, 1000, 1023, 1025}, 4, 0);
  });
  add(v, "rings ties", false, kMatrix, 1e-12, [] { return rings({3, 4, 6, 12, 24, 48, 96, 97}, 5, 1); });
  add(v, "rings ties2", false, kMatrix, 1e-12, [] { return rings({5, 6, 7, 8, 9, 10, 11, 12, 13}, 6, 2); });
  add(v, "one big ring", false, kMatrix, 1e-12, [] { return rings({5000}, 7, 3); });
  // zero diagonals on every third row, symmetric pattern, nonsymmetric values
  add(v, "zero diag random", false, kMatrix, 1e-9, [] { return random_matrix(1000, 3, 11, true, false, 0, 0.0, 3); });
  add(v, "pivot chain n=150", true, kMatrix, 1e-9, [] { return pivot_chain(150, 2); });
  add(v, "pivot chain n=3000", false, kMatrix, 1e-9, [] { return pivot_chain(3000, 2); });
  add(v, "pivot chain 2", false, kMatrix, 1e-9, [] { return pivot_chain(1000, 5); });
  add(v, "singular pairs 20", true, kMatrix, 1e-9, [] { return singular_pairs(20); });
  add(v, "singular pairs 500", false, kMatrix, 1e-9, [] { return singular_pairs(500); });
  add(v, "lap2d5:n=9 zero diag/3", true, kMatrix, 1e-12, [] { return zero_diagonal_every(spec("lap2d5:n=9"), 3); });
  add(v, "lap2d5:n=21 zero diag/3", false, kMatrix, 1e-12, [] { return zero_diagonal_every(spec("lap2d5:n=21"), 3); });
  add(v, "convdiff2d:n=17 zero diag/2", false, kMatrix, 1e-12,
      [] { return zero_diagonal_every(spec("convdiff2d:n=17,peclet=40"), 2); });
  add(v, "lap2d5:n=11 all ones", false, kMatrix, 1e-12, [] { return all_ones(spec("lap2d5:n=11")); });
  add(v, "random:n=301 all ones", false, kMatrix, 1e-12, [] { return all_ones(spec("random:n=301,deg=4")); });
}

void add_edge_cases(std::vector<CorpusEntry> &v) {
  using namespace graphs;
  add(v, "edge: all rows empty n=5", true, kMatrix, 1e-12, [] { return all_rows_empty(5); });
  add(v, "edge: empty rows (lap2d5:n=12, v%7==3 removed)", true, kMatrix, 1e-12,
      [] { return without_vertices(spec("lap2d5:n=12"), 7, 3); });
  add(v, "edge: isolated vertices (lap2d5:n=12, every 5th)", true, kMatrix, 1e-12,
      [] { return isolated_vertices(spec("lap2d5:n=12"), 5); });
  add(v, "edge: self loops only, mixed signs n=64", true, kMatrix, 1e-12, [] { return self_loops_only(64); });
  add(v, "edge: star n=6000", false, kMatrix, 1e-12, [] { return star(6000); });
  add(v, "edge: lower bidiagonal n=500", true, kNonsymmetric, 1e-12, [] { return lower_bidiagonal(500); });
  add(v, "edge: lap3d7:n=9 quarter of off-diagonals dropped", true, kNonsymmetric, 1e-12,
      [] { return drop_offdiagonals(spec("lap3d7:n=9"), 77); });
}

std::vector<CorpusEntry> build_corpus() {
  std::vector<CorpusEntry> v;
  add_suite(v); // first, so that suite#id has variant id (the option choices of the RCM suite)
  add_specs(v);
  add_trilf(v);
  add_edge_cases(v);
  return v;
}

} // namespace

CorpusEntry::CorpusEntry(std::string name, bool small, Traits traits, double apply_tol, Maker make)
    : name_(std::move(name)), small_(small), traits_(traits), apply_tol_(apply_tol), make_(std::move(make)) {}

const Csr &CorpusEntry::matrix() const {
  if (matrix_ && generated_small_ == g_small) return *matrix_;
  std::string detail;
  auto a = std::make_shared<Csr>(make_(g_small, detail));
  const CsrView v = view_of(*a);
  std::string why;
  if (!validate_csr(v, &why)) throw std::logic_error("corpus entry " + name_ + ": invalid CSR: " + why);
  if (traits_.values && a->values.size() != a->colidx.size())
    throw std::logic_error("corpus entry " + name_ + ": declared with values, has none");
  if (traits_.sorted_unique && !rows_sorted_unique(v, &why))
    throw std::logic_error("corpus entry " + name_ + ": declared sorted, is not: " + why);
  if (traits_.symmetric_pattern && !structurally_symmetric(*a))
    throw std::logic_error("corpus entry " + name_ + ": declared structurally symmetric, is not");
  detail_ = detail.empty() ? "" : " (" + detail + ")";
  matrix_ = std::move(a);
  generated_small_ = g_small;
  return *matrix_;
}

std::string CorpusEntry::label() const {
  const Csr &a = matrix();
  return name_ + detail_ + " [n=" + std::to_string(a.nrows) + ", nnz=" + std::to_string(a.nnz()) + "]";
}

void set_small_corpus(bool small) { g_small = small; }
bool small_corpus() { return g_small; }

const std::vector<CorpusEntry> &corpus_entries() {
  static const std::vector<CorpusEntry> entries = [] {
    std::vector<CorpusEntry> v = build_corpus();
    for (std::size_t k = 0; k < v.size(); ++k) v[k].variant_ = static_cast<int>(k);
    return v;
  }();
  return entries;
}

std::vector<const CorpusEntry *> corpus(const Needs &needs) {
  std::vector<const CorpusEntry *> out;
  for (const CorpusEntry &e : corpus_entries()) {
    const Traits &t = e.traits();
    if (g_small && !e.small()) continue;
    if ((needs.values && !t.values) || (needs.sorted_unique && !t.sorted_unique) ||
        (needs.symmetric_pattern && !t.symmetric_pattern))
      continue;
    out.push_back(&e);
  }
  return out;
}

bool structurally_symmetric(const Csr &a) {
  if (a.nrows != a.ncols) return false;
  // The sorted unique pattern of A against that of A + A^T.
  std::vector<Index> rows;
  rows.reserve(a.colidx.size());
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) rows.push_back(i);
  const Csr p = csr_from_coo(a.nrows, a.ncols, rows, a.colidx, {});
  const Csr s = symmetrize_pattern(view_of(a));
  return p.rowptr == s.rowptr && p.colidx == s.colidx;
}

} // namespace pgk::test
