// Device PC trilf, scalar variant (kernels/trilf_gpu.hpp, trilf_primitives.hpp) against the
// host reference (src/trilf_*.hpp): for every graph and option set, the device's weight
// graph, [0,n]-factor (n = 1..8), forest, permutation, T, pivots, splits/replacements and
// info must equal the reference's; apply and apply_transpose must agree with
// pgk::trilf::solve / solve_transpose to 1e-12 (relative, 2-norm; 1e-9 for the matrices built
// to produce tiny pivots); two runs must be bit-identical; bad input must raise the
// reference's exception with the reference's message.
//
//   kernel_trilf            the full suite
//   kernel_trilf --small    a reduced suite, for compute-sanitizer
//   kernel_trilf --timing   phase and apply times on a few large matrices (+ cuSPARSE SpMV)
//
// Prints "N cases, M mismatches, E errors" and exits non-zero on any mismatch or error.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "src/common/csr_build.hpp"
#include "src/matgen/generators.hpp"
#include "src/common/rng.hpp"
#include "src/trilf/coverage.hpp"
#include "src/trilf/factor.hpp"
#include "kernels/trilf/pc_gpu.hpp"
#include "src/trilf/paths.hpp"
#include "src/trilf/pc.hpp"
#include "kernels/trilf/primitives.hpp"
#include "src/trilf/tridiag.hpp"
#include "src/trilf/weights.hpp"

using pgk::Csr;
using pgk::CsrView;
using pgk::Index;
namespace tl = pgk::trilf;
namespace dt = pgk::cuda::trilf;

namespace {

int g_cases = 0, g_mismatches = 0, g_errors = 0, g_ill = 0;

void mismatch(const std::string &where, const std::string &what) {
  ++g_mismatches;
  if (g_mismatches <= 40) std::printf("MISMATCH %s: %s\n", where.c_str(), what.c_str());
}

// ---- device copies ----------------------------------------------------------------------------

struct DeviceCsr {
  pgk::cuda::DeviceBuffer<Index> rowptr, colidx;
  pgk::cuda::DeviceBuffer<double> values;
  CsrView view{};
  explicit DeviceCsr(const Csr &a, bool with_values = true) {
    rowptr.upload(a.rowptr.data(), a.rowptr.size(), nullptr);
    colidx.upload(a.colidx.data(), a.colidx.size(), nullptr);
    view.nrows = a.nrows;
    view.ncols = a.ncols;
    view.rowptr = rowptr.data();
    view.colidx = colidx.data();
    if (with_values && !a.values.empty()) {
      values.upload(a.values.data(), a.values.size(), nullptr);
      view.values = values.data();
    }
  }
};

std::vector<double> download(const double *d, std::size_t n) {
  std::vector<double> h(n);
  if (n) cudaMemcpy(h.data(), d, n * sizeof(double), cudaMemcpyDeviceToHost);
  return h;
}

double rel_diff(const std::vector<double> &x, const std::vector<double> &y) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    num += (x[i] - y[i]) * (x[i] - y[i]);
    den += y[i] * y[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

bool same_bits(const std::vector<double> &x, const std::vector<double> &y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0);
}

std::vector<double> random_vector(std::size_t n, std::uint64_t seed) {
  pgk::SplitMix64 rng(seed);
  std::vector<double> v(n);
  for (double &x : v) x = 2 * rng.uniform() - 1;
  return v;
}

// ---- test matrices ----------------------------------------------------------------------------

struct Case {
  std::string name;
  Csr a;
  double tol = 1e-12; // apply tolerance
};

Csr from_entries(Index n, const std::set<std::pair<Index, Index>> &entries, const std::vector<double> &vals) {
  std::vector<Index> rows, cols;
  for (const auto &[i, j] : entries) {
    rows.push_back(i);
    cols.push_back(j);
  }
  return pgk::csr_from_coo(n, n, rows, cols, vals);
}

// Random matrix: deg partners per row; levels > 0 gives |a| in {1..levels} (ties);
// sym_pattern / sym_values; zero_diag: every `zero_diag`-th row has a 0 diagonal.
Csr random_matrix(Index n, int deg, std::uint64_t seed, bool sym_pattern, bool sym_values, int levels,
                  double dominance, int zero_diag = 0) {
  pgk::SplitMix64 rng(seed);
  std::set<std::pair<Index, Index>> e;
  for (Index i = 0; i < n; ++i) {
    e.insert({i, i});
    for (int d = 0; d < deg && n > 1; ++d) {
      const Index j = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(n)));
      if (j == i) continue;
      e.insert({i, j});
      if (sym_pattern) e.insert({j, i});
    }
  }
  std::vector<double> vals;
  std::vector<double> rowsum(static_cast<std::size_t>(n), 0.0);
  for (const auto &[i, j] : e) {
    if (i == j) {
      vals.push_back(0);
      continue;
    }
    const std::uint64_t key = sym_values ? (static_cast<std::uint64_t>(std::min(i, j)) << 32) ^ static_cast<std::uint64_t>(std::max(i, j))
                                         : (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint64_t>(j);
    pgk::SplitMix64 h(seed * 0x9E3779B97F4A7C15ull + key);
    const std::uint64_t u = h.next_u64();
    const double mag = levels > 0 ? static_cast<double>(1 + u % static_cast<std::uint64_t>(levels))
                                  : 0.05 + static_cast<double>(u >> 11) * 0x1.0p-53;
    vals.push_back((u >> 7) & 1 ? -mag : mag);
    rowsum[static_cast<std::size_t>(i)] += mag;
  }
  std::size_t at = 0;
  for (const auto &[i, j] : e) {
    if (i == j) {
      const bool zero = zero_diag > 0 && i % zero_diag == 0;
      vals[at] = zero ? 0.0 : (rng.next_u64() & 1 ? -1 : 1) * (dominance * rowsum[static_cast<std::size_t>(i)] + 1.0);
    }
    ++at;
  }
  return from_entries(n, e, vals);
}

