#include "src/matgen/generators.hpp"

#include "src/common/csr_build.hpp"
#include "src/matgen/detail.hpp"
#include "src/common/rng.hpp"
#include "tests/support/host.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgk::gen {
namespace {

using test::same_csr;
using test::well_formed;

constexpr bool kIndex32 = sizeof(Index) == 4;

Csr make(const std::string &spec) { return generate(parse_spec(spec)); }

// Value of a(i, j), 0 if not stored.
double at(const Csr &a, Index i, Index j) {
  for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
    if (a.colidx[k] == j) return a.values[k];
  return 0.0;
}

bool has_full_diagonal(const Csr &a) {
  for (Index i = 0; i < a.nrows; ++i) {
    const auto first = a.colidx.begin() + a.rowptr[i];
    const auto last = a.colidx.begin() + a.rowptr[i + 1];
    if (!std::binary_search(first, last, i)) return false;
  }
  return true;
}

bool exactly_symmetric(const Csr &a) { return same_csr(transpose(view_of(a)), a); }

double quadratic_form(const Csr &a, const std::vector<double> &x) {
  double s = 0;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) s += x[i] * a.values[k] * x[a.colidx[k]];
  return s;
}

std::vector<double> random_vector(Index n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<double> x(static_cast<std::size_t>(n));
  for (auto &v : x) v = 2 * rng.uniform() - 1;
  return x;
}

Index max_row_length(const Csr &a) {
  Index m = 0;
  for (Index i = 0; i < a.nrows; ++i) m = std::max(m, a.rowptr[i + 1] - a.rowptr[i]);
  return m;
}

// One representative spec per kind and variant, small enough for valgrind.
const std::vector<std::string> &all_specs() {
  static const std::vector<std::string> specs = {
      "lap2d5:nx=7,ny=5",
      "lap3d7:nx=4,ny=3,nz=5",
      "lap3d27:n=4",
      "elast3d:nx=3,ny=4,nz=2",
      "elast3d:n=3,lambda=10,mu=0.5",
      "aniso2d:nx=6,ny=5,variant=1",
      "aniso2d:nx=6,ny=5,variant=2",
      "aniso2d:nx=6,ny=5,variant=3",
      "aniso2d:nx=3,ny=7,variant=3",
      "aniso2d5:nx=6,ny=5",
      "aniso2d5:n=4,ax=1,ay=0.01",
      "convdiff2d:nx=6,ny=7",
      "convdiff2d:nx=6,ny=7,peclet=-30",
      "convdiff3d:n=4",
      "fem2d:nx=7,ny=6",
      "fem2d:n=5,side=3,reaction=2.5",
      "helmholtz2d:nx=6,ny=7",
      "helmholtz2d:n=5,kh=0.8,peclet=20",
      "helmholtz2dc:nx=6,ny=5",
      "vec3d27:nx=3,ny=4,nz=2",
      "helmholtz2dc:n=4,kh=0.3,eps=0",
      "quatsurf:nu=6,nv=5",
      "quatsurf:n=3,shift=0.25,seed=7",
      "quatsurf:nu=2,nv=3",
      "random:n=300",
      "random:n=300,deg=3,seed=5",
      "disconnected:n=200",
      "disconnected:n=30,parts=30",
      "hubrow:n=150",
      "hubrow:n=150,hubdeg=20,deg=2",
      "powerlaw:n=500",
      "powerlaw:n=400,communities=1,gamma=2.1,avgdeg=6",
      "rgg2d:n=300",
      "rgg2d:n=400,deg=5,seed=3",
      "path:n=9",
      "empty:n=6",
  };
  return specs;
}

// ---- spec parsing ----------------------------------------------------------------------

TEST(ParseSpec, KindAndParameters) {
  const Spec s = parse_spec("lap3d7:nx=64,ny=32,nz=16");
  EXPECT_EQ(s.kind, "lap3d7");
  EXPECT_EQ(s.params.size(), 3u);
  EXPECT_EQ(s.params.at("ny"), "32");
  EXPECT_EQ(describe(s).nrows, 64 * 32 * 16);

  EXPECT_EQ(describe(parse_spec("lap3d7:n=5")).nrows, 125);
  EXPECT_EQ(describe(parse_spec("lap3d7:n=5,nz=2")).nrows, 50); // explicit beats n
  EXPECT_EQ(describe(parse_spec(" lap2d5 : nx = 3 , ny=4 ")).nrows, 12);
  EXPECT_EQ(parse_spec("random:n=10").params.size(), 1u); // defaults are not inserted
}

TEST(ParseSpec, ToStringRoundTrips) {
  for (const auto &text : all_specs()) {
    const Spec s = parse_spec(text);
    const Spec again = parse_spec(to_string(s));
    EXPECT_EQ(again.kind, s.kind) << text;
    EXPECT_EQ(again.params, s.params) << text;
  }
  EXPECT_EQ(to_string(parse_spec("lap3d7:nz=3,nx=1,ny=2")), "lap3d7:nx=1,ny=2,nz=3");
  EXPECT_EQ(to_string(Spec{"path", {}}), "path");
}

