// Iterations of CGMN (sequential double Kaczmarz sweeps + CG, the carpcg reference) to a
// relative true residual of 1e-9 under several row orders, on the report's problem class (fem2d),
// to find a parallel sweep order whose iteration count is near the natural order's.
//   natural     rows 0..n-1 (the sequential reference; relaxation near 2 helps, like SSOR)
//   multicolor  distance-2 colouring of the rows (the device multicolor scheme)
//   tiles:B     square tiles of B x B grid nodes, tiles coloured 2 x 2 (tiles of one colour are
//               more than 2 nodes apart, so they touch disjoint unknowns and can sweep at once);
//               order: colour, tile, natural order inside a tile. One chain of B*B projections
//               per tile and colour on a device, or a level schedule of that chain (its levels per
//               colour are printed: the dependent steps a device sweep would take).
//   blocks:S    any matrix: blocks of up to S rows grown by breadth-first search over A's graph,
//               coloured greedily so that blocks of one colour touch disjoint unknowns; rows
//               ascending inside a block (its levels per colour are printed, as for tiles)
//   cells:R     any matrix: seeds more than R steps apart, each row joined to its nearest seed
//               (compact cells), coloured and ordered as blocks:S
//   gtiles:B[xH] B x H tiles (H = B when left out) as blocks, coloured greedily and ordered as
//               blocks:S (gtiles:B is tiles:B's blocks without its fixed 2 x 2 colour pattern)
//   lattice7    colour (x + 2 y) mod 7: a distance-2 colouring of fem2d's triangular lattice with 7
//               colours (the greedy one uses 9; checked by is_distance2_coloring), colour by colour
//   wave:K      colour (x + 2 y) mod K, K >= 7 (a distance-2 colouring for every such K): the
//               colours are the natural order's wavefronts (x + 2 y is a row's level in the
//               natural sweep's dependences) taken modulo K, so a sweep carries information K
//               levels where a 7-colouring carries it 7; K = 3n - 2 is a level schedule of the natural order
// Host only, no PETSc (target bench_carpcg_orders). Usage: bench_carpcg_orders n lambda order [order...]
// Results of the twenty-sixth session: bench/NOTES.md, bench/results/carpcg_orders_cpu.txt.
#include "bench/carpcg/tiles.hpp"
#include "src/carpcg/cg.hpp"
#include "src/carpcg/coloring.hpp"
#include "src/carpcg/operators.hpp"
#include "src/carpcg/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace pgk;
using bench_tiles::tile_colour_starts;
using bench_tiles::tile_order;
using bench_tiles::tiles_sweep_at_once;

// The dependent steps of one forward sweep in a block order on a device that sweeps the blocks of
// a colour at once and each block as a level schedule of its rows in the order given (rows of one
// level touch disjoint unknowns): per colour, the most levels of any of its blocks. A row's level
// is one past the latest level that touched any of its unknowns earlier in its block; blocks of
// one colour touch disjoint unknowns, so one array of "last level per unknown" serves a colour.
// colour_start: where each colour's rows begin in order (one more entry than colours).
static void print_block_levels(const CsrView &a, const std::string &name, const std::vector<Index> &order, const std::vector<size_t> &colour_start)
{
  std::vector<int> last(a.ncols, 0);
  long             steps = 0;
  std::printf("%s: %zu colours, levels per colour (most in a block):", name.c_str(), colour_start.size() - 1);
  for (size_t c = 0; c + 1 < colour_start.size(); ++c) {
    std::fill(last.begin(), last.end(), 0);
    int most = 0;
    for (size_t i = colour_start[c]; i < colour_start[c + 1]; ++i) {
      const Index row   = order[i];
      int         level = 0;
      for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) level = std::max(level, last[a.colidx[k]]);
      ++level;
      for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) last[a.colidx[k]] = level;
      most = std::max(most, level);
    }
    std::printf(" %d", most);
    steps += most;
  }
  std::printf("; %ld dependent steps a sweep, %ld a double sweep\n", steps, 2 * steps);
  std::fflush(stdout);
}

// Blocks for any matrix: rows grouped by breadth-first search over A's graph (seeds in row order,
// each block takes up to `size` unassigned rows), blocks coloured greedily so that blocks of one
// colour touch disjoint unknowns; order: colour, block, rows ascending inside a block.
static std::vector<Index> coloured_block_order(const CsrView &a, const std::vector<Index> &block, Index nblocks, std::vector<size_t> &colour_start);

