// Host emulation of trilf's device apply (kernels/trilf/apply_scan.cu; tiles scanned row by row
// here, not by the device's association): the fix-up kernels of main against the carry fix read by
// the next pass (bench/diag/trilf_apply_fused_fix.patch; and with only the forward's,
// trilf_apply_fused_fix_forward.patch), on 400 random factors with path starts
// (zero multipliers), random permutations, tiles of 8-64 rows and n not a multiple of a tile. It
// checks the patch's index arithmetic (scan position against row, tiles, kept lengths, where each
// sensitivity is stored): the three flows must give the same bits.
//   g++ -O1 -std=c++17 -o /tmp/emu bench/diag/trilf_fused_fix_emu.cpp && /tmp/emu
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <vector>
using V = std::vector<double>;
struct Aff {
  double a, b;
};
static Aff compose(Aff f, Aff s)
{
  if (s.a == 0) return s;
  return Aff{f.a == 0 ? 0.0 : s.a * f.a, std::fma(s.a, f.b, s.b)};
}
static int   T    = 8;
const double drop = 0x1p-60;
struct Scan {
  std::vector<long> fixlen;
  V                 carry;
};
// load(t) -> Aff; row(t); stores y[row(t)] and sens[srow(t)]
template <class L, class R> Scan tiles(long n, L load, R row, V &y, V &sens, R srow)
{
  long nt = (n + T - 1) / T;
  Scan s;
  s.fixlen.assign(nt, 0);
  s.carry.assign(nt, 0);
  V aa(nt), ab(nt);
  for (long ti = 0; ti < nt; ++ti) {
    Aff              run{1, 0};
    long             base = ti * T, last = 0;
    std::vector<Aff> out;
    for (long t = base; t < std::min(n, base + T); ++t) {
      run = compose(run, load(t));
      out.push_back(run);
      if (std::fabs(run.a) > drop) last = t - base + 1;
    }
    for (long t = base; t < std::min(n, base + T); ++t) {
      y[row(t)] = out[t - base].b;
      if (t - base < last) sens[srow(t)] = out[t - base].a;
    }
    s.fixlen[ti] = last;
    aa[ti]       = run.a;
    ab[ti]       = run.b;
  }
  Aff run{1, 0};
  for (long ti = 0; ti < nt; ++ti) {
    s.carry[ti] = run.b;
    run         = compose(run, Aff{aa[ti], ab[ti]});
  }
  return s;
}
int main()
{
  std::mt19937_64 g(7);
  int             bad = 0, cases = 0;
  for (int rep = 0; rep < 400; ++rep) {
    T                                        = (rep % 3 == 0) ? 8 : (rep % 3 == 1 ? 16 : 64);
    long                                   n = 1 + g() % 700;
    std::uniform_real_distribution<double> u(-1, 1);
    double                                 scale = (rep % 2) ? 0.99 : 0.5;
    V                                      mult(n), cu(n), dinv(n), r(n);
    std::vector<long>                      perm(n), iperm(n);
    for (long i = 0; i < n; ++i) {
      mult[i] = (g() % 13 == 0) ? 0 : scale * u(g);
      cu[i]   = (g() % 13 == 0) ? 0 : scale * u(g);
      dinv[i] = 1 + u(g);
      r[i]    = u(g);
      perm[i] = i;
    }
    for (long i = n - 1; i > 0; --i) std::swap(perm[i], perm[g() % (i + 1)]);
    for (long i = 0; i < n; ++i) iperm[perm[i]] = i;
    auto                      id  = [](long t) { return t; };
    auto                      rev = [n](long t) { return n - 1 - t; };
    std::function<long(long)> fid = id, frev = rev;
    // main: fix passes
    V y(n), sens(n), z0(n), z1(n), z2(n);
    {
      Scan f = tiles(
          n,
          [&](long t) {
            return Aff{-mult[t], r[perm[t]]};
          },
          fid, y, sens, fid);
      for (long ti = 1; ti < (long)f.carry.size(); ++ti) {
        double c = f.carry[ti];
        if (c == 0) continue;
        for (long t = ti * T; t < ti * T + f.fixlen[ti] && t < n; ++t) y[t] = std::fma(sens[t], c, y[t]);
      }
      Scan b = tiles(
          n,
          [&](long t) {
            long k = n - 1 - t;
            return Aff{cu[k], dinv[k] * y[k]};
          },
          frev, y, sens, fid);
      for (long ti = 1; ti < (long)b.carry.size(); ++ti) {
        double c = b.carry[ti];
        if (c == 0) continue;
        for (long t = ti * T; t < ti * T + b.fixlen[ti] && t < n; ++t) y[n - 1 - t] = std::fma(sens[t], c, y[n - 1 - t]);
      }
      for (long i = 0; i < n; ++i) z0[i] = y[iperm[i]];
    }
    std::fill(y.begin(), y.end(), NAN);
    std::fill(sens.begin(), sens.end(), NAN);
    {
      auto fix = [&](const Scan &s, long t, long k, double x, const V &sv) {
        long tile = t / T;
        if (tile == 0 || t - tile * T >= s.fixlen[tile]) return x;
        double c = s.carry[tile];
        return c == 0 ? x : std::fma(sv[k], c, x);
      };
      Scan f = tiles(
          n,
          [&](long t) {
            return Aff{-mult[t], r[perm[t]]};
          },
          fid, y, sens, fid);
      // the backward tiles: every load of a tile before its stores (as one CUDA block does)
      V    y2    = y;
      V    sens2 = sens;
      Scan b     = tiles(
              n,
              [&](long t) {
            long k = n - 1 - t;
            return Aff{cu[k], dinv[k] * fix(f, k, k, y2[k], sens)};
          },
              frev, y, sens2, frev);
      // y2 and sens hold what the forward scan left: a backward tile's thread reads its rows' entries
      // before it stores the same rows, and no other tile touches them, so on the device one array
      // each serves both; the backward sensitivities go to sens2 here at the row, as on the device.
      for (long i = 0; i < n; ++i) {
        long k = iperm[i];
        z1[i]  = fix(b, n - 1 - k, k, y[k], sens2);
      }
      // trilf_apply_fused_fix_forward.patch: the backward fix as a pass over the rows (sens at the row), then the gather
      for (long ti = 1; ti < (long)b.carry.size(); ++ti) {
        double c = b.carry[ti];
        if (c == 0) continue;
        for (long t = ti * T; t < ti * T + b.fixlen[ti] && t < n; ++t) y[n - 1 - t] = std::fma(sens2[n - 1 - t], c, y[n - 1 - t]);
      }
      for (long i = 0; i < n; ++i) z2[i] = y[iperm[i]];
    }
    ++cases;
    if (std::memcmp(z0.data(), z1.data(), n * sizeof(double)) != 0 || std::memcmp(z0.data(), z2.data(), n * sizeof(double)) != 0) {
      ++bad;
      if (bad < 5) printf("mismatch n=%ld T=%d\n", n, T);
    }
  }
  printf("%d cases, %d mismatches\n", cases, bad);
  return bad != 0;
}
