// Device carpcg (kernels/carpcg/carpcg_gpu.hpp) against the src/carpcg reference on generated
// matrices (fem2d, Helmholtz with convection, high-Peclet convection-diffusion; zero rows):
//   * multicolor: the colour-by-colour sweeps and the double sweep equal the reference's sweep in
//     the coloured order (MulticolorSweep) to 1e-12 relative; they are expected bit for bit
//     (same operation order, no FMA) and the test reports it;
//   * cimmino: one pass equals cimmino_pass bit for bit; the double sweep the reference's;
//   * carp: a half sweep (blocks + averaging) equals BlockPlan::sweep_sum / |L_j| to 1e-12, the
//     double sweep the reference CarpSweep's, for 1, 3 and 64 blocks; the weights are W's;
//   * the double sweep's turning colour in one launch equals the two sweeps colour by colour, and
//     the CG's fused kernels (cg_step, subtract_dots) the launches they replace, bit for bit;
//   * residual bit for bit; dots to 1e-12 of the host sums and the same bits on every run;
//   * a rank's block under MPI (rows over owned and ghost unknowns): carp's sums over both, the
//     division by given multiplicities, cimmino's column sums and the residual bit for bit;
//   * NaN/Inf rows are reported (count, first row), n = 0 does nothing, and the documented
//     transfers: a double sweep and a residual copy nothing, dots one record.
#include "kernels/carpcg/carpcg_gpu.hpp"
#include "kernels/common/transfer.hpp"
#include "src/carpcg/blocks.hpp"
#include "src/carpcg/cg.hpp"
#include "src/carpcg/operators.hpp"
#include "src/carpcg/sweep.hpp"
#include "src/matgen/generators.hpp"
#include "tests/support/device.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace {

using pgk::Csr;
using pgk::Index;
using pgk::carpcg::Scheme;
using Vector = std::vector<double>;

const char *const kSpecs[] = {"fem2d:n=30", "helmholtz2d:n=25,kh=0.5,peclet=20", "convdiff2d:n=30,peclet=1000"};

Csr make(const std::string &spec) { return pgk::gen::generate(pgk::gen::parse_spec(spec)); }

// Rows 5, 22, 39, ... with all their entries set to 0 (kept: explicit zeros), as MatZeroRows.
Csr with_zero_rows(Csr a) {
  for (Index i = 5; i < a.nrows; i += 17)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) a.values[k] = 0;
  return a;
}

Vector pseudo_random(Index n, unsigned seed) {
  Vector v(static_cast<std::size_t>(n));
  unsigned s = seed;
  for (double &x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<double>(s >> 8) / static_cast<double>(1u << 24) - 0.5;
  }
  return v;
}

double max_rel_diff(const Vector &got, const Vector &want) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    diff = std::max(diff, std::abs(got[i] - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

bool bitwise_equal(const Vector &a, const Vector &b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) {
           return x == y && std::signbit(x) == std::signbit(y);
         });
}

// A device vector with the host values.
struct DVec {
  pgk::cuda::DeviceBuffer<double> buf;
  explicit DVec(const Vector &h) { buf.upload(h.data(), h.size(), nullptr); }
  explicit DVec(std::size_t n) { buf.allocate(n); }
  double *data() { return buf.data(); }
  Vector get() const { return buf.download(nullptr); }
};

// A matrix on the device and the set-up of one scheme.
struct Prepared {
  Csr a;
  pgk::test::DeviceCsr dev;
  pgk::cuda::CarpcgDevice op;
  pgk::cuda::CarpcgValueCheck check;
  Prepared(Csr m, const pgk::cuda::CarpcgDeviceOptions &o) : a(std::move(m)), dev(a) {
    check = op.setup(dev.view, pgk::view_of(a), o, nullptr);
  }
};

pgk::cuda::CarpcgDeviceOptions options(Scheme s, double lambda, Index blocks = 1, int lanes = 0) {
  pgk::cuda::CarpcgDeviceOptions o;
  o.scheme = s;
  o.lambda = lambda;
  o.blocks = blocks;
  o.lanes = lanes;
  return o;
}

// The device double sweep of `op` against the reference operator of the same scheme, with and
// without a right-hand side; returns whether every result was bit for bit equal.
bool expect_double_sweep(Prepared &s, const pgk::carpcg::OperatorOptions &ro, double tol, const std::string &what) {
  const auto ref = pgk::carpcg::make_double_sweep(pgk::view_of(s.a), ro);
  const Index n = s.a.nrows;
  const Vector x = pseudo_random(n, 7), b = pseudo_random(n, 11);
  bool bitwise = true;
  for (const bool with_b : {true, false}) {
    Vector want(static_cast<std::size_t>(n));
    ref->apply(x.data(), with_b ? b.data() : nullptr, want.data());
    DVec dx(x), db(b), dy(static_cast<std::size_t>(n));
    s.op.double_sweep(dx.data(), with_b ? db.data() : nullptr, dy.data(), nullptr);
    const Vector got = dy.get();
    EXPECT_LE(max_rel_diff(got, want), tol) << what << (with_b ? " (b)" : " (b = 0)");
    bitwise = bitwise && bitwise_equal(got, want);
  }
  return bitwise;
}

// carp's half sweep on the device against `plan`'s: the blocks' swept copies summed and divided by
// each unknown's multiplicity (x_j where no block touches it), forward or backward; returns whether
// the two agree bit for bit.
bool expect_carp_half(Prepared &s, const pgk::carpcg::BlockPlan &plan, const Vector &norms, double lambda,
                      bool backward, const std::string &what) {
  const Index n = s.a.nrows;
  const Vector x = pseudo_random(n, 19), b = pseudo_random(n, 23);
  Vector acc(static_cast<std::size_t>(n)), want(static_cast<std::size_t>(n));
  plan.sweep_sum(pgk::view_of(s.a), norms.data(), b.data(), lambda, backward, x.data(), acc.data());
  for (Index j = 0; j < n; ++j)
    want[j] = plan.multiplicity()[j] > 0 ? acc[j] / static_cast<double>(plan.multiplicity()[j]) : x[j];
  DVec dx(x), db(b), dy(static_cast<std::size_t>(n));
  s.op.carp_half(db.data(), backward, dx.data(), dy.data(), nullptr);
  const Vector got = dy.get();
  EXPECT_LE(max_rel_diff(got, want), 1e-12) << what << (backward ? " backward" : " forward");
  return bitwise_equal(got, want);
}