static std::vector<Index> aggregate_order(const CsrView &a, Index size, std::vector<size_t> &colour_start)
{
  std::vector<Index> block(a.nrows, -1), queue;
  Index              nblocks = 0;
  for (Index seed = 0; seed < a.nrows; ++seed) {
    if (block[seed] != -1) continue;
    queue.assign(1, seed);
    block[seed] = nblocks;
    for (size_t head = 0; head < queue.size() && static_cast<Index>(queue.size()) < size; ++head)
      for (Index k = a.rowptr[queue[head]]; k < a.rowptr[queue[head] + 1] && static_cast<Index>(queue.size()) < size; ++k) {
        const Index j = a.colidx[k];
        if (block[j] == -1) block[j] = nblocks, queue.push_back(j);
      }
    ++nblocks;
  }
  return coloured_block_order(a, block, nblocks, colour_start);
}

// Cells for any matrix: seeds more than `radius` steps apart in A's graph (greedy, row order),
// every row joined to its nearest seed by one breadth-first search from all seeds at once (ties to
// the seed reached first), so the blocks are compact like Voronoi cells; coloured and ordered as
// blocks:S.
static std::vector<Index> cell_order(const CsrView &a, Index radius, std::vector<size_t> &colour_start)
{
  std::vector<Index> dist(a.nrows, -1), queue, block(a.nrows, -1), seeds;
  for (Index seed = 0; seed < a.nrows; ++seed) { // greedy seeds: a seed covers its radius-ball
    if (dist[seed] != -1) continue;
    seeds.push_back(seed);
    queue.assign(1, seed);
    dist[seed] = 0;
    for (size_t head = 0; head < queue.size(); ++head) {
      const Index r = queue[head];
      if (dist[r] == radius) continue;
      for (Index k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k)
        if (dist[a.colidx[k]] == -1) dist[a.colidx[k]] = dist[r] + 1, queue.push_back(a.colidx[k]);
    }
    for (Index r : queue) dist[r] = 0; // covered: never a seed
  }
  queue.clear();
  for (size_t s = 0; s < seeds.size(); ++s) block[seeds[s]] = static_cast<Index>(s), queue.push_back(seeds[s]);
  for (size_t head = 0; head < queue.size(); ++head)
    for (Index k = a.rowptr[queue[head]]; k < a.rowptr[queue[head] + 1]; ++k)
      if (block[a.colidx[k]] == -1) block[a.colidx[k]] = block[queue[head]], queue.push_back(a.colidx[k]);
  Index nblocks = static_cast<Index>(seeds.size());
  for (Index r = 0; r < a.nrows; ++r) // rows no seed reaches (none here: every row is within a ball)
    if (block[r] == -1) block[r] = nblocks++;
  return coloured_block_order(a, block, nblocks, colour_start);
}

// Blocks coloured greedily (block order) so that blocks of one colour touch disjoint unknowns;
// order: colour, block, rows ascending inside a block.
static std::vector<Index> coloured_block_order(const CsrView &a, const std::vector<Index> &block, Index nblocks, std::vector<size_t> &colour_start)
{
  // Blocks conflict where they touch a common unknown: for each unknown, the blocks touching it.
  std::vector<std::vector<Index>> touching(a.ncols), rows_of(nblocks);
  for (Index row = 0; row < a.nrows; ++row) {
    rows_of[block[row]].push_back(row);
    for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) {
      auto &t = touching[a.colidx[k]];
      if (t.empty() || t.back() != block[row]) t.push_back(block[row]);
    }
  }
  std::vector<int> colour(nblocks, -1), seen;
  int              ncolours = 0;
  for (Index b = 0; b < nblocks; ++b) {
    seen.assign(ncolours + 1, 0);
    for (Index row : rows_of[b])
      for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k)
        for (Index other : touching[a.colidx[k]])
          if (colour[other] >= 0) seen[colour[other]] = 1;
    colour[b] = static_cast<int>(std::find(seen.begin(), seen.end(), 0) - seen.begin());
    ncolours  = std::max(ncolours, colour[b] + 1);
  }
  std::vector<Index> order;
  colour_start.assign(1, 0);
  for (int c = 0; c < ncolours; ++c) {
    for (Index b = 0; b < nblocks; ++b)
      if (colour[b] == c) order.insert(order.end(), rows_of[b].begin(), rows_of[b].end());
    colour_start.push_back(order.size());
  }
  return order;
}