// Disjoint rings of the given lengths (every vertex degree 2: the factor is the rings, and
// each ring is a cycle to break). levels > 0: weights in {1..levels}.
Csr rings(const std::vector<Index> &lengths, std::uint64_t seed, int levels) {
  pgk::SplitMix64 rng(seed);
  Index n = 0;
  for (Index l : lengths) n += l;
  std::set<std::pair<Index, Index>> e;
  std::vector<std::pair<std::pair<Index, Index>, double>> w;
  Index base = 0;
  for (Index l : lengths) {
    for (Index k = 0; k < l; ++k) {
      const Index i = base + k, j = base + (k + 1) % l;
      const double v = levels > 0 ? -static_cast<double>(1 + rng.bounded(static_cast<std::uint64_t>(levels))) : -(0.1 + rng.uniform());
      w.push_back({{std::min(i, j), std::max(i, j)}, v});
    }
    base += l;
  }
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  for (Index i = 0; i < n; ++i) {
    rows.push_back(i);
    cols.push_back(i);
    vals.push_back(10.0);
  }
  for (const auto &[p, v] : w) {
    rows.push_back(p.first);
    cols.push_back(p.second);
    vals.push_back(v);
    rows.push_back(p.second);
    cols.push_back(p.first);
    vals.push_back(v);
  }
  return pgk::csr_from_coo(n, n, rows, cols, vals);
}

// 1D chain with off-diagonals +-1 and diagonals from {0, +-1, 2, 1e-20}: exact cancellations
// (pivot splits) and zero/tiny diagonals at path starts (replacements).
Csr pivot_chain(Index n, std::uint64_t seed) {
  pgk::SplitMix64 rng(seed);
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  const double choices[] = {0.0, 1.0, -1.0, 2.0, 1e-20, 1.0, 1.0};
  for (Index i = 0; i < n; ++i) {
    if (i > 0) {
      rows.push_back(i);
      cols.push_back(i - 1);
      vals.push_back(rng.bounded(2) ? 1.0 : -1.0);
    }
    rows.push_back(i);
    cols.push_back(i);
    vals.push_back(choices[rng.bounded(7)]);
    if (i + 1 < n) {
      rows.push_back(i);
      cols.push_back(i + 1);
      vals.push_back(rng.bounded(2) ? 1.0 : -1.0);
    }
  }
  return pgk::csr_from_coo(n, n, rows, cols, vals);
}

// Singular 2x2 couplings: pairs [[1, 1], [1, 1]] chained weakly; the pair is an exact zero
// pivot after elimination (split), and the other order gives a replacement.
Csr singular_pairs(Index pairs) {
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  auto add = [&](Index i, Index j, double v) {
    rows.push_back(i);
    cols.push_back(j);
    vals.push_back(v);
  };
  for (Index p = 0; p < pairs; ++p) {
    const Index i = 2 * p, j = 2 * p + 1;
    add(i, i, 1);
    add(i, j, 1);
    add(j, i, 1);
    add(j, j, 1);
    if (p + 1 < pairs) {
      add(j, j + 1, 0.25);
      add(j + 1, j, 0.25);
    }
  }
  return pgk::csr_from_coo(2 * pairs, 2 * pairs, rows, cols, vals);
}

Csr spec(const std::string &s) { return pgk::gen::generate(pgk::gen::parse_spec(s)); }

