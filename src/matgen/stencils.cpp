// Grid kinds: each row is computed from its own index, so MPI ranks build only their rows.
// Neighbours are visited dz, dy, dx = -1, 0, 1 (outer to inner); with x fastest in the
// numbering that is increasing column order, so rows come out sorted without a sort (except
// ANISO3, numbered along diagonals, which sorts its nine entries).
#include "src/matgen/detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace pgk::gen::detail {

namespace {

struct Grid {
  Index nx, ny, nz;

  Index index(Index x, Index y, Index z) const { return x + nx * (y + ny * z); }
  bool inside(Index x, Index y, Index z) const { return x >= 0 && x < nx && y >= 0 && y < ny && z >= 0 && z < nz; }
};

// Scalar stencils on at most 3x3x3 points: weight(dx, dy, dz, &w) says whether the
// neighbour at that offset is coupled and with which value. Neighbours outside the grid
// are dropped: Dirichlet boundary for the PDE kinds, "truncated" for aniso2d.
template <class Weight>
Csr point_stencil_rows(const Grid &g, Index begin, Index end, std::size_t per_row, Weight weight) {
  const Index n = g.nx * g.ny * g.nz;
  return build_rows(n, begin, end, per_row, [&](Index row, auto &emit) {
    const Index x = row % g.nx, y = (row / g.nx) % g.ny, z = row / (g.nx * g.ny);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          double w = 0;
          if (g.inside(x + dx, y + dy, z + dz) && weight(dx, dy, dz, &w)) emit(g.index(x + dx, y + dy, z + dz), w);
        }
  });
}

// Klein & Strzodka's ANISO1 and ANISO2 stencils, rows north (dy = +1) to south, columns west
// to east. ANISO3 is ANISO2 in another numbering (aniso3_rows).
double aniso_weight(int variant, int dx, int dy) {
  static const double kAniso[2][3][3] = {
      {{-.2, -.1, -.2}, {-1, 3, -1}, {-.2, -.1, -.2}},
      {{-.1, -.2, -1}, {-.2, 3, -.2}, {-1, -.2, -.1}},
  };
  return kAniso[variant - 1][1 - dy][1 + dx];
}

// The numbering of an nx x ny grid along its diagonals x - y = const: diagonal
// k = x - y + ny - 1 (0 .. nx + ny - 2, from the corner (0, ny - 1) to (nx - 1, 0)) after
// diagonal k - 1, x increasing along each. Both directions in O(1) and O(log(nx + ny)) integer
// operations, so every row is computed from its own index like the other grid kinds.
class DiagonalNumbering {
public:
  DiagonalNumbering(Index nx, Index ny)
      : nx_(nx), ny_(ny), short_(std::min(nx, ny)), long_(std::max(nx, ny)), diagonals_(std::int64_t{nx} + ny - 1) {}

  Index index(Index x, Index y) const {
    const std::int64_t k = std::int64_t{x} - y + ny_ - 1;
    return static_cast<Index>(before(k) + x - first_x(k));
  }

  // The point numbered `row` (0 <= row < nx ny).
  void point(Index row, Index &x, Index &y) const {
    std::int64_t lo = 0, hi = diagonals_ - 1; // the last diagonal k with before(k) <= row
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo + 1) / 2;
      if (before(mid) <= row) lo = mid;
      else hi = mid - 1;
    }
    x = static_cast<Index>(first_x(lo) + (row - before(lo)));
    y = static_cast<Index>(x - (lo - (ny_ - 1)));
  }

private:
  std::int64_t first_x(std::int64_t k) const { return std::max<std::int64_t>(0, k - (ny_ - 1)); }

  // Points on diagonals 0 .. m - 1 while no diagonal is cut by the far side: their lengths
  // are 1, 2, ..., short_, short_, ...
  std::int64_t rising(std::int64_t m) const {
    const std::int64_t a = short_;
    return m <= a ? m * (m + 1) / 2 : a * (a + 1) / 2 + (m - a) * a;
  }

  // Points on diagonals 0 .. k - 1. The diagonal lengths are symmetric (k and
  // diagonals_ - 1 - k have the same), so past the long side count from the other corner.
  std::int64_t before(std::int64_t k) const {
    return k <= long_ ? rising(k) : std::int64_t{nx_} * ny_ - rising(diagonals_ - k);
  }

  std::int64_t nx_, ny_, short_, long_, diagonals_;
};

