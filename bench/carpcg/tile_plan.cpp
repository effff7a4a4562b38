// The device data of a tile sweep; see tiles.hpp.
#include "bench/carpcg/tiles.hpp"

#include <stdexcept>

namespace pgk::bench_tiles {

namespace {

// The rows of tile (tx, ty) in natural order and the level of each (tiles.hpp).
void tile_levels(const CsrView &a, Index n, Index tile, Index tx, Index ty, std::vector<Index> &rows, std::vector<int> &level, std::vector<int> &last)
{
  rows.clear();
  level.clear();
  for (Index y = ty * tile; y < std::min(n, (ty + 1) * tile); ++y)
    for (Index x = tx * tile; x < std::min(n, (tx + 1) * tile); ++x) rows.push_back(x + n * y);
  for (Index row : rows) {
    int l = 0;
    for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) l = std::max(l, last[a.colidx[k]]);
    level.push_back(++l);
    for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) last[a.colidx[k]] = l;
  }
  for (Index row : rows) // reset for the next tile
    for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) last[a.colidx[k]] = 0;
}

} // namespace

TilePlan build_tile_plan(const CsrView &a, const double *b, const double *norms2, Index n, Index tile)
{
  TilePlan p;
  p.n        = n;
  p.tile     = tile;
  p.ntiles_x = (n + tile - 1) / tile;
  p.ntiles   = p.ntiles_x * p.ntiles_x;
  p.max_rows = static_cast<int>(tile * tile);
  p.region   = static_cast<int>((tile + 2) * (tile + 2));
  if (p.region > 65535) throw std::invalid_argument("tile too large for 16-bit local columns");
  for (Index r = 0; r < a.nrows; ++r) p.width = std::max(p.width, static_cast<int>(a.rowptr[r + 1] - a.rowptr[r]));
  std::vector<std::vector<Index>> rows(p.ntiles);
  std::vector<std::vector<int>>   levels(p.ntiles);
  std::vector<int>                last(a.ncols, 0);
  for (Index t = 0; t < p.ntiles; ++t) {
    tile_levels(a, n, tile, t % p.ntiles_x, t / p.ntiles_x, rows[t], levels[t], last);
    for (int l : levels[t]) p.max_levels = std::max(p.max_levels, l);
  }
  const size_t rs = p.max_rows, es = static_cast<size_t>(p.width) * p.max_rows, ls = p.max_levels + 1;
  p.nlevels.assign(p.ntiles, 0);
  p.level_ptr.assign(p.ntiles * ls, 0);
  p.row_len.assign(p.ntiles * rs, 0);
  p.rhs.assign(p.ntiles * rs, 0.0);
  p.norms2.assign(p.ntiles * rs, 0.0);
  p.values.assign(p.ntiles * es, 0.0);
  p.local_col.assign(p.ntiles * es, 0);
  p.tiles_of_colour.assign(4, {});
  p.colour_levels.assign(4, 0);
  for (Index t = 0; t < p.ntiles; ++t) {
    const Index tx = t % p.ntiles_x, ty = t / p.ntiles_x, x0 = tx * tile, y0 = ty * tile;
    const int   colour = static_cast<int>(2 * (ty % 2) + tx % 2), nl = rows[t].empty() ? 0 : *std::max_element(levels[t].begin(), levels[t].end());
    p.tiles_of_colour[colour].push_back(static_cast<int>(t));
    p.colour_levels[colour] = std::max(p.colour_levels[colour], nl);
    p.nlevels[t]            = nl;
    int stored              = 0;
    for (int l = 1; l <= nl; ++l) { // stored rows: level by level, natural order inside a level
      p.level_ptr[t * ls + l - 1] = stored;
      for (size_t i = 0; i < rows[t].size(); ++i) {
        if (levels[t][i] != l) continue;
        const Index  row = rows[t][i];
        const size_t s   = t * rs + stored;
        p.row_len[s]     = static_cast<int>(a.rowptr[row + 1] - a.rowptr[row]);
        p.rhs[s]         = b[row];
        p.norms2[s]      = norms2[row];
        for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) {
          const Index j = a.colidx[k], gx = j % n, gy = j / n;
          const Index lx = gx - x0 + 1, ly = gy - y0 + 1;
          if (lx < 0 || ly < 0 || lx >= tile + 2 || ly >= tile + 2) throw std::logic_error("a column outside the tile's region");
          const size_t e = t * es + static_cast<size_t>(k - a.rowptr[row]) * rs + stored;
          p.values[e]    = a.values[k];
          p.local_col[e] = static_cast<std::uint16_t>(lx + (tile + 2) * ly);
        }
        ++stored;
      }
    }
    p.level_ptr[t * ls + nl] = stored;
  }
  return p;
}

} // namespace pgk::bench_tiles