std::vector<Case> matrices(bool small) {
  std::vector<Case> m;
  auto add = [&](const std::string &name, Csr a, double tol = 1e-12) { m.push_back({name, std::move(a), tol}); };
  Csr zero;
  zero.nrows = zero.ncols = 0;
  add("n=0", zero);
  add("empty:n=1", spec("empty:n=1"));
  add("path:n=2", spec("path:n=2"));
  if (small) {
    for (const char *s : {"lap2d5:n=12", "aniso2d:n=10,variant=2", "convdiff2d:n=9", "hubrow:n=400", "path:n=70", "empty:n=9"})
      add(s, spec(s));
    add("random ties", random_matrix(300, 4, 3, true, true, 2, 1.0));
    add("random nonsym", random_matrix(200, 4, 4, false, false, 0, 1.0));
    add("rings 3..33", rings({3, 4, 5, 8, 16, 17, 32, 33}, 1, 0));
    add("pivot chain", pivot_chain(150, 2), 1e-9);
    add("singular pairs", singular_pairs(20), 1e-9);
    return m;
  }
  for (const char *s : {"lap2d5:n=40", "lap3d7:n=12", "lap3d27:n=6", "aniso2d:n=40,variant=1", "aniso2d:n=40,variant=2",
                        "aniso2d:nx=37,ny=29,variant=3", "aniso3d:n=10", "convdiff2d:n=40", "convdiff2d:n=30,peclet=3",
                        "convdiff3d:n=12", "random:n=3000,deg=7", "disconnected:n=2000,parts=5", "hubrow:n=5000",
                        "powerlaw:n=5000", "rgg2d:n=3000", "path:n=1", "path:n=1000", "path:n=4097", "empty:n=100",
                        "elast3d:n=5"})
    add(s, spec(s));
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    add("random ties seed " + std::to_string(seed), random_matrix(1500, 4, seed, true, true, seed % 3 + 1, 1.0));
    add("random cont seed " + std::to_string(seed), random_matrix(1500, 5, seed, seed % 2 == 0, seed % 3 == 0, 0, 1.0));
  }
  add("random nonsym ties", random_matrix(2000, 3, 9, false, false, 2, 1.0));
  add("rings pow2", rings({2 + 1, 4, 8, 16, 32, 64, 128, 256, 512, 1024}, 3, 0));
  add("rings mixed", rings({3, 5, 7, 9, 31, 33, 63, 65, 100, 1000, 1023, 1025}, 4, 0));
  add("rings ties", rings({3, 4, 6, 12, 24, 48, 96, 97}, 5, 1));
  add("rings ties2", rings({5, 6, 7, 8, 9, 10, 11, 12, 13}, 6, 2));
  add("one big ring", rings({5000}, 7, 3));
  add("zero diag random", random_matrix(1000, 3, 11, true, false, 0, 0.0, 3), 1e-9);
  add("pivot chain", pivot_chain(3000, 2), 1e-9);
  add("pivot chain 2", pivot_chain(1000, 5), 1e-9);
  add("singular pairs", singular_pairs(500), 1e-9);
  return m;
}

struct NamedOptions {
  std::string name;
  tl::Options opt;
};

std::vector<NamedOptions> option_sets(bool small) {
  std::vector<NamedOptions> v;
  tl::Options o;
  v.push_back({"default", o});
  o.factor.weight = tl::Weight::Scaled;
  v.push_back({"scaled", o});
  if (small) return v;
  tl::Options u;
  u.factor.rounds = 40;
  u.factor.charge_period = 1; // never charged: runs to maximal
  v.push_back({"uncharged M=40", u});
  tl::Options c;
  c.factor.rounds = 12;
  c.factor.charge_offset = 1;
  c.factor.charge_prob = 0.3;
  c.factor.seed = 7;
  v.push_back({"M=12 km=1 p=.3 seed=7", c});
  tl::Options d;
  d.factor.rounds = 7;
  d.factor.charge_period = 2;
  d.factor.charge_offset = 1;
  d.factor.charge_prob = 0.8;
  d.factor.seed = 123;
  d.factor.weight = tl::Weight::Scaled;
  d.pivot.rel_tol = 0;
  v.push_back({"M=7 m=2 km=1 p=.8 seed=123 scaled tau=0", d});
  tl::Options z;
  z.factor.rounds = 0;
  v.push_back({"M=0", z});
  return v;
}

// ---- checks -----------------------------------------------------------------------------------

// Device W (on A's or the symmetrized pattern, zeros for non-edges) equals the host's W.
void check_weights(const std::string &where, const DeviceCsr &d, const Csr &a, tl::Weight kind, dt::DeviceWeightGraph &w) {
  dt::build_weight_graph(d.view, kind, w, nullptr);
  const Csr ref = tl::weight_graph(pgk::view_of(a), kind);
  const Index n = a.nrows;
  std::vector<Index> rp(static_cast<std::size_t>(n) + 1), ci;
  cudaMemcpy(rp.data(), w.view.rowptr, sizeof(Index) * rp.size(), cudaMemcpyDeviceToHost);
  ci.resize(static_cast<std::size_t>(rp.back()));
  if (!ci.empty()) cudaMemcpy(ci.data(), w.view.colidx, sizeof(Index) * ci.size(), cudaMemcpyDeviceToHost);
  const std::vector<double> wv = download(w.view.values, ci.size());
  Csr got;
  got.nrows = got.ncols = n;
  got.rowptr.assign(1, 0);
  for (Index i = 0; i < n; ++i) {
    for (Index e = rp[i]; e < rp[i + 1]; ++e)
      if (wv[e] > 0) {
        got.colidx.push_back(ci[e]);
        got.values.push_back(wv[e]);
      } else if (wv[e] != 0) {
        mismatch(where, "negative weight");
        return;
      }
    got.rowptr.push_back(static_cast<Index>(got.colidx.size()));
  }
  if (got.rowptr != ref.rowptr || got.colidx != ref.colidx || !same_bits(got.values, ref.values))
    mismatch(where, "weight graph differs");
}