// The message must contain `needle` so that a user can tell what to fix.
void expect_rejected(const std::string &text, const std::string &needle) {
  try {
    parse_spec(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "spec '" << text << "' gave: " << e.what();
  }
}

TEST(ParseSpec, RejectsBadSpecsWithClearMessages) {
  expect_rejected("", "missing kind");
  expect_rejected(":n=3", "missing kind");
  expect_rejected("lap4d:n=3", "unknown matrix kind 'lap4d'");
  expect_rejected("lap4d:n=3", "lap3d7"); // lists the known kinds
  expect_rejected("lap3d7:nw=3", "unknown parameter 'nw'");
  expect_rejected("lap3d7:nw=3", "accepted: nx, ny, nz, n");
  expect_rejected("lap2d5:nz=3,n=2", "unknown parameter 'nz'");
  expect_rejected("random:n=10,lambda=1", "unknown parameter 'lambda'");
  expect_rejected("lap3d7:", "empty parameter");
  expect_rejected("lap3d7:n=3,", "empty parameter");
  expect_rejected("lap3d7:n=3,,nx=2", "empty parameter");
  expect_rejected("lap3d7:n", "'n' has no value");
  expect_rejected("lap3d7:=4", "has no name");
  expect_rejected("lap3d7:n=", "'n' has an empty value");
  expect_rejected("lap3d7:n=3,n=4", "'n' given twice");
  expect_rejected("lap3d7:n=abc", "'n' must be an integer, got 'abc'");
  expect_rejected("lap3d7:n=64x", "must be an integer");
  expect_rejected("lap3d7:n=1e3", "must be an integer");
  expect_rejected("lap3d7:n=-1", "'n' = -1 is outside");
  expect_rejected("lap3d7:nx=2,ny=2", "missing parameter 'nz'");
  expect_rejected("lap3d7", "missing parameter 'nx'");
  expect_rejected("random", "missing parameter 'n'");
  expect_rejected("random:n=5,seed=-1", "unsigned 64-bit");
  expect_rejected("random:n=5,deg=-2", "'deg' = -2 is outside");
  expect_rejected("aniso2d:n=4,variant=4", "'variant' = 4 is outside [1, 3]");
  expect_rejected("elast3d:n=3,mu=x", "'mu' must be a finite number");
  expect_rejected("convdiff2d:n=3,peclet=nan", "'peclet' must be a finite number");
  expect_rejected("convdiff2d:n=3,peclet=inf", "finite");
  expect_rejected("disconnected:n=5,parts=0", "'parts' = 0 is outside");
  expect_rejected("hubrow:n=5,hubdeg=5", "'hubdeg' = 5 is outside [0, 4]");
  expect_rejected("powerlaw:n=5,gamma=1", "'gamma' must be >= 1.01");
  expect_rejected("powerlaw:n=5,mixing=1.5", "'mixing' must be in [0, 1]");
  expect_rejected("powerlaw:n=5,avgdeg=-1", "'avgdeg' must be >= 0");
  expect_rejected("powerlaw:n=5,communities=0", "'communities' = 0 is outside");
  expect_rejected("path:n=99999999999999999999", "is outside");
  expect_rejected("rgg2d", "missing parameter 'n'");
  expect_rejected("rgg2d:n=5,deg=-1", "'deg' = -1 is outside");
  expect_rejected("rgg2d:n=5,seed=x", "unsigned 64-bit");
  expect_rejected("rgg2d:n=5,radius=2", "unknown parameter 'radius'");
}

TEST(ParseSpec, SizeOverflowDependsOnIndexWidth) {
  // 2000^3 = 8e9 rows: too many for 32-bit indices, fine (to describe) with 64-bit.
  if (kIndex32) {
    expect_rejected("random:n=100000,deg=50000", "n * deg exceeds the Index range");
    expect_rejected("lap3d7:n=2000", "exceeds the Index range");
    expect_rejected("path:n=3000000000", "32-bit Index range");
    expect_rejected("elast3d:n=900", "exceeds the Index range"); // 3 * 900^3 > 2^31
    expect_rejected("rgg2d:n=100000,deg=50000", "n * deg exceeds the Index range");
  } else {
    expect_rejected("rgg2d:n=281474976710657", "n must be at most 2^48");
    EXPECT_EQ(static_cast<std::int64_t>(describe(parse_spec("lap3d7:n=2000")).nrows), std::int64_t{8000000000});
    EXPECT_EQ(static_cast<std::int64_t>(describe(parse_spec("elast3d:n=900")).nrows),
              std::int64_t{3} * 900 * 900 * 900);
  }
}

TEST(Describe, ShapeOfEveryKind) {
  struct Case {
    const char *spec;
    Index nrows, block;
    bool symmetric;
  };
  const Case cases[] = {
      {"lap2d5:nx=3,ny=4", 12, 1, true},
      {"lap3d7:n=3", 27, 1, true},
      {"lap3d27:nx=2,ny=3,nz=4", 24, 1, true},
      {"elast3d:n=2", 24, 3, true},
      {"aniso2d:n=5", 25, 1, true},
      {"aniso2d5:nx=5,ny=3", 15, 1, true},
      {"convdiff2d:n=5", 25, 1, false},
      {"convdiff2d:n=5,peclet=0", 25, 1, true},
      {"convdiff3d:n=2", 8, 1, false},
      {"fem2d:nx=4,ny=5", 20, 1, true},
      {"helmholtz2d:n=5", 25, 1, true},
      {"helmholtz2d:n=5,peclet=3", 25, 1, false},
      {"helmholtz2dc:nx=4,ny=3", 24, 2, false},
      {"vec3d27:n=3", 81, 3, true},
      {"helmholtz2dc:n=3,eps=0", 18, 2, true},
      {"helmholtz2dc:n=3,kh=0", 18, 2, true},
      {"quatsurf:nu=5,nv=3", 60, 4, true},
      {"quatsurf:n=2,shift=-3", 16, 4, true},
      {"random:n=17", 17, 1, true},
      {"disconnected:n=17", 17, 1, true},
      {"hubrow:n=17", 17, 1, true},
      {"powerlaw:n=17", 17, 1, true},
      {"rgg2d:n=17", 17, 1, true},
      {"path:n=4", 4, 1, true},
      {"empty:n=3", 3, 1, true},
  };
  for (const auto &c : cases) {
    const Shape s = describe(parse_spec(c.spec));
    EXPECT_EQ(s.nrows, c.nrows) << c.spec;
    EXPECT_EQ(s.block_size, c.block) << c.spec;
    EXPECT_EQ(s.symmetric, c.symmetric) << c.spec;
    EXPECT_EQ(generate(parse_spec(c.spec)).nrows, c.nrows) << c.spec;
  }
}

TEST(Kinds, ListsEveryKindAndEachAcceptsN) {
  const std::set<std::string> expected = {
      "lap2d5", "lap3d7",      "lap3d27",      "elast3d",     "aniso2d", "aniso3d",      "convdiff2d", "convdiff3d",
      "fem2d",  "helmholtz2d", "helmholtz2dc", "quatsurf",    "random",  "disconnected", "hubrow",     "powerlaw",
      "rgg2d",  "path",        "empty",        "communities", "vec3d27", "aniso2d5"};
  std::set<std::string> listed;
  for (const auto &k : kinds()) {
    listed.insert(k.name);
    EXPECT_FALSE(k.params.empty()) << k.name;
    EXPECT_FALSE(k.help.empty()) << k.name;
    const Csr a = make(k.name + ":n=4");
    EXPECT_TRUE(well_formed(a)) << k.name;
  }
  EXPECT_EQ(listed, expected);
}

// ---- properties shared by every kind ---------------------------------------------------

TEST(AllKinds, WellFormedWithDiagonalAndFiniteValues) {
  for (const auto &text : all_specs()) {
    SCOPED_TRACE(text);
    const Spec spec = parse_spec(text);
    const Csr a = generate(spec);
    ASSERT_TRUE(well_formed(a));
    EXPECT_EQ(a.nrows, a.ncols);
    EXPECT_EQ(a.values.size(), a.colidx.size());
    EXPECT_TRUE(has_full_diagonal(a));
    EXPECT_EQ(count_nonfinite(view_of(a)), 0);
    // Structure is always symmetric; values exactly so where describe() says so.
    const Csr t = transpose(view_of(a));
    EXPECT_EQ(t.colidx, a.colidx);
    EXPECT_EQ(exactly_symmetric(a), describe(spec).symmetric);
  }
}

TEST(AllKinds, RowSplitsConcatenateToTheWholeMatrix) {
  for (const auto &text : all_specs()) {
    SCOPED_TRACE(text);
    const Spec spec = parse_spec(text);
    const Csr whole = generate(spec);
    const Index n = whole.nrows;
    const std::vector<std::vector<Index>> splits = {
        {0, n}, {0, 0, n}, {0, n / 3, n / 3, n - 1, n}, {0, 1, 2, n / 2, n}};
    for (const auto &cuts : splits) {
      Csr joined;
      joined.nrows = 0;
      joined.ncols = n;
      for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        const Csr part = generate_rows(spec, cuts[k], cuts[k + 1]);
        ASSERT_TRUE(well_formed(part));
        EXPECT_EQ(part.nrows, cuts[k + 1] - cuts[k]);
        EXPECT_EQ(part.ncols, n);
        for (Index i = 0; i < part.nrows; ++i)
          joined.rowptr.push_back(joined.nnz() + part.rowptr[i + 1] - part.rowptr[i]);
        joined.nrows += part.nrows;
        joined.colidx.insert(joined.colidx.end(), part.colidx.begin(), part.colidx.end());
        joined.values.insert(joined.values.end(), part.values.begin(), part.values.end());
      }
      EXPECT_TRUE(same_csr(joined, whole));
    }
  }
}