int main(int argc, char **argv)
{
  const auto study = bench_tiles::fem2d_study(argc, argv, "order...");
  if (!study) return 2;
  const auto &[n, lambda, a, b] = *study;
  const CsrView v               = view_of(a);
  for (int k = 3; k < argc; ++k) {
    const std::string       name = argv[k];
    carpcg::OperatorOptions o;
    o.lambda = lambda;
    if (name == "natural") {
      o.scheme = carpcg::Scheme::Sequential;
    } else if (name == "multicolor") {
      o.scheme = carpcg::Scheme::Sequential;
      o.order  = carpcg::distance2_coloring(v).order();
    } else if (name == "lattice7" || name.rfind("wave:", 0) == 0) {
      const int        k = name == "lattice7" ? 7 : std::atoi(name.c_str() + 5);
      std::vector<int> colour(a.nrows);
      for (Index row = 0; row < a.nrows; ++row) colour[row] = static_cast<int>((row % n + 2 * (row / n)) % k);
      const carpcg::Coloring c = carpcg::coloring_from_colors(colour, k);
      if (k < 1 || !carpcg::is_distance2_coloring(v, c)) {
        std::fprintf(stderr, "%s: not a distance-2 colouring of this matrix\n", name.c_str());
        return 1;
      }
      o.scheme = carpcg::Scheme::Sequential;
      o.order  = c.order();
    } else if (name.rfind("tiles:", 0) == 0) {
      const Index tile = std::atoi(name.c_str() + 6);
      if (tile < 2 || !tiles_sweep_at_once(v, n, tile)) {
        std::fprintf(stderr, "%s: tiles of one colour share unknowns\n", name.c_str());
        return 1;
      }
      o.scheme = carpcg::Scheme::Sequential;
      o.order  = tile_order(n, tile);
      print_block_levels(v, name, o.order, tile_colour_starts(n, tile));
    } else if (name.rfind("blocks:", 0) == 0) {
      std::vector<size_t> start;
      o.scheme = carpcg::Scheme::Sequential;
      o.order  = aggregate_order(v, std::max(1, std::atoi(name.c_str() + 7)), start);
      print_block_levels(v, name, o.order, start);
    } else if (name.rfind("gtiles:", 0) == 0) {
      const char         *h    = std::strchr(name.c_str() + 7, 'x');
      const Index         tile = std::max(2, std::atoi(name.c_str() + 7)), high = h ? std::max(1, std::atoi(h + 1)) : tile;
      const Index         ntx = (n + tile - 1) / tile, nty = (n + high - 1) / high;
      std::vector<Index>  block(a.nrows);
      std::vector<size_t> start;
      for (Index row = 0; row < a.nrows; ++row) block[row] = (row % n) / tile + ntx * ((row / n) / high);
      o.scheme = carpcg::Scheme::Sequential;
      o.order  = coloured_block_order(v, block, ntx * nty, start);
      print_block_levels(v, name, o.order, start);
    } else if (name.rfind("cells:", 0) == 0) {
      std::vector<size_t> start;
      o.scheme = carpcg::Scheme::Sequential;
      o.order  = cell_order(v, std::max(1, std::atoi(name.c_str() + 6)), start);
      print_block_levels(v, name, o.order, start);
    } else {
      std::fprintf(stderr, "unknown order %s\n", name.c_str());
      return 2;
    }
    auto                 op = carpcg::make_double_sweep(v, o);
    std::vector<double>  x(a.nrows, 0.0);
    carpcg::SolveOptions so;
    so.max_it                 = 120000;
    so.true_residual_interval = n > 300 ? 200 : 50;
    const auto   t0           = std::chrono::steady_clock::now();
    const auto   st           = carpcg::solve(*op, b.data(), x.data(), so);
    const double s            = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("fem2d:n=%d lambda=%.3f %-12s its %6d %-13s relres %.2e (%.1f s)\n", (int)n, lambda, name.c_str(), st.iterations, carpcg::stop_name(st.stop), st.relative_residual, s);
    std::fflush(stdout);
  }
  return 0;
}
