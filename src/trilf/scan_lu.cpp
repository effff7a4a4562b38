// Host emulation of the device's speculative scan LU (scan_lu.hpp): the device's passes as
// sequential loops in the same shape (tiles, threads, warps, lanes), so that every composition
// happens in the device's order and the bits agree.
#include "src/trilf/scan_lu.hpp"

#include "src/common/csr_build.hpp"

#include <stdexcept>
#include <string>

namespace pgk::trilf {

namespace {

using namespace scan_lu;

// Row k's map; the identity past N (the padding of the last tile).
Mobius load(const Tridiagonal &t, const std::vector<char> &head, Index k) {
  const auto n = static_cast<Index>(t.diag.size());
  if (k >= n) return identity();
  const auto uk = static_cast<std::size_t>(k);
  const bool first = head[uk] != 0;
  return row_map(t.diag[uk], t.lower[uk], first ? 0.0 : t.upper[uk - 1], first);
}

// Pass 1/3's per-thread aggregates of one tile: each thread's rows composed left to right.
void thread_aggregates(const Tridiagonal &t, const std::vector<char> &head, Index tile, Mobius *agg) {
  for (int th = 0; th < kScanThreads; ++th) {
    const Index k0 = tile * kScanTile + static_cast<Index>(th) * kScanItems;
    Mobius x = load(t, head, k0);
    for (int j = 1; j < kScanItems; ++j) x = compose(x, load(t, head, k0 + j));
    agg[th] = x;
  }
}

// Kogge-Stone inclusive scan of each warp's 32 values, all lanes of a step at once (shuffles).
void warp_scans(Mobius *x, int count) {
  for (int w = 0; w < count; w += kWarp) {
    Mobius *lane = x + w;
    for (int off = 1; off < kWarp; off <<= 1) {
      Mobius before[kWarp];
      for (int l = 0; l < kWarp; ++l) before[l] = lane[l];
      for (int l = off; l < kWarp; ++l) lane[l] = compose(before[l - off], before[l]);
    }
  }
}

// block_scan of scan_lu.hpp: exclusive prefixes of the kScanThreads values with carry-in
// `carry`; returns the total, carry included.
Mobius block_scan(const Mobius *x, const Mobius &carry, Mobius *excl) {
  Mobius inc[kScanThreads];
  for (int th = 0; th < kScanThreads; ++th) inc[th] = x[th];
  warp_scans(inc, kScanThreads);
  Mobius w = carry;
  for (int i = 0; i < kWarps; ++i) {
    for (int l = 0; l < kWarp; ++l) excl[i * kWarp + l] = l == 0 ? w : compose(w, inc[i * kWarp + l - 1]);
    w = compose(w, inc[i * kWarp + kWarp - 1]);
  }
  return w;
}

void check_inputs(const Tridiagonal &t, const std::vector<Index> &perm, const std::vector<Index> &path_start,
                  const PivotOptions &opt) {
  const Index n = t.size();
  check_factor_input(t, perm, opt); // the reference's checks and messages
  bool ok = !path_start.empty() && path_start.front() == 0 && path_start.back() == n;
  for (std::size_t p = 1; ok && p < path_start.size(); ++p) ok = path_start[p] > path_start[p - 1];
  if (!ok) throw std::invalid_argument("trilf factor_scan: path_start does not partition 0..N-1");
}

// The reference's loop on rows [start, end) of the path with head h; dprev, uprev: row
// start-1's pivot and superdiagonal (unused when start == h).
void sequential(const Tridiagonal &t, double tau, Index h, Index start, Index end, TridiagonalFactor &f) {
  double *low = f.effective.lower.data(), *dia = f.effective.diag.data(), *up = f.effective.upper.data();
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  double dprev = start > h ? f.pivot[at(start - 1)] : 0.0, uprev = start > h ? t.upper[at(start - 1)] : 0.0;
  for (Index k = start; k < end; ++k) {
    const Step s = pivot_step(low[at(k)], dia[at(k)], up[at(k)], k == h, dprev, uprev, tau);
    if (s.error)
      throw std::domain_error(std::string("trilf factor: ") +
                              (s.error == 1 ? "multiplier overflows" : "pivot overflows") + " at permuted row " +
                              std::to_string(k) + " (original row " + std::to_string(f.perm[at(k)]) + ")");
    if (s.split) {
      low[at(k)] = 0;
      up[at(k - 1)] = 0;
      ++f.splits;
    }
    if (s.replaced) {
      dia[at(k)] = s.d;
      ++f.replaced;
    }
    f.mult[at(k)] = s.m;
    f.pivot[at(k)] = s.d;
    dprev = s.d;
    uprev = t.upper[at(k)];
  }
}

} // namespace

std::vector<double> scan_pivots(const Tridiagonal &t, const std::vector<char> &head) {
  const Index n = t.size();
  const Index ntiles = (n + kScanTile - 1) / kScanTile;
  std::vector<Mobius> total(static_cast<std::size_t>(ntiles)), carry(total.size());
  Mobius agg[kScanThreads], excl[kScanThreads];
  for (Index tile = 0; tile < ntiles; ++tile) { // pass 1
    thread_aggregates(t, head, tile, agg);
    warp_scans(agg, kScanThreads);
    Mobius tot = agg[kWarp - 1];
    for (int i = 1; i < kWarps; ++i) tot = compose(tot, agg[i * kWarp + kWarp - 1]);
    total[static_cast<std::size_t>(tile)] = tot;
  }
  Mobius running = identity(); // pass 2
  for (Index c = 0; c < ntiles; c += kScanThreads) {
    Mobius x[kScanThreads];
    for (int th = 0; th < kScanThreads; ++th)
      x[th] = c + th < ntiles ? total[static_cast<std::size_t>(c + th)] : identity();
    running = block_scan(x, running, excl);
    for (int th = 0; th < kScanThreads && c + th < ntiles; ++th) carry[static_cast<std::size_t>(c + th)] = excl[th];
  }
  std::vector<double> pivot(static_cast<std::size_t>(n));
  for (Index tile = 0; tile < ntiles; ++tile) { // pass 3
    thread_aggregates(t, head, tile, agg);
    block_scan(agg, carry[static_cast<std::size_t>(tile)], excl);
    for (int th = 0; th < kScanThreads; ++th) {
      Mobius run = excl[th];
      for (int j = 0; j < kScanItems; ++j) {
        const Index k = tile * kScanTile + static_cast<Index>(th) * kScanItems + j;
        run = compose(run, load(t, head, k));
        if (k < n) pivot[static_cast<std::size_t>(k)] = pivot_of(run);
      }
    }
  }
  return pivot;
}

TridiagonalFactor factor_scan(const Tridiagonal &t, const std::vector<Index> &perm,
                              const std::vector<Index> &path_start, const PivotOptions &opt, Index min_path) {
  check_inputs(t, perm, path_start, opt);
  const auto un = static_cast<std::size_t>(t.size());
  TridiagonalFactor f;
  f.perm = perm;
  f.effective = t;
  f.mult.assign(un, 0.0);
  f.pivot.assign(un, 0.0);
  std::vector<char> head(un, 0);
  bool any_long = false;
  for (std::size_t p = 0; p + 1 < path_start.size(); ++p) {
    head[static_cast<std::size_t>(path_start[p])] = 1;
    any_long = any_long || path_start[p + 1] - path_start[p] >= min_path;
  }
  const std::vector<double> sp = any_long ? scan_pivots(t, head) : std::vector<double>();
  const double tau = opt.rel_tol;
  for (std::size_t p = 0; p + 1 < path_start.size(); ++p) {
    const Index h = path_start[p], end = path_start[p + 1];
    Index start = h;
    if (end - h >= min_path) { // the scan's rows up to the first that fails a check
      for (start = h; start < end; ++start) {
        const auto k = static_cast<std::size_t>(start);
        double m = 0;
        if (!scan_row_ok(t.lower[k], t.diag[k], t.upper[k], start == h, start > h ? sp[k - 1] : 0.0, sp[k], tau, m))
          break;
        f.mult[k] = m;
        f.pivot[k] = sp[k];
      }
    }
    sequential(t, tau, h, start, end, f);
  }
  return f;
}

} // namespace pgk::trilf