TEST(AllKinds, RejectsBadRowRanges) {
  const Spec s = parse_spec("lap2d5:n=3");
  EXPECT_THROW(generate_rows(s, -1, 2), std::invalid_argument);
  EXPECT_THROW(generate_rows(s, 5, 4), std::invalid_argument);
  EXPECT_THROW(generate_rows(s, 0, 10), std::invalid_argument);
  EXPECT_THROW(generate_rows(parse_spec("random:n=5"), 0, 6), std::invalid_argument);
  EXPECT_THROW(generate(Spec{"nope", {}}), std::invalid_argument); // unparsed Spec checked too
}

TEST(AllKinds, TinySizes) {
  for (const auto &k : kinds()) {
    SCOPED_TRACE(k.name);
    const Index block = k.name == "elast3d" || k.name == "vec3d27" ? 3
                        : k.name == "helmholtz2dc"                 ? 2
                        : k.name == "quatsurf"                     ? 4
                                                                   : 1;
    const Csr zero = make(k.name + ":n=0");
    EXPECT_EQ(zero.nrows, 0);
    EXPECT_EQ(zero.nnz(), 0);
    EXPECT_EQ(zero.rowptr, std::vector<Index>{0});
    const Csr one = make(k.name + ":n=1");
    ASSERT_TRUE(well_formed(one));
    EXPECT_EQ(one.nrows, block);
    EXPECT_TRUE(has_full_diagonal(one));
    const Csr two = make(k.name + ":n=2");
    EXPECT_TRUE(well_formed(two));
  }
  EXPECT_EQ(make("lap3d7:nx=0,ny=5,nz=5").nrows, 0);
  EXPECT_EQ(make("random:n=1").values, std::vector<double>{1.0});
  EXPECT_EQ(make("hubrow:n=1").nnz(), 1);
}

TEST(AllKinds, DeterministicForAFixedSpec) {
  for (const auto &text : all_specs()) EXPECT_TRUE(same_csr(make(text), make(text))) << text;
}

TEST(AllKinds, GoldenFingerprints) {
  // Pins the exact output: a spec string in a benchmark log must name the same matrix on
  // every platform and in every later version. Update only for a deliberate change of a
  // generator, and say so in the commit message. (Checked equal under g++ -O1, g++ -O3
  // -march=native -ffp-contract=fast, clang++ with FMA, and with PGK_INDEX_64.)
  struct Case {
    const char *spec;
    std::uint64_t fingerprint;
  };
  const Case cases[] = {
      {"lap3d7:nx=4,ny=3,nz=2", 9242555639821710541ull},
      {"elast3d:n=3,lambda=2,mu=0.3", 12215370694646562914ull},
      {"elast3d:n=5,lambda=0.1,mu=0.7", 10848363340979590027ull},
      {"aniso2d:nx=5,ny=4,variant=2", 17470295017552444023ull},
      {"aniso2d:nx=5,ny=4,variant=3", 16820326644903752075ull},
      {"convdiff2d:nx=33,ny=17,peclet=0.7", 15809122736632147828ull},
      {"convdiff3d:nx=4,ny=3,nz=3,peclet=55", 17449087756493097282ull},
      {"random:n=60,seed=11", 7984489847534802097ull},
      {"disconnected:n=50,parts=3,seed=2", 8687747042114615151ull},
      {"hubrow:n=40,hubdeg=9,seed=4", 14216245419265970479ull},
      {"powerlaw:n=300,seed=8", 10840986521484875594ull},
  };
  for (const auto &c : cases) EXPECT_EQ(test::fingerprint(make(c.spec)), c.fingerprint) << c.spec;
}

// ---- stencils --------------------------------------------------------------------------

TEST(Stencils, NnzFormulas) {
  for (const Index nx : {1, 2, 3, 7})
    for (const Index ny : {1, 2, 5})
      for (const Index nz : {1, 2, 4}) {
        SCOPED_TRACE(std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz));
        const std::string g2 = ":nx=" + std::to_string(nx) + ",ny=" + std::to_string(ny);
        const std::string g3 = g2 + ",nz=" + std::to_string(nz);
        const Index n2 = nx * ny, n3 = nx * ny * nz;
        // Each direction contributes 2 * (pairs of neighbours along it).
        EXPECT_EQ(make("lap2d5" + g2).nnz(), 5 * n2 - 2 * nx - 2 * ny);
        EXPECT_EQ(make("convdiff2d" + g2).nnz(), 5 * n2 - 2 * nx - 2 * ny);
        const Index axis_pairs = (nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1);
        EXPECT_EQ(make("lap3d7" + g3).nnz(), n3 + 2 * axis_pairs);
        EXPECT_EQ(make("convdiff3d" + g3).nnz(), n3 + 2 * axis_pairs);
        // Full 3^d stencils: the count factorises by direction.
        EXPECT_EQ(make("lap3d27" + g3).nnz(), (3 * nx - 2) * (3 * ny - 2) * (3 * nz - 2));
        EXPECT_EQ(make("aniso2d" + g2).nnz(), (3 * nx - 2) * (3 * ny - 2));
        EXPECT_EQ(make("aniso2d" + g2).nnz(), 9 * n2 - 6 * (nx + ny) + 4);
        // elast3d: 3 entries per node, 3 per axis neighbour, 2 per in-plane diagonal one.
        const Index diag_pairs = 4 * ((nx - 1) * (ny - 1) * nz + (nx - 1) * ny * (nz - 1) + nx * (ny - 1) * (nz - 1));
        EXPECT_EQ(make("elast3d" + g3).nnz(), 3 * n3 + 3 * 2 * axis_pairs + 2 * diag_pairs);
      }
  for (const Index n : {1, 2, 3, 10}) {
    EXPECT_EQ(make("path:n=" + std::to_string(n)).nnz(), 3 * n - 2);
    EXPECT_EQ(make("empty:n=" + std::to_string(n)).nnz(), n);
  }
}

