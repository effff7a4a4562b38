// The compound-entry kinds of issue 10: quatsurf (quaternion entries on a triangulated torus) and
// helmholtz2dc (complex Helmholtz). The generic checks (well formed, row slices, determinism,
// symmetry flag, tiny sizes) cover them through all_specs() in generators.cpp; here: the torus and
// its triangulation, the values against an independent face-by-face assembly, the compound forms
// as Mat aijcompound's serial reference reads them, and the benchmark sizes.
#include "src/matgen/generators.hpp"

#include "src/aijcompound/compound.hpp"
#include "src/common/csr_build.hpp"
#include "src/matgen/detail.hpp"
#include "tests/support/host.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pgk::gen {
namespace {

using test::same_csr;
using test::well_formed;
using Quat = std::array<std::int64_t, 4>; // w, x, y, z

Csr make(const std::string &spec) { return generate(parse_spec(spec)); }

std::string torus(Index nu, Index nv, const std::string &extra = "") {
  return "quatsurf:nu=" + std::to_string(nu) + ",nv=" + std::to_string(nv) + extra;
}

// Hamilton product, written out from i^2 = j^2 = k^2 = ijk = -1 (not from the dot/cross form
// the generator uses).
Quat hamilton(const Quat &a, const Quat &b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}

// The triangles of the torus, counterclockwise in (u, v), from the rule documented in detail.hpp
// (odd rows cut along a-c; even rows along a-c where u mod 4 is 0 or 1, else b-d), as vertex ids.
std::vector<std::array<Index, 3>> triangles(Index nu, Index nv) {
  std::vector<std::array<Index, 3>> out;
  for (Index v = 0; v < nv; ++v)
    for (Index u = 0; u < nu; ++u) {
      const Index a = u + nu * v, b = (u + 1) % nu + nu * v, c = (u + 1) % nu + nu * ((v + 1) % nv),
                  d = u + nu * ((v + 1) % nv);
      if (v % 2 == 1 || u % 4 < 2) out.push_back({a, b, c}), out.push_back({a, c, d});
      else out.push_back({a, b, d}), out.push_back({b, c, d});
    }
  return out;
}

struct Torus {
  detail::Params p;
  std::vector<detail::Point3> points; // by vertex id
  explicit Torus(const std::string &spec) : p(detail::resolve(parse_spec(spec))) {
    for (Index v = 0; v < p.ny; ++v)
      for (Index u = 0; u < p.nx; ++u) points.push_back(detail::quatsurf_point(p, u, v));
  }
  Quat edge(Index from, Index to) const {
    const auto &a = points[from], &b = points[to];
    return {0, b.x - a.x, b.y - a.y, b.z - a.z};
  }
};

// The integer off-diagonal operator sum_f -e_s e_t over ordered corner pairs of different
// vertices, assembled face by face over the whole torus.
std::map<std::pair<Index, Index>, Quat> assemble_faces(const Torus &t) {
  std::map<std::pair<Index, Index>, Quat> a;
  for (const auto &f : triangles(t.p.nx, t.p.ny)) {
    Quat e[3];
    for (int s = 0; s < 3; ++s) e[s] = t.edge(f[(s + 1) % 3], f[(s + 2) % 3]);
    for (int s = 0; s < 3; ++s)
      for (int r = 0; r < 3; ++r) {
        if (f[s] == f[r]) continue;
        const Quat q = hamilton(e[s], e[r]);
        Quat &dst = a.try_emplace({f[s], f[r]}, Quat{0, 0, 0, 0}).first->second;
        for (int c = 0; c < 4; ++c) dst[c] -= q[c];
      }
  }
  return a;
}

// The nnz of the whole matrix, generated a slice at a time (a few hundred MB at once otherwise).
std::int64_t nnz_in_chunks(const Spec &s) {
  const Index n = describe(s).nrows, chunk = 1 << 18;
  std::int64_t nnz = 0;
  for (Index lo = 0; lo < n; lo += chunk) nnz += generate_rows(s, lo, std::min(n, lo + chunk)).nnz();
  return nnz;
}

aijcompound::CompoundCsr quaternions(const Csr &a) {
  return aijcompound::from_scalar(view_of(a), aijcompound::EntryKind::quaternion, 4);
}

// ---- quatsurf --------------------------------------------------------------------------

TEST(Quatsurf, EqualsTheFaceByFaceAssembly) {
  // Regular tori and the degenerate ones (nu or nv < 3: repeated vertices, merged edges).
  for (const std::string &spec : {torus(3, 3), torus(8, 5), torus(4, 7, ",shift=0.375,seed=9"), torus(1, 1),
                                  torus(2, 2), torus(1, 5), torus(2, 3), torus(6, 2, ",shift=0")}) {
    SCOPED_TRACE(spec);
    const Torus t(spec);
    const auto ref = assemble_faces(t);
    const double scale = std::ldexp(1.0, -2 * detail::quatsurf_scale_bits(t.p));
    const aijcompound::CompoundCsr c = quaternions(make(spec));
    ASSERT_EQ(c.nbrows, t.p.nx * t.p.ny);
    std::vector<std::int64_t> norm1(static_cast<std::size_t>(c.nbrows), 0);
    std::size_t offdiagonal = 0;
    for (Index i = 0; i < c.nbrows; ++i)
      for (Index e = c.rowptr[i]; e < c.rowptr[i + 1]; ++e) {
        const Index j = c.colidx[e];
        if (j == i) continue;
        ++offdiagonal;
        const auto it = ref.find({i, j});
        ASSERT_NE(it, ref.end()) << i << "," << j;
        for (int k = 0; k < 4; ++k) {
          EXPECT_EQ(c.entry(e)[k], static_cast<double>(it->second[k]) * scale) << i << "," << j << " " << k;
          norm1[i] += std::llabs(it->second[k]);
        }
      }
    EXPECT_EQ(offdiagonal, ref.size());    // no coupling missing
    for (Index i = 0; i < c.nbrows; ++i) { // the diagonal: shift + sum |A_ij|_1, real
      Index e = c.rowptr[i];
      while (c.colidx[e] != i) ++e;
      EXPECT_EQ(c.entry(e)[0], t.p.shift + static_cast<double>(norm1[i]) * scale);
      for (int k = 1; k < 4; ++k) EXPECT_EQ(c.entry(e)[k], 0.0);
    }
  }
}

TEST(Quatsurf, ValenceFiveToSevenWithMeanSix) {
  for (const auto &[nu, nv] : {std::pair<Index, Index>{3, 3}, {4, 4}, {5, 3}, {7, 9}, {16, 10}, {33, 21}}) {
    SCOPED_TRACE(torus(nu, nv));
    const Csr a = make(torus(nu, nv));
    // Neighbours from the face list, and from the generated block pattern (16 scalars a block).
    std::vector<std::set<Index>> nb(static_cast<std::size_t>(nu * nv));
    for (const auto &f : triangles(nu, nv))
      for (int s = 0; s < 3; ++s) nb[f[s]].insert(f[(s + 1) % 3]), nb[f[(s + 1) % 3]].insert(f[s]);
    Index lo = 100, hi = 0, sum = 0;
    for (Index i = 0; i < nu * nv; ++i) {
      const Index blocks = (a.rowptr[4 * i + 1] - a.rowptr[4 * i]) / 4, valence = blocks - 1;
      EXPECT_EQ(valence, static_cast<Index>(nb[i].size())) << i;
      lo = std::min(lo, valence), hi = std::max(hi, valence), sum += valence;
    }
    EXPECT_EQ(lo, 5);
    EXPECT_EQ(hi, 7);
    EXPECT_EQ(sum, 6 * nu * nv); // Euler: E = 3V on a torus
    EXPECT_EQ(a.nnz(), 16 * 7 * nu * nv);
  }
}

TEST(Quatsurf, HermitianQuaternionFormAsAijcompoundReadsIt) {
  for (const std::string &spec : {torus(6, 5), torus(3, 8, ",seed=3"), torus(2, 2), torus(1, 4)}) {
    SCOPED_TRACE(spec);
    const Csr a = make(spec);
    EXPECT_TRUE(aijcompound::detect_quaternion(view_of(a)));
    EXPECT_TRUE(same_csr(transpose(view_of(a)), a)); // bitwise: zeros are all +0.0
    // Expanding the quaternions again gives the generated matrix (== on values: the expansion
    // writes -0.0 for a negated zero component, the generator +0.0).
    const aijcompound::CompoundCsr c = quaternions(a);
    const Csr back = aijcompound::expand(c);
    ASSERT_EQ(back.rowptr, a.rowptr);
    ASSERT_EQ(back.colidx, a.colidx);
    for (std::size_t k = 0; k < a.values.size(); ++k) ASSERT_EQ(back.values[k], a.values[k]) << k;
    for (const double v : a.values) EXPECT_FALSE(std::signbit(v) && v == 0) << "a -0.0 is stored";
    // A_ji = conj(A_ij), block by block.
    for (Index i = 0; i < c.nbrows; ++i)
      for (Index e = c.rowptr[i]; e < c.rowptr[i + 1]; ++e) {
        const Index j = c.colidx[e];
        Index f = c.rowptr[j];
        while (c.colidx[f] != i) ++f;
        EXPECT_EQ(c.entry(f)[0], c.entry(e)[0]);
        for (int k = 1; k < 4; ++k) EXPECT_EQ(c.entry(f)[k], -c.entry(e)[k]);
      }
  }
}

TEST(Quatsurf, EntriesAreGeneralQuaternions) {
  // The jitter gives (almost) every off-diagonal entry an imaginary part: not a real matrix in
  // disguise, and not a complex one either.
  const Csr a = make(torus(12, 10));
  EXPECT_FALSE(aijcompound::detect_complex(view_of(a)));
  const aijcompound::CompoundCsr c = quaternions(a);
  Index offdiagonal = 0, imaginary = 0;
  for (Index i = 0; i < c.nbrows; ++i)
    for (Index e = c.rowptr[i]; e < c.rowptr[i + 1]; ++e) {
      if (c.colidx[e] == i) continue;
      ++offdiagonal;
      imaginary += c.entry(e)[1] != 0 || c.entry(e)[2] != 0 || c.entry(e)[3] != 0;
    }
  EXPECT_GT(imaginary, offdiagonal * 9 / 10);
  // Another seed: another jitter, the same pattern.
  const Csr b = make(torus(12, 10, ",seed=2"));
  EXPECT_EQ(b.colidx, a.colidx);
  EXPECT_NE(b.values, a.values);
}

TEST(Quatsurf, StrictlyDiagonallyDominantByShiftHenceSpd) {
  for (const std::string &spec : {torus(5, 4), torus(9, 6, ",shift=0.125"), torus(2, 2, ",shift=3")}) {
    SCOPED_TRACE(spec);
    const Csr a = make(spec);
    const double shift = detail::resolve(parse_spec(spec)).shift;
    for (Index i = 0; i < a.nrows; ++i) {
      double diag = 0, off = 0; // exact: dyadic values far from 2^53
      for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) (a.colidx[k] == i ? diag : off) += std::fabs(a.values[k]);
      EXPECT_EQ(diag - off, shift) << "row " << i;
    }
  }
  // Values are integers times 2^-2s, far below 2^53 of them.
  const Torus t(torus(40, 30));
  const double unit = std::ldexp(1.0, 2 * detail::quatsurf_scale_bits(t.p));
  for (const double v : make(torus(40, 30)).values) {
    const double k = v * unit;
    EXPECT_EQ(k, std::floor(k));
    EXPECT_LT(std::fabs(k), std::ldexp(1.0, 40));
  }
}

