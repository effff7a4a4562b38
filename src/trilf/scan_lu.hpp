// PC trilf: the tridiagonal LU of tridiag.hpp (factor()) as a speculative parallel scan along
// each path, for the device (kernels/trilf/scan_lu.cu) and its host emulation (factor_scan).
//
// Why: factor() is a recurrence along each path, d'_k = a_k - (l_k / d'_{k-1}) u_{k-1}. One
// thread per path is latency-bound on long paths (16.5 ms for ANISO2's 57,274-row path on an
// H100, bench/NOTES.md, about 80 MatMults). The recurrence is a Moebius map of d'_{k-1}: with
// b_k = l_k u_{k-1},
//   d'_k = p_k / q_k,   (p_k, q_k)^T = M_k (p_{k-1}, q_{k-1})^T,   M_k = [[a_k, -b_k], [1, 0]],
// so every pivot is a ratio of the entries of a prefix product of 2x2 matrices: an associative
// (segmented) scan. A segment starts at a path head and wherever b_k == 0 (then d'_k = a_k
// exactly, as in factor()): there M_k = [[a_k, 0], [1, 0]] carries the `head` flag, and
// compose(f, s) ("f, then s") is s when s.head, else (S F, f.head). The entries are
// double-double numbers (DD, below: why). Each product is scaled by
// the power of two that brings its largest entry into [1, 2): exact, so long products neither
// overflow nor underflow and the ratios keep their bits.
//
// Speculation: the scan knows nothing of the pivot rules. Afterwards every row of a scanned path
// is checked with the scan's pivots: m_k = l_k / d'_{k-1} finite, d'_k finite, |d'_k| > tau s_k
// (and > kScanGuard s_k, below).
// The first row of a path that fails (a split, a replacement, an overflow, or any non-finite
// product) and the rest of its path are redone by the reference's loop (pivot_step), started
// with the scan's d'_{k-1}. So splits, replacements and errors follow the reference's rules at
// the reference's rows; they are rare (none on most matrices), and a path with one near its head
// costs what it cost before.
//
// Accuracy: pivots and multipliers of scanned paths equal the reference's within rounding, not
// bit for bit (the products associate differently). Measured by tests/unit/trilf/scan_lu.cpp on
// anisotropic and convection paths of 10^4..10^5 rows: relative pivot difference <= 2.2e-14,
// which is the loop's own rounding error (against the recurrence in long double the scan's
// pivots are within 1.2e-16, the loop's within 2.2e-14); the tests allow 1e-12. A rule
// decision at a pivot within rounding of tau s_k may differ from the reference's. Paths shorter
// than kScanMinPath are factored by the loop from their head: bit for bit the reference.
//
// Shape (the device kernels and factor_scan run these operations in this order, each
// separately rounded, so their bits agree): rows in tiles of kScanTile = kScanThreads *
// kScanItems; thread t of a tile owns rows [t kScanItems, (t+1) kScanItems) of it, rows past N
// are the identity.
//   1. Each thread composes its rows left to right (its aggregate). A warp scans its threads'
//      aggregates inclusively (Kogge-Stone: for off = 1, 2, 4, 8, 16, x_l <- compose(x_{l-off},
//      x_l) for lanes l >= off, all lanes at once). The tile's total: the warp totals composed
//      left to right.
//   2. block_scan (below) over the tile totals, chunks of kScanThreads tiles, one item per
//      thread, carry-in the identity and then the running total: each tile's carry-in.
//   3. Each thread: its exclusive prefix by block_scan with the tile's carry-in, then its rows
//      left to right; pivot d'_k = P.a / P.c of the running prefix P.
//   4. Checks (above) and the sequential remainders.
// block_scan(x_t, carry): warp prefixes w_0 = carry, w_{i+1} = compose(w_i, total of warp i);
// thread t of warp i, lane l: exclusive = w_i for l = 0, else compose(w_i, inclusive_{t-1}).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "src/common/csr.hpp"
#include "src/trilf/tridiag.hpp"

#if defined(__CUDACC__)
#define PGK_TRILF_HD __host__ __device__ __forceinline__
#else
#define PGK_TRILF_HD inline
#endif