// [0,n]-factor for n = 1..8 on the device W.
void check_factors(const std::string &where, const Csr &a, const dt::DeviceWeightGraph &w, const tl::FactorOptions &fo) {
  const Csr ref_w = tl::weight_graph(pgk::view_of(a), fo.weight);
  for (int n = 1; n <= tl::kMaxDegree; ++n) {
    tl::FactorOptions o = fo;
    o.max_degree = n;
    const tl::Factor ref = tl::parallel_factor(pgk::view_of(ref_w), o);
    dt::DeviceFactor f;
    dt::parallel_factor(w.view, o, f, nullptr);
    ++g_cases;
    if (f.nbr.download(nullptr) != ref.nbr || f.rounds_run != ref.rounds_run || f.maximal != ref.maximal ||
        f.edges != ref.edges() || f.n != n)
      mismatch(where, "factor n=" + std::to_string(n) + " (rounds " + std::to_string(f.rounds_run) + " vs " +
                          std::to_string(ref.rounds_run) + ", edges " + std::to_string(f.edges) + " vs " +
                          std::to_string(ref.edges()) + ")");
  }
}

// Full pipeline, one option set.
void check_pipeline(const Case &c, const NamedOptions &no, bool with_values = true) {
  const std::string where = c.name + " [" + no.name + (with_values ? "" : ", pattern") + "]";
  const Csr &a = c.a;
  Csr pattern = a;
  if (!with_values) pattern.values.clear();
  const CsrView av = pgk::view_of(pattern);
  const tl::Options &opt = no.opt;
  // Host reference, step by step.
  const Csr w = tl::weight_graph(av, opt.factor.weight);
  const tl::Factor f = tl::parallel_factor(pgk::view_of(w), opt.factor);
  const tl::LinearForest forest = tl::break_cycles(f, pgk::view_of(w));
  const tl::PathOrder order = tl::order_paths(forest);
  const tl::Tridiagonal t = tl::assemble(av, order);
  const tl::TridiagonalFactor tf = tl::factor(t, order.perm, opt.pivot);
  const tl::Preconditioner pc(av, opt);
  const tl::SetupInfo &ri = pc.info();

  DeviceCsr d(a, with_values);
  pgk::cuda::TrilfDevice dev;
  dev.setup(d.view, opt, nullptr);
  ++g_cases;
  if (dev.factor_neighbours() != f.nbr) mismatch(where, "factor slots");
  if (dev.forest_neighbours() != forest.nbr) mismatch(where, "forest");
  if (dev.permutation() != order.perm) mismatch(where, "permutation");
  const tl::Tridiagonal dt_ = dev.tridiagonal();
  if (!same_bits(dt_.lower, t.lower) || !same_bits(dt_.diag, t.diag) || !same_bits(dt_.upper, t.upper))
    mismatch(where, "T");
  if (!same_bits(dev.pivots(), tf.pivot)) mismatch(where, "pivots");
  if (!same_bits(dev.multipliers(), tf.mult)) mismatch(where, "multipliers");
  const tl::SetupInfo &di = dev.info();
  auto close = [](double x, double y) { return std::fabs(x - y) <= 1e-12 * std::max(1.0, std::fabs(y)); };
  if (di.forest.rounds_run != ri.forest.rounds_run || di.forest.maximal != ri.forest.maximal ||
      di.forest.factor_edges != ri.forest.factor_edges || di.forest.cycles_broken != ri.forest.cycles_broken ||
      di.forest.forest_edges != ri.forest.forest_edges || di.npaths != ri.npaths || di.longest != ri.longest ||
      di.splits != ri.splits || di.replaced != ri.replaced || !close(di.c_id, ri.c_id) || !close(di.c_kept, ri.c_kept))
    mismatch(where, "info (paths " + std::to_string(di.npaths) + "/" + std::to_string(ri.npaths) + ", cycles " +
                        std::to_string(di.forest.cycles_broken) + "/" + std::to_string(ri.forest.cycles_broken) +
                        ", splits " + std::to_string(di.splits) + "/" + std::to_string(ri.splits) + ", replaced " +
                        std::to_string(di.replaced) + "/" + std::to_string(ri.replaced) + ", c_kept " +
                        std::to_string(di.c_kept) + "/" + std::to_string(ri.c_kept) + ")");
  if (dev.size() != a.nrows || !dev.ready()) mismatch(where, "size/ready");

  // Apply and apply_transpose against the host solves.
  const auto n = static_cast<std::size_t>(a.nrows);
  const std::vector<double> b = random_vector(n, 17 + n);
  std::vector<double> x(n), xt(n);
  tl::solve(tf, b.data(), x.data());
  tl::solve_transpose(tf, b.data(), xt.data());
  pgk::cuda::DeviceBuffer<double> db, dz;
  db.upload(b.data(), n, nullptr);
  dz.allocate(n);
  dev.apply(db.data(), dz.data(), nullptr);
  const std::vector<double> z1 = dz.download(nullptr);
  dev.apply(db.data(), dz.data(), nullptr);
  const std::vector<double> z2 = dz.download(nullptr);
  dev.apply_transpose(db.data(), dz.data(), nullptr);
  const std::vector<double> zt = dz.download(nullptr);
  // Compare with the host only where the host's own solve is accurate: with tau = 0 a pivot
  // chain keeps pivots like 1e-20, and two correct solvers then disagree completely.
  std::vector<double> xp(n), bp(n), res(n);
  for (std::size_t k = 0; k < n; ++k) {
    xp[k] = x[static_cast<std::size_t>(tf.perm[k])];
    bp[k] = b[static_cast<std::size_t>(tf.perm[k])];
  }
  tl::multiply(tf.effective, xp.data(), res.data());
  const bool well = rel_diff(res, bp) <= 1e-10;
  g_ill += !well;
  const double e1 = rel_diff(z1, x), et = rel_diff(zt, xt);
  if (well && !(e1 <= c.tol)) mismatch(where, "apply rel. error " + std::to_string(e1));
  if (well && !(et <= c.tol)) mismatch(where, "apply_transpose rel. error " + std::to_string(et));
  if (!same_bits(z1, z2)) mismatch(where, "apply not deterministic");

  // A second setup: identical everything.
  pgk::cuda::TrilfDevice dev2;
  dev2.setup(d.view, opt, nullptr);
  dev2.apply(db.data(), dz.data(), nullptr);
  if (dev2.forest_neighbours() != dev.forest_neighbours() || dev2.permutation() != dev.permutation() ||
      !same_bits(dev2.pivots(), dev.pivots()) || !same_bits(dz.download(nullptr), z1))
    mismatch(where, "second setup differs");

  // update_values: same pattern, new values.
  if (with_values && n > 0) {
    Csr a2 = a;
    pgk::SplitMix64 rng(5 + n);
    for (double &v : a2.values) v *= 0.5 + rng.uniform();
    tl::Preconditioner pc2 = pc;
    pc2.update_values(pgk::view_of(a2));
    const tl::Tridiagonal t2 = tl::assemble(pgk::view_of(a2), order);
    const tl::TridiagonalFactor tf2 = tl::factor(t2, order.perm, opt.pivot);
    DeviceCsr d2(a2);
    dev.update_values(d2.view, nullptr);
    const tl::Tridiagonal g2 = dev.tridiagonal();
    if (!same_bits(g2.diag, t2.diag) || !same_bits(g2.lower, t2.lower) || !same_bits(g2.upper, t2.upper) ||
        !same_bits(dev.pivots(), tf2.pivot) || dev.info().splits != pc2.info().splits ||
        dev.info().replaced != pc2.info().replaced || dev.permutation() != order.perm)
      mismatch(where, "update_values");
    std::vector<double> x2(n);
    pc2.apply(b.data(), x2.data());
    dev.apply(db.data(), dz.data(), nullptr);
    const double e2 = rel_diff(dz.download(nullptr), x2);
    if (well && !(e2 <= c.tol)) mismatch(where, "apply after update_values rel. error " + std::to_string(e2));
  }
}

