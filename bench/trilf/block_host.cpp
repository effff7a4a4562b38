// PC trilf, scalar against 2x2 block variant on the host reference (src/trilf/, no PETSc), issue 15:
// Krylov iterations and the structure that explains them, for both pairing rules of the block
// variant. One line per (matrix, variant):
//   c_pi       weight coverage of T;
//   pairs, ghosts, weak: pairs, unpaired rows, pairs whose own weight is below half of the heavier
//              coupling of either member (pairs across a weak direction);
//   paths, longest: (coarse) paths and the longest, in rows or blocks;
//   kept       edges of the scalar forest that T keeps (both rows in one block, or in consecutive
//              blocks of one coarse path), of all forest edges;
//   gmres, cg  iterations (GMRES(30) left preconditioned to |M^-1 r| <= rtol |M^-1 b|, PETSc's test;
//              CG to |r| <= cg_rtol |b|, only with -cg), -1 = not converged.
// A fourth line, "block paths", takes the blocks straight from the scalar paths (no coarse graph,
// no coarse factor; splits and replaced are its LU's pivot counts): what skipping the coarse factor
// would cost in iterations (bench/NOTES.md, fifty-fourth session).
// bench_trilf_block [-cg] [-rtol r] [-cg_rtol r] [-max_it k] [-m charge_period] spec...
// The right-hand side is b_i = sin(16 pi i / n) + 0.1 cos(0.37 i), x0 = 0 (bench/NOTES.md).
#include "src/common/krylov.hpp"
#include "src/matgen/generators.hpp"
#include "src/trilf/pc.hpp"
#include "src/trilf/weights.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using pgk::Csr;
using pgk::Index;
using Vector = std::vector<double>;
namespace tl = pgk::trilf;

struct Settings {
  bool                     cg   = false;
  double                   rtol = 1e-6, cg_rtol = 1e-8;
  int                      max_it = 20000, period = 5;
  std::vector<std::string> specs;
};

struct Structure {
  Index pairs = 0, ghosts = 0, weak = 0, kept = 0, forest_edges = 0;
};

// Block of every row and path of every block (scalar variant, bs2 false: each row its own block).
void BlocksOf(const tl::Preconditioner &pc, bool bs2, Index n, std::vector<Index> &block, std::vector<Index> &path)
{
  block.assign((std::size_t)n, 0);
  const std::vector<Index> &slots = bs2 ? pc.block_order().slots : pc.order().perm;
  const std::vector<Index> &start = bs2 ? pc.block_order().path_start : pc.order().path_start;
  const Index               per   = bs2 ? 2 : 1;
  for (std::size_t s = 0; s < slots.size(); ++s)
    if (slots[s] >= 0) block[(std::size_t)slots[s]] = (Index)s / per;
  path.assign(slots.size() / (std::size_t)per, 0);
  for (std::size_t p = 0; p + 1 < start.size(); ++p)
    for (Index k = start[p]; k < start[p + 1]; ++k) path[(std::size_t)k] = (Index)p;
}

Structure Inspect(const Csr &w, const tl::Preconditioner &scalar, const tl::Preconditioner &pc, bool bs2)
{
  Structure          st;
  std::vector<Index> block, path;
  BlocksOf(pc, bs2, w.nrows, block, path);
  auto                      heaviest = [&](Index i) { return w.rowptr[i] == w.rowptr[i + 1] ? 0.0 : *std::max_element(w.values.begin() + w.rowptr[i], w.values.begin() + w.rowptr[i + 1]); };
  const std::vector<Index> &slots    = pc.block_order().slots;
  for (std::size_t k = 0; k + 1 < slots.size(); k += 2) {
    if (slots[k + 1] < 0) {
      ++st.ghosts;
      continue;
    }
    ++st.pairs;
    const double x = tl::edge_weight(pgk::view_of(w), slots[k], slots[k + 1]);
    st.weak += x < 0.5 * std::max(heaviest(slots[k]), heaviest(slots[k + 1]));
  }
  const tl::PathOrder &o = scalar.order();
  for (Index p = 0; p < o.npaths(); ++p)
    for (Index k = o.path_start[(std::size_t)p]; k + 1 < o.path_start[(std::size_t)p + 1]; ++k) {
      const Index u = block[(std::size_t)o.perm[(std::size_t)k]], v = block[(std::size_t)o.perm[(std::size_t)k + 1]];
      st.forest_edges++;
      st.kept += u == v || ((u - v == 1 || v - u == 1) && path[(std::size_t)u] == path[(std::size_t)v]);
    }
  return st;
}