namespace pgk::trilf {

// Paths with at least this many rows are factored by the scan, shorter ones by the sequential
// loop. The loop costs about 0.29 us per row on an H100 (16.5 ms for 57,274 rows), so a
// 1024-row path costs about 0.3 ms, 1.5 MatMults of the benchmark's 4-6M-row matrices; the
// scan's passes over every row should cost about as much there (an estimate: not yet measured).
// Shorter paths keep the reference's bits (the small device tests compare them bit for bit).
constexpr Index kScanMinPath = 1024;

namespace scan_lu {

constexpr int kScanThreads = 256, kScanItems = 8, kScanTile = kScanThreads * kScanItems, kWarp = 32;
constexpr int kWarps = kScanThreads / kWarp;

// Separately rounded operations: no contraction into fused multiply-adds on either side.
#if defined(__CUDA_ARCH__)
PGK_TRILF_HD double mul(double x, double y) { return __dmul_rn(x, y); }
PGK_TRILF_HD double add(double x, double y) { return __dadd_rn(x, y); }
PGK_TRILF_HD double sub(double x, double y) { return __dsub_rn(x, y); }
PGK_TRILF_HD double div(double x, double y) { return __ddiv_rn(x, y); }
PGK_TRILF_HD bool finite(double x) { return isfinite(x); }
PGK_TRILF_HD std::uint64_t bits_of(double x) { return static_cast<std::uint64_t>(__double_as_longlong(x)); }
PGK_TRILF_HD double from_bits(std::uint64_t b) { return __longlong_as_double(static_cast<long long>(b)); }
#else
PGK_TRILF_HD double mul(double x, double y) { return x * y; }
PGK_TRILF_HD double add(double x, double y) { return x + y; }
PGK_TRILF_HD double sub(double x, double y) { return x - y; }
PGK_TRILF_HD double div(double x, double y) { return x / y; }
PGK_TRILF_HD bool finite(double x) { return std::isfinite(x); }
PGK_TRILF_HD std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
PGK_TRILF_HD double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
#endif

// Double-double numbers (hi + lo, |lo| <= ulp(hi) / 2): the products of the scan carry about
// 106 bits. Why: a product of two long sub-products of nearly equal maps cancels; with
// b_k ~ a_k^2 / 4 (weak diagonal dominance, e.g. a strongly anisotropic line, a_k = 2 + 2 eps,
// b_k = 1) each product level loses a factor ~1 / sqrt(eps) of accuracy. In plain double (a
// trial of this scan, constant coefficients, 10^5-row path) the pivots were off by 3e-11
// (eps = 1e-6) and 4e-8 (eps = 1e-10) where the sequential loop keeps 6e-14; with double-double
// products they are within 1.2e-16 of the exact recurrence (tests/unit/trilf/scan_lu.cpp).
// The error terms come from fused multiply-adds, which are exact on both sides (std::fma,
// __fma_rn), so host and device agree bit for bit.
struct DD {
  double hi, lo;
};

#if defined(__CUDA_ARCH__)
PGK_TRILF_HD double fma_rn(double x, double y, double z) { return __fma_rn(x, y, z); }
#else
PGK_TRILF_HD double fma_rn(double x, double y, double z) { return std::fma(x, y, z); }
#endif

PGK_TRILF_HD DD two_prod(double x, double y) {
  const double p = mul(x, y);
  return DD{p, fma_rn(x, y, -p)};
}
PGK_TRILF_HD DD quick_two_sum(double x, double y) { // |x| >= |y| or x == 0
  const double s = add(x, y);
  return DD{s, sub(y, sub(s, x))};
}
PGK_TRILF_HD DD two_sum(double x, double y) {
  const double s = add(x, y), v = sub(s, x);
  return DD{s, add(sub(x, sub(s, v)), sub(y, v))};
}
PGK_TRILF_HD DD dd_mul(const DD &x, const DD &y) {
  const DD p = two_prod(x.hi, y.hi);
  return quick_two_sum(p.hi, add(p.lo, add(mul(x.hi, y.lo), mul(x.lo, y.hi))));
}
PGK_TRILF_HD DD dd_add(const DD &x, const DD &y) {
  const DD s = two_sum(x.hi, y.hi), t = two_sum(x.lo, y.lo);
  const DD u = quick_two_sum(s.hi, add(s.lo, t.hi));
  return quick_two_sum(u.hi, add(u.lo, t.lo));
}

// [[a, b], [c, d]]; head: a segment starts in the rows this element covers.
struct Mobius {
  DD a, b, c, d;
  int head;
};

PGK_TRILF_HD Mobius identity() { return Mobius{{1.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, {1.0, 0.0}, 0}; }

// M_k of row k: diag a_k, b_k = l_k u_{k-1} exactly (0 at a path head: `first`).
PGK_TRILF_HD Mobius row_map(double diag, double lower, double upper_prev, bool first) {
  const DD b = first ? DD{0.0, 0.0} : two_prod(lower, upper_prev);
  if (b.hi == 0 && b.lo == 0) return Mobius{{diag, 0.0}, {0.0, 0.0}, {1.0, 0.0}, {0.0, 0.0}, 1};
  return Mobius{{diag, 0.0}, {-b.hi, -b.lo}, {1.0, 0.0}, {0.0, 0.0}, 0};
}

// Multiplies by 2^-e, e the exponent of the largest |entry|: exact (up to a subnormal lo).
// Left alone when that entry is 0, subnormal or not finite (the checks catch what follows).
PGK_TRILF_HD void normalize(Mobius &m) {
  const double big = fmax(fmax(fabs(m.a.hi), fabs(m.b.hi)), fmax(fabs(m.c.hi), fabs(m.d.hi)));
  const int field = static_cast<int>((bits_of(big) >> 52) & 0x7ff);
  if (field == 0 || field == 0x7ff) return;
  const double scale = from_bits(static_cast<std::uint64_t>(2046 - field) << 52); // 2^(1023 - field)
  m.a = DD{mul(m.a.hi, scale), mul(m.a.lo, scale)};
  m.b = DD{mul(m.b.hi, scale), mul(m.b.lo, scale)};
  m.c = DD{mul(m.c.hi, scale), mul(m.c.lo, scale)};
  m.d = DD{mul(m.d.hi, scale), mul(m.d.lo, scale)};
}

PGK_TRILF_HD DD dot2(const DD &x, const DD &y, const DD &z, const DD &w) { return dd_add(dd_mul(x, y), dd_mul(z, w)); }

// f, then s: S F (normalized), or s itself when a segment starts in s.
PGK_TRILF_HD Mobius compose(const Mobius &f, const Mobius &s) {
  if (s.head) return s;
  Mobius r{dot2(s.a, f.a, s.b, f.c), dot2(s.a, f.b, s.b, f.d), dot2(s.c, f.a, s.d, f.c), dot2(s.c, f.b, s.d, f.d),
           f.head};
  normalize(r);
  return r;
}

// The pivot of the row whose inclusive prefix is p (p starts at a head, so its second column
// is 0 and P e1 = (p_k, q_k)): p_k / q_k, one correction step of the double-double quotient.
PGK_TRILF_HD double pivot_of(const Mobius &p) {
  const double q1 = div(p.a.hi, p.c.hi);
  const DD qc = two_prod(q1, p.c.hi);
  const double r = add(sub(sub(p.a.hi, qc.hi), qc.lo), sub(p.a.lo, mul(q1, p.c.lo)));
  return add(q1, div(r, p.c.hi));
}

// One row of the reference's loop (factor() in tridiag.cpp, same operations in the same order).
// first: row k is its path's head (no coupling to k-1); dprev, uprev: d'_{k-1}, u_{k-1}.
struct Step {
  double m = 0, d = 0;
  bool split = false, replaced = false;
  int error = 0; // 0 none, 1 multiplier overflows, 2 pivot overflows
};
PGK_TRILF_HD Step pivot_step(double lo, double di, double up, bool first, double dprev, double uprev, double tau) {
  Step r;
  const double s = add(add(fabs(lo), fabs(di)), fabs(up));
  const double lim = mul(tau, s);
  double update = 0;
  if (!first && lo != 0) {
    r.m = div(lo, dprev);
    if (!finite(r.m)) {
      r.error = 1;
      return r;
    }
    update = mul(r.m, uprev);
  }
  r.d = sub(di, update);
  if (fabs(r.d) <= lim && update != 0) { // split the path before k
    r.m = 0;
    r.d = di;
    r.split = true;
  }
  if (fabs(r.d) <= lim) { // no update left: replace the diagonal
    r.d = s > 0 ? (di < 0 ? -s : s) : 1.0;
    r.replaced = true;
  }
  if (!finite(r.d)) r.error = 2;
  return r;
}

// Pivots at most kScanGuard s_k are left to the loop even when tau is smaller (tau = 0 catches
// exact zeros only): whether such a pivot is exactly 0, or which side of tau s_k it falls, is a
// matter of rounding, so the loop's rounding decides it, as in the reference. (On the corpus's
// "pivot chain" with tau = 0 the loop meets exact zeros, 4 splits, where the scan's more
// accurate pivots were 1e-20-ish and split nothing.) The default tau equals it.
constexpr double kScanGuard = 1.4901161193847656e-08; // sqrt(DBL_EPSILON)

// Whether the scan's pivot d of a non-failing row stands: m = l_k / d'_{k-1} (0 without a
// coupling) finite, d finite and |d| > max(tau, kScanGuard) s_k. m (out): the multiplier.
PGK_TRILF_HD bool scan_row_ok(double lo, double di, double up, bool first, double dprev, double d, double tau,
                              double &m) {
  const double s = add(add(fabs(lo), fabs(di)), fabs(up));
  m = (!first && lo != 0) ? div(lo, dprev) : 0.0;
  return finite(m) && finite(d) && fabs(d) > mul(fmax(tau, kScanGuard), s);
}

} // namespace scan_lu

// factor(t, perm, opt) computed as the device does: paths of at least min_path rows by the
// scan above (same shape, so the device's pivots and multipliers are these bit for bit), the
// others and the remainders after a failing row by the reference's loop. path_start: the path
// offsets (PathOrder::path_start). Throws like factor() (the first failing row).
TridiagonalFactor factor_scan(const Tridiagonal &t, const std::vector<Index> &perm,
                              const std::vector<Index> &path_start, const PivotOptions &opt,
                              Index min_path = kScanMinPath);

// Pass 1-3 alone: the scan pivot P.a / P.c of every row (heads: head[k] != 0 where a path
// starts), as the device stores them before the checks.
std::vector<double> scan_pivots(const Tridiagonal &t, const std::vector<char> &head);

} // namespace pgk::trilf