class GpuCarpcg : public pgk::test::GpuTest {};

TEST_F(GpuCarpcg, MulticolorEqualsColouredSweep) {
  for (const char *spec : kSpecs)
    for (const bool zero_rows : {false, true}) {
      const std::string what = std::string(spec) + (zero_rows ? " with zero rows" : "");
      Csr a = make(spec);
      if (zero_rows) a = with_zero_rows(a);
      Prepared s(a, options(Scheme::Multicolor, 1.0));
      ASSERT_TRUE(s.op.ready()) << what;
      const pgk::carpcg::Coloring ref_col = pgk::carpcg::distance2_coloring(pgk::view_of(s.a));
      ASSERT_NE(s.op.coloring(), nullptr);
      EXPECT_EQ(s.op.coloring()->rows, ref_col.rows) << what;
      // One forward colour sweep, in place.
      const Vector norms = pgk::carpcg::row_norms2(pgk::view_of(s.a));
      Vector x = pseudo_random(a.nrows, 3), b = pseudo_random(a.nrows, 5);
      DVec dx(x), db(b);
      s.op.multicolor_sweep(db.data(), false, dx.data(), nullptr);
      for (int c = 0; c < ref_col.ncolors; ++c)
        pgk::carpcg::sweep(pgk::view_of(s.a), norms.data(), b.data(), 1.0, ref_col.rows.data() + ref_col.class_ptr[c],
                           ref_col.class_size(c), false, x.data());
      const Vector got = dx.get();
      EXPECT_LE(max_rel_diff(got, x), 1e-12) << what << ": forward colour sweep";
      std::printf("[ multicolor ] %s: forward sweep %s\n", what.c_str(),
                  bitwise_equal(got, x) ? "bitwise" : "not bitwise");
      pgk::carpcg::OperatorOptions ro;
      ro.scheme = Scheme::Multicolor;
      ro.lambda = 1.0;
      const bool bits = expect_double_sweep(s, ro, 1e-12, what + ": double sweep");
      std::printf("[ multicolor ] %s: double sweep %s\n", what.c_str(), bits ? "bitwise" : "not bitwise");
    }
}

TEST_F(GpuCarpcg, CimminoPassIsBitwise) {
  for (const char *spec : kSpecs) {
    Prepared s(with_zero_rows(make(spec)), options(Scheme::Cimmino, 0.35));
    ASSERT_TRUE(s.op.ready());
    const Index n = s.a.nrows;
    const Vector norms = pgk::carpcg::row_norms2(pgk::view_of(s.a));
    const Vector x = pseudo_random(n, 13), b = pseudo_random(n, 17);
    Vector acc(static_cast<std::size_t>(n), 0.0);
    pgk::carpcg::cimmino_pass(pgk::view_of(s.a), norms.data(), b.data(), 0.35, x.data(), acc.data());
    DVec dx(x), db(b), dout(static_cast<std::size_t>(n));
    s.op.cimmino_pass(db.data(), dx.data(), nullptr, dout.data(), nullptr);
    EXPECT_TRUE(bitwise_equal(dout.get(), acc)) << spec << ": max rel diff " << max_rel_diff(dout.get(), acc);
    pgk::carpcg::OperatorOptions ro;
    ro.scheme = Scheme::Cimmino;
    ro.lambda = 0.35;
    EXPECT_TRUE(expect_double_sweep(s, ro, 1e-12, std::string(spec) + ": cimmino double sweep")) << spec;
  }
}

// 400 blocks: 1 to 3 rows a block, fewer than a pipelined block sweep keeps in flight.
TEST_F(GpuCarpcg, CarpHalfSweepAndAveraging) {
  for (const char *spec : kSpecs)
    for (const Index blocks : {1, 3, 64, 400}) {
      const std::string what = std::string(spec) + ", " + std::to_string(blocks) + " blocks";
      Prepared s(with_zero_rows(make(spec)), options(Scheme::Carp, 1.4, blocks));
      ASSERT_TRUE(s.op.ready()) << what;
      const Index n = s.a.nrows;
      const Vector norms = pgk::carpcg::row_norms2(pgk::view_of(s.a));
      const pgk::carpcg::BlockPlan plan(pgk::view_of(s.a), norms, pgk::carpcg::contiguous_blocks(n, blocks),
                                        std::min<Index>(blocks, n));
      ASSERT_NE(s.op.plan(), nullptr);
      EXPECT_EQ(s.op.plan()->multiplicity(), plan.multiplicity()) << what;
      for (const bool backward : {false, true}) {
        const bool bitwise = expect_carp_half(s, plan, norms, 1.4, backward, what);
        std::printf("[ carp ] %s %s half: %s\n", what.c_str(), backward ? "backward" : "forward",
                    bitwise ? "bitwise" : "not bitwise");
      }
      pgk::carpcg::OperatorOptions ro;
      ro.scheme = Scheme::Carp;
      ro.lambda = 1.4;
      ro.blocks = blocks;
      expect_double_sweep(s, ro, 1e-12, what + ": carp double sweep");
      const auto ref = pgk::carpcg::make_double_sweep(pgk::view_of(s.a), ro);
      EXPECT_EQ(s.op.weights(), ref->weights()) << what;
    }
}

// carp's block sweep keeps a block's copy in shared memory where it fits the widest block within
// kCopyPerLane doubles a lane (carp_shared_doubles), else in global memory: a hub row joined to
// 1000 unknowns makes its block wide while the other 199 blocks fit, so one launch takes both
// paths; the half sweeps and double sweeps match the reference as in CarpHalfSweepAndAveraging.
TEST_F(GpuCarpcg, CarpBlocksMixSharedAndGlobalCopies) {
  const Index blocks = 200;
  Prepared s(make("hubrow:n=4000,deg=4,hubdeg=1000"), options(Scheme::Carp, 1.4, blocks));
  ASSERT_TRUE(s.op.ready());
  const Index n = s.a.nrows;
  const Vector norms = pgk::carpcg::row_norms2(pgk::view_of(s.a));
  const pgk::carpcg::BlockPlan plan(pgk::view_of(s.a), norms, pgk::carpcg::contiguous_blocks(n, blocks), blocks);
  const Index stride = s.op.carp_shared_doubles();
  Index fitting = 0, widest = 0;
  for (Index k = 0; k < plan.nblocks(); ++k) {
    const Index width = static_cast<Index>(plan.cols(k).size());
    fitting += width <= stride;
    widest = std::max(widest, width);
  }
  EXPECT_GT(stride, 0);
  EXPECT_GT(widest, 1000);              // the hub's block sweeps in global memory
  EXPECT_EQ(fitting, blocks - 1);       // every other block in shared memory
  EXPECT_LE(stride, 32 * s.op.lanes()); // within the cap (kCopyPerLane, internal.cuh)
  for (const bool backward : {false, true})
    expect_carp_half(s, plan, norms, 1.4, backward, "hubrow:n=4000, 200 blocks");
  pgk::carpcg::OperatorOptions ro;
  ro.scheme = Scheme::Carp;
  ro.lambda = 1.4;
  ro.blocks = blocks;
  expect_double_sweep(s, ro, 1e-12, "hubrow: carp double sweep");
}

