// Device block trilf (kernels/trilf_block_gpu.hpp) against the host reference
// (src/trilf_block.hpp): pairing, coarse graph (bitwise), slots, path starts, assembled blocks,
// factor (splits/replaced, values), apply / apply_transpose, SetupInfo, run-to-run identity,
// update_values, and the error paths (NaN, pivot overflow).
//   kernel_trilf_block            all cases
//   kernel_trilf_block --small    a few small cases (for compute-sanitizer)
//   kernel_trilf_block --timing   setup phases and apply on elast3d / aniso2d (millions of rows)
// Prints "<cases> cases, <m> mismatches, <e> errors"; exit status 1 on any failure.
#include "src/matgen/generators.hpp"
#include "src/trilf/block.hpp"
#include "kernels/trilf/block_pc.hpp"
#include "src/trilf/coverage.hpp"
#include "kernels/trilf/primitives.hpp"
#include "src/trilf/weights.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace pgk;
using pgk::cuda::trilf::BlockPipeline;
using pgk::cuda::DeviceBuffer;

namespace {

int mismatches = 0, errors = 0, cases = 0;

void check(bool ok, const std::string &what, const std::string &label) {
  if (!ok) {
    ++mismatches;
    std::printf("MISMATCH %s: %s\n", label.c_str(), what.c_str());
  }
}

struct DeviceCsr {
  DeviceBuffer<Index> rowptr, colidx;
  DeviceBuffer<double> values;
  CsrView view{};
  void upload(const Csr &a) {
    rowptr.allocate(a.rowptr.size());
    rowptr.upload(a.rowptr.data(), a.rowptr.size(), nullptr);
    colidx.allocate(std::max<std::size_t>(a.colidx.size(), 1));
    if (!a.colidx.empty())
      colidx.upload(a.colidx.data(), a.colidx.size(), nullptr);
    values.allocate(std::max<std::size_t>(a.values.size(), 1));
    if (!a.values.empty())
      values.upload(a.values.data(), a.values.size(), nullptr);
    view.nrows = a.nrows;
    view.ncols = a.ncols;
    view.rowptr = rowptr.data();
    view.colidx = colidx.data();
    view.values = values.data();
  }
};

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
  std::vector<double> v(n);
  std::uint64_t z = seed;
  for (double &x : v) {
    z = trilf::mix64(z + 0x9E3779B97F4A7C15ull);
    x = static_cast<double>(z >> 11) * 0x1.0p-53 * 2 - 1;
  }
  return v;
}

std::vector<double> device_apply(const BlockPipeline &bp, const std::vector<double> &r, bool transpose) {
  const std::size_t n = r.size();
  DeviceBuffer<double> dr(std::max<std::size_t>(n, 1)), dz(std::max<std::size_t>(n, 1));
  if (n)
    dr.upload(r.data(), n, nullptr);
  if (transpose)
    bp.apply_transpose(dr.data(), dz.data(), nullptr);
  else
    bp.apply(dr.data(), dz.data(), nullptr);
  std::vector<double> z = dz.download(nullptr);
  z.resize(n);
  return z;
}

struct Reference {
  trilf::Pairing p;
  Csr cg;
  trilf::BlockOrder ord;
  trilf::BlockTridiagonal t;
  trilf::BlockTridiagonalFactor f;
  trilf::SetupInfo info;
};

Reference reference(const Csr &a, const trilf::Options &opt) {
  Reference r;
  const Csr w = trilf::weight_graph(view_of(a), opt.factor.weight);
  r.p = trilf::pair_vertices(view_of(w), opt.factor);
  r.cg = trilf::coarse_graph(view_of(w), r.p);
  r.ord = trilf::block_linear_forest(view_of(a), opt.factor, &r.info.block);
  r.info.npaths = r.ord.npaths();
  r.info.longest = r.ord.longest;
  r.info.c_kept = trilf::coverage(view_of(a), r.ord);
  r.info.c_id = trilf::coverage_identity(view_of(a));
  r.t = trilf::assemble_block(view_of(a), r.ord);
  r.f = trilf::factor_block(r.t, r.ord, opt.pivot);
  r.info.splits = r.f.splits;
  r.info.replaced = r.f.replaced;
  return r;
}

