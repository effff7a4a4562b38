// The symmetric layout's pattern arrays and the symmetry checks (symmetric.hpp).
#include "src/aijcompound/symmetric.hpp"

#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <atomic>

namespace pgk::aijcompound {

namespace {

// Below this many entries the checks run on the calling thread: starting workers costs more.
constexpr Index kParallelMinEntries = Index(1) << 16;

int pool_threads(const CompoundCsr &a, int threads) { return a.nnzb() < kParallelMinEntries ? 1 : threads; }

} // namespace

bool symmetric_pattern(const CompoundCsr &a, std::vector<Index> *diag, std::vector<Index> *partner, int threads) {
  validate(a, threads);
  if (a.nbrows != a.nbcols) return false;
  diag->assign(static_cast<std::size_t>(a.nbrows), 0);
  partner->assign(static_cast<std::size_t>(a.nnzb()), -1);
  const Index *col = a.colidx.data();
  std::atomic<bool> ok{true};
  std::atomic<Index> lower{0}, upper{0}; // strictly lower / strictly upper entries
  ThreadPool pool(pool_threads(a, threads));
  pool.parallel_for(0, a.nbrows, 4096, [&](std::int64_t r) {
    const Index b = a.rowptr[r], e = a.rowptr[r + 1];
    const Index d = static_cast<Index>(std::lower_bound(col + b, col + e, static_cast<Index>(r)) - col);
    (*diag)[r] = d;
    for (Index k = b; k < d; ++k) { // (r, j), j < r: find (j, r) in row j
      const Index j = col[k], *first = col + a.rowptr[j], *last = col + a.rowptr[j + 1];
      const Index *p = std::lower_bound(first, last, static_cast<Index>(r));
      if (p == last || *p != r) {
        ok.store(false, std::memory_order_relaxed);
        return;
      }
      (*partner)[k] = static_cast<Index>(p - col);
    }
    const Index self = d < e && col[d] == r ? 1 : 0;
    lower.fetch_add(d - b, std::memory_order_relaxed);
    upper.fetch_add(e - d - self, std::memory_order_relaxed);
  });
  // Every lower entry has a distinct upper partner; equal counts make that a bijection, so every
  // upper entry has its lower partner too.
  return ok.load() && lower.load() == upper.load();
}

bool symmetric_values(const CompoundCsr &a, const std::vector<Index> &diag, const std::vector<Index> &partner,
                      int threads) {
  const int es = a.esize();
  std::atomic<bool> ok{true};
  ThreadPool pool(pool_threads(a, threads));
  pool.parallel_for(0, a.nbrows, 4096, [&](std::int64_t r) {
    double t[kMaxBs * kMaxBs];
    for (Index k = a.rowptr[r]; k < diag[r]; ++k) {
      transposed_entry(a.kind, a.bs, a.entry(partner[k]), 1, t);
      const double *v = a.entry(k);
      for (int c = 0; c < es; ++c)
        if (!(v[c] == t[c])) {
          ok.store(false, std::memory_order_relaxed);
          return;
        }
    }
  });
  return ok.load();
}

bool is_symmetric(const CompoundCsr &a, int threads) {
  std::vector<Index> diag, partner;
  return symmetric_pattern(a, &diag, &partner, threads) && symmetric_values(a, diag, partner, threads);
}

Index lower_entries(const CompoundCsr &a, const std::vector<Index> &diag) {
  Index n = 0;
  for (Index r = 0; r < a.nbrows; ++r) n += diag[r] - a.rowptr[r];
  return n;
}

} // namespace pgk::aijcompound
