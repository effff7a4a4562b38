// Stand-alone breakdown of what returning a permutation as two index sets costs on the host (bench/NOTES.md,
// fifteenth session: the GPU MatGetOrdering call over its kernel). Times, median of 11, at 2.1M and 14.7M rows:
// PgkCreatePermutationISes on 1, 2 and 16 threads; PETSc's two ISCreateGeneral copies; two ISCreateGeneral on an
// array already touched (what is left is ISSetUp_General's serial min/max scan); a fresh std::vector of n entries
// (what the kernel downloads into); a 16-thread ThreadPool's start and join. Since 9fae31f PgkCreatePermutationISes
// makes one set returned as both (one copy, one scan), so its rows time half the work of the PETSc rows beside them.
// Not built by CMake; in a set-up bundle
// (scripts/bundle, run-on-gpu-node) with P=$(cat PETSC_PREFIX), S=source, B=. :
//   mpicxx -std=c++17 -O2 -I$P/include -I$S $S/bench/diag/permutation_is_costs.cpp $S/src/common/thread_pool.cpp \
//     -o permutation_is_costs -L$P/lib -lpetsc -L$B/build/petsc_plugin -lpetscgpukit -Wl,-rpath,$P/lib:$B/build/petsc_plugin
#include "bench/common/bench_common.hpp"
#include "src/common/thread_pool.hpp"

#include <petscis.h>

#include <chrono>
#include <cstdio>
#include <vector>

// petsc_plugin/sys/permutation_is.hpp's function, exported by libpetscgpukit.so: bench/ may not
// include the plugin's private headers (scripts/check-layering), so it is declared here.
PetscErrorCode PgkCreatePermutationISes(const std::vector<PetscInt> &perm, PetscInt threads, IS *irow, IS *icol);

using C = std::chrono::steady_clock;
static double ms(C::time_point a)
{
  return std::chrono::duration<double, std::milli>(C::now() - a).count();
}
// Median of 11 runs of f (no warm-up: the first run's fresh pages are part of what is measured), in ms.
template <class F> double med(F f)
{
  return pgk::bench::measure(0, 11, f).median;
}
// Median time of making two index sets by `make` (which sets r and c), the sets destroyed untimed.
template <class F> double TwoSets(F make)
{
  return med([&] {
    IS   r, c;
    auto t0 = C::now();
    make(&r, &c);
    const double x = ms(t0);
    ISDestroy(&r);
    ISDestroy(&c);
    return x;
  });
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt n : {2097152, 14706125}) {
    std::vector<PetscInt> perm(n);
    for (PetscInt i = 0; i < n; ++i) perm[i] = n - 1 - i;
    for (int T : {1, 2, 16}) printf("n=%d PgkCreatePermutationISes threads %d: %.2f ms\n", (int)n, T, TwoSets([&](IS *r, IS *c) { PetscCallAbort(PETSC_COMM_SELF, PgkCreatePermutationISes(perm, T, r, c)); }));
    for (PetscCopyMode mode : {PETSC_COPY_VALUES, PETSC_USE_POINTER}) {
      const double t = TwoSets([&](IS *r, IS *c) {
        PetscCallAbort(PETSC_COMM_SELF, ISCreateGeneral(PETSC_COMM_SELF, n, perm.data(), mode, r));
        PetscCallAbort(PETSC_COMM_SELF, ISCreateGeneral(PETSC_COMM_SELF, n, perm.data(), mode, c));
      });
      printf("n=%d %s: %.2f ms\n", (int)n, mode == PETSC_COPY_VALUES ? "two ISCreateGeneral copies" : "two ISCreateGeneral on a touched array (min/max scans)", t);
    }
    const double t = med([&] {
      auto                  t0 = C::now();
      std::vector<PetscInt> v(n);
      double                x = ms(t0);
      return x + 0 * v[n / 2];
    });
    printf("n=%d std::vector<PetscInt>(n), fresh: %.2f ms\n", (int)n, t);
  }
  double t = med([&] {
    auto t0 = C::now();
    {
      pgk::ThreadPool p(16);
      p.run([](int, int) {});
    }
    return ms(t0);
  });
  printf("ThreadPool(16) start, one empty run, join: %.2f ms\n", t);
  PetscCall(PetscFinalize());
}