// Factor values: the device rounds like the host, so they should be the same bits; count bit
// differences (reported) and fail only beyond rounding.
void compare_factor(const trilf::BlockTridiagonalFactor &d, const trilf::BlockTridiagonalFactor &h,
                    const std::string &label) {
  check(d.splits == h.splits && d.replaced == h.replaced,
        "splits/replaced " + std::to_string(d.splits) + "/" + std::to_string(d.replaced) + " vs " +
            std::to_string(h.splits) + "/" + std::to_string(h.replaced),
        label);
  const std::vector<double> *dv[] = {&d.mult, &d.inv_pivot, &d.effective.lower, &d.effective.diag,
                                     &d.effective.upper};
  const std::vector<double> *hv[] = {&h.mult, &h.inv_pivot, &h.effective.lower, &h.effective.diag,
                                     &h.effective.upper};
  const char *names[] = {"mult", "inv_pivot", "lower~", "diag~", "upper~"};
  for (int q = 0; q < 5; ++q) {
    check(dv[q]->size() == hv[q]->size(), std::string(names[q]) + " size", label);
    if (dv[q]->size() != hv[q]->size())
      continue;
    std::size_t bits = 0;
    for (std::size_t i = 0; i < dv[q]->size(); ++i)
      bits += (*dv[q])[i] != (*hv[q])[i];
    const double rd = rel_diff(*dv[q], *hv[q]);
    if (bits)
      std::printf("  note %s: %s differs in %zu entries (rel %.2e)\n", label.c_str(), names[q], bits, rd);
    check(rd <= 1e-13, std::string(names[q]) + " rel diff " + std::to_string(rd), label);
  }
}

void compare_info(const trilf::SetupInfo &d, const trilf::SetupInfo &h, const std::string &label) {
  const auto &db = d.block, &hb = h.block;
  check(db.pairs == hb.pairs && db.ghosts == hb.ghosts && db.pairing_rounds == hb.pairing_rounds,
        "pairs/ghosts/pairing_rounds " + std::to_string(db.pairs) + "/" + std::to_string(db.ghosts) + "/" +
            std::to_string(db.pairing_rounds) + " vs " + std::to_string(hb.pairs) + "/" + std::to_string(hb.ghosts) +
            "/" + std::to_string(hb.pairing_rounds),
        label);
  check(db.coarse.rounds_run == hb.coarse.rounds_run && db.coarse.maximal == hb.coarse.maximal &&
            db.coarse.factor_edges == hb.coarse.factor_edges && db.coarse.cycles_broken == hb.coarse.cycles_broken &&
            db.coarse.forest_edges == hb.coarse.forest_edges,
        "coarse forest stats", label);
  check(d.npaths == h.npaths && d.longest == h.longest, "npaths/longest", label);
  check(d.splits == h.splits && d.replaced == h.replaced, "info splits/replaced", label);
  check(std::fabs(d.c_id - h.c_id) <= 1e-12 && std::fabs(d.c_kept - h.c_kept) <= 1e-12,
        "coverage " + std::to_string(d.c_id) + "/" + std::to_string(d.c_kept) + " vs " + std::to_string(h.c_id) +
            "/" + std::to_string(h.c_kept),
        label);
  check(d.forest.factor_edges == 0 && d.forest.rounds_run == 0, "info.forest must stay default", label);
}

