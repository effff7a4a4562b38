// Coloured square tiles of fem2d's grid (issue 11's sweep-order study): B x B tiles of grid nodes
// coloured 2 x 2, so that tiles of one colour touch disjoint unknowns and can sweep at once.
// Shared by the host order study (order_study.cpp) and the device tile sweep (tile_sweep.cu).
#pragma once

#include "src/carpcg/sweep.hpp"
#include "src/common/csr.hpp"
#include "src/common/rng.hpp"
#include "src/matgen/generators.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace pgk::bench_tiles {

// A study's arguments "n lambda rest..." and its problem: fem2d:n=n and b = -A xtrue for xtrue
// uniform in [-0.5, 0.5) (seed 7). Empty (after a usage line naming `rest`) when fewer than
// `min_rest` arguments follow n and lambda.
struct Fem2dStudy {
  Index               n      = 0;
  double              lambda = 0;
  Csr                 a;
  std::vector<double> b;
};

inline std::optional<Fem2dStudy> fem2d_study(int argc, char **argv, const char *rest, int min_rest = 1)
{
  if (argc < 3 + min_rest) {
    std::fprintf(stderr, "usage: %s n lambda %s\n", argv[0], rest);
    return std::nullopt;
  }
  Fem2dStudy st;
  st.n      = std::atoi(argv[1]);
  st.lambda = std::atof(argv[2]);
  st.a      = gen::generate(gen::parse_spec("fem2d:n=" + std::to_string(st.n)));
  std::vector<double> xtrue(st.a.nrows);
  st.b.resize(st.a.nrows);
  SplitMix64 rng(7);
  for (auto &x : xtrue) x = rng.uniform() - 0.5;
  carpcg::residual(view_of(st.a), nullptr, xtrue.data(), st.b.data());
  return st;
}

// The rows in sweep order: colour, tile (row-major over the tiles of that colour), natural
// (row-major) order inside a tile. n: the grid's side (rows = n * n).
inline std::vector<Index> tile_order(Index n, Index tile)
{
  std::vector<Index> order;
  order.reserve(static_cast<size_t>(n) * n);
  const Index nt = (n + tile - 1) / tile;
  for (int colour = 0; colour < 4; ++colour)
    for (Index ty = colour / 2; ty < nt; ty += 2)
      for (Index tx = colour % 2; tx < nt; tx += 2)
        for (Index y = ty * tile; y < std::min(n, (ty + 1) * tile); ++y)
          for (Index x = tx * tile; x < std::min(n, (tx + 1) * tile); ++x) order.push_back(x + n * y);
  return order;
}

// Where each colour's rows begin in tile_order (five entries).
inline std::vector<size_t> tile_colour_starts(Index n, Index tile)
{
  std::vector<size_t> start{0};
  const Index         nt = (n + tile - 1) / tile;
  for (int colour = 0; colour < 4; ++colour) {
    size_t rows = 0;
    for (Index ty = colour / 2; ty < nt; ty += 2)
      for (Index tx = colour % 2; tx < nt; tx += 2) rows += static_cast<size_t>(std::min(n, (tx + 1) * tile) - tx * tile) * (std::min(n, (ty + 1) * tile) - ty * tile);
    start.push_back(start.back() + rows);
  }
  return start;
}

// Whether tiles of one colour touch disjoint unknowns (no column is shared by rows of two
// different tiles of one colour), the property that lets them sweep at once.
inline bool tiles_sweep_at_once(const CsrView &a, Index n, Index tile)
{
  std::vector<Index> owner(a.ncols, -1); // per unknown: the tile of the colour being checked
  const Index        nt = (n + tile - 1) / tile;
  for (int colour = 0; colour < 4; ++colour) {
    std::fill(owner.begin(), owner.end(), -1);
    for (Index ty = colour / 2; ty < nt; ty += 2)
      for (Index tx = colour % 2; tx < nt; tx += 2)
        for (Index y = ty * tile; y < std::min(n, (ty + 1) * tile); ++y)
          for (Index x = tx * tile; x < std::min(n, (tx + 1) * tile); ++x) {
            const Index row = x + n * y, id = tx + nt * ty;
            for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) {
              Index &o = owner[a.colidx[k]];
              if (o != -1 && o != id) return false;
              o = id;
            }
          }
  }
  return true;
}

// A tile sweep's device data (tile_plan.cpp builds it, tile_sweep.cu uses it). Every tile has the
// same strides, so tile t's arrays start at t * stride. A tile's rows are stored in level order:
// the rows of its natural order grouped into levels (a row's level is one past the latest level
// that touched any of its unknowns earlier in the tile), so the rows of one level touch disjoint
// unknowns and project at once, and the iterates are those of the sequential sweep in tile order.
// Entries are ELL-like, entry e of stored row r at e * max_rows + r (consecutive rows of a level
// hit consecutive shared-memory banks); columns are local to the tile's region, the (B+2)^2 box of
// nodes from (x0 - 1, y0 - 1), which holds every unknown the tile's rows touch (fem2d's stencil
// reaches one node).
struct TilePlan {
  Index                         n = 0, tile = 0, ntiles_x = 0, ntiles = 0;
  int                           width    = 0;                             // entries per row slot (the longest row)
  int                           max_rows = 0, max_levels = 0, region = 0; // strides: tile * tile, most levels, (tile + 2)^2
  std::vector<std::vector<int>> tiles_of_colour;                          // tile ids (tx + ntiles_x * ty), 4 colours
  std::vector<int>              colour_levels;                            // per colour: the most levels of any of its tiles
  std::vector<int>              nlevels;                                  // per tile
  std::vector<int>              level_ptr;                                // ntiles * (max_levels + 1): a level's first stored row
  std::vector<int>              row_len;                                  // ntiles * max_rows
  std::vector<double>           rhs, norms2;                              // ntiles * max_rows, stored-row order
  std::vector<double>           values;                                   // ntiles * width * max_rows
  std::vector<std::uint16_t>    local_col;                                // ntiles * width * max_rows
};

// The plan of fem2d:n=n's matrix a (rows = n * n) with B x B tiles, right-hand side b and row
// norms norms2 (src/carpcg/sweep.hpp's row_norms2).
TilePlan build_tile_plan(const CsrView &a, const double *b, const double *norms2, Index n, Index tile);

} // namespace pgk::bench_tiles