// The paper's ANISO3: the ANISO2 stencil (strong -1 couplings between (x, y) and
// (x +- 1, y +- 1)) numbered along those strong diagonals, so that they sit next to the main
// diagonal of the matrix. Row r is the point numbered r; its columns are its neighbours'
// numbers, sorted.
Csr aniso3_rows(const Params &p, Index begin, Index end) {
  const Grid g{p.nx, p.ny, 1};
  const DiagonalNumbering number(p.nx, p.ny);
  return build_rows(p.nx * p.ny, begin, end, 9, [&](Index row, auto &emit) {
    Index x = 0, y = 0;
    number.point(row, x, y);
    std::pair<Index, double> entries[9];
    int count = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (g.inside(x + dx, y + dy, 0)) entries[count++] = {number.index(x + dx, y + dy), aniso_weight(2, dx, dy)};
      }
    for (int i = 1; i < count; ++i) // insertion sort by column (distinct): nine entries at most
      for (int j = i; j > 0 && entries[j].first < entries[j - 1].first; --j) std::swap(entries[j], entries[j - 1]);
    for (int i = 0; i < count; ++i) emit(entries[i].first, entries[i].second);
  });
}

Csr convdiff_rows(const Params &p, int dims, Index begin, Index end) {
  // Unit-square/cube domain with Dirichlet boundary and h_d = 1 / (n_d + 1); the operator is
  // scaled by h^2 in each direction, so diffusion is 2*dims / -1 as in lap2d5/lap3d7 and
  // the convection coefficient along d is the cell Peclet number c_d = peclet * w_d * h_d.
  // First-order upwind puts c_d on the diagonal and on the upstream neighbour, which keeps
  // every off-diagonal <= 0 and every row and column sum >= 0: an M-matrix.
  const double wind[3] = {1.0, 0.5, 0.25};
  const Index sizes[3] = {p.nx, p.ny, p.nz};
  double c[3] = {0, 0, 0};
  double diag = 2.0 * dims;
  for (int d = 0; d < dims; ++d) {
    c[d] = p.peclet * wind[d] / static_cast<double>(sizes[d] + 1);
    diag += std::fabs(c[d]);
  }
  const Grid g{p.nx, p.ny, p.nz};
  return point_stencil_rows(g, begin, end, 2 * dims + 1, [&](int dx, int dy, int dz, double *w) {
    const int off[3] = {dx, dy, dz};
    int axis = -1, nonzero = 0;
    for (int d = 0; d < 3; ++d) {
      if (off[d] != 0) {
        axis = d;
        ++nonzero;
      }
    }
    if (nonzero == 0) {
      *w = diag;
      return true;
    }
    if (nonzero != 1) return false;
    // Upstream neighbour: the one the wind blows from.
    const bool upstream = (c[axis] > 0 && off[axis] < 0) || (c[axis] < 0 && off[axis] > 0);
    *w = upstream ? -1.0 - std::fabs(c[axis]) : -1.0;
    return true;
  });
}

// Navier-Cauchy operator -mu Lap u - (lambda + mu) grad div u by central differences
// (h = 1), unknowns interleaved: row 3 * node + component. The 3x3 coupling blocks are
//   node itself:           (6 mu + 2 (lambda + mu)) I
//   neighbour +-e_d:       -mu I - (lambda + mu) e_d e_d^T
//   neighbour s e_d + t e_e (d != e, s, t = +-1): -(lambda + mu) s t / 4 in positions
//                          (d, e) and (e, d) (the d^2/dx_d dx_e stencil)
// and only structurally nonzero entries are stored (at most 15 per row). Every block
// satisfies B(-o) = B(o) = B(o)^T, so the matrix is exactly symmetric; its symbol
//   mu |s|^2 I + (lambda + mu) (v v^T + diag(4 sin^4(theta_d / 2))),  v_d = sin theta_d,
// is positive definite away from theta = 0 for mu > 0 and lambda + mu >= 0, hence SPD with
// Dirichlet truncation.
Csr elast3d_rows(const Params &p, Index begin, Index end) {
  const Grid g{p.nx, p.ny, p.nz};
  const double lm = p.lambda + p.mu;
  // Written as sums, not products plus sums, so no FMA contraction can change the bits.
  const double diag = (p.mu + p.mu + p.mu + p.mu + p.mu + p.mu) + (lm + lm);
  const double axis_other = -p.mu;
  const double axis_along = -p.mu - lm;
  const double quarter = lm / 4;
  const Index nodes = g.nx * g.ny * g.nz;
  return build_rows(3 * nodes, begin, end, 15, [&](Index row, auto &emit) {
    const Index node = row / 3;
    const int comp = static_cast<int>(row % 3);
    const Index x = node % g.nx, y = (node / g.nx) % g.ny, z = node / (g.nx * g.ny);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!g.inside(x + dx, y + dy, z + dz)) continue;
          const int off[3] = {dx, dy, dz};
          int axes[3], nonzero = 0;
          for (int d = 0; d < 3; ++d) {
            if (off[d] != 0) axes[nonzero++] = d;
          }
          const Index base = 3 * g.index(x + dx, y + dy, z + dz);
          if (nonzero == 0) {
            emit(base + comp, diag);
          } else if (nonzero == 1) {
            emit(base + comp, comp == axes[0] ? axis_along : axis_other);
          } else if (nonzero == 2) {
            const int d = axes[0], e = axes[1];
            const double v = off[d] * off[e] > 0 ? -quarter : quarter;
            if (comp == d) emit(base + e, v);
            else if (comp == e) emit(base + d, v);
          }
        }
  });
}