template <class F> void expect_throw(const std::string &where, const std::string &kind, const std::string &msg, F f) {
  ++g_cases;
  try {
    f();
    mismatch(where, "no exception (expected " + kind + ")");
  } catch (const std::domain_error &e) {
    if (kind != "domain_error" || (!msg.empty() && msg != e.what()))
      mismatch(where, std::string("domain_error '") + e.what() + "', expected " + kind + " '" + msg + "'");
  } catch (const std::invalid_argument &e) {
    if (kind != "invalid_argument" || (!msg.empty() && msg != e.what()))
      mismatch(where, std::string("invalid_argument '") + e.what() + "', expected " + kind + " '" + msg + "'");
  }
}

template <class F> std::string host_message(F f) {
  try {
    f();
  } catch (const std::exception &e) {
    return e.what();
  }
  return "(no exception)";
}

void check_errors() {
  // NaN and Inf: the reference's message (first offending entry in row-major order).
  for (int which = 0; which < 3; ++which) {
    Csr a = spec("lap2d5:n=20");
    const double bad = which == 1 ? INFINITY : NAN;
    a.values[which == 2 ? a.values.size() - 1 : 137] = bad;
    a.values[200] = NAN;
    const std::string msg = host_message([&] { tl::Preconditioner pc(pgk::view_of(a), tl::Options()); });
    DeviceCsr d(a);
    expect_throw("non-finite " + std::to_string(which), "domain_error", msg, [&] {
      pgk::cuda::TrilfDevice dev;
      dev.setup(d.view, tl::Options(), nullptr);
    });
    // update_values sees it too (through assemble, as the reference).
    Csr good = spec("lap2d5:n=20");
    DeviceCsr dg(good);
    pgk::cuda::TrilfDevice dev;
    dev.setup(dg.view, tl::Options(), nullptr);
    tl::Preconditioner pc(pgk::view_of(good), tl::Options());
    const std::string msg2 = host_message([&] { pc.update_values(pgk::view_of(a)); });
    expect_throw("non-finite update " + std::to_string(which), "domain_error", msg2,
                 [&] { dev.update_values(d.view, nullptr); });
  }
  // Multiplier overflow: [[1e-300, 1e-300], [1e10, 1]].
  {
    Csr a = pgk::csr_from_coo(2, 2, {0, 0, 1, 1}, {0, 1, 0, 1}, {1e-300, 1e-300, 1e10, 1});
    const std::string msg = host_message([&] { tl::Preconditioner pc(pgk::view_of(a), tl::Options()); });
    DeviceCsr d(a);
    if (msg.find("multiplier overflows") == std::string::npos) mismatch("multiplier overflow", "host says: " + msg);
    expect_throw("multiplier overflow", "domain_error", msg, [&] {
      pgk::cuda::TrilfDevice dev;
      dev.setup(d.view, tl::Options(), nullptr);
    });
  }
  // Pivot overflow: d'_1 = 1.7e308 - (-1e301 / 1) * 1e7 = 2.7e308.
  {
    Csr a = pgk::csr_from_coo(3, 3, {0, 0, 1, 1, 1, 2}, {0, 1, 0, 1, 2, 2}, {1, 1e7, -1e301, 1.7e308, 0.5, 1});
    const std::string msg = host_message([&] { tl::Preconditioner pc(pgk::view_of(a), tl::Options()); });
    DeviceCsr d(a);
    if (msg.find("pivot overflows") == std::string::npos) mismatch("pivot overflow", "host says: " + msg);
    expect_throw("pivot overflow", "domain_error", msg, [&] {
      pgk::cuda::TrilfDevice dev;
      dev.setup(d.view, tl::Options(), nullptr);
    });
  }
  // Options.
  {
    Csr a = spec("lap2d5:n=5");
    DeviceCsr d(a);
    // The block variant through TrilfDevice (BlockPipeline, tested in depth by
    // kernel_trilf_block): same slots, info and apply as the host Preconditioner.
    for (const char *bs : {"lap2d5:n=5", "elast3d:n=4", "convdiff2d:n=9"}) {
      ++g_cases;
      const Csr ab = spec(bs);
      DeviceCsr db(ab);
      tl::Options blk;
      blk.block = true;
      const tl::Preconditioner ref(pgk::view_of(ab), blk);
      pgk::cuda::TrilfDevice dev;
      dev.setup(db.view, blk, nullptr);
      const std::string where = std::string("block via TrilfDevice ") + bs;
      if (dev.permutation() != ref.block_order().slots) mismatch(where, "slots differ");
      if (dev.info().npaths != ref.info().npaths || dev.info().longest != ref.info().longest ||
          dev.info().block.pairs != ref.info().block.pairs || dev.info().replaced != ref.info().replaced)
        mismatch(where, "info differs");
      const std::size_t n = static_cast<std::size_t>(ab.nrows);
      const std::vector<double> r = random_vector(n, 5);
      std::vector<double> zr(n), zt(n);
      ref.apply(r.data(), zr.data());
      ref.apply_transpose(r.data(), zt.data());
      pgk::cuda::DeviceBuffer<double> dr, dz;
      dr.upload(r.data(), n, nullptr);
      dz.allocate(n);
      dev.apply(dr.data(), dz.data(), nullptr);
      if (rel_diff(download(dz.data(), n), zr) > 1e-12) mismatch(where, "apply differs");
      dev.apply_transpose(dr.data(), dz.data(), nullptr);
      if (rel_diff(download(dz.data(), n), zt) > 1e-12) mismatch(where, "apply_transpose differs");
    }
    tl::Options n3;
    n3.factor.max_degree = 3;
    expect_throw("max_degree 3", "invalid_argument", "", [&] {
      pgk::cuda::TrilfDevice dev;
      dev.setup(d.view, n3, nullptr);
    });
    tl::Options badp;
    badp.factor.charge_prob = 2;
    expect_throw("charge_prob 2", "invalid_argument", "", [&] {
      pgk::cuda::TrilfDevice dev;
      dev.setup(d.view, badp, nullptr);
    });
    // Unsorted row.
    Csr u = a;
    std::swap(u.colidx[1], u.colidx[2]);
    DeviceCsr du(u);
    expect_throw("unsorted", "invalid_argument", "", [&] {
      pgk::cuda::TrilfDevice dev;
      dev.setup(du.view, tl::Options(), nullptr);
    });
  }
}