TEST(Stencils, AnisoNnzMatchesThePaperAt2500) {
  // Klein & Strzodka report nnz = 9N - 29996 for the 2500 x 2500 ANISO grids; the formula
  // checked above at small sizes gives exactly that (without generating 56M entries).
  const std::int64_t nx = 2500, ny = 2500, n = nx * ny;
  EXPECT_EQ((3 * nx - 2) * (3 * ny - 2), 9 * n - 29996);
  EXPECT_EQ(9 * n - 6 * (nx + ny) + 4, 9 * n - 29996);
}

TEST(Stencils, LaplacianValues) {
  const Csr a = make("lap2d5:nx=4,ny=3");
  const Index c = 1 + 4 * 1; // interior node (1, 1)
  EXPECT_EQ(at(a, c, c), 4.0);
  for (const Index nb : {c - 4, c - 1, c + 1, c + 4}) EXPECT_EQ(at(a, c, nb), -1.0);
  EXPECT_EQ(a.rowptr[c + 1] - a.rowptr[c], 5);
  EXPECT_EQ(a.rowptr[1] - a.rowptr[0], 3); // corner: 2 neighbours dropped

  const Csr b = make("lap3d7:n=3");
  EXPECT_EQ(at(b, 13, 13), 6.0);
  EXPECT_EQ(b.rowptr[14] - b.rowptr[13], 7);
  const Csr d = make("lap3d27:n=3");
  EXPECT_EQ(at(d, 13, 13), 26.0);
  EXPECT_EQ(d.rowptr[14] - d.rowptr[13], 27);
  double sum = 0;
  for (Index k = d.rowptr[13]; k < d.rowptr[14]; ++k) sum += d.values[k];
  EXPECT_EQ(sum, 0.0);
  const Csr p = make("path:n=4");
  EXPECT_EQ(at(p, 1, 0), -1.0);
  EXPECT_EQ(at(p, 1, 1), 2.0);
  EXPECT_EQ(make("empty:n=3").values, (std::vector<double>{1, 1, 1}));
}

TEST(Stencils, AnisoCoefficients) {
  // Node (1, 1) of a 3 x 3 grid is index 4; north (dy = +1) is +3, east (dx = +1) is +1.
  struct Case {
    int variant;
    double n, s, e, w, ne, nw, se, sw;
  };
  const Case cases[] = {
      {1, -.1, -.1, -1, -1, -.2, -.2, -.2, -.2},
      {2, -.2, -.2, -.2, -.2, -1, -.1, -.1, -1},
  }; // variant 3 (ANISO3) is variant 2 renumbered: Aniso3IsAniso2AlongItsStrongDiagonals
  for (const auto &c : cases) {
    SCOPED_TRACE(c.variant);
    const Csr a = make("aniso2d:n=3,variant=" + std::to_string(c.variant));
    EXPECT_EQ(at(a, 4, 4), 3.0);
    EXPECT_EQ(at(a, 4, 7), c.n);
    EXPECT_EQ(at(a, 4, 1), c.s);
    EXPECT_EQ(at(a, 4, 5), c.e);
    EXPECT_EQ(at(a, 4, 3), c.w);
    EXPECT_EQ(at(a, 4, 8), c.ne);
    EXPECT_EQ(at(a, 4, 6), c.nw);
    EXPECT_EQ(at(a, 4, 2), c.se);
    EXPECT_EQ(at(a, 4, 0), c.sw);
    EXPECT_EQ(max_row_length(a), 9);
  }
}

// The paper's ANISO3, spelled out: ANISO2 numbered along its strong diagonals x - y = d,
// d = -(ny - 1) .. nx - 1, x increasing along each.
std::vector<Index> diagonal_numbering(Index nx, Index ny) {
  std::vector<Index> perm; // perm[new] = old
  for (Index d = -(ny - 1); d <= nx - 1; ++d)
    for (Index x = 0; x < nx; ++x) {
      const Index y = x - d;
      if (y >= 0 && y < ny) perm.push_back(x + nx * y);
    }
  return perm;
}

TEST(Stencils, Aniso3IsAniso2AlongItsStrongDiagonals) {
  for (const auto &[nx, ny] :
       {std::pair<Index, Index>{1, 1}, {1, 6}, {6, 1}, {2, 2}, {3, 3}, {6, 5}, {5, 6}, {4, 9}, {9, 4}, {60, 60}}) {
    const std::string grid = "aniso2d:nx=" + std::to_string(nx) + ",ny=" + std::to_string(ny);
    SCOPED_TRACE(grid);
    const Csr a3 = make(grid + ",variant=3");
    const std::vector<Index> perm = diagonal_numbering(nx, ny);
    ASSERT_TRUE(is_permutation(perm, nx * ny));
    EXPECT_TRUE(same_csr(a3, permute_symmetric(make(grid + ",variant=2"), perm)));
    // The strong couplings now sit next to the main diagonal.
    for (Index i = 0; i < a3.nrows; ++i)
      for (Index k = a3.rowptr[i]; k < a3.rowptr[i + 1]; ++k)
        if (a3.values[k] == -1.0) EXPECT_EQ(std::abs(a3.colidx[k] - i), 1) << "row " << i;
  }
}

TEST(Stencils, AnisoAndLaplaciansArePositiveDefinite) {
  for (const char *spec :
       {"aniso2d:n=6,variant=1", "aniso2d:n=6,variant=2", "aniso2d:n=6,variant=3", "lap2d5:n=5", "lap3d27:n=3"}) {
    const Csr a = make(spec);
    for (std::uint64_t seed = 1; seed <= 3; ++seed)
      EXPECT_GT(quadratic_form(a, random_vector(a.nrows, seed)), 0.0) << spec;
  }
}

