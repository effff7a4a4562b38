// Diagnostic harness, compiled by bench/diag/rabbitpp_variants.sh with PGK_RV_SYMMETRY=1 (not by
// CMake): the symmetric-pattern check of src/common/csr_symmetry.cpp both ways (the search, by
// blocks) and as dispatched, alternately in one process, then rabbitpp's graph phase
// (build_graph_parallel) as the library runs it, on each matrix of the list (the blocked check is
// on main since af2f13e).
//   symmetry_host THREADS REPS SPEC...   e.g. 16 10 communities:n=8000000 lap3d27:n=200
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "src/common/csr_symmetry.hpp"
#include "src/common/thread_pool.hpp"
#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/graph.hpp"

using namespace pgk;

namespace {

template <class F> double seconds(F &&f)
{
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv)
{
  if (argc < 4) return std::fprintf(stderr, "usage: %s THREADS REPS SPEC...\n", argv[0]), 2;
  const int  threads = std::atoi(argv[1]), reps = std::atoi(argv[2]);
  ThreadPool pool(threads);
  for (int m = 3; m < argc; ++m) {
    const Csr a = gen::generate(gen::parse_spec(argv[m]));
    std::printf("%s: n %ld, nnz %zu, %d threads, %d runs each\n", argv[m], static_cast<long>(a.nrows), a.colidx.size(), threads, reps);
    std::vector<double> search, blocks, dispatched, graph;
    bool                answers[3] = {};
    for (int r = 0; r < reps; ++r) {
      search.push_back(seconds([&] { answers[0] = detail::sorted_pattern_is_symmetric_by_search(view_of(a), &pool); }));
      blocks.push_back(seconds([&] { answers[1] = detail::sorted_pattern_is_symmetric_by_blocks(view_of(a), &pool, 14); }));
      dispatched.push_back(seconds([&] { answers[2] = sorted_pattern_is_symmetric(view_of(a), &pool); }));
      graph.push_back(seconds([&] { rabbitpp::build_graph_parallel(view_of(a), pool, false); }));
    }
    std::printf("  symmetric %d %d %d\n", answers[0], answers[1], answers[2]);
    const auto row = [](const char *what, const std::vector<double> &t) {
      const bench::Stats s = bench::summarize(t);
      std::printf("  %-24s median %.4f s (min %.4f, max %.4f, %d runs)\n", what, s.median, s.min, s.max, s.runs);
    };
    row("check by search", search);
    row("check by blocks", blocks);
    row("check as dispatched", dispatched);
    row("rabbitpp graph phase", graph);
  }
  return 0;
}