TEST(Quatsurf, AnEmbeddedOutwardOrientedClosedTorus) {
  for (const auto &[nu, nv] : {std::pair<Index, Index>{3, 3}, {8, 8}, {13, 5}, {4, 20}, {30, 30}}) {
    SCOPED_TRACE(torus(nu, nv));
    const Torus t(torus(nu, nv));
    const std::int64_t big = std::max<std::int64_t>(1, (nu + 7) / 8), small = std::max<std::int64_t>(1, (nv + 7) / 8);
    const std::int64_t jitter = std::min(big, small + 1);
    std::set<std::array<std::int64_t, 3>> distinct;
    for (const auto &p : t.points) {
      distinct.insert({p.x, p.y, p.z});
      EXPECT_LE(std::max({std::llabs(p.x), std::llabs(p.y), std::llabs(p.z)}), detail::quatsurf_coord_bound(nu, nv));
    }
    EXPECT_EQ(distinct.size(), t.points.size());
    // Sum of the area vectors 0 (closed), signed volume > 0 (normals outward), edges apart.
    std::int64_t area[3] = {0, 0, 0}, volume6 = 0;
    for (const auto &f : triangles(nu, nv)) {
      const Quat e1 = t.edge(f[0], f[1]), e2 = t.edge(f[0], f[2]), e3 = t.edge(f[1], f[2]);
      const Quat n = hamilton(e1, e2); // imaginary part: e1 x e2
      const auto &p = t.points[f[0]];
      for (int c = 0; c < 3; ++c) area[c] += n[c + 1];
      volume6 += p.x * n[1] + p.y * n[2] + p.z * n[3];
      for (const Quat &e : {e1, e2, e3}) EXPECT_GE(4 * (e[1] * e[1] + e[2] * e[2] + e[3] * e[3]), jitter * jitter);
    }
    EXPECT_EQ(area[0], 0);
    EXPECT_EQ(area[1], 0);
    EXPECT_EQ(area[2], 0);
    EXPECT_GT(volume6, 0);
  }
}