// Lap27 (x) S: unknowns interleaved (row 3 * node + component), every one of the 27 neighbour
// blocks full: 26 S on the node itself, -S for each neighbour, S = [2 1/2 1/4; 1/2 2 1/2; 1/4 1/2 2]
// (symmetric, strictly diagonally dominant, so SPD; Lap27 with Dirichlet truncation is SPD and so
// is the Kronecker product). Dyadic values: exact in every build.
Csr vec3d27_rows(const Params &p, Index begin, Index end) {
  const Grid g{p.nx, p.ny, p.nz};
  static const double s[3][3] = {{2.0, 0.5, 0.25}, {0.5, 2.0, 0.5}, {0.25, 0.5, 2.0}};
  const Index nodes = g.nx * g.ny * g.nz;
  return build_rows(3 * nodes, begin, end, 81, [&](Index row, auto &emit) {
    const Index node = row / 3;
    const int comp = static_cast<int>(row % 3);
    const Index x = node % g.nx, y = (node / g.nx) % g.ny, z = node / (g.nx * g.ny);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!g.inside(x + dx, y + dy, z + dz)) continue;
          const bool self = dx == 0 && dy == 0 && dz == 0;
          const Index base = 3 * g.index(x + dx, y + dy, z + dz);
          for (int c = 0; c < 3; ++c) emit(base + c, self ? 26.0 * s[comp][c] : -s[comp][c]);
        }
  });
}

// P1 finite elements for -Lap u + c u on [0, L]^2 with nx x ny vertices (spacings hx, hy), each
// cell cut along its (1,1) diagonal. Element by element: a right triangle with legs hx, hy has
// stiffness -hy/(2 hx) along its x leg, -hx/(2 hy) along its y leg and 0 across the hypotenuse,
// and mass |T|/12 off the diagonal, |T|/6 on it (|T| = hx hy / 2). Summed over the six triangles
// around an interior vertex, with a = hy/hx, b = hx/hy, m = c hx hy / 24:
//   diagonal 2a + 2b + 12m;  x-neighbours -a + 2m;  y-neighbours -b + 2m;  (+1,+1), (-1,-1): 2m.
// Boundary vertices are Dirichlet rows (identity) and their columns are dropped from the other
// rows (g = 0), so the matrix stays symmetric (SPD for c >= 0), like the report's matrices.
// Only divisions and products feed m, and 12m is summed, so no FMA contraction changes a bit.
Csr fem2d_rows(const Params &p, Index begin, Index end) {
  const Grid g{p.nx, p.ny, 1};
  const double hx = p.nx > 1 ? p.side / static_cast<double>(p.nx - 1) : p.side;
  const double hy = p.ny > 1 ? p.side / static_cast<double>(p.ny - 1) : p.side;
  const double a = hy / hx, b = hx / hy, m = p.reaction * hx * hy / 24;
  const double m2 = m + m, m4 = m2 + m2, m12 = (m4 + m4) + m4;
  const double diag = ((a + a) + (b + b)) + m12, west_east = m2 - a, south_north = m2 - b;
  auto interior = [&g](Index x, Index y) { return x > 0 && y > 0 && x < g.nx - 1 && y < g.ny - 1; };
  return build_rows(g.nx * g.ny, begin, end, 7, [&](Index row, auto &emit) {
    const Index x = row % g.nx, y = row / g.nx;
    if (!interior(x, y)) {
      emit(row, 1.0);
      return;
    }
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == -dy && dx != 0) continue; // (1,-1), (-1,1): not an edge of the triangulation
        if (!interior(x + dx, y + dy)) continue;
        const double w = dx == 0 && dy == 0 ? diag : dx == dy ? m2 : dy == 0 ? west_east : south_north;
        emit(g.index(x + dx, y + dy, 0), w);
      }
  });
}