TEST_F(GpuCarpcg, ResidualAndDots) {
  for (const char *spec : kSpecs) {
    Prepared s(make(spec), options(Scheme::Carp, 1.0, 8));
    ASSERT_TRUE(s.op.ready());
    const Index n = s.a.nrows;
    const Vector x = pseudo_random(n, 29), b = pseudo_random(n, 31);
    Vector r(static_cast<std::size_t>(n));
    pgk::carpcg::residual(pgk::view_of(s.a), b.data(), x.data(), r.data());
    DVec dx(x), db(b), dr(static_cast<std::size_t>(n));
    s.op.residual(dx.data(), db.data(), dr.data(), nullptr);
    EXPECT_TRUE(bitwise_equal(dr.get(), r)) << spec << ": residual";
    const double *u[3] = {dx.data(), dx.data(), dr.data()}, *v[3] = {dx.data(), db.data(), dr.data()};
    const bool w[3] = {true, true, false};
    double got[3], again[3];
    s.op.dots(3, u, v, w, got, nullptr);
    s.op.dots(3, u, v, w, again, nullptr);
    const double *wh = s.op.weights().data();
    const double want[3] = {pgk::carpcg::weighted_dot(x.data(), x.data(), wh, n),
                            pgk::carpcg::weighted_dot(x.data(), b.data(), wh, n),
                            pgk::carpcg::weighted_dot(r.data(), r.data(), nullptr, n)};
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(got[k], want[k], 1e-12 * std::max(1.0, std::abs(want[k]))) << spec << ": dot " << k;
      EXPECT_EQ(got[k], again[k]) << spec << ": dot " << k << " differs between runs";
    }
  }
}

// Counts the logged copies (kernels/common/transfer.hpp) while alive.
struct CopyCounter {
  static int to_device, to_host;
  static std::size_t host_bytes;
  static void log(pgk::cuda::CopyDirection d, std::size_t bytes) {
    if (d == pgk::cuda::CopyDirection::HostToDevice) ++to_device;
    else ++to_host, host_bytes += bytes;
  }
  CopyCounter() {
    to_device = to_host = 0;
    host_bytes = 0;
    pgk::cuda::set_transfer_logger(&CopyCounter::log);
  }
  ~CopyCounter() { pgk::cuda::set_transfer_logger(nullptr); }
};
int CopyCounter::to_device = 0, CopyCounter::to_host = 0;
std::size_t CopyCounter::host_bytes = 0;

TEST_F(GpuCarpcg, IterationCopiesOnlyTheDots) {
  for (const Scheme scheme : {Scheme::Multicolor, Scheme::Cimmino, Scheme::Carp}) {
    Prepared s(make("fem2d:n=30"), options(scheme, pgk::carpcg::default_relaxation(scheme), 4));
    ASSERT_TRUE(s.op.ready());
    const Index n = s.a.nrows;
    DVec x(pseudo_random(n, 37)), b(pseudo_random(n, 41)), y(static_cast<std::size_t>(n));
    CopyCounter count;
    s.op.double_sweep(x.data(), b.data(), y.data(), nullptr);
    s.op.double_sweep(y.data(), nullptr, x.data(), nullptr);
    s.op.residual(x.data(), b.data(), y.data(), nullptr);
    EXPECT_EQ(CopyCounter::to_device + CopyCounter::to_host, 0) << pgk::carpcg::scheme_name(scheme);
    const double *u[2] = {x.data(), y.data()}, *v[2] = {x.data(), y.data()};
    const bool w[2] = {true, false};
    double out[2];
    s.op.dots(2, u, v, w, out, nullptr);
    EXPECT_EQ(CopyCounter::to_device, 0);
    EXPECT_EQ(CopyCounter::to_host, 1);
    EXPECT_EQ(CopyCounter::host_bytes, 2 * sizeof(double));
  }
}

