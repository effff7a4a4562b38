// The table of generator kinds (kinds.hpp).
#include "src/matgen/kinds.hpp"

#include <utility>

namespace pgk::gen::detail {

namespace {

const char *const kTorusNames[] = {"nu", "nv"};

// Kinds generated row by row on a grid (stencils.cpp), in the order -help lists them.
std::vector<KindDef> grid_kinds() {
  return {
      {"lap2d5", Kind::Lap2d5, 2, {}, "5-point Laplacian, Dirichlet, 4/-1 (SPD)"},
      {"lap3d7", Kind::Lap3d7, 3, {}, "7-point Laplacian, Dirichlet, 6/-1 (SPD)"},
      {"lap3d27", Kind::Lap3d27, 3, {}, "27-point Laplacian, Dirichlet, 26/-1 (SPD)"},
      {"elast3d",
       Kind::Elast3d,
       3,
       {{"lambda", "1"}, {"mu", "1"}},
       "3D linear elasticity -mu Lap u - (lambda+mu) grad div u, finite differences, "
       "Dirichlet, block size 3 interleaved (SPD for mu > 0, lambda + mu >= 0)"},
      {"vec3d27",
       Kind::Vec3d27,
       3,
       {},
       "27-point Laplacian (x) a dense SPD 3x3 coupling S = [2 1/2 1/4; 1/2 2 1/2; 1/4 1/2 2]: every "
       "stored block a full 3x3 block, the block pattern of Q1 hexahedral elasticity (PETSc's ex56); "
       "block size 3 interleaved, SPD"},
      {"aniso2d",
       Kind::Aniso2d,
       2,
       {{"variant", "1"}},
       "Klein & Strzodka's 9-point anisotropic diffusion, truncated at the boundary "
       "(symmetric): variant 1 = ANISO1 (strong couplings along x), 2 = ANISO2 (strong "
       "along the diagonals x - y = const), 3 = ANISO3 (ANISO2 numbered along those "
       "diagonals, so they lie next to the main diagonal)"},
      {"aniso2d5",
       Kind::Aniso2d5,
       2,
       {{"ax", "0.001"}, {"ay", "1"}},
       "5-point anisotropic diffusion -(ax u_xx + ay u_yy), Dirichlet, 2(ax+ay) / -a_d (SPD); "
       "the default couples strongly along y, across the x-fastest numbering"},
      {"aniso3d",
       Kind::Aniso3d,
       3,
       {{"ax", "1"}, {"ay", "0.01"}, {"az", "0.0001"}},
       "7-point anisotropic diffusion -(ax u_xx + ay u_yy + az u_zz), Dirichlet, "
       "2(ax+ay+az) / -a_d (SPD for positive a_d)"},
      {"convdiff2d",
       Kind::Convdiff2d,
       2,
       {{"peclet", "100"}},
       "-Lap u + b.grad u, b = peclet (1, 0.5), first-order upwind: nonsymmetric M-matrix"},
      {"convdiff3d",
       Kind::Convdiff3d,
       3,
       {{"peclet", "100"}},
       "-Lap u + b.grad u, b = peclet (1, 0.5, 0.25), first-order upwind: nonsymmetric "
       "M-matrix"},
      {"fem2d",
       Kind::Fem2d,
       2,
       {{"side", "1"}, {"reaction", "1"}},
       "P1 FEM, -Lap u + reaction u on [0,side]^2, nx x ny vertices, cells cut along (1,1): 7 points, "
       "boundary rows identity and eliminated from the others (SPD; the CARP-CG report's problem class)"},
      {"helmholtz2d",
       Kind::Helmholtz2d,
       2,
       {{"kh", "0.1"}, {"peclet", "0"}},
       "-Lap u - k^2 u + peclet (1, 0.5).grad u, 5-point central, Dirichlet, times h^2: 4 - kh^2 / -1 -+ c/2: "
       "symmetric indefinite once (n+1) kh > pi sqrt(2), nonsymmetric for peclet != 0"},
      {"helmholtz2dc",
       Kind::Helmholtz2dc,
       2,
       {{"kh", "0.125"}, {"eps", "0.5"}},
       "complex Helmholtz -Lap u - k^2 (1 + i eps) u (damped), 5-point, Dirichlet, times h^2: 4 - kh^2 (1 + i eps) / "
       "-1, each complex a + bi as the 2x2 block [a -b; b a] (block size 2; complex symmetric, real form "
       "nonsymmetric for eps != 0)"},
      {"quatsurf",
       Kind::Quatsurf,
       2,
       {{"shift", "1"}, {"seed", "1"}},
       "quaternion Dirac-type operator (Crane et al.) on a triangulated polyhedral torus of nu x nv vertices "
       "(integer coordinates, jittered by the seed), valence 5..7: off-diagonals sum_faces -e_i e_j, diagonal shift + "
       "sum |q|_1, each quaternion as L(q) "
       "(block size 4; Hermitian, SPD for shift > 0)",
       kTorusNames},
  };
}

// Random graph kinds (graphs.cpp, rgg2d.cpp, communities.cpp), path and empty.
std::vector<KindDef> graph_kinds() {
  return {
      {"random",
       Kind::Random,
       0,
       {{"n", nullptr}, {"deg", "8"}, {"seed", "1"}},
       "random symmetric graph, about deg neighbours per row, SPD diagonally dominant values"},
      {"disconnected",
       Kind::Disconnected,
       0,
       {{"n", nullptr}, {"parts", "4"}, {"deg", "6"}, {"seed", "1"}},
       "union of `parts` random graphs, vertices interleaved by a random permutation"},
      {"hubrow",
       Kind::Hubrow,
       0,
       {{"n", nullptr}, {"deg", "4"}, {"hubdeg", kHubdegDefault}, {"seed", "1"}},
       "random graph plus vertex n/2 joined to hubdeg others: one row of very large degree"},
      {"powerlaw",
       Kind::Powerlaw,
       0,
       {{"n", nullptr}, {"communities", "16"}, {"avgdeg", "10"}, {"gamma", "2.5"}, {"mixing", "0.1"}, {"seed", "1"}},
       "Chung-Lu power-law graph with planted communities scattered in index space"},
      {"rgg2d",
       Kind::Rgg2d,
       0,
       {{"n", nullptr}, {"deg", "8"}, {"seed", "1"}},
       "2D random geometric graph: n uniform points in the unit square, edges within the "
       "radius giving expected degree deg; vertices numbered in random (generation) order"},
      {"communities",
       Kind::Communities,
       0,
       {{"n", nullptr}, {"intra", "8"}, {"inter", "2"}, {"seed", "1"}},
       "planted communities of 16 * 2^k vertices (k uniform in 0..8): a path through each "
       "and about intra neighbours inside it by random pairs, about inter neighbours in other "
       "communities by random pairs; vertices randomly relabelled (rabbitpp's benchmark "
       "graph; inter >= intra gives low insularity)"},
      {"path", Kind::Path, 0, {{"n", nullptr}}, "path graph, 1D Laplacian 2/-1"},
      {"empty", Kind::Empty, 0, {{"n", nullptr}}, "identity (no off-diagonals)"},
  };
}

} // namespace

const std::vector<KindDef> &table() {
  static const std::vector<KindDef> defs = [] {
    std::vector<KindDef> all = grid_kinds();
    for (KindDef &k : graph_kinds()) all.push_back(std::move(k));
    return all;
  }();
  return defs;
}

} // namespace pgk::gen::detail