TEST(Elast3d, BlockValuesAndSymmetry) {
  const double lambda = 2, mu = 0.5, lm = lambda + mu;
  const Csr a = make("elast3d:n=3,lambda=2,mu=0.5");
  EXPECT_TRUE(exactly_symmetric(a));
  const Index center = 13; // node (1, 1, 1)
  for (Index c = 0; c < 3; ++c) {
    const Index row = 3 * center + c;
    EXPECT_EQ(at(a, row, row), 6 * mu + 2 * lm);
    EXPECT_EQ(a.rowptr[row + 1] - a.rowptr[row], 15);
    double sum = 0; // rigid translations are in the kernel of the interior stencil
    for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) sum += a.values[k];
    EXPECT_EQ(sum, 0.0);
  }
  // Axis neighbour +x (node 14): -(lambda + 2 mu) for u_x, -mu for u_y, u_z.
  EXPECT_EQ(at(a, 3 * center + 0, 3 * 14 + 0), -mu - lm);
  EXPECT_EQ(at(a, 3 * center + 1, 3 * 14 + 1), -mu);
  EXPECT_EQ(at(a, 3 * center + 0, 3 * 14 + 1), 0.0);
  // Diagonal neighbour (+1, +1, 0) is node 17: couples u_x with u_y, sign +1 -> -lm / 4.
  EXPECT_EQ(at(a, 3 * center + 0, 3 * 17 + 1), -lm / 4);
  EXPECT_EQ(at(a, 3 * center + 1, 3 * 17 + 0), -lm / 4);
  EXPECT_EQ(at(a, 3 * center + 2, 3 * 17 + 2), 0.0); // not stored
  // Diagonal neighbour (+1, -1, 0) is node 11: sign -1 -> +lm / 4.
  EXPECT_EQ(at(a, 3 * center + 0, 3 * 11 + 1), lm / 4);
  // Corner neighbours (+1, +1, +1) are not coupled.
  EXPECT_EQ(at(a, 3 * center + 0, 3 * 26 + 1), 0.0);
}

TEST(Elast3d, SymmetricPositiveDefinite) {
  for (const char *spec : {"elast3d:n=3", "elast3d:nx=4,ny=3,nz=2,lambda=10,mu=0.5", "elast3d:n=2,lambda=-0.5,mu=1"}) {
    SCOPED_TRACE(spec);
    const Csr a = make(spec);
    EXPECT_TRUE(exactly_symmetric(a));
    for (std::uint64_t seed = 1; seed <= 5; ++seed) EXPECT_GT(quadratic_form(a, random_vector(a.nrows, seed)), 0.0);
    // Smooth fields are the hard case for positivity: a constant displacement.
    EXPECT_GT(quadratic_form(a, std::vector<double>(static_cast<std::size_t>(a.nrows), 1.0)), 0.0);
  }
}

TEST(Convdiff, UpwindMMatrix) {
  for (const char *spec :
       {"convdiff2d:nx=6,ny=5", "convdiff3d:nx=3,ny=4,nz=5,peclet=500", "convdiff2d:n=5,peclet=-40"}) {
    SCOPED_TRACE(spec);
    const Csr a = make(spec);
    EXPECT_FALSE(exactly_symmetric(a));
    const Csr t = transpose(view_of(a));
    for (Index i = 0; i < a.nrows; ++i) {
      double diag = 0, off = 0, col_off = 0;
      for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
        if (a.colidx[k] == i) {
          diag = a.values[k];
        } else {
          EXPECT_LT(a.values[k], 0.0);
          off += -a.values[k];
        }
      }
      for (Index k = t.rowptr[i]; k < t.rowptr[i + 1]; ++k) col_off += t.colidx[k] == i ? 0.0 : -t.values[k];
      EXPECT_GE(diag, off * (1 - 1e-15));     // row diagonal dominance
      EXPECT_GE(diag, col_off * (1 - 1e-15)); // column diagonal dominance
    }
  }
  // Wind +x: the west (upstream) neighbour carries the convection, the east does not.
  const Csr a = make("convdiff2d:nx=9,ny=3,peclet=100");
  const double cx = 100.0 / 10, cy = 50.0 / 4;
  const Index c = 4 + 9 * 1;
  EXPECT_EQ(at(a, c, c - 1), -1 - cx);
  EXPECT_EQ(at(a, c, c + 1), -1.0);
  EXPECT_EQ(at(a, c, c - 9), -1 - cy);
  EXPECT_EQ(at(a, c, c + 9), -1.0);
  EXPECT_EQ(at(a, c, c), 4 + cx + cy);
  // Negative Peclet: the wind and the upstream side flip.
  const Csr b = make("convdiff2d:nx=9,ny=3,peclet=-100");
  EXPECT_EQ(at(b, c, c + 1), -1 - cx);
  EXPECT_EQ(at(b, c, c - 1), -1.0);
  // No wind: the 5-point Laplacian.
  EXPECT_TRUE(same_csr(make("convdiff2d:n=5,peclet=0"), make("lap2d5:n=5")));
  EXPECT_TRUE(same_csr(make("convdiff3d:n=3,peclet=0"), make("lap3d7:n=3")));
}

TEST(Stencils, Aniso3dCoefficients) {
  // Unit coefficients: 2*(1+1+1) = 6 on the diagonal, -1 off it: the 7-point Laplacian.
  EXPECT_TRUE(same_csr(make("aniso3d:n=4,ax=1,ay=1,az=1"), make("lap3d7:n=4")));
  const Csr a = make("aniso3d:nx=4,ny=3,nz=3,ax=1,ay=0.01,az=0.0001");
  const Index c = 1 + 4 * (1 + 3 * 1); // interior point (1,1,1)
  EXPECT_EQ(at(a, c, c), (1.0 + 1.0) + (0.01 + 0.01) + (0.0001 + 0.0001));
  EXPECT_EQ(at(a, c, c + 1), -1.0);
  EXPECT_EQ(at(a, c, c + 4), -0.01);
  EXPECT_EQ(at(a, c, c + 12), -0.0001);
  EXPECT_THROW(make("aniso3d:n=3,ay=0"), std::invalid_argument);
}