// The lanes per row change how many rows a warp projects at once, never the sums' order: every
// scheme's double sweep and the residual are the same bits for 4, 8, 16 and 32 lanes (rows of 1
// to 9 entries here, so 4 and 8 lanes also run rows longer than the group).
TEST_F(GpuCarpcg, LanesPerRowGiveTheSameBits) {
  using pgk::cuda::carpcg_lanes_per_row;
  EXPECT_EQ(carpcg_lanes_per_row(0, 100, 700, Scheme::Carp), 8);       // mean 7: one entry a lane
  EXPECT_EQ(carpcg_lanes_per_row(0, 100, 700, Scheme::Multicolor), 4); // two entries a lane
  EXPECT_EQ(carpcg_lanes_per_row(0, 100, 900, Scheme::Cimmino), 8);    // mean 9
  EXPECT_EQ(carpcg_lanes_per_row(0, 100, 300, Scheme::Carp), 4);
  EXPECT_EQ(carpcg_lanes_per_row(0, 100, 1700, Scheme::Carp), 32);
  EXPECT_EQ(carpcg_lanes_per_row(0, 100, 1700, Scheme::Multicolor), 16);
  EXPECT_EQ(carpcg_lanes_per_row(0, 100, 7000, Scheme::Multicolor), 32);
  EXPECT_EQ(carpcg_lanes_per_row(0, 0, 0, Scheme::Multicolor), 4);
  EXPECT_EQ(carpcg_lanes_per_row(16, 100, 300, Scheme::Multicolor), 16);
  EXPECT_THROW(carpcg_lanes_per_row(2, 100, 300, Scheme::Carp), std::invalid_argument);
  EXPECT_THROW(carpcg_lanes_per_row(64, 100, 300, Scheme::Multicolor), std::invalid_argument);
  for (const char *spec : kSpecs)
    for (const Scheme scheme : {Scheme::Multicolor, Scheme::Cimmino, Scheme::Carp}) {
      const Csr a = with_zero_rows(make(spec));
      const Index n = a.nrows;
      const Vector x = pseudo_random(n, 43), b = pseudo_random(n, 47);
      Vector first_sweep, first_residual;
      for (const int lanes : {32, 16, 8, 4, 0}) {
        const std::string what =
            std::string(spec) + ", " + pgk::carpcg::scheme_name(scheme) + ", lanes " + std::to_string(lanes);
        Prepared s(a, options(scheme, pgk::carpcg::default_relaxation(scheme), 64, lanes));
        ASSERT_TRUE(s.op.ready()) << what;
        EXPECT_EQ(s.op.lanes(), lanes ? lanes : carpcg_lanes_per_row(0, n, a.nnz(), scheme)) << what;
        DVec dx(x), db(b), dy(static_cast<std::size_t>(n)), dr(static_cast<std::size_t>(n));
        s.op.double_sweep(dx.data(), db.data(), dy.data(), nullptr);
        s.op.residual(dy.data(), db.data(), dr.data(), nullptr);
        const Vector sweep = dy.get(), residual = dr.get();
        if (lanes == 32) {
          first_sweep = sweep, first_residual = residual;
          continue;
        }
        EXPECT_TRUE(bitwise_equal(sweep, first_sweep))
            << what << ": double sweep, max rel diff " << max_rel_diff(sweep, first_sweep);
        EXPECT_TRUE(bitwise_equal(residual, first_residual)) << what << ": residual";
      }
    }
}

// -ksp_carpcg_graph: a double sweep replayed from a CUDA graph is the bits of the direct launches,
// at its capture (the first call on those arrays) and at every replay; a graph per (x, b, y), at
// most four, beyond which the sweep runs directly; a new set-up drops them. Only multicolor takes
// graphs; carp and cimmino, asked for them, launch directly with the same bits.
TEST_F(GpuCarpcg, GraphReplayGivesTheSameBits) {
  for (const char *spec : kSpecs)
    for (const Scheme scheme : {Scheme::Multicolor, Scheme::Cimmino, Scheme::Carp}) {
      const std::string what = std::string(spec) + ", " + pgk::carpcg::scheme_name(scheme);
      const Csr a = with_zero_rows(make(spec));
      const Index n = a.nrows;
      pgk::cuda::CarpcgDeviceOptions direct = options(scheme, pgk::carpcg::default_relaxation(scheme), 16),
                                     graphed = direct;
      direct.graph = false;
      Prepared d(a, direct), g(a, graphed);
      ASSERT_TRUE(d.op.ready() && g.op.ready()) << what;
      DVec x(pseudo_random(n, 53)), b(pseudo_random(n, 59)), yd(static_cast<std::size_t>(n)),
          yg(static_cast<std::size_t>(n));
      d.op.double_sweep(x.data(), b.data(), yd.data(), nullptr);
      const Vector want_b = yd.get();
      d.op.double_sweep(yd.data(), nullptr, x.data(), nullptr);
      const Vector want_0 = x.get();
      EXPECT_EQ(d.op.graphs(), 0u) << what;
      DVec xg(pseudo_random(n, 53)), out(static_cast<std::size_t>(n));
      for (int call = 0; call < 3; ++call) { // capture, then two replays
        g.op.double_sweep(xg.data(), b.data(), yg.data(), nullptr);
        EXPECT_TRUE(bitwise_equal(yg.get(), want_b)) << what << ", call " << call;
        g.op.double_sweep(yg.data(), nullptr, out.data(), nullptr);
        EXPECT_TRUE(bitwise_equal(out.get(), want_0)) << what << ", b = 0, call " << call;
      }
      const bool graphs = scheme == Scheme::Multicolor;
      EXPECT_EQ(g.op.graphs(), graphs ? 2u : 0u) << what;
      EXPECT_EQ(g.op.graph_launches(), graphs ? 6u : 0u) << what;
      std::vector<DVec> more;
      for (int k = 0; k < 3; ++k) more.emplace_back(static_cast<std::size_t>(n));
      for (DVec &y : more) g.op.double_sweep(xg.data(), b.data(), y.data(), nullptr); // the third one is direct
      EXPECT_EQ(g.op.graphs(), graphs ? 4u : 0u) << what;
      EXPECT_EQ(g.op.graph_launches(), graphs ? 8u : 0u) << what;
      for (DVec &y : more) EXPECT_TRUE(bitwise_equal(y.get(), want_b)) << what << ", past the capacity";
      g.op.setup(g.dev.view, pgk::view_of(g.a), graphed, nullptr);
      EXPECT_EQ(g.op.graphs(), 0u) << what << ", after a new set-up";
    }
}