void Report(const char *spec, const char *variant, const Csr &a, const Csr &w, const tl::Preconditioner &scalar, const tl::Preconditioner &pc, const Vector &b, const Settings &set)
{
  const Structure st   = Inspect(w, scalar, pc, &pc != &scalar);
  const auto      m    = [&pc](const double *in, double *out) { pc.apply(in, out); };
  const int       its  = pgk::krylov::gmres_iterations(a, b, m, set.rtol, set.max_it);
  const int       itcg = set.cg ? pgk::krylov::cg_iterations(a, b, m, set.cg_rtol, set.max_it) : 0;
  std::printf("%-52s %-15s c_pi %.4f pairs %7lld ghosts %7lld weak %7lld paths %7lld longest %6lld kept %7lld/%lld gmres %5d", spec, variant, pc.info().c_pi, (long long)st.pairs, (long long)st.ghosts, (long long)st.weak, (long long)pc.info().npaths,
              (long long)pc.info().longest, (long long)st.kept, (long long)st.forest_edges, its);
  if (set.cg) std::printf(" cg %5d", itcg);
  std::printf("\n");
  std::fflush(stdout);
}

// Blocks straight from the scalar forest: each path cut into consecutive pairs from its first row,
// the last row of an odd path with a ghost, and the coarse paths ARE the scalar paths (no coarse graph
// and no coarse factor). What a block set-up costs beyond the scalar forest is then one pass.
tl::BlockOrder BlocksAlongScalarPaths(const tl::PathOrder &o)
{
  tl::BlockOrder b;
  b.path_start.push_back(0);
  for (Index p = 0; p < o.npaths(); ++p) {
    const Index s = o.path_start[(std::size_t)p], e = o.path_start[(std::size_t)p + 1];
    for (Index k = s; k < e; k += 2) {
      const Index u = o.perm[(std::size_t)k], v = k + 1 < e ? o.perm[(std::size_t)k + 1] : -1;
      b.slots.push_back(v < 0 ? u : std::min(u, v));
      b.slots.push_back(v < 0 ? -1 : std::max(u, v));
    }
    b.path_start.push_back(b.nblocks());
    b.longest = std::max(b.longest, b.path_start.back() - b.path_start[b.path_start.size() - 2]);
  }
  return b;
}

void ReportPaths(const char *spec, const Csr &a, const tl::Preconditioner &scalar, const Vector &b, const Settings &set)
{
  const tl::BlockOrder             order  = BlocksAlongScalarPaths(scalar.order());
  const tl::BlockTridiagonalFactor f      = tl::factor_block(tl::assemble_block(pgk::view_of(a), order), order);
  const auto                       m      = [&f](const double *in, double *out) { tl::solve_block(f, in, out); };
  const int                        its    = pgk::krylov::gmres_iterations(a, b, m, set.rtol, set.max_it);
  const int                        itcg   = set.cg ? pgk::krylov::cg_iterations(a, b, m, set.cg_rtol, set.max_it) : 0;
  Index                            ghosts = 0;
  for (std::size_t k = 1; k < order.slots.size(); k += 2) ghosts += order.slots[k] < 0;
  std::printf("%-52s %-15s splits %7lld replaced %7lld pairs %7lld ghosts %7lld paths %7lld longest %6lld gmres %5d", spec, "block paths", (long long)f.splits, (long long)f.replaced, (long long)(order.nblocks() - ghosts), (long long)ghosts,
              (long long)order.npaths(), (long long)order.longest, its);
  if (set.cg) std::printf(" cg %5d", itcg);
  std::printf("\n");
  std::fflush(stdout);
}

void Run(const std::string &spec, const Settings &set)
{
  const Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
  const Csr w = tl::weight_graph(pgk::view_of(a));
  Vector    b((std::size_t)a.nrows);
  for (Index i = 0; i < a.nrows; ++i) b[(std::size_t)i] = std::sin(16 * 3.141592653589793 * (double)i / (double)a.nrows) + 0.1 * std::cos(0.37 * (double)i);
  tl::Options opt;
  opt.factor.charge_period = set.period;
  const tl::Preconditioner scalar(pgk::view_of(a), opt);
  Report(spec.c_str(), "scalar", a, w, scalar, scalar, b, set);
  opt.block = true;
  for (const tl::PairRule rule : {tl::PairRule::Forest, tl::PairRule::Matching}) {
    opt.pairing = rule;
    const tl::Preconditioner block(pgk::view_of(a), opt);
    Report(spec.c_str(), rule == tl::PairRule::Forest ? "block forest" : "block matching", a, w, scalar, block, b, set);
  }
  ReportPaths(spec.c_str(), a, scalar, b, set);
}

} // namespace

int main(int argc, char **argv)
{
  Settings set;
  for (int i = 1; i < argc; ++i) {
    const bool more = i + 1 < argc;
    if (!std::strcmp(argv[i], "-cg")) set.cg = true;
    else if (!std::strcmp(argv[i], "-rtol") && more) set.rtol = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "-cg_rtol") && more) set.cg_rtol = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "-max_it") && more) set.max_it = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "-m") && more) set.period = std::atoi(argv[++i]);
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, "bench_trilf_block: unknown option %s (see the file comment of bench/trilf/block_host.cpp)\n", argv[i]);
      return 2;
    } else set.specs.push_back(argv[i]);
  }
  if (set.specs.empty()) set.specs = {"aniso3d:nx=256,ny=256,nz=1,ax=1e-3,ay=1,az=1e-30", "convdiff2d:n=256,peclet=257"};
  try {
    for (const std::string &s : set.specs) Run(s, set);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_trilf_block: %s\n", e.what());
    return 1;
  }
  return 0;
}
