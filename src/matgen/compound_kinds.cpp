// The compound-entry kinds: helmholtz2dc (complex entries, 2x2 real blocks) and quatsurf
// (quaternion entries, 4x4 real blocks), for Mat aijcompound's tests and benchmarks (issue 10).
// detail.hpp documents the stored form, the torus and its triangulation. Like the stencil kinds,
// every row is computed from its own index, so MPI ranks build only their rows.
//
// quatsurf's values follow the quaternionic Dirac operator of Crane, Pinkall & Schroeder (Spin
// transformations of discrete surfaces, 2011) in its vertex form: face f = (i, j, k) counterclockwise
// adds -e_i e_j / (4 A_f) to entry (i, j), e_i = p_k - p_j the edge opposite vertex i as an
// imaginary quaternion. Here every face is weighted by 4 A_f instead (the area would need square
// roots), so an entry is an integer polynomial of the integer vertex coordinates:
//   A_ij = sum over the faces with edge ij of -e_i e_j = (e_i . e_j, -(e_i x e_j))   (i != j)
// (the product of imaginary quaternions is a b = -a.b + a x b). Since conj(e_i e_j) = e_j e_i,
// A_ji = conj(A_ij): a quaternionic Hermitian matrix, whose real expansion is symmetric because
// L(conj q) = L(q)^T. Its real part is the cotan Laplacian times 2 A_f per face. The diagonal is
// the real number shift + sum_j |A_ij|_1 (|q|_1 = |w| + |x| + |y| + |z|) instead of Crane's: every
// row of L(q) is a signed permutation of q's components, so each scalar row of the expansion is
// strictly diagonally dominant by `shift`, hence SPD for shift > 0 (CG and GMRES converge).
// Integers throughout (resolve() bounds them below 2^53), then one exact power-of-two scaling:
// dyadic values, the same bits on every platform, no libm anywhere.
#include "src/matgen/detail.hpp"

#include "src/common/rng.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace pgk::gen::detail {

namespace {

// ---- helmholtz2dc ----------------------------------------------------------------------

// -0.0 -> +0.0 (see detail.hpp), everything else unchanged.
double plus_zero(double v) { return v == 0 ? 0.0 : v; }

// Neighbours of node (x, y) on an nx x ny grid in increasing index order: south, west, self, east,
// north (those inside). Returns their count.
int five_point(Index nx, Index ny, Index x, Index y, Index out[5]) {
  int n = 0;
  if (y > 0) out[n++] = x + nx * (y - 1);
  if (x > 0) out[n++] = x - 1 + nx * y;
  out[n++] = x + nx * y;
  if (x + 1 < nx) out[n++] = x + 1 + nx * y;
  if (y + 1 < ny) out[n++] = x + nx * (y + 1);
  return n;
}

// ---- quatsurf --------------------------------------------------------------------------

// Point t (0 <= t < 8 h) of the lattice perimeter of [-h, h]^2, counterclockwise from (h, 0).
void square_point(std::int64_t h, std::int64_t t, std::int64_t &a, std::int64_t &b) {
  if (t < h) a = h, b = t;
  else if (t < 3 * h) a = h - (t - h), b = h;
  else if (t < 5 * h) a = -h, b = h - (t - 3 * h);
  else if (t < 7 * h) a = -h + (t - 5 * h), b = -h;
  else a = h, b = -h + (t - 7 * h);
}

// Half-size of the square loop holding n points at least one lattice step apart: ceil(n / 8) >= 1.
std::int64_t loop_half(Index n) { return std::max<std::int64_t>(1, (std::int64_t{n} + 7) / 8); }

struct Torus {
  Index nu, nv;
  std::int64_t major, minor, radius, jitter; // M, m, R, J of detail.hpp
  std::uint64_t jitter_seed;

  explicit Torus(const Params &p)
      : nu(p.nx), nv(p.ny), major(loop_half(p.nx)), minor(loop_half(p.ny)), radius(2 * minor + 1),
        jitter(std::min(major, minor + 1)), jitter_seed(derive_seed(p.seed, kJitterStream)) {}