// -Lap u - k^2 u + b.grad u, b = peclet (1, 0.5), on the unit square with Dirichlet boundary,
// 5-point central differences, times h^2 like lap2d5: 4 - kh^2 on the diagonal and -1 - c_d/2
// towards -e_d, -1 + c_d/2 towards +e_d, with c_d = peclet w_d h_d, h_d = 1/(n_d + 1). kh^2 is
// rounded before the subtraction (std::fma with a zero addend), so no contraction can fuse it.
Csr helmholtz2d_rows(const Params &p, Index begin, Index end) {
  const Grid g{p.nx, p.ny, 1};
  const double diag = 4.0 - std::fma(p.kh, p.kh, 0.0);
  const double half_x = p.peclet / static_cast<double>(p.nx + 1) / 2;
  const double half_y = p.peclet * 0.5 / static_cast<double>(p.ny + 1) / 2;
  return point_stencil_rows(g, begin, end, 5, [&](int dx, int dy, int, double *w) {
    if (dx != 0 && dy != 0) return false;
    if (dx == 0 && dy == 0) *w = diag;
    else if (dy == 0) *w = dx < 0 ? -1.0 - half_x : -1.0 + half_x;
    else *w = dy < 0 ? -1.0 - half_y : -1.0 + half_y;
    return true;
  });
}

} // namespace

Csr stencil_rows(const Params &p, Index begin, Index end) {
  const Grid g{p.nx, p.ny, p.nz};
  switch (p.kind) {
  case Kind::Lap2d5:
  case Kind::Lap3d7: {
    const double diag = p.kind == Kind::Lap2d5 ? 4.0 : 6.0;
    return point_stencil_rows(g, begin, end, p.kind == Kind::Lap2d5 ? 5 : 7, [diag](int dx, int dy, int dz, double *w) {
      const int dist = std::abs(dx) + std::abs(dy) + std::abs(dz);
      *w = dist == 0 ? diag : -1.0;
      return dist <= 1;
    });
  }
  case Kind::Lap3d27:
    return point_stencil_rows(g, begin, end, 27, [](int dx, int dy, int dz, double *w) {
      *w = (dx == 0 && dy == 0 && dz == 0) ? 26.0 : -1.0;
      return true;
    });
  case Kind::Aniso2d:
    if (p.variant == 3) return aniso3_rows(p, begin, end);
    return point_stencil_rows(g, begin, end, 9, [&p](int dx, int dy, int, double *w) {
      *w = aniso_weight(p.variant, dx, dy);
      return true; // nz == 1: offsets with dz != 0 are never inside the grid
    });
  case Kind::Aniso2d5:
  case Kind::Aniso3d: {
    // Diagonal as a sum of the coefficients (no product feeding an add: FMA-proof bits); in 2D
    // az = 0 adds nothing and the dz offsets fall outside the grid (nz == 1).
    const double a[3] = {p.ax, p.ay, p.kind == Kind::Aniso3d ? p.az : 0.0};
    const double diag = (a[0] + a[0]) + (a[1] + a[1]) + (a[2] + a[2]);
    return point_stencil_rows(g, begin, end, 7, [&a, diag](int dx, int dy, int dz, double *w) {
      const int dist = std::abs(dx) + std::abs(dy) + std::abs(dz);
      if (dist > 1) return false;
      *w = dist == 0 ? diag : -a[dx != 0 ? 0 : dy != 0 ? 1 : 2];
      return true;
    });
  }
  case Kind::Convdiff2d: return convdiff_rows(p, 2, begin, end);
  case Kind::Convdiff3d: return convdiff_rows(p, 3, begin, end);
  case Kind::Elast3d: return elast3d_rows(p, begin, end);
  case Kind::Vec3d27: return vec3d27_rows(p, begin, end);
  case Kind::Fem2d: return fem2d_rows(p, begin, end);
  case Kind::Helmholtz2d: return helmholtz2d_rows(p, begin, end);
  case Kind::Helmholtz2dc: return helmholtz2dc_rows(p, begin, end);
  case Kind::Quatsurf: return quatsurf_rows(p, begin, end);
  case Kind::Path:
    return point_stencil_rows(Grid{p.n, 1, 1}, begin, end, 3, [](int dx, int, int, double *w) {
      *w = dx == 0 ? 2.0 : -1.0;
      return true;
    });
  case Kind::Empty: return build_rows(p.n, begin, end, 1, [](Index row, auto &emit) { emit(row, 1.0); });
  default: throw std::logic_error("stencil_rows: not a grid kind");
  }
}

} // namespace pgk::gen::detail