// overlap_min_blocks (-ksp_carpcg_overlap_colour_blocks): colours launched as programmatic dependent
// launches (0: every colour after the first; 1: those of more than one block) give the bits of plain
// launches, directly and from a graph (capture and replays), with and without b, for 4 to 32 lanes;
// fem2d:n=160 (25,600 rows, 9 colours of about 45 blocks at 4 lanes, 360 at 32) makes every colour's early
// blocks load while the colour before it still writes x. -1 resolves to one wave of resident blocks;
// below -1 is an error.
TEST_F(GpuCarpcg, OverlappedColoursGiveTheSameBits) {
  std::vector<std::string> specs(std::begin(kSpecs), std::end(kSpecs));
  specs.push_back("fem2d:n=160");
  for (const std::string &spec : specs)
    for (const int lanes : {4, 8, 32}) {
      const Csr a = with_zero_rows(make(spec));
      const Index n = a.nrows;
      pgk::cuda::CarpcgDeviceOptions plain = options(Scheme::Multicolor, 1.0, 1, lanes);
      plain.graph = false;
      plain.overlap_min_blocks = std::numeric_limits<long>::max();
      Prepared p(a, plain);
      ASSERT_TRUE(p.op.ready()) << spec;
      EXPECT_EQ(p.op.overlap_min_blocks(), std::numeric_limits<long>::max());
      DVec x(pseudo_random(n, 61)), b(pseudo_random(n, 67)), y(static_cast<std::size_t>(n));
      p.op.double_sweep(x.data(), b.data(), y.data(), nullptr);
      const Vector want_b = y.get();
      p.op.double_sweep(x.data(), nullptr, y.data(), nullptr);
      const Vector want_0 = y.get();
      for (const long min_blocks : {0L, 1L})
        for (const bool graph : {false, true}) {
          const std::string what = spec + ", lanes " + std::to_string(lanes) + ", overlap above " +
                                   std::to_string(min_blocks) + (graph ? ", graph" : ", direct");
          pgk::cuda::CarpcgDeviceOptions o = plain;
          o.overlap_min_blocks = min_blocks;
          o.graph = graph;
          Prepared s(a, o);
          ASSERT_TRUE(s.op.ready()) << what;
          EXPECT_EQ(s.op.overlap_min_blocks(), min_blocks) << what;
          DVec out(static_cast<std::size_t>(n));
          for (int call = 0; call < 3; ++call) {
            s.op.double_sweep(x.data(), b.data(), out.data(), nullptr);
            EXPECT_TRUE(bitwise_equal(out.get(), want_b)) << what << ", call " << call;
            s.op.double_sweep(x.data(), nullptr, out.data(), nullptr);
            EXPECT_TRUE(bitwise_equal(out.get(), want_0)) << what << ", b = 0, call " << call;
          }
        }
    }
  pgk::cuda::CarpcgDeviceOptions wave = options(Scheme::Multicolor, 1.0);
  Prepared w(make(kSpecs[0]), wave);
  EXPECT_GE(w.op.overlap_min_blocks(), 1); // one wave: at least one block an SM
  wave.overlap_min_blocks = -2;
  pgk::cuda::CarpcgDevice bad;
  EXPECT_THROW(bad.setup(w.dev.view, pgk::view_of(w.a), wave, nullptr), std::invalid_argument);
}

// The double sweep projects the colour where the forward and backward sweeps meet twice in one
// launch: the same bits as the two sweeps launched colour by colour (multicolor_sweep), with and
// without b, with zero rows, with a relaxation other than 1, and one colour only (a diagonal).
TEST_F(GpuCarpcg, TurningColourInOneLaunchGivesTheSameBits) {
  std::vector<std::string> specs(std::begin(kSpecs), std::end(kSpecs));
  specs.push_back("diag"); // n = 40, one colour
  for (const std::string &spec : specs)
    for (const double lambda : {1.0, 1.3}) {
      Csr a;
      if (spec == "diag") {
        a.nrows = a.ncols = 40;
        for (Index i = 0; i <= a.nrows; ++i) a.rowptr.push_back(i);
        for (Index i = 0; i < a.nrows; ++i)
          a.colidx.push_back(i), a.values.push_back(1.0 + 0.25 * static_cast<double>(i % 7));
      } else a = with_zero_rows(make(spec));
      const std::string what = spec + ", lambda " + std::to_string(lambda);
      pgk::cuda::CarpcgDeviceOptions o = options(Scheme::Multicolor, lambda);
      o.graph = false;
      Prepared s(a, o);
      ASSERT_TRUE(s.op.ready()) << what;
      const Index n = a.nrows;
      for (const bool with_b : {true, false}) {
        DVec x(pseudo_random(n, 71)), b(pseudo_random(n, 73)), y(static_cast<std::size_t>(n));
        DVec pieces(pseudo_random(n, 71));
        s.op.double_sweep(x.data(), with_b ? b.data() : nullptr, y.data(), nullptr);
        s.op.multicolor_sweep(with_b ? b.data() : nullptr, false, pieces.data(), nullptr);
        s.op.multicolor_sweep(with_b ? b.data() : nullptr, true, pieces.data(), nullptr);
        EXPECT_TRUE(bitwise_equal(y.get(), pieces.get())) << what << (with_b ? " (b)" : " (b = 0)");
        EXPECT_TRUE(bitwise_equal(x.get(), pseudo_random(n, 71))) << what << ": x changed";
      }
    }
}

// The CG's fused kernels against the launches they replace, bit for bit: cg_step = aypx, aypx,
// axpy, axpy (with and without the directions, beta = 0 included); subtract_dots = subtract, then
// dots (weighted and not, the difference as either operand or neither), with one copy back.
TEST_F(GpuCarpcg, FusedUpdatesGiveTheSameBits) {
  const Index n = 100003;
  const Vector p0 = pseudo_random(n, 81), q0 = pseudo_random(n, 82), r0 = pseudo_random(n, 83),
               s0 = pseudo_random(n, 84), x0 = pseudo_random(n, 85);
  for (const bool directions : {false, true})
    for (const double beta : {0.0, 0.73}) {
      const double alpha = 1.37;
      DVec p(p0), q(q0), r(r0), s(s0), x(x0), pf(p0), qf(q0), rf(r0), xf(x0);
      if (directions) {
        pgk::cuda::CarpcgDevice::aypx(n, beta, r.data(), p.data(), nullptr);
        pgk::cuda::CarpcgDevice::aypx(n, beta, s.data(), q.data(), nullptr);
      }
      pgk::cuda::CarpcgDevice::axpy(n, -alpha, q.data(), r.data(), nullptr);
      pgk::cuda::CarpcgDevice::axpy(n, alpha, p.data(), x.data(), nullptr);
      pgk::cuda::CarpcgDevice::cg_step(n, directions, beta, alpha, pf.data(), qf.data(), rf.data(), s.data(), xf.data(),
                                       nullptr);
      const std::string what =
          std::string(directions ? "with" : "without") + " directions, beta " + std::to_string(beta);
      EXPECT_TRUE(bitwise_equal(pf.get(), p.get())) << what << ": p";
      EXPECT_TRUE(bitwise_equal(qf.get(), q.get())) << what << ": q";
      EXPECT_TRUE(bitwise_equal(rf.get(), r.get())) << what << ": r";
      EXPECT_TRUE(bitwise_equal(xf.get(), x.get())) << what << ": x";
    }
  for (const Scheme scheme : {Scheme::Carp, Scheme::Multicolor}) { // carp's dots are weighted
    Prepared op(make("fem2d:n=120"), options(scheme, 1.0, 37));
    ASSERT_TRUE(op.op.ready());
    const Index m = op.a.nrows;
    DVec r(pseudo_random(m, 91)), t(pseudo_random(m, 92)), sw(static_cast<std::size_t>(m)), sf(pseudo_random(m, 93));
    pgk::cuda::CarpcgDevice::subtract(m, r.data(), t.data(), sw.data(), nullptr);
    const double *u[3] = {r.data(), r.data(), t.data()}, *v[3] = {r.data(), sw.data(), t.data()};
    const double *uf[3] = {r.data(), sf.data(), t.data()}, *vf[3] = {r.data(), r.data(), sf.data()};
    const double *uw[3] = {r.data(), sw.data(), t.data()}, *vw[3] = {r.data(), r.data(), sw.data()};
    const bool w[3] = {true, true, false};
    double want[3], got[3];
    op.op.dots(3, uw, vw, w, want, nullptr); // the difference as u (dot 1) and as v (dot 2)
    CopyCounter count;
    op.op.subtract_dots(r.data(), t.data(), sf.data(), 3, uf, vf, w, got, nullptr);
    EXPECT_EQ(CopyCounter::to_host, 1);
    EXPECT_EQ(CopyCounter::to_device, 0);
    EXPECT_TRUE(bitwise_equal(sf.get(), sw.get())) << pgk::carpcg::scheme_name(scheme) << ": the difference";
    for (int k = 0; k < 3; ++k) EXPECT_EQ(got[k], want[k]) << pgk::carpcg::scheme_name(scheme) << ": dot " << k;
    op.op.dots(2, u, v, w, want, nullptr); // the CG's pair: <r,r>_W, <r,s>_W
    const double *vc[2] = {r.data(), sf.data()};
    op.op.subtract_dots(r.data(), t.data(), sf.data(), 2, u, vc, w, got, nullptr);
    for (int k = 0; k < 2; ++k) EXPECT_EQ(got[k], want[k]) << pgk::carpcg::scheme_name(scheme) << ": CG dot " << k;
  }
}