  Index id(Index u, Index v) const { return u + nu * v; }

  Point3 point(Index u, Index v) const {
    std::int64_t a = 0, b = 0, rho = 0, h = 0;
    square_point(major, 8 * major * u / nu, a, b);
    square_point(minor, 8 * minor * v / nv, rho, h);
    // Seeded per vertex, not drawn in sequence, so that any row range computes the same points.
    SplitMix64 rng(jitter_seed ^ (static_cast<std::uint64_t>(id(u, v)) * 0x9E3779B97F4A7C15ull));
    const std::int64_t jx = static_cast<std::int64_t>(rng.bounded(3)) - 1;
    const std::int64_t jy = static_cast<std::int64_t>(rng.bounded(3)) - 1;
    const std::int64_t jz = static_cast<std::int64_t>(rng.bounded(3)) - 1;
    return {4 * (radius + rho) * a + jitter * jx, 4 * (radius + rho) * b + jitter * jy, 4 * major * h + jitter * jz};
  }
};

struct QuatEntry {
  Index col;
  std::int64_t q[4]; // w, x, y, z
};

// Adds the contributions of triangle (ids, pts), counterclockwise, to row `self` (off-diagonal
// entries only): for every corner s at self and every corner t not at self, -e_s e_t. A corner
// counts once per slot, so the degenerate tori of nu or nv < 3 (repeated vertices) stay Hermitian.
void add_triangle(const Index ids[3], const Point3 pts[3], Index self, std::vector<QuatEntry> &row) {
  std::int64_t e[3][3];
  for (int s = 0; s < 3; ++s) { // e_s = p_{s+2} - p_{s+1}: the edge opposite corner s
    const Point3 &from = pts[(s + 1) % 3], &to = pts[(s + 2) % 3];
    e[s][0] = to.x - from.x, e[s][1] = to.y - from.y, e[s][2] = to.z - from.z;
  }
  for (int s = 0; s < 3; ++s) {
    if (ids[s] != self) continue;
    for (int t = 0; t < 3; ++t) {
      if (ids[t] == self) continue;
      const std::int64_t *a = e[s], *b = e[t];
      const std::int64_t q[4] = {a[0] * b[0] + a[1] * b[1] + a[2] * b[2], -(a[1] * b[2] - a[2] * b[1]),
                                 -(a[2] * b[0] - a[0] * b[2]), -(a[0] * b[1] - a[1] * b[0])};
      auto it = std::find_if(row.begin(), row.end(), [&](const QuatEntry &x) { return x.col == ids[t]; });
      if (it == row.end()) it = row.insert(row.end(), QuatEntry{ids[t], {0, 0, 0, 0}});
      for (int c = 0; c < 4; ++c) it->q[c] += q[c];
    }
  }
}

// Off-diagonal integer entries of block row (u, v), ascending columns: the triangles of the (up
// to four distinct) quads around the vertex.
void quatsurf_block_row(const Torus &t, Index u, Index v, std::vector<QuatEntry> &row) {
  row.clear();
  const Index self = t.id(u, v);
  const Index us[2] = {u, (u + t.nu - 1) % t.nu}, vs[2] = {v, (v + t.nv - 1) % t.nv};
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      if ((i == 1 && us[1] == us[0]) || (j == 1 && vs[1] == vs[0])) continue; // the same quad again
      const Index qu = us[i], qv = vs[j], qu1 = (qu + 1) % t.nu, qv1 = (qv + 1) % t.nv;
      const Index corner[4][2] = {{qu, qv}, {qu1, qv}, {qu1, qv1}, {qu, qv1}}; // a b c d
      static const int kSlash[2][3] = {{0, 1, 2}, {0, 2, 3}}, kBackslash[2][3] = {{0, 1, 3}, {1, 2, 3}};
      const int(*tri)[3] = quatsurf_slash(qu, qv) ? kSlash : kBackslash;
      for (int k = 0; k < 2; ++k) {
        Index ids[3];
        Point3 pts[3];
        for (int c = 0; c < 3; ++c) {
          const Index *uv = corner[tri[k][c]];
          ids[c] = t.id(uv[0], uv[1]);
          pts[c] = t.point(uv[0], uv[1]);
        }
        add_triangle(ids, pts, self, row);
      }
    }
  std::sort(row.begin(), row.end(), [](const QuatEntry &a, const QuatEntry &b) { return a.col < b.col; });
}

