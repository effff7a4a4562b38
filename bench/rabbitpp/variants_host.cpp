// Diagnostic harness, compiled by bench/diag/rabbitpp_variants.sh (not by CMake: it links copies of
// src/rabbitpp/batch.cpp that the script patches): the multicore community detection of
// several copies of src/rabbitpp/batch.cpp, each compiled with its entry points renamed
// (detect_communities_batch_X), called alternately in one process on one graph, so that the
// variants share the machine's state and its drift. Prints each call's time and the
// dendrogram's hash (all variants must agree).
//   rabbitpp_variants SPEC THREADS REPS LETTERS   e.g. communities:n=8000000 16 8 ALHST
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/graph.hpp"

using namespace pgk;
namespace pgk::rabbitpp {
// The signature since the list arena's page size became a parameter (Options::huge_pages).
#define DECLARE(X) Dendrogram detect_communities_batch_##X(const GraphView &, Index, ThreadPool &, Index *, std::int64_t, Index *, Pages, int);
// clang-format off
DECLARE(A) DECLARE(M) DECLARE(O) DECLARE(W) DECLARE(X) DECLARE(K) DECLARE(J) DECLARE(G) DECLARE(R) DECLARE(Z) DECLARE(Y) DECLARE(N) DECLARE(C) DECLARE(D) DECLARE(E) DECLARE(L) DECLARE(H) DECLARE(S) DECLARE(T) DECLARE(P) DECLARE(I) DECLARE(B) DECLARE(U) DECLARE(V) DECLARE(F) DECLARE(Q)
// clang-format on
} // namespace pgk::rabbitpp

int main(int argc, char **argv)
{
  if (argc < 5) return std::fprintf(stderr, "usage: %s SPEC THREADS REPS LETTERS\n", argv[0]), 2;
  const int         threads = std::atoi(argv[2]), reps = std::atoi(argv[3]);
  const std::string letters = argv[4];
  auto              t0      = std::chrono::steady_clock::now();
  Csr               a       = gen::generate(gen::parse_spec(argv[1]));
  ThreadPool        pool(threads);
  rabbitpp::Graph   g = rabbitpp::build_graph_parallel(view_of(a), pool, true);
  a                   = Csr();
  std::printf("graph %s: n %ld, nnz(G) %zu, set up in %.1f s, %d threads\n", argv[1], (long)g.n, g.colidx.size(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), threads);
  using F         = rabbitpp::Dendrogram (*)(const rabbitpp::GraphView &, Index, ThreadPool &, Index *, std::int64_t, Index *, Pages, int);
  const auto pick = [](char c) -> F {
    switch (c) {
    case 'M': return rabbitpp::detect_communities_batch_M;
    case 'O': return rabbitpp::detect_communities_batch_O;
    case 'W': return rabbitpp::detect_communities_batch_W;
    case 'X': return rabbitpp::detect_communities_batch_X;
    case 'K': return rabbitpp::detect_communities_batch_K;
    case 'J': return rabbitpp::detect_communities_batch_J;
    case 'G': return rabbitpp::detect_communities_batch_G;
    case 'R': return rabbitpp::detect_communities_batch_R;
    case 'Z': return rabbitpp::detect_communities_batch_Z;
    case 'Y': return rabbitpp::detect_communities_batch_Y;
    case 'N': return rabbitpp::detect_communities_batch_N;
    case 'C': return rabbitpp::detect_communities_batch_C;
    case 'D': return rabbitpp::detect_communities_batch_D;
    case 'E': return rabbitpp::detect_communities_batch_E;
    case 'L': return rabbitpp::detect_communities_batch_L;
    case 'H': return rabbitpp::detect_communities_batch_H;
    case 'S': return rabbitpp::detect_communities_batch_S;
    case 'T': return rabbitpp::detect_communities_batch_T;
    case 'P': return rabbitpp::detect_communities_batch_P;
    case 'I': return rabbitpp::detect_communities_batch_I;
    case 'B': return rabbitpp::detect_communities_batch_B;
    case 'U': return rabbitpp::detect_communities_batch_U;
    case 'V': return rabbitpp::detect_communities_batch_V;
    case 'F': return rabbitpp::detect_communities_batch_F;
    case 'Q': return rabbitpp::detect_communities_batch_Q;
    default: return rabbitpp::detect_communities_batch_A;
    }
  };
  const Index batch = rabbitpp::default_batch(g.n);
  for (int r = 0; r < reps; ++r)
    for (const char c : letters) {
      const auto           s   = std::chrono::steady_clock::now();
      rabbitpp::Dendrogram d   = pick(c)(g, batch, pool, nullptr, 0, nullptr, Pages::huge, 64);
      const double         sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count();
      unsigned long long   h   = 1469598103934665603ull;
      for (const Index p : d.parent) h = (h ^ static_cast<unsigned long long>(p + 7)) * 1099511628211ull;
      std::printf("%c communities %.3f s rounds %ld hash %016llx\n", c, sec, static_cast<long>(d.rounds), h);
      std::fflush(stdout);
    }
}