// A rank's block under MPI: the first rows of a matrix over all its columns (owned unknowns, then
// the others as ghosts). The pieces the PETSc layer exchanges between equal the reference on the
// extended rows bit for bit: carp's sweeps and per-unknown sums over owned and ghost unknowns, the
// division by given (global) multiplicities, cimmino's column sums and the residual.
Csr first_rows(const Csr &a, Index rows) {
  Csr e;
  e.nrows = rows;
  e.ncols = a.ncols;
  e.rowptr.assign(a.rowptr.begin(), a.rowptr.begin() + rows + 1);
  e.colidx.assign(a.colidx.begin(), a.colidx.begin() + a.rowptr[rows]);
  e.values.assign(a.values.begin(), a.values.begin() + a.rowptr[rows]);
  return e;
}

// A rank's first half as device_ranks.cpp runs it: the owned unknowns read from the operand's own
// array and the ghosts from the extended vector (the same sums as one extended x), the result
// written into the extended vector's owned part; then the swap's division
// x_ext_j = (acc_j + peer_j) / m_j for the received unknowns and the ghosts (x_j, or the ghost's
// value, where m_j == 0).
TEST_F(GpuCarpcg, GhostColumnsSplitAndSwapDivision) {
  for (const char *spec : kSpecs) {
    const Csr full = with_zero_rows(make(spec));
    Prepared s(first_rows(full, full.nrows / 2), options(Scheme::Carp, 1.3, 5));
    ASSERT_TRUE(s.op.ready()) << spec;
    const Index n = s.a.nrows, nc = s.a.ncols, ng = nc - n;
    ASSERT_GT(ng, 0) << spec;
    const Vector norms = pgk::carpcg::row_norms2(pgk::view_of(s.a));
    const pgk::carpcg::BlockPlan plan(pgk::view_of(s.a), norms, pgk::carpcg::contiguous_blocks(n, 5), 5);
    const Vector x = pseudo_random(nc, 29), b = pseudo_random(n, 31), peer = pseudo_random(nc, 37);
    Vector mult(static_cast<std::size_t>(n)), gmult(static_cast<std::size_t>(ng));
    for (Index j = 0; j < n; ++j) mult[j] = j % 7 == 3 ? 0.0 : static_cast<double>(plan.multiplicity()[j] + 1);
    for (Index g = 0; g < ng; ++g) gmult[g] = g % 4 == 1 ? 0.0 : static_cast<double>(1 + g % 3);
    s.op.set_multiplicity(mult, nullptr);
    std::vector<Index> received;
    for (Index j = 0; j < n; j += 3) received.push_back(j);
    s.op.set_received(received, nullptr);
    EXPECT_THROW(s.op.carp_divide_shared(nullptr, nullptr, nullptr, nullptr, nullptr), std::logic_error) << spec;
    EXPECT_THROW(s.op.set_ghost_multiplicity(Vector(static_cast<std::size_t>(ng + 1)), nullptr), std::invalid_argument);
    s.op.set_ghost_multiplicity(gmult, nullptr);
    Vector acc(static_cast<std::size_t>(nc));
    plan.sweep_sum(pgk::view_of(s.a), norms.data(), b.data(), 1.3, false, x.data(), acc.data());
    Vector ext0(x);
    std::fill(ext0.begin(), ext0.begin() + n, -7.0); // the owned part must come from `owned`
    DVec owned(Vector(x.begin(), x.begin() + n)), db(b), dacc(static_cast<std::size_t>(nc)), dext(ext0), dpeer(peer);
    s.op.carp_sweep_divide(db.data(), false, owned.data(), dacc.data(), dext.data(), nullptr, dext.data() + n);
    const Vector sums = dacc.get();
    Vector want = ext0;
    for (Index j = 0; j < nc; ++j) {
      const bool kept = j >= n || j % 3 == 0;
      if (kept) {
        EXPECT_TRUE(bitwise_equal({sums[j]}, {acc[j]})) << spec << ": the sum of unknown " << j;
      } else {
        want[j] = mult[j] > 0 ? acc[j] / mult[j] : x[j];
      }
    }
    Vector got = dext.get();
    EXPECT_TRUE(bitwise_equal(got, want)) << spec << ": the owned unknowns no other rank holds";
    s.op.carp_divide_shared(dacc.data(), dpeer.data(), owned.data(), dext.data(), nullptr);
    for (const Index j : received) want[j] = mult[j] > 0 ? (acc[j] + peer[j]) / mult[j] : x[j];
    for (Index g = 0; g < ng; ++g) want[n + g] = gmult[g] > 0 ? (acc[n + g] + peer[n + g]) / gmult[g] : x[n + g];
    got = dext.get();
    EXPECT_TRUE(bitwise_equal(got, want)) << spec << ": the swap's division";
    // y += a x with a fused multiply-add (the CG's update of its iterate on the side stream)
    DVec dy(x);
    pgk::cuda::CarpcgDevice::axpy(nc, 0.375, dpeer.data(), dy.data(), nullptr);
    const Vector y = dy.get();
    for (Index j = 0; j < nc; ++j) EXPECT_TRUE(bitwise_equal({y[j]}, {std::fma(0.375, peer[j], x[j])})) << "axpy " << j;
    // The CG loop's other updates, as PETSc's cuBLAS calls round them: y = x + a y (scal, then axpy
    // with 1; a == 0 copies x) and w = x - y (a copy, then axpy with -1).
    for (const double a : {0.0, 1.0, -0.625}) {
      DVec dz(x);
      pgk::cuda::CarpcgDevice::aypx(nc, a, dpeer.data(), dz.data(), nullptr);
      const Vector z = dz.get();
      for (Index j = 0; j < nc; ++j)
        EXPECT_TRUE(bitwise_equal({z[j]}, {a == 0 ? peer[j] : std::fma(1.0, peer[j], a * x[j])}))
            << "aypx " << a << " " << j;
    }
    DVec dw(x);
    pgk::cuda::CarpcgDevice::subtract(nc, dpeer.data(), dy.data(), dw.data(), nullptr);
    const Vector w = dw.get();
    for (Index j = 0; j < nc; ++j)
      EXPECT_TRUE(bitwise_equal({w[j]}, {std::fma(-1.0, y[j], peer[j])})) << "subtract " << j;
  }
}

