// Shared by the device trilf tests (pc.cpp, pc_errors.cpp, block.cpp): the corpus they take,
// the scalar option sets, applies on the device, and "the device refuses what the host refuses".
#pragma once

#include "kernels/trilf/pc_gpu.hpp"
#include "src/trilf/factor.hpp"
#include "src/trilf/paths.hpp"
#include "src/trilf/pc.hpp"
#include "src/trilf/scan_lu.hpp"
#include "src/trilf/tridiag.hpp"
#include "src/trilf/weights.hpp"
#include "tests/support/compare.hpp"
#include "tests/support/corpus.hpp"
#include "tests/support/corpus_loop.hpp"
#include "tests/support/device.hpp"
#include "tests/unit/trilf/long_paths.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgk::test::trilf_test {

// trilf takes square matrices with sorted unique rows; values stored (pattern runs drop them).
inline std::vector<const CorpusEntry *> trilf_corpus() {
  Needs needs;
  needs.values = true;
  needs.sorted_unique = true;
  return corpus(needs);
}

struct NamedOptions {
  std::string name; // a GTest parameter name: letters, digits, underscores
  pgk::trilf::Options opt;
};
inline void PrintTo(const NamedOptions &o, std::ostream *os) { *os << o.name; }

// The scalar option sets: defaults; scaled weights; never charged (runs to maximal); charged
// from round 1 with p = 0.3 and a seed; a short charged run with scaled weights and tau = 0; no
// rounds at all. --small (the sanitizer runs) takes the first two.
inline std::vector<NamedOptions> scalar_option_sets() {
  std::vector<NamedOptions> v;
  pgk::trilf::Options o;
  v.push_back({"default", o});
  o.factor.weight = pgk::trilf::Weight::Scaled;
  v.push_back({"scaled", o});
  pgk::trilf::Options u;
  u.factor.rounds = 40;
  u.factor.charge_period = 1; // never charged: runs to maximal
  v.push_back({"uncharged_M40", u});
  pgk::trilf::Options c;
  c.factor.rounds = 12;
  c.factor.charge_offset = 1;
  c.factor.charge_prob = 0.3;
  c.factor.seed = 7;
  v.push_back({"M12_km1_p03_seed7", c});
  pgk::trilf::Options d;
  d.factor.rounds = 7;
  d.factor.charge_period = 2;
  d.factor.charge_offset = 1;
  d.factor.charge_prob = 0.8;
  d.factor.seed = 123;
  d.factor.weight = pgk::trilf::Weight::Scaled;
  d.pivot.rel_tol = 0;
  v.push_back({"M7_m2_km1_p08_seed123_scaled_tau0", d});
  pgk::trilf::Options z;
  z.factor.rounds = 0;
  v.push_back({"M0", z});
  return v;
}

// z = M^-1 r (or M^-T r) on the device, copied back.
template <class Pc> std::vector<double> device_apply(const Pc &pc, const std::vector<double> &r, bool transpose) {
  const std::size_t n = r.size();
  DeviceBuffer<double> dr, dz;
  dr.upload(r.data(), n, nullptr);
  dz.allocate(n);
  if (transpose) pc.apply_transpose(dr.data(), dz.data(), nullptr);
  else pc.apply(dr.data(), dz.data(), nullptr);
  return download(dz.data(), n);
}

// The host reference, step by step and as one Preconditioner.
struct Reference {
  pgk::Csr w;
  pgk::trilf::Factor f;
  pgk::trilf::LinearForest forest;
  pgk::trilf::PathOrder order;
  pgk::trilf::Tridiagonal t;
  pgk::trilf::TridiagonalFactor tf;
  pgk::trilf::TridiagonalFactor scan; // factor_scan: the device's LU, bit for bit (scan_lu.hpp)
  pgk::trilf::Preconditioner pc;
  Reference(const pgk::CsrView &av, const pgk::trilf::Options &opt)
      : w(pgk::trilf::weight_graph(av, opt.factor.weight)), f(pgk::trilf::parallel_factor(pgk::view_of(w), opt.factor)),
        forest(pgk::trilf::break_cycles(f, pgk::view_of(w))), order(pgk::trilf::order_paths(forest)),
        t(pgk::trilf::assemble(av, order)), tf(pgk::trilf::factor(t, order.perm, opt.pivot)),
        scan(pgk::trilf::factor_scan(t, order.perm, order.path_start, opt.pivot)), pc(av, opt) {}
};

// Largest elementwise relative difference (tests/unit/trilf/long_paths.hpp).
using pgk::trilf::test::max_rel_diff;

// Whether the host's solve x of T~ x = b is accurate (residual <= 1e-10): with tau = 0 a pivot
// chain keeps pivots like 1e-20, and two correct solvers then disagree completely.
inline double solve_residual(const pgk::trilf::TridiagonalFactor &tf, const std::vector<double> &b,
                             const std::vector<double> &x) {
  const std::size_t n = b.size();
  std::vector<double> xp(n), bp(n), res(n);
  for (std::size_t k = 0; k < n; ++k) {
    xp[k] = x[static_cast<std::size_t>(tf.perm[k])];
    bp[k] = b[static_cast<std::size_t>(tf.perm[k])];
  }
  pgk::trilf::multiply(tf.effective, xp.data(), res.data());
  return rel_diff(res, bp);
}

inline bool host_solve_accurate(const pgk::trilf::TridiagonalFactor &tf, const std::vector<double> &b,
                                const std::vector<double> &x) {
  const std::size_t n = b.size();
  std::vector<double> xp(n), bp(n), res(n);
  for (std::size_t k = 0; k < n; ++k) {
    xp[k] = x[static_cast<std::size_t>(tf.perm[k])];
    bp[k] = b[static_cast<std::size_t>(tf.perm[k])];
  }
  pgk::trilf::multiply(tf.effective, xp.data(), res.data());
  return rel_diff(res, bp) <= 1e-10;
}

// An exception of the host reference: its kind and message.
struct HostError {
  std::string kind; // "domain_error" or "invalid_argument"
  std::string message;
};

// Runs f; the reference's std::domain_error or std::invalid_argument, if it threw one.
template <class F> std::optional<HostError> host_error(F f) {
  try {
    f();
  } catch (const std::domain_error &e) {
    return HostError{"domain_error", e.what()};
  } catch (const std::invalid_argument &e) {
    return HostError{"invalid_argument", e.what()};
  }
  return std::nullopt;
}

// EXPECT that f throws the kind of `want` with its message (any message when it is empty).
template <class F> void expect_same_error(const HostError &want, F f) {
  const std::optional<HostError> got = host_error(f);
  if (!got) {
    ADD_FAILURE() << "no exception (expected " << want.kind << " '" << want.message << "')";
    return;
  }
  EXPECT_EQ(got->kind, want.kind) << "message '" << got->message << "'";
  if (!want.message.empty()) {
    EXPECT_EQ(got->message, want.message);
  }
}

} // namespace pgk::test::trilf_test
