#include "src/common/envelope.hpp"

#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <stdexcept>

namespace pgk {

Envelope envelope(const CsrView &a, const std::vector<Index> &perm) {
  Envelope e;
  const bool identity = perm.empty();
  if (!identity && static_cast<Index>(perm.size()) != a.nrows)
    throw std::invalid_argument("envelope: permutation size differs from the row count");
  std::vector<Index> inverse;
  if (!identity) {
    inverse.assign(a.nrows, 0);
    for (Index k = 0; k < a.nrows; ++k) inverse[perm[k]] = k;
  }
  for (Index knew = 0; knew < a.nrows; ++knew) {
    const Index i = identity ? knew : perm[knew];
    Index first = knew;
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const Index j = a.colidx[k];
      const Index jnew = identity || j >= a.nrows ? j : inverse[j];
      e.bandwidth = std::max(e.bandwidth, jnew > knew ? jnew - knew : knew - jnew);
      first = std::min(first, jnew);
    }
    e.profile += static_cast<std::int64_t>(knew) - first;
  }
  return e;
}

namespace {

// Rows [lo, hi) of a into the two partial envelopes; inverse[old] = new.
void envelope_rows(const CsrView &a, const std::vector<Index> &inverse, Index lo, Index hi, EnvelopeChange &c) {
  for (Index i = lo; i < hi; ++i) {
    const Index inew = inverse[i];
    Index first = i, first_new = inew;
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const Index j = a.colidx[k];
      const Index jnew = j >= a.nrows ? j : inverse[j];
      c.before.bandwidth = std::max(c.before.bandwidth, j > i ? j - i : i - j);
      c.after.bandwidth = std::max(c.after.bandwidth, jnew > inew ? jnew - inew : inew - jnew);
      first = std::min(first, j);
      first_new = std::min(first_new, jnew);
    }
    c.before.profile += static_cast<std::int64_t>(i) - first;
    c.after.profile += static_cast<std::int64_t>(inew) - first_new;
  }
}

} // namespace

EnvelopeChange envelope_change(const CsrView &a, const std::vector<Index> &perm, int threads) {
  if (static_cast<Index>(perm.size()) != a.nrows)
    throw std::invalid_argument("envelope: permutation size differs from the row count");
  const Index n = a.nrows;
  ThreadPool pool(threads);
  std::vector<Index> inverse(static_cast<std::size_t>(n));
  pool.parallel_for(0, n, 1 << 16, [&](std::int64_t k) { inverse[perm[k]] = static_cast<Index>(k); });
  std::vector<EnvelopeChange> part(static_cast<std::size_t>(pool.threads()));
  pool.run([&](int t, int nt) {
    const Index lo = static_cast<Index>(static_cast<std::int64_t>(n) * t / nt);
    const Index hi = static_cast<Index>(static_cast<std::int64_t>(n) * (t + 1) / nt);
    envelope_rows(a, inverse, lo, hi, part[static_cast<std::size_t>(t)]);
  });
  EnvelopeChange c;
  for (const EnvelopeChange &p : part) {
    c.before.bandwidth = std::max(c.before.bandwidth, p.before.bandwidth);
    c.after.bandwidth = std::max(c.after.bandwidth, p.after.bandwidth);
    c.before.profile += p.before.profile;
    c.after.profile += p.after.profile;
  }
  return c;
}

} // namespace pgk