TEST(Stencils, Aniso2d5Coefficients) {
  // Unit coefficients: 2*(1+1) = 4 on the diagonal, -1 off it: the 5-point Laplacian.
  EXPECT_TRUE(same_csr(make("aniso2d5:n=5,ax=1,ay=1"), make("lap2d5:n=5")));
  const Csr a = make("aniso2d5:nx=4,ny=3"); // defaults ax = 0.001, ay = 1: strong along y
  const Index c = 1 + 4 * 1;                // interior point (1,1)
  EXPECT_EQ(at(a, c, c), (0.001 + 0.001) + (1.0 + 1.0));
  EXPECT_EQ(at(a, c, c + 1), -0.001);
  EXPECT_EQ(at(a, c, c - 1), -0.001);
  EXPECT_EQ(at(a, c, c + 4), -1.0);
  EXPECT_EQ(at(a, c, c - 4), -1.0);
  EXPECT_EQ(a.rowptr[c + 1] - a.rowptr[c], 5);
  EXPECT_THROW(make("aniso2d5:n=3,ax=0"), std::invalid_argument);
  EXPECT_THROW(make("aniso2d5:n=3,az=1"), std::invalid_argument); // a 2D kind has no az
}

// ---- random graphs ---------------------------------------------------------------------

// Degree (off-diagonal count) of each row.
std::vector<Index> degrees(const Csr &a) {
  std::vector<Index> d(static_cast<std::size_t>(a.nrows));
  for (Index i = 0; i < a.nrows; ++i) d[i] = a.rowptr[i + 1] - a.rowptr[i] - 1;
  return d;
}

double average(const std::vector<Index> &v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// Off-diagonals in [-1, -0.1], diagonal exactly 1 + sum |off-diagonal|.
void expect_spd_values(const Csr &a) {
  for (Index i = 0; i < a.nrows; ++i) {
    double diag = 0, sum = 0;
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      if (a.colidx[k] == i) {
        diag = a.values[k];
        continue;
      }
      EXPECT_LE(a.values[k], -0.1);
      EXPECT_GE(a.values[k], -1.0);
      sum -= a.values[k];
    }
    ASSERT_EQ(diag, 1.0 + sum) << "row " << i;
  }
}

TEST(RandomGraph, DegreeValuesAndSeeds) {
  const Csr a = make("random:n=2000,deg=8");
  EXPECT_TRUE(exactly_symmetric(a));
  expect_spd_values(a);
  const std::vector<Index> deg = degrees(a);
  EXPECT_GT(average(deg), 7.5);
  EXPECT_LE(average(deg), 8.0);
  // Every vertex drew 4 partners (repeats merge, so allow a little less).
  EXPECT_GE(*std::min_element(deg.begin(), deg.end()), 2);

  EXPECT_NEAR(average(degrees(make("random:n=2000,deg=5"))), 5.0, 0.3);
  EXPECT_EQ(make("random:n=50,deg=0").nnz(), 50);
  EXPECT_TRUE(same_csr(make("random:n=100,seed=3"), make("random:n=100,seed=3")));
  EXPECT_FALSE(same_csr(make("random:n=100,seed=3"), make("random:n=100,seed=4")));
  // deg larger than n - 1 is clipped, not an error.
  EXPECT_TRUE(well_formed(make("random:n=5,deg=100")));
}

// Connected components by union-find on the pattern.
Index component_count(const Csr &a) {
  std::vector<Index> parent(static_cast<std::size_t>(a.nrows));
  std::iota(parent.begin(), parent.end(), Index{0});
  auto find = [&](Index v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  Index count = a.nrows;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const Index r = find(i), s = find(a.colidx[k]);
      if (r != s) {
        parent[r] = s;
        --count;
      }
    }
  return count;
}

TEST(Disconnected, PartsAreSeparatedAndInterleaved) {
  const Spec spec = parse_spec("disconnected:n=403,parts=4,deg=6,seed=9");
  const Csr a = generate(spec);
  const std::vector<Index> part = planted_communities(spec);
  ASSERT_EQ(part.size(), 403u);
  std::vector<Index> size(4, 0);
  for (const Index p : part) {
    ASSERT_GE(p, 0);
    ASSERT_LT(p, 4);
    ++size[p];
  }
  EXPECT_EQ(size, (std::vector<Index>{101, 101, 101, 100}));
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
      ASSERT_EQ(part[i], part[a.colidx[k]]) << "edge across parts at row " << i;
  EXPECT_EQ(component_count(a), 4); // deg 6 on 100 vertices: each part connected
  expect_spd_values(a);
  // Interleaved: the first 20 indices are not all from one part.
  EXPECT_GT(std::set<Index>(part.begin(), part.begin() + 20).size(), 1u);
}

TEST(Disconnected, IsolatedVerticesAndMorePartsThanVertices) {
  const Csr a = make("disconnected:n=25,parts=25");
  EXPECT_EQ(a.nnz(), 25);
  EXPECT_EQ(component_count(a), 25);
  const Spec many = parse_spec("disconnected:n=5,parts=9");
  EXPECT_EQ(generate(many).nnz(), 5);
  const std::vector<Index> part = planted_communities(many);
  EXPECT_EQ(std::set<Index>(part.begin(), part.end()).size(), 5u);
  EXPECT_TRUE(planted_communities(parse_spec("disconnected:n=0")).empty());
}

TEST(Hubrow, HubRowIsDense) {
  const Csr a = make("hubrow:n=301,deg=4");
  const Index hub = 150;
  EXPECT_EQ(a.rowptr[hub + 1] - a.rowptr[hub], 301); // joined to every other vertex
  EXPECT_TRUE(exactly_symmetric(a));
  expect_spd_values(a);
  for (Index i = 0; i < a.nrows; ++i) EXPECT_NE(at(a, i, hub), 0.0);
  EXPECT_LT(average(degrees(a)), 4 + 2 + 0.5);

  const Csr b = make("hubrow:n=301,deg=0,hubdeg=37");
  EXPECT_EQ(b.rowptr[hub + 1] - b.rowptr[hub], 38);
  EXPECT_EQ(b.nnz(), 301 + 2 * 37);
  EXPECT_EQ(make("hubrow:n=2").nnz(), 4);
  EXPECT_EQ(make("hubrow:n=10,deg=0,hubdeg=0").nnz(), 10);
}

TEST(Powerlaw, DegreesCommunitiesAndMixing) {
  const Spec spec = parse_spec("powerlaw:n=5000,communities=16,avgdeg=10,gamma=2.5,mixing=0.1");
  const Csr a = generate(spec);
  EXPECT_TRUE(exactly_symmetric(a));
  expect_spd_values(a);
  const std::vector<Index> deg = degrees(a);
  const double avg = average(deg);
  EXPECT_GT(avg, 6.0);
  EXPECT_LE(avg, 10.0);
  // Heavy tail: the largest degree is far above the average, and many vertices are below it.
  EXPECT_GT(*std::max_element(deg.begin(), deg.end()), 8 * avg);
  const auto below = std::count_if(deg.begin(), deg.end(), [&](Index d) { return d < avg; });
  EXPECT_GT(below, 5000 / 2);

  const std::vector<Index> comm = planted_communities(spec);
  ASSERT_EQ(comm.size(), 5000u);
  std::vector<Index> size(16, 0);
  for (const Index c : comm) ++size[c];
  for (const Index s : size) EXPECT_TRUE(s == 312 || s == 313);
  Index intra = 0, total = 0;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
      if (a.colidx[k] != i) {
        ++total;
        intra += comm[i] == comm[a.colidx[k]] ? 1 : 0;
      }
  const double cross = 1.0 - static_cast<double>(intra) / static_cast<double>(total);
  EXPECT_GT(cross, 0.05);
  EXPECT_LT(cross, 0.2);
  // Scattered: the first 40 indices hold vertices of several communities.
  EXPECT_GT(std::set<Index>(comm.begin(), comm.begin() + 40).size(), 4u);
}

