// The multicore Rabbit numbering alone (rabbit_permutation_parallel: communities by pointer
// jumping, the children CSR, the post-order DFS per community) on a dendrogram from
// detect_communities_batch at the default K: host only, no PETSc, so that two commits'
// src/rabbitpp/batch_order.cpp can be timed on the same node by two builds of this file.
//   bench_rabbitpp_numbering SPEC THREADS [RUNS]   e.g. communities:n=8000000 16 7
// Prints the median and minimum of RUNS (default 7) calls after one warm-up, and a hash of the
// permutation and the communities (equal hashes: the same numbering).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/graph.hpp"

int main(int argc, char **argv)
{
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SPEC THREADS [RUNS]\n", argv[0]);
    return 2;
  }
  const pgk::Csr                  a       = pgk::gen::generate(pgk::gen::parse_spec(argv[1]));
  const int                       threads = std::atoi(argv[2]), runs = argc > 3 ? std::max(1, std::atoi(argv[3])) : 7;
  pgk::ThreadPool                 pool(threads);
  const pgk::rabbitpp::Graph      g = pgk::rabbitpp::build_graph_parallel(pgk::view_of(a), pool);
  const pgk::rabbitpp::Dendrogram d = pgk::rabbitpp::detect_communities_batch(g, pgk::rabbitpp::default_batch(a.nrows), pool);
  std::vector<double>             seconds;
  std::uint64_t                   hash = 0;
  for (int r = -1; r < runs; ++r) { // r = -1: the warm-up
    std::vector<pgk::Index>       communities;
    const auto                    t0   = std::chrono::steady_clock::now();
    const std::vector<pgk::Index> perm = pgk::rabbitpp::rabbit_permutation_parallel(d, communities, pool);
    const double                  s    = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r >= 0) seconds.push_back(s);
    hash = 0;
    for (std::size_t i = 0; i < perm.size(); ++i) hash = hash * 1000003u + static_cast<std::uint64_t>(perm[i]) + 7u * static_cast<std::uint64_t>(communities[i]);
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("%s threads %d numbering median %.4f s min %.4f s (%d runs) hash %016llx\n", argv[1], threads, seconds[seconds.size() / 2], seconds[0], runs, static_cast<unsigned long long>(hash));
  return 0;
}