// Setup, every intermediate, apply, determinism, update_values.
void run_case(const std::string &label, const Csr &a, const trilf::Options &opt, bool full) {
  ++cases;
  try {
    const Reference ref = reference(a, opt);
    DeviceCsr da;
    da.upload(a);
    cuda::trilf::DeviceWeightGraph wg;
    cuda::trilf::build_weight_graph(da.view, opt.factor.weight, wg, nullptr);
    BlockPipeline bp;
    trilf::SetupInfo info;
    cuda::TrilfPhaseTimes times;
    bp.setup(da.view, wg.view, opt, nullptr, info, times);
    check(bp.partner(nullptr) == ref.p.partner, "partner", label);
    const Csr cg = bp.coarse_graph(nullptr);
    check(cg.rowptr == ref.cg.rowptr && cg.colidx == ref.cg.colidx && same_bits(cg.values, ref.cg.values),
          "coarse graph", label);
    const std::vector<Index> slots = bp.slots(nullptr);
    check(slots == ref.ord.slots, "slots", label);
    check(bp.path_start(nullptr) == ref.ord.path_start, "path_start", label);
    if (slots != ref.ord.slots)
      return; // nothing below is comparable
    const trilf::BlockTridiagonal t = bp.assembled(da.view, nullptr);
    check(same_bits(t.lower, ref.t.lower) && same_bits(t.diag, ref.t.diag) && same_bits(t.upper, ref.t.upper),
          "assembled blocks", label);
    const trilf::BlockTridiagonalFactor f = bp.factor(nullptr);
    compare_factor(f, ref.f, label);
    compare_info(info, ref.info, label);
    const std::size_t n = static_cast<std::size_t>(a.nrows);
    const std::vector<double> r = random_vector(n, 17 + n);
    std::vector<double> x(n), xt(n);
    trilf::solve_block(ref.f, r.data(), x.data());
    trilf::solve_block_transpose(ref.f, r.data(), xt.data());
    const std::vector<double> z = device_apply(bp, r, false), zt = device_apply(bp, r, true);
    const double e1 = rel_diff(z, x), e2 = rel_diff(zt, xt);
    check(e1 <= 1e-12, "apply rel diff " + std::to_string(e1), label);
    check(e2 <= 1e-12, "apply_transpose rel diff " + std::to_string(e2), label);
    if (!full)
      return;
    // Run to run: a second pipeline gives the same bits everywhere.
    BlockPipeline bp2;
    trilf::SetupInfo info2;
    bp2.setup(da.view, wg.view, opt, nullptr, info2, times);
    const trilf::BlockTridiagonalFactor f2 = bp2.factor(nullptr);
    check(bp2.slots(nullptr) == slots && same_bits(f2.inv_pivot, f.inv_pivot) && same_bits(f2.mult, f.mult) &&
              info2.c_kept == info.c_kept && info2.c_id == info.c_id,
          "second setup differs", label);
    check(same_bits(device_apply(bp2, r, false), z) && same_bits(device_apply(bp2, r, true), zt) &&
              same_bits(device_apply(bp, r, false), z),
          "second apply differs", label);
    // New values, same pattern: a (nonsymmetric) perturbation of every entry.
    Csr b = a;
    for (std::size_t e = 0; e < b.values.size(); ++e)
      b.values[e] *= 1.0 + 0.25 * std::sin(static_cast<double>(e));
    DeviceCsr db;
    db.upload(b);
    bp.update_values(db.view, nullptr, info, times);
    const trilf::BlockTridiagonalFactor fb = trilf::factor_block(trilf::assemble_block(view_of(b), ref.ord), ref.ord,
                                                                 opt.pivot);
    compare_factor(bp.factor(nullptr), fb, label + " update");
    check(info.splits == fb.splits && info.replaced == fb.replaced, "update info", label);
    std::vector<double> xb(n);
    trilf::solve_block(fb, r.data(), xb.data());
    const double e3 = rel_diff(device_apply(bp, r, false), xb);
    check(e3 <= 1e-12, "apply after update rel diff " + std::to_string(e3), label);
  } catch (const std::exception &e) {
    ++errors;
    std::printf("ERROR %s: %s\n", label.c_str(), e.what());
  }
}

std::vector<trilf::Options> option_sets(bool small) {
  std::vector<trilf::Options> v;
  trilf::Options o;
  v.push_back(o); // paper's cfg2: M = 5, m = 5, k_m = 0
  o.factor.charge_period = 1;  // never charged
  o.factor.rounds = 12;
  v.push_back(o);
  if (small)
    return v;
  o = trilf::Options();
  o.factor.rounds = 11;
  o.factor.charge_offset = 1;
  o.factor.charge_prob = 0.3;
  o.factor.seed = 7;
  v.push_back(o);
  o = trilf::Options();
  o.factor.weight = trilf::Weight::Scaled;
  o.factor.rounds = 3;
  o.factor.charge_period = 2;
  o.pivot.rel_tol = 0;
  v.push_back(o);
  return v;
}

std::string opt_label(const trilf::Options &o) {
  return "M=" + std::to_string(o.factor.rounds) + ",m=" + std::to_string(o.factor.charge_period) +
         ",km=" + std::to_string(o.factor.charge_offset) + ",p=" + std::to_string(o.factor.charge_prob) +
         ",seed=" + std::to_string(o.factor.seed) + "," + trilf::to_string(o.factor.weight) +
         ",tau=" + (o.pivot.rel_tol == 0 ? std::string("0") : std::string("default"));
}