// The split sweep of device_ranks.cpp's overlap: the interior blocks (no ghost, no received unknown)
// and the boundary blocks swept separately, in either order, then the unshared owned unknowns
// divided, give carp_sweep_divide's sums and results bit for bit; the interior never reads ghosts
// (given none).
TEST_F(GpuCarpcg, BoundaryAndInteriorSweepsMakeTheHalf) {
  for (const char *spec : kSpecs)
    for (const Index blocks : {1, 5, 23})
      for (const bool boundary_first : {false, true}) {
        const std::string what = std::string(spec) + ", " + std::to_string(blocks) + " blocks" +
                                 (boundary_first ? ", boundary first" : ", interior first");
        const Csr full = with_zero_rows(make(spec));
        Prepared s(first_rows(full, full.nrows / 2), options(Scheme::Carp, 1.3, blocks));
        ASSERT_TRUE(s.op.ready()) << what;
        const Index n = s.a.nrows, nc = s.a.ncols;
        Vector mult(static_cast<std::size_t>(n));
        for (Index j = 0; j < n; ++j) mult[j] = j % 11 == 5 ? 0.0 : static_cast<double>(1 + j % 3);
        s.op.set_multiplicity(mult, nullptr);
        std::vector<Index> received;
        for (Index j = n - 1; j >= 0 && j > n - 9; --j) received.insert(received.begin(), j); // the last rows
        s.op.set_received(received, nullptr);
        EXPECT_THROW(s.op.carp_sweep_interior(nullptr, false, nullptr, nullptr), std::logic_error) << what;
        s.op.split_blocks(nullptr);
        Index want_boundary = 0;
        for (Index k = 0; k < s.op.plan()->nblocks(); ++k) {
          const std::vector<Index> &cols = s.op.plan()->cols(k);
          want_boundary += std::any_of(cols.begin(), cols.end(), [&](Index c) { return c >= n - 8; }) ? 1 : 0;
        }
        EXPECT_EQ(s.op.boundary_blocks(), want_boundary) << what;
        for (const bool backward : {false, true}) {
          const Vector x = pseudo_random(nc, 53), b = pseudo_random(n, 59);
          DVec dx(x), db(b), acc1(Vector(static_cast<std::size_t>(nc), -1.0)),
              y1(Vector(static_cast<std::size_t>(n), -2.0));
          s.op.carp_sweep_divide(db.data(), backward, dx.data(), acc1.data(), y1.data(), nullptr);
          DVec acc2(Vector(static_cast<std::size_t>(nc), -1.0)), y2(Vector(static_cast<std::size_t>(n), -2.0));
          if (!boundary_first) s.op.carp_sweep_interior(db.data(), backward, dx.data(), nullptr);
          s.op.carp_sweep_boundary(db.data(), backward, dx.data(), dx.data() + n, acc2.data(), nullptr);
          if (boundary_first) s.op.carp_sweep_interior(db.data(), backward, dx.data(), nullptr);
          s.op.carp_divide_unshared(dx.data(), y2.data(), nullptr);
          const Vector a1 = acc1.get(), a2 = acc2.get(), r1 = y1.get(), r2 = y2.get();
          EXPECT_TRUE(bitwise_equal(a1, a2)) << what << (backward ? ", backward" : ", forward") << ": shared sums";
          EXPECT_TRUE(bitwise_equal(r1, r2)) << what << (backward ? ", backward" : ", forward") << ": unshared results";
        }
      }
}