// Component and sign of row i, column j of L(q) (src/aijcompound/entry.hpp's table).
constexpr int kComp[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};
constexpr int kSign[4][4] = {{1, -1, -1, -1}, {1, 1, -1, 1}, {1, 1, 1, -1}, {1, -1, 1, 1}};

} // namespace

double helmholtz2dc_damping(const Params &p) { return std::fma(p.kh, p.kh, 0.0) * p.eps; }

Csr helmholtz2dc_rows(const Params &p, Index begin, Index end) {
  // Diagonal entry (4 - kh^2) - i kh^2 eps: its block [a -b; b a] with b = -damp.
  const double a = 4.0 - std::fma(p.kh, p.kh, 0.0);
  const double damp = plus_zero(helmholtz2dc_damping(p)), b = plus_zero(-damp);
  const Index nx = p.nx, ny = p.ny;
  return build_rows(2 * nx * ny, begin, end, 10, [&](Index row, auto &emit) {
    const Index node = row / 2, x = node % nx, y = node / nx;
    const bool imag_row = row % 2 != 0;
    Index cols[5];
    const int n = five_point(nx, ny, x, y, cols);
    for (int k = 0; k < n; ++k) {
      const Index c = 2 * cols[k];
      if (cols[k] == node) {
        emit(c, imag_row ? b : a);
        emit(c + 1, imag_row ? a : damp);
      } else { // -1 + 0i
        emit(c, imag_row ? 0.0 : -1.0);
        emit(c + 1, imag_row ? -1.0 : 0.0);
      }
    }
  });
}

Point3 quatsurf_point(const Params &p, Index u, Index v) { return Torus(p).point(u, v); }

std::int64_t quatsurf_coord_bound(Index nu, Index nv) { return (12 * loop_half(nv) + 5) * loop_half(nu); }

int quatsurf_scale_bits(const Params &p) {
  const Torus t(p);
  int bits = 0;
  for (std::int64_t v = 4 * std::max(t.major, t.radius); v > 0; v >>= 1) ++bits;
  return bits;
}

Csr quatsurf_rows(const Params &p, Index begin, Index end) {
  const Torus t(p);
  const double scale = std::ldexp(1.0, -2 * quatsurf_scale_bits(p)); // exact
  std::vector<QuatEntry> row;
  Index cached = -1; // block row held in `row`: consecutive scalar rows share it
  double diag = 0;
  return build_rows(4 * t.nu * t.nv, begin, end, 28, [&](Index r, auto &emit) {
    const Index block = r / 4;
    const int i = static_cast<int>(r % 4);
    if (block != cached) {
      quatsurf_block_row(t, block % t.nu, block / t.nu, row);
      std::int64_t norm1 = 0;
      for (const QuatEntry &e : row)
        for (const std::int64_t c : e.q) norm1 += std::llabs(c);
      diag = p.shift + static_cast<double>(norm1) * scale; // the product is exact: fused or not, one rounding
      cached = block;
    }
    auto emit_diagonal = [&] {
      for (int j = 0; j < 4; ++j) emit(4 * block + j, j == i ? diag : 0.0);
    };
    bool diagonal_done = false;
    for (const QuatEntry &e : row) {
      if (!diagonal_done && e.col > block) emit_diagonal(), diagonal_done = true;
      for (int j = 0; j < 4; ++j) // integer negation: a zero component stays +0.0
        emit(4 * e.col + j, static_cast<double>(kSign[i][j] * e.q[kComp[i][j]]) * scale);
    }
    if (!diagonal_done) emit_diagonal();
  });
}

} // namespace pgk::gen::detail