// ---- timing -----------------------------------------------------------------------------------

struct Timer {
  cudaEvent_t a, b;
  Timer() {
    cudaEventCreate(&a);
    cudaEventCreate(&b);
  }
  ~Timer() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  template <class F> double median_ms(F f, int reps = 10, int warm = 3) {
    for (int i = 0; i < warm; ++i) f();
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
      cudaEventRecord(a);
      f();
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

#define CUSPARSE_OK(x)                                                                                                 \
  do {                                                                                                                 \
    if ((x) != CUSPARSE_STATUS_SUCCESS) throw std::runtime_error("cusparse failed: " #x);                             \
  } while (0)

void set_pool_threshold(unsigned long long bytes) {
  int dev = 0;
  cudaMemPool_t pool;
  cudaGetDevice(&dev);
  cudaDeviceGetDefaultMemPool(&pool, dev);
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes);
  if (bytes == 0) cudaMemPoolTrimTo(pool, 0);
}

double spmv_ms(const DeviceCsr &d, Index nnz) {
  static_assert(sizeof(Index) == 4 || sizeof(Index) == 8, "index width");
  const cusparseIndexType_t it = sizeof(Index) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  cusparseHandle_t h;
  CUSPARSE_OK(cusparseCreate(&h));
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t X, Y;
  const std::size_t n = static_cast<std::size_t>(d.view.nrows);
  pgk::cuda::DeviceBuffer<double> x(n), y(n);
  cudaMemset(x.data(), 0, n * sizeof(double));
  CUSPARSE_OK(cusparseCreateCsr(&A, d.view.nrows, d.view.ncols, nnz, const_cast<Index *>(d.view.rowptr),
                                const_cast<Index *>(d.view.colidx), const_cast<double *>(d.view.values), it, it,
                                CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  CUSPARSE_OK(cusparseCreateDnVec(&X, d.view.nrows, x.data(), CUDA_R_64F));
  CUSPARSE_OK(cusparseCreateDnVec(&Y, d.view.nrows, y.data(), CUDA_R_64F));
  const double one = 1, zero = 0;
  std::size_t bytes = 0;
  CUSPARSE_OK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F,
                                      CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  pgk::cuda::DeviceBuffer<unsigned char> buf(bytes);
  Timer tm;
  const double ms = tm.median_ms([&] {
    CUSPARSE_OK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F,
                             CUSPARSE_SPMV_ALG_DEFAULT, buf.data()));
  });
  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(X);
  cusparseDestroyDnVec(Y);
  cusparseDestroy(h);
  return ms;
}

void timing(const std::vector<std::string> &specs, bool compare) {
  for (const std::string &s : specs) {
    const auto t0 = std::chrono::steady_clock::now();
    const Csr a = spec(s);
    DeviceCsr d(a);
    const Index nnz = a.nnz();
    const std::size_t n = static_cast<std::size_t>(a.nrows);
    pgk::cuda::TrilfDevice dev;
    tl::Options opt;
    set_pool_threshold(0); // CUDA's default: the stream-ordered pool returns memory at each sync
    dev.setup(d.view, opt, nullptr); // warm-up (allocations, module load)
    Timer tm;
    const double setup_ms = tm.median_ms([&] { dev.setup(d.view, opt, nullptr); }, 3, 0);
    const pgk::cuda::TrilfPhaseTimes pt = dev.times();
    pgk::cuda::DeviceBuffer<double> r(n), z(n);
    const std::vector<double> b = random_vector(n, 3);
    r.upload(b.data(), n, nullptr);
    const double apply_ms = tm.median_ms([&] { dev.apply(r.data(), z.data(), nullptr); });
    const double applyt_ms = tm.median_ms([&] { dev.apply_transpose(r.data(), z.data(), nullptr); });
    const double upd_ms = tm.median_ms([&] { dev.update_values(d.view, nullptr); }, 3, 1);
    const double sp = spmv_ms(d, nnz);
    // PETSc keeps freed memory in the default pool (release threshold raised at device
    // initialization); the setup's stream-ordered scratch then costs no page mapping.
    set_pool_threshold(~0ull);
    dev.setup(d.view, opt, nullptr);
    const double setup_kept_ms = tm.median_ms([&] { dev.setup(d.view, opt, nullptr); }, 3, 0);
    const pgk::cuda::TrilfPhaseTimes pk = dev.times();
    const double upd_kept_ms = tm.median_ms([&] { dev.update_values(d.view, nullptr); }, 3, 1);
    set_pool_threshold(0);
    const tl::SetupInfo in = dev.info();
    std::printf("TIMING %s: N=%lld nnz=%lld paths=%lld longest=%lld cycles=%lld rounds=%d c_id=%.3f c_kept=%.3f\n",
                s.c_str(), (long long)n, (long long)nnz, (long long)in.npaths, (long long)in.longest,
                (long long)in.forest.cycles_broken, in.forest.rounds_run, in.c_id, in.c_kept);
    std::printf("  setup %.3f ms (median of 3): weights %.3f factor %.3f cycles %.3f paths %.3f assemble %.3f lu %.3f "
                "(sum %.3f)\n",
                setup_ms, pt.weights, pt.factor, pt.cycles, pt.paths, pt.assemble, pt.lu, pt.total());
    std::printf("  cuSPARSE SpMV %.4f ms | apply %.4f ms = %.2f SpMV | apply_transpose %.4f ms = %.2f SpMV | "
                "update_values %.3f ms | setup = %.1f SpMV\n",
                sp, apply_ms, apply_ms / sp, applyt_ms, applyt_ms / sp, upd_ms, setup_ms / sp);
    std::printf("  [retaining pool] setup %.3f ms: weights %.3f factor %.3f cycles %.3f paths %.3f assemble %.3f lu %.3f"
                " | update_values %.3f ms | setup = %.1f SpMV\n",
                setup_kept_ms, pk.weights, pk.factor, pk.cycles, pk.paths, pk.assemble, pk.lu, upd_kept_ms,
                setup_kept_ms / sp);
    {
      // The primitives one by one (median of 5 each, allocations included).
      dt::DeviceWeightGraph w;
      const double t_w = tm.median_ms([&] { dt::build_weight_graph(d.view, opt.factor.weight, w, nullptr); }, 5, 1);
      dt::DeviceFactor f;
      const double t_f = tm.median_ms([&] { dt::parallel_factor(w.view, opt.factor, f, nullptr); }, 5, 1);
      const std::vector<Index> slots = f.nbr.download(nullptr);
      const double t_c = tm.median_ms([&] {
        f.nbr.upload(slots.data(), slots.size(), nullptr);
        dt::break_cycles(f, w.view, nullptr);
      }, 5, 1);
      dt::DevicePathOrder o;
      const double t_p = tm.median_ms([&] { dt::order_paths(f, o, nullptr); }, 5, 1);
      tl::FactorOptions one = opt.factor;
      one.rounds = 1;
      const double t_r = tm.median_ms([&] { dt::parallel_factor(w.view, one, f, nullptr); }, 5, 1);
      std::printf("  primitives: weights %.3f factor %.3f (1 round %.3f) cycles %.3f (incl. upload) paths %.3f ms\n",
                  t_w, t_f, t_r, t_c, t_p);
    }
    if (compare) {
      // The big case against the host reference too.
      const auto h0 = std::chrono::steady_clock::now();
      const tl::Preconditioner pc(pgk::view_of(a), opt);
      const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - h0).count();
      std::vector<double> x(n);
      pc.apply(b.data(), x.data());
      dev.apply(r.data(), z.data(), nullptr);
      const double e = rel_diff(z.download(nullptr), x);
      ++g_cases;
      const bool ok = dev.permutation() == pc.order().perm && e <= 1e-12 && dev.info().npaths == pc.info().npaths;
      if (!ok) mismatch(s, "large case differs from the host (apply rel. error " + std::to_string(e) + ")");
      std::printf("  host reference setup %.0f ms; perm equal %d, apply rel. error %.2e\n", host_ms,
                  dev.permutation() == pc.order().perm, e);
    }
    std::printf("  (case total %.1f s)\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
}

} // namespace

int main(int argc, char **argv) {
  bool small = false, time_it = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--small")) small = true;
    else if (!std::strcmp(argv[i], "--timing")) time_it = true;
    else {
      std::fprintf(stderr, "usage: %s [--small | --timing]\n", argv[0]);
      return 2;
    }
  }
  try {
    if (time_it) {
      timing({"lap3d7:n=144", "aniso2d:n=2500,variant=1", "convdiff3d:n=144", "path:n=3000000"}, true);
    } else {
      const auto mats = matrices(small);
      const auto opts = option_sets(small);
      for (const Case &c : mats) {
        try {
          DeviceCsr d(c.a);
          for (tl::Weight kind : {tl::Weight::Abs, tl::Weight::Scaled}) {
            dt::DeviceWeightGraph w;
            ++g_cases;
            check_weights(c.name + " weights " + tl::to_string(kind), d, c.a, kind, w);
            tl::FactorOptions fo;
            fo.weight = kind;
            if (kind == tl::Weight::Abs || !small) check_factors(c.name + " " + tl::to_string(kind), c.a, w, fo);
            if (!small) {
              fo.rounds = 9;
              fo.charge_period = 3;
              fo.charge_offset = 2;
              fo.seed = 99;
              check_factors(c.name + " M=9 m=3 km=2 " + std::string(tl::to_string(kind)), c.a, w, fo);
            }
          }
          for (const NamedOptions &o : opts) check_pipeline(c, o);
          if (c.name.rfind("random ties seed 1", 0) == 0 || c.name == "lap2d5:n=12" || c.name == "hubrow:n=5000")
            check_pipeline(c, opts[0], false); // pattern only (values null)
        } catch (const std::exception &e) {
          ++g_errors;
          std::printf("ERROR %s: %s\n", c.name.c_str(), e.what());
        }
      }
      check_errors();
      std::printf("(%d setups with an ill-conditioned T: apply not compared with the host)\n", g_ill);
    }
  } catch (const std::exception &e) {
    ++g_errors;
    std::printf("ERROR: %s\n", e.what());
  }
  std::printf("kernel_trilf: %d cases, %d mismatches, %d errors\n", g_cases, g_mismatches, g_errors);
  return g_mismatches || g_errors ? 1 : 0;
}