TEST_F(GpuCarpcg, GhostColumnPieces) {
  for (const char *spec : kSpecs)
    for (const Index blocks : {1, 5}) {
      const std::string what = std::string(spec) + ", " + std::to_string(blocks) + " blocks";
      const Csr full = with_zero_rows(make(spec));
      Prepared s(first_rows(full, full.nrows / 2), options(Scheme::Carp, 1.3, blocks));
      ASSERT_TRUE(s.op.ready()) << what;
      const Index n = s.a.nrows, nc = s.a.ncols;
      ASSERT_EQ(s.op.ncols(), nc);
      const Vector norms = pgk::carpcg::row_norms2(pgk::view_of(s.a));
      const pgk::carpcg::BlockPlan plan(pgk::view_of(s.a), norms, pgk::carpcg::contiguous_blocks(n, blocks), blocks);
      const Vector x = pseudo_random(nc, 29), b = pseudo_random(n, 31);
      Vector mult(static_cast<std::size_t>(n));
      for (Index j = 0; j < n; ++j) mult[j] = static_cast<double>(plan.multiplicity()[j] + (j % 3 == 0 ? 1 : 0));
      s.op.set_multiplicity(mult, nullptr);
      Vector want_w;
      for (const double m : mult) want_w.push_back(std::max(m, 1.0));
      EXPECT_EQ(s.op.weights(), want_w) << what;
      std::vector<Index> received; // as if other ranks held these as ghosts
      for (Index j = 0; j < n; j += 3) received.push_back(j);
      EXPECT_THROW(s.op.set_received({n}, nullptr), std::invalid_argument) << what;
      s.op.set_received(received, nullptr);
      for (const bool backward : {false, true})
        for (const bool in_place : {false, true}) {
          const std::string how = what + (backward ? ", backward" : ", forward") + (in_place ? ", in place" : "");
          Vector acc(static_cast<std::size_t>(nc)), want(static_cast<std::size_t>(n));
          plan.sweep_sum(pgk::view_of(s.a), norms.data(), b.data(), 1.3, backward, x.data(), acc.data());
          DVec dx(x), db(b), dacc(static_cast<std::size_t>(nc)), dy(static_cast<std::size_t>(n)),
              dxe(static_cast<std::size_t>(nc));
          double *y = in_place ? dx.data() : dy.data();
          s.op.carp_sweep_divide(db.data(), backward, dx.data(), dacc.data(), y, nullptr);
          Vector sums = dacc.get();
          for (Index j = 0; j < nc; ++j) {
            const bool kept = j >= n || j % 3 == 0; // a ghost or a received unknown: its sum kept
            if (kept) {
              EXPECT_TRUE(bitwise_equal({sums[j]}, {acc[j]})) << how << ": the sum of unknown " << j;
            }
          }
          for (const Index j : received) sums[j] = acc[j] + 0.25 * static_cast<double>(j); // other ranks' sums
          DVec added(sums);
          s.op.carp_divide_received(added.data(), dx.data(), y, nullptr);
          for (Index j = 0; j < n; ++j) {
            const double sum = j % 3 == 0 ? sums[j] : acc[j];
            want[j] = mult[j] > 0 ? sum / mult[j] : x[j];
          }
          Vector got = in_place ? dx.get() : dy.get();
          got.resize(static_cast<std::size_t>(n));
          EXPECT_TRUE(bitwise_equal(got, want)) << how << ": division by the given multiplicities";
          if (in_place) continue;
          s.op.load_owned(dx.data(), dxe.data(), nullptr);
          const Vector loaded = dxe.get();
          EXPECT_TRUE(std::equal(x.begin(), x.begin() + n, loaded.begin())) << how << ": load_owned";
        }
      Vector t(static_cast<std::size_t>(n));
      pgk::carpcg::residual(pgk::view_of(s.a), b.data(), x.data(), t.data());
      DVec dx(x), db(b), dt(static_cast<std::size_t>(n));
      s.op.residual(dx.data(), db.data(), dt.data(), nullptr);
      EXPECT_TRUE(bitwise_equal(dt.get(), t)) << what << ": residual";
      EXPECT_THROW(s.op.double_sweep(dx.data(), db.data(), dt.data(), nullptr), std::logic_error);
      EXPECT_THROW(s.op.carp_half(db.data(), false, dx.data(), dt.data(), nullptr), std::logic_error);
    }
  for (const char *spec : kSpecs) {
    // set up from the host arrays (setup_host: what the PETSc layer does for a rank's block)
    const Csr part = first_rows(with_zero_rows(make(spec)), make(spec).nrows / 3);
    pgk::cuda::CarpcgDevice op;
    const pgk::cuda::CarpcgValueCheck check =
        op.setup_host(pgk::view_of(part), options(Scheme::Cimmino, 0.35), nullptr);
    ASSERT_TRUE(op.ready()) << spec;
    EXPECT_EQ(check.bad_rows, 0);
    EXPECT_EQ(op.ncols(), part.ncols);
    const Vector norms = pgk::carpcg::row_norms2(pgk::view_of(part));
    const Vector x = pseudo_random(part.ncols, 37), b = pseudo_random(part.nrows, 41);
    Vector acc(static_cast<std::size_t>(part.ncols), 0.0);
    pgk::carpcg::cimmino_pass(pgk::view_of(part), norms.data(), b.data(), 0.35, x.data(), acc.data());
    DVec dx(x), db(b), dout(static_cast<std::size_t>(part.ncols));
    op.cimmino_pass(db.data(), dx.data(), nullptr, dout.data(), nullptr);
    EXPECT_TRUE(bitwise_equal(dout.get(), acc)) << spec << ": cimmino column sums over owned and ghost unknowns";
  }
  const Csr part = first_rows(make("fem2d:n=12"), 50);
  pgk::test::DeviceCsr d(part);
  pgk::cuda::CarpcgDevice op;
  EXPECT_THROW(op.setup(d.view, pgk::view_of(part), options(Scheme::Multicolor, 1.0), nullptr), std::invalid_argument);
}

TEST_F(GpuCarpcg, NanRowsEmptyAndSequential) {
  Csr a = make("fem2d:n=12");
  a.values[a.rowptr[40]] = std::numeric_limits<double>::quiet_NaN();
  a.values[a.rowptr[31]] = std::numeric_limits<double>::infinity();
  Prepared bad(a, options(Scheme::Multicolor, 1.0));
  EXPECT_FALSE(bad.op.ready());
  EXPECT_EQ(bad.check.bad_rows, 2);
  EXPECT_EQ(bad.check.first_bad_row, 31);
  Csr empty;
  empty.rowptr.assign(1, 0);
  for (const Scheme scheme : {Scheme::Multicolor, Scheme::Cimmino, Scheme::Carp}) {
    Prepared s(empty, options(scheme, 1.0));
    EXPECT_TRUE(s.op.ready());
    EXPECT_EQ(s.check.bad_rows, 0);
    double out[1] = {1.0};
    const double *u[1] = {nullptr};
    const bool w[1] = {false};
    s.op.double_sweep(nullptr, nullptr, nullptr, nullptr);
    s.op.dots(1, u, u, w, out, nullptr);
    EXPECT_EQ(out[0], 0.0);
  }
  pgk::test::DeviceCsr d(a);
  pgk::cuda::CarpcgDevice op;
  EXPECT_THROW(op.setup(d.view, pgk::view_of(a), options(Scheme::Sequential, 1.0), nullptr), std::invalid_argument);
}

} // namespace