// The planted-community graph of rabbitpp's benchmark: community sizes 16 * 2^k (the last cut),
// a path inside each, about intra neighbours inside and inter outside, randomly relabelled.
TEST(Communities, SizesDegreesAndMixing) {
  const Spec spec = parse_spec("communities:n=30000,intra=8,inter=2,seed=5");
  const Csr a = generate(spec);
  EXPECT_TRUE(well_formed(a));
  EXPECT_TRUE(exactly_symmetric(a));
  expect_spd_values(a);
  const std::vector<Index> comm = planted_communities(spec);
  ASSERT_EQ(comm.size(), 30000u);
  std::map<Index, Index> size;
  for (const Index c : comm) ++size[c];
  Index cut = 0;
  for (const auto &[c, s] : size) {
    const bool power_of_two_times_16 = s >= 16 && s <= 4096 && s % 16 == 0 && ((s / 16) & (s / 16 - 1)) == 0;
    cut += power_of_two_times_16 ? 0 : 1;
  }
  EXPECT_LE(cut, 1); // only the last community may be cut to fit n
  Index intra = 0, inter = 0;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
      if (a.colidx[k] != i) (comm[i] == comm[a.colidx[k]] ? intra : inter) += 1;
  // Per vertex: about 8 + 2 (path) inside, about 2 outside (repeats merge, so a little less).
  EXPECT_GT(intra, 30000 * 9);
  EXPECT_LT(intra, 30000 * 10 + 1);
  EXPECT_GT(inter, 30000 * 19 / 10);
  EXPECT_LE(inter, 30000 * 2);
  // Relabelled: the first 40 indices hold vertices of several communities.
  EXPECT_GT(std::set<Index>(comm.begin(), comm.begin() + 40).size(), 2u);
  // Deterministic, and each rank's rows are a slice of the whole.
  const Csr again = generate(spec);
  EXPECT_EQ(pgk::test::fingerprint(a), pgk::test::fingerprint(again));
  const Csr tail = generate_rows(spec, 12345, 30000);
  EXPECT_TRUE(pgk::test::same_csr(tail, row_slice(a, 12345, 30000)));
  // inter = 0: no edge between communities.
  const Spec closed = parse_spec("communities:n=3000,inter=0");
  const Csr b = generate(closed);
  const std::vector<Index> cb = planted_communities(closed);
  for (Index i = 0; i < b.nrows; ++i)
    for (Index k = b.rowptr[i]; k < b.rowptr[i + 1]; ++k) ASSERT_EQ(cb[i], cb[b.colidx[k]]);
}

TEST(Powerlaw, NoMixingMeansNoCrossEdges) {
  const Spec spec = parse_spec("powerlaw:n=800,communities=5,mixing=0");
  const Csr a = generate(spec);
  const std::vector<Index> comm = planted_communities(spec);
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) ASSERT_EQ(comm[i], comm[a.colidx[k]]);
  // Full mixing: only cross edges.
  const Spec all = parse_spec("powerlaw:n=800,communities=5,mixing=1");
  const Csr b = generate(all);
  const std::vector<Index> cb = planted_communities(all);
  for (Index i = 0; i < b.nrows; ++i)
    for (Index k = b.rowptr[i]; k < b.rowptr[i + 1]; ++k)
      if (b.colidx[k] != i) {
        ASSERT_NE(cb[i], cb[b.colidx[k]]);
      }
  EXPECT_EQ(component_count(make("powerlaw:n=50,avgdeg=0")), 50);
}

TEST(Powerlaw, FixedPointWeightsFollowThePowerLaw) {
  using detail::powerlaw_weight;
  const std::uint64_t one = std::uint64_t{1} << 24;
  EXPECT_EQ(powerlaw_weight(0, one), std::uint64_t{1} << 30);
  EXPECT_EQ(powerlaw_weight(1, one), std::uint64_t{1} << 29);     // 2^-1
  EXPECT_EQ(powerlaw_weight(3, 2 * one), std::uint64_t{1} << 26); // 4^-2
  for (const double alpha : {0.4, 2.0 / 3.0, 1.0, 1.7, 5.0}) {
    const auto aq = static_cast<std::uint64_t>(alpha * one);
    const double exact_alpha = static_cast<double>(aq) / static_cast<double>(one);
    for (const std::uint64_t r : {1ull, 2ull, 6ull, 99ull, 1000ull, 123456ull, 4000000000ull}) {
      const double want = std::ldexp(std::pow(static_cast<double>(r + 1), -exact_alpha), 30);
      const double got = static_cast<double>(powerlaw_weight(r, aq));
      if (want < 1.0) {
        EXPECT_EQ(got, 1.0) << alpha << " " << r;
      } else {
        EXPECT_NEAR(got, want, 1e-5 * want + 1.0) << alpha << " " << r;
      }
    }
  }
  EXPECT_EQ(powerlaw_weight(std::numeric_limits<std::uint64_t>::max() - 1, 100 * one), 1u);
}

// ---- rgg2d -----------------------------------------------------------------------------

std::uint64_t squared_distance(const detail::Point2 &a, const detail::Point2 &b) {
  const std::int64_t dx = std::int64_t{a.x} - std::int64_t{b.x};
  const std::int64_t dy = std::int64_t{a.y} - std::int64_t{b.y};
  return static_cast<std::uint64_t>(dx * dx) + static_cast<std::uint64_t>(dy * dy);
}