TEST(Quatsurf, BenchmarkSizeAndParameters) {
  // n = 425: 180625 vertices, 7 blocks of 16 scalars a block row: 20.2M scalar nonzeros.
  const Spec s = parse_spec("quatsurf:n=425");
  const Shape shape = describe(s);
  EXPECT_EQ(shape.nrows, 4 * 425 * 425);
  EXPECT_EQ(shape.block_size, 4);
  EXPECT_TRUE(shape.symmetric);
  EXPECT_EQ(nnz_in_chunks(s), std::int64_t{16} * 7 * 425 * 425);
  // A slice that cuts block rows at both ends is the middle of an aligned one.
  const Csr aligned = generate_rows(s, 361000, 361012), cut = generate_rows(s, 361001, 361011);
  EXPECT_TRUE(same_csr(cut, row_slice(aligned, 1, 11)));
  EXPECT_EQ(describe(parse_spec("quatsurf:nu=5,n=3")).nrows, 4 * 5 * 3); // n sets nv only
  auto rejected = [](const std::string &spec, const std::string &needle) {
    try {
      parse_spec(spec);
      ADD_FAILURE() << "accepted " << spec;
    } catch (const std::invalid_argument &e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  rejected("quatsurf:nu=4", "missing parameter 'nv'");
  rejected("quatsurf:nx=4,ny=4", "unknown parameter 'nx'");
  rejected("quatsurf:n=4,shift=x", "'shift' must be a finite number");
  rejected("quatsurf:nu=4194304,nv=3", "too large for the exact integer geometry");
}

// ---- helmholtz2dc ----------------------------------------------------------------------

TEST(Helmholtz2dc, ComplexBlocksOfTheDampedHelmholtzOperator) {
  // Default kh = 1/8, eps = 1/2: diagonal 4 - 1/64 - i/128, exactly.
  const Csr a = make("helmholtz2dc:nx=5,ny=4");
  ASSERT_TRUE(aijcompound::detect_complex(view_of(a)));
  const auto c = aijcompound::from_scalar(view_of(a), aijcompound::EntryKind::complex, 2);
  const Csr real = make("helmholtz2d:nx=5,ny=4,kh=0.125"); // the real part, entry for entry
  ASSERT_EQ(c.rowptr, real.rowptr);
  ASSERT_EQ(c.colidx, real.colidx);
  for (Index i = 0; i < c.nbrows; ++i)
    for (Index e = c.rowptr[i]; e < c.rowptr[i + 1]; ++e) {
      EXPECT_EQ(c.entry(e)[0], real.values[e]);
      EXPECT_EQ(c.entry(e)[1], c.colidx[e] == i ? -1.0 / 128 : 0.0);
    }
  EXPECT_EQ(a.values[0], 4 - 1.0 / 64);
  EXPECT_EQ(a.nnz(), 4 * (5 * 5 * 4 - 2 * 5 - 2 * 4));
  // A non-dyadic kh: the real part still equals helmholtz2d's bit for bit (kh^2 rounded alike).
  const Csr b = make("helmholtz2dc:n=6,kh=0.3,eps=0.7");
  const auto cb = aijcompound::from_scalar(view_of(b), aijcompound::EntryKind::complex, 2);
  const Csr rb = make("helmholtz2d:n=6,kh=0.3");
  for (Index e = 0; e < cb.nnzb(); ++e) EXPECT_EQ(cb.entry(e)[0], rb.values[e]);
  EXPECT_EQ(cb.entry(0)[1], -(std::fma(0.3, 0.3, 0.0) * 0.7));
}

TEST(Helmholtz2dc, ComplexSymmetricRealFormSymmetricOnlyUndamped) {
  for (const char *spec : {"helmholtz2dc:n=6", "helmholtz2dc:nx=7,ny=3,kh=0.5,eps=-0.25"}) {
    SCOPED_TRACE(spec);
    const Csr a = make(spec);
    EXPECT_FALSE(same_csr(transpose(view_of(a)), a));
    EXPECT_FALSE(describe(parse_spec(spec)).symmetric);
    EXPECT_FALSE(aijcompound::detect_quaternion(view_of(a)));
    const auto c = aijcompound::from_scalar(view_of(a), aijcompound::EntryKind::complex, 2);
    for (Index i = 0; i < c.nbrows; ++i) // A^T = A over the complex numbers
      for (Index e = c.rowptr[i]; e < c.rowptr[i + 1]; ++e) {
        Index f = c.rowptr[c.colidx[e]];
        while (c.colidx[f] != i) ++f;
        EXPECT_EQ(c.entry(f)[0], c.entry(e)[0]);
        EXPECT_EQ(c.entry(f)[1], c.entry(e)[1]);
      }
    for (const double v : a.values) EXPECT_FALSE(std::signbit(v) && v == 0) << "a -0.0 is stored";
  }
  const Csr undamped = make("helmholtz2dc:n=5,eps=0");
  EXPECT_TRUE(same_csr(transpose(view_of(undamped)), undamped));
  EXPECT_TRUE(aijcompound::detect_complex(view_of(undamped)));
}

TEST(Helmholtz2dc, BenchmarkSizeAndUnalignedSlices) {
  // n = 1024: 2^20 grid points, 2^21 rows, 4 (5 n^2 - 4 n) = 20.9M scalar nonzeros.
  const Spec s = parse_spec("helmholtz2dc:n=1024");
  EXPECT_EQ(describe(s).nrows, 2 * 1024 * 1024);
  EXPECT_EQ(describe(s).block_size, 2);
  EXPECT_EQ(nnz_in_chunks(s), std::int64_t{4} * (5 * 1024 * 1024 - 4 * 1024));
  const Csr mid = generate_rows(s, 1000001, 1000011); // odd start: cuts a block row
  EXPECT_EQ(mid.nnz(), 10 * 10);
  // Any split, aligned or not, concatenates to the whole matrix.
  const Spec small = parse_spec("helmholtz2dc:nx=4,ny=3");
  const Csr whole = generate(small);
  Csr joined = generate_rows(small, 0, 7);
  for (const auto &[lo, hi] : {std::pair<Index, Index>{7, 8}, {8, 13}, {13, 24}}) {
    const Csr part = generate_rows(small, lo, hi);
    ASSERT_TRUE(well_formed(part));
    for (Index i = 0; i < part.nrows; ++i) joined.rowptr.push_back(joined.nnz() + part.rowptr[i + 1] - part.rowptr[i]);
    joined.nrows += part.nrows;
    joined.colidx.insert(joined.colidx.end(), part.colidx.begin(), part.colidx.end());
    joined.values.insert(joined.values.end(), part.values.begin(), part.values.end());
  }
  EXPECT_TRUE(same_csr(joined, whole));
}

TEST(CompoundKinds, GoldenFingerprints) {
  // Pins the exact output (see AllKinds.GoldenFingerprints in generators.cpp).
  EXPECT_EQ(test::fingerprint(make("quatsurf:nu=9,nv=7,shift=0.5,seed=4")), 11202683882035391008ull);
  EXPECT_EQ(test::fingerprint(make("quatsurf:n=2")), 12595242497341499442ull);
  EXPECT_EQ(test::fingerprint(make("helmholtz2dc:nx=8,ny=6,kh=0.3,eps=0.75")), 7201660398299300320ull);
}

} // namespace
} // namespace pgk::gen
