// The multicore rabbitpp call (rabbitpp_batch, what MatGetOrdering runs on the host) with its
// kernel time and page faults: host only, no PETSc. For each run it calls the ordering with the
// list arena on huge pages and then on 4 KiB pages (Options::huge_pages), alternately, so that a
// node's drift falls on both, and prints per call the wall time, the process's user and system CPU
// time, its minor page faults and the four phases. System time is where page faults and the
// kernel's zeroing of fresh pages show (bench/NOTES.md, thirty-eighth session).
//   bench_rabbitpp_phases SPEC THREADS RUNS [flagged|unflagged]   e.g. communities:n=8000000 16 5
// flagged (default): the caller promises a symmetric pattern (as PETSc's flag does), no check.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/resource.h>

#include "bench/common/bench_common.hpp"
#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"

namespace {

struct Usage {
  double user, sys;
  long   minor_faults;
};

Usage usage_now()
{
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto sec = [](const timeval &t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return {sec(u.ru_utime), sec(u.ru_stime), u.ru_minflt};
}

} // namespace

int main(int argc, char **argv)
{
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s SPEC THREADS RUNS [flagged|unflagged]\n", argv[0]);
    return 2;
  }
  const pgk::Csr         a = pgk::gen::generate(pgk::gen::parse_spec(argv[1]));
  pgk::rabbitpp::Options o;
  o.threads            = std::atoi(argv[2]);
  const int runs       = std::max(1, std::atoi(argv[3]));
  o.input_is_symmetric = argc < 5 || std::strcmp(argv[4], "unflagged") != 0;
  std::printf("%s: n %ld, nnz %ld, %d threads, %s\n", argv[1], static_cast<long>(a.nrows), static_cast<long>(a.nnz()), o.threads, o.input_is_symmetric ? "flagged (no symmetry check)" : "unflagged (the pattern checked)");
  std::vector<double> wall[2], sys[2];
  for (int r = -1; r < runs; ++r) // r = -1: one warm-up call of each
    for (int huge = 1; huge >= 0; --huge) {
      o.huge_pages = huge == 1;
      pgk::rabbitpp::Info           info;
      const Usage                   u0   = usage_now();
      const auto                    t0   = std::chrono::steady_clock::now();
      const std::vector<pgk::Index> perm = pgk::rabbitpp::rabbitpp_batch(pgk::view_of(a), o, &info);
      const double                  s    = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const Usage                   u1   = usage_now();
      unsigned long long            h    = 1469598103934665603ull;
      for (const pgk::Index p : perm) h = (h ^ static_cast<unsigned long long>(p + 7)) * 1099511628211ull;
      std::printf("%s run %d: wall %.3f s, user %.3f s, sys %.3f s, minor faults %ld | graph %.3f, communities %.3f, "
                  "numbering %.3f, regroup %.3f s | hash %016llx\n",
                  huge ? "huge" : "4k  ", r, s, u1.user - u0.user, u1.sys - u0.sys, u1.minor_faults - u0.minor_faults, info.seconds_graph, info.seconds_communities, info.seconds_order, info.seconds_regroup, h);
      if (r >= 0) wall[huge].push_back(s), sys[huge].push_back(u1.sys - u0.sys);
    }
  for (int huge = 1; huge >= 0; --huge) std::printf("%s median of %d: wall %.3f s, sys %.3f s (the call includes the figures' pass)\n", huge ? "huge" : "4k  ", runs, pgk::bench::summarize(wall[huge]).median, pgk::bench::summarize(sys[huge]).median);
  return 0;
}