TEST(Rgg2d, RadiusFormula) {
  using detail::rgg2d_radius2;
  const std::uint64_t all = std::uint64_t{1} << 61;
  EXPECT_EQ(rgg2d_radius2(0, 8), 0u);
  EXPECT_EQ(rgg2d_radius2(1000, 0), 0u);
  EXPECT_EQ(rgg2d_radius2(10, 1000), all); // saturated: the complete graph
  EXPECT_EQ(rgg2d_radius2(1, 7), all);
  // R^2 = deg 2^60 / (pi n); 355/113 is pi to 8.5e-8.
  for (const std::uint64_t n : {2ull, 7ull, 1000ull, 20000ull, 8000000ull, 1ull << 48})
    for (const std::uint64_t deg : {1ull, 3ull, 8ull, 50ull}) {
      const double want = std::ldexp(static_cast<double>(deg) / (3.14159265358979 * static_cast<double>(n)), 60);
      const auto got = static_cast<double>(rgg2d_radius2(n, deg));
      EXPECT_NEAR(got, std::min(want, std::ldexp(1.0, 61)), 2e-7 * want + 1.0) << n << " " << deg;
    }
  // Monotone in deg, and exact long division: 2^60 * 113 / 355 for deg == n.
  EXPECT_EQ(rgg2d_radius2(5, 5), ((std::uint64_t{1} << 60) / 355) * 113 + ((std::uint64_t{1} << 60) % 355) * 113 / 355);
  EXPECT_LT(rgg2d_radius2(100, 3), rgg2d_radius2(100, 4));
}

TEST(Rgg2d, EdgesAreExactlyThePairsWithinTheRadius) {
  for (const char *text : {"rgg2d:n=1500", "rgg2d:n=1200,deg=20,seed=7", "rgg2d:n=700,deg=1", "rgg2d:n=300,deg=0",
                           "rgg2d:n=40,deg=30", "rgg2d:n=30,deg=1000"}) {
    SCOPED_TRACE(text);
    const Spec spec = parse_spec(text);
    const detail::Params p = detail::resolve(spec);
    const std::vector<detail::Point2> pts = detail::rgg2d_points(p);
    const std::uint64_t r2 = detail::rgg2d_radius2(static_cast<std::uint64_t>(p.n), static_cast<std::uint64_t>(p.deg));
    const Csr a = generate(spec);
    ASSERT_TRUE(well_formed(a));
    ASSERT_EQ(pts.size(), static_cast<std::size_t>(a.nrows));
    for (const auto &q : pts) {
      ASSERT_LT(q.x, 1u << 30);
      ASSERT_LT(q.y, 1u << 30);
    }
    // Every stored off-diagonal is within the radius ...
    Index off = 0;
    for (Index i = 0; i < a.nrows; ++i)
      for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
        if (a.colidx[k] != i) {
          ++off;
          ASSERT_LE(squared_distance(pts[i], pts[a.colidx[k]]), r2) << i << " " << a.colidx[k];
        }
    // ... and every pair within the radius is stored (brute force over all pairs).
    Index within = 0;
    for (Index i = 0; i < a.nrows; ++i)
      for (Index j = 0; j < a.nrows; ++j) within += i != j && squared_distance(pts[i], pts[j]) <= r2 ? 1 : 0;
    EXPECT_EQ(off, within);
  }
  EXPECT_EQ(make("rgg2d:n=30,deg=1000").nnz(), 30 * 30);
  EXPECT_EQ(make("rgg2d:n=300,deg=0").nnz(), 300);
}

TEST(Rgg2d, SymmetricSpdDegreeAndRandomNumbering) {
  const Csr a = make("rgg2d:n=20000,deg=8");
  ASSERT_TRUE(well_formed(a)); // sorted, unique columns
  EXPECT_TRUE(has_full_diagonal(a));
  EXPECT_TRUE(exactly_symmetric(a)); // pattern and values
  expect_spd_values(a);
  EXPECT_NEAR(average(degrees(a)), 8.0, 0.25 * 8.0);
  EXPECT_NEAR(average(degrees(make("rgg2d:n=20000,deg=20,seed=2"))), 20.0, 0.25 * 20.0);
  EXPECT_NEAR(average(degrees(make("rgg2d:n=20000,deg=3,seed=5"))), 3.0, 0.25 * 3.0);
  // Geometry is local but the numbering is random: the bandwidth is of the order of n.
  EXPECT_GT(bandwidth(view_of(a)), 20000 / 2);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) EXPECT_GT(quadratic_form(a, random_vector(a.nrows, seed)), 0.0);
}

TEST(Rgg2d, DeterministicSeedsSplitsAndTinySizes) {
  EXPECT_TRUE(same_csr(make("rgg2d:n=3000,seed=3"), make("rgg2d:n=3000,seed=3")));
  EXPECT_FALSE(same_csr(make("rgg2d:n=3000,seed=3"), make("rgg2d:n=3000,seed=4")));
  EXPECT_TRUE(same_csr(make("rgg2d:n=3000"), make("rgg2d:n=3000,deg=8,seed=1"))); // defaults

  const Spec spec = parse_spec("rgg2d:n=3001,deg=6,seed=9");
  const Csr whole = generate(spec);
  for (const auto &[lo, hi] :
       std::vector<std::pair<Index, Index>>{{0, 3001}, {0, 1000}, {1000, 2999}, {2999, 3001}, {1500, 1500}}) {
    const Csr part = generate_rows(spec, lo, hi);
    EXPECT_TRUE(same_csr(part, row_slice(whole, lo, hi))) << lo << " " << hi;
  }

  const Csr zero = make("rgg2d:n=0");
  EXPECT_EQ(zero.nrows, 0);
  EXPECT_EQ(zero.rowptr, std::vector<Index>{0});
  EXPECT_EQ(make("rgg2d:n=1").values, std::vector<double>{1.0});
  EXPECT_EQ(make("rgg2d:n=1,deg=1000").values, std::vector<double>{1.0});
  EXPECT_EQ(make("rgg2d:n=2,deg=100").nnz(), 4);
}

TEST(Rgg2d, GoldenFingerprints) {
  // As AllKinds.GoldenFingerprints: pins the exact output across platforms and versions.
  EXPECT_EQ(test::fingerprint(make("rgg2d:n=500,seed=6")), 12808532537184563805ull);
  EXPECT_EQ(test::fingerprint(make("rgg2d:n=200,deg=12,seed=2")), 10889262590276124705ull);
}

TEST(PlantedCommunities, OnlyForKindsThatPlantThem) {
  EXPECT_THROW(planted_communities(parse_spec("lap3d7:n=3")), std::invalid_argument);
  EXPECT_THROW(planted_communities(parse_spec("random:n=3")), std::invalid_argument);
  const std::vector<Index> c = planted_communities(parse_spec("powerlaw:n=3,communities=7"));
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(std::set<Index>(c.begin(), c.end()).size(), 3u);
  EXPECT_EQ(planted_communities(parse_spec("powerlaw:n=1")), std::vector<Index>{0});
}

} // namespace
} // namespace pgk::gen