Csr spec(const std::string &s) { return gen::generate(gen::parse_spec(s)); }

Csr zero_diagonal_every(Csr a, Index every) {
  for (Index i = 0; i < a.nrows; i += every)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      if (a.colidx[e] == i)
        a.values[static_cast<std::size_t>(e)] = 0.0;
  return a;
}

// Error paths: NaN in setup (weights) and in update_values (assembly), pivot overflow.
void error_cases() {
  const trilf::Options opt;
  auto expect_domain = [&](const std::string &label, auto f, const std::string &want) {
    ++cases;
    try {
      f();
      check(false, "no exception", label);
    } catch (const std::domain_error &e) {
      check(std::string(e.what()).find(want) != std::string::npos, std::string("message: ") + e.what(), label);
    } catch (const std::exception &e) {
      check(false, std::string("wrong exception: ") + e.what(), label);
    }
  };
  const Csr a = spec("lap2d5:n=9");
  Csr bad = a;
  bad.values[37] = std::numeric_limits<double>::quiet_NaN();
  DeviceCsr da, dbad;
  da.upload(a);
  dbad.upload(bad);
  expect_domain("nan setup", [&] {
    cuda::trilf::DeviceWeightGraph wg;
    cuda::trilf::build_weight_graph(dbad.view, opt.factor.weight, wg, nullptr);
  }, "non-finite");
  cuda::trilf::DeviceWeightGraph wg;
  cuda::trilf::build_weight_graph(da.view, opt.factor.weight, wg, nullptr);
  BlockPipeline bp;
  trilf::SetupInfo info;
  cuda::TrilfPhaseTimes times;
  bp.setup(da.view, wg.view, opt, nullptr, info, times);
  Index row = 0;
  while (a.rowptr[static_cast<std::size_t>(row) + 1] <= 37)
    ++row;
  expect_domain("nan update", [&] { bp.update_values(dbad.view, nullptr, info, times); },
                "non-finite value nan at (" + std::to_string(row) + ", " + std::to_string(a.colidx[37]) + ")");
  // [2 -1; -1 2] * 1e-300: det underflows to 0 -> "pivot block overflows", as the reference.
  Csr tiny = spec("path:n=2");
  for (double &v : tiny.values)
    v *= 1e-300;
  std::string host_msg = "(none)";
  try {
    reference(tiny, opt);
  } catch (const std::domain_error &e) {
    host_msg = e.what();
  }
  DeviceCsr dt;
  dt.upload(tiny);
  expect_domain("pivot overflow", [&] {
    cuda::trilf::DeviceWeightGraph w2;
    cuda::trilf::build_weight_graph(dt.view, opt.factor.weight, w2, nullptr);
    BlockPipeline b2;
    b2.setup(dt.view, w2.view, opt, nullptr, info, times);
  }, host_msg);
  ++cases;
  try {
    trilf::Options o = opt;
    o.pivot.rel_tol = 1.5;
    BlockPipeline b3;
    b3.setup(da.view, wg.view, o, nullptr, info, times);
    check(false, "no exception", "bad rel_tol");
  } catch (const std::invalid_argument &) {
  }
}

float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float t = 0;
  cudaEventElapsedTime(&t, a, b);
  return t;
}

void timing(const std::string &s, const Csr &a, const trilf::Options &opt) {
  DeviceCsr da;
  da.upload(a);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int rep = 0; rep < 2; ++rep) { // first run warms up allocations and modules
    cuda::trilf::DeviceWeightGraph wg;
    BlockPipeline bp;
    trilf::SetupInfo info;
    cuda::TrilfPhaseTimes times;
    cudaEventRecord(e0);
    cuda::trilf::build_weight_graph(da.view, opt.factor.weight, wg, nullptr);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    times.weights = elapsed(e0, e1);
    bp.setup(da.view, wg.view, opt, nullptr, info, times);
    if (rep == 0)
      continue;
    const std::size_t n = static_cast<std::size_t>(a.nrows);
    DeviceBuffer<double> r(n), z(n);
    const std::vector<double> h = random_vector(n, 5);
    r.upload(h.data(), n, nullptr);
    float med[2];
    for (int tr = 0; tr < 2; ++tr) {
      std::vector<float> t;
      for (int it = 0; it < 13; ++it) {
        cudaEventRecord(e0);
        if (tr)
          bp.apply_transpose(r.data(), z.data(), nullptr);
        else
          bp.apply(r.data(), z.data(), nullptr);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        if (it >= 3)
          t.push_back(elapsed(e0, e1));
      }
      std::sort(t.begin(), t.end());
      med[tr] = (t[4] + t[5]) / 2;
    }
    std::printf("timing %s (%s): n=%lld nnz=%lld blocks=%lld pairs=%lld paths=%lld longest=%lld c_id=%.3f "
                "c_kept=%.3f splits=%lld replaced=%lld\n",
                s.c_str(), opt_label(opt).c_str(), (long long)a.nrows, (long long)a.nnz(),
                (long long)bp.nblocks(), (long long)info.block.pairs, (long long)info.npaths,
                (long long)info.longest, info.c_id, info.c_kept, (long long)info.splits, (long long)info.replaced);
    std::printf("  setup ms: weights %.2f factor(pairing+coarse+coarse factor) %.2f cycles %.2f paths %.2f "
                "assemble %.2f lu %.2f total %.2f\n",
                times.weights, times.factor, times.cycles, times.paths, times.assemble, times.lu, times.total());
    std::printf("  apply ms (median of 10): %.3f   apply_transpose: %.3f\n", med[0], med[1]);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
}

} // namespace

int main(int argc, char **argv) {
  const bool small = argc > 1 && std::string(argv[1]) == "--small";
  const bool timing_only = argc > 1 && std::string(argv[1]) == "--timing";
  if (timing_only) {
    trilf::Options o;
    for (const char *s : {"elast3d:n=96", "aniso2d:n=1800,variant=2"}) {
      const Csr a = spec(s);
      timing(s, a, o);
      trilf::Options o1 = o;
      o1.factor.charge_period = 1;
      timing(s, a, o1);
    }
    return 0;
  }
  std::vector<std::pair<std::string, Csr>> mats;
  auto add = [&](const std::string &s) { mats.emplace_back(s, spec(s)); };
  Csr empty0;
  mats.emplace_back("n=0", empty0);
  if (small) {
    for (const char *s : {"lap2d5:n=15", "convdiff2d:n=9,peclet=30", "hubrow:n=301", "path:n=3", "path:n=1",
                          "empty:n=4", "random:n=501,deg=5", "path:n=2001"})
      add(s);
    mats.emplace_back("lap2d5:n=9 zero diag/3", zero_diagonal_every(spec("lap2d5:n=9"), 3));
  } else {
    for (const char *s :
         {"lap2d5:n=33", "lap3d7:n=9", "elast3d:n=5", "elast3d:n=7,lambda=10", "aniso2d:n=31,variant=1",
          "aniso2d:nx=40,ny=27,variant=2", "aniso2d:n=25,variant=3", "convdiff2d:n=25,peclet=50",
          "convdiff3d:n=9,peclet=20", "random:n=3001,deg=6", "disconnected:n=2001,parts=5", "hubrow:n=2999",
          "powerlaw:n=4001", "path:n=1001", "empty:n=7", "path:n=1", "path:n=2", "path:n=3", "lap2d5:n=301",
          "path:n=200001"})
      add(s);
    mats.emplace_back("lap2d5:n=21 zero diag/3", zero_diagonal_every(spec("lap2d5:n=21"), 3));
    mats.emplace_back("convdiff2d:n=17 zero diag/2", zero_diagonal_every(spec("convdiff2d:n=17,peclet=40"), 2));
    Csr ones = spec("lap2d5:n=11");
    std::fill(ones.values.begin(), ones.values.end(), 1.0);
    mats.emplace_back("lap2d5:n=11 all ones", ones);
    Csr ones3 = spec("random:n=301,deg=4");
    std::fill(ones3.values.begin(), ones3.values.end(), 1.0);
    mats.emplace_back("random:n=301 all ones", ones3);
  }
  const std::vector<trilf::Options> opts = option_sets(small);
  for (const auto &[name, a] : mats)
    for (std::size_t q = 0; q < opts.size(); ++q)
      run_case(name + " [" + opt_label(opts[q]) + "]", a, opts[q], !small || q == 0);
  error_cases();
  std::printf("%d cases, %d mismatches, %d errors\n", cases, mismatches, errors);
  return mismatches == 0 && errors == 0 ? 0 : 1;
}
