// The table of generator kinds and their parameters (internal to src/matgen): names, defaults,
// grid dimensions and help texts, read by generators.cpp's parser and by kinds().
#pragma once

#include "src/matgen/detail.hpp"

#include <vector>

namespace pgk::gen::detail {

// A parameter besides the grid sizes; its type is checked where resolve() reads it.
struct ParamDef {
  const char *name;
  const char *fallback; // default value; nullptr: required
};

struct KindDef {
  const char *name;
  Kind kind;
  int grid_dims;                // 2 or 3: has nx, ny[, nz] and the alias n; 0: no grid
  std::vector<ParamDef> params; // besides the grid sizes
  const char *help;
  // Names of the grid sizes (grid_dims of them) when they are not nx, ny, nz: quatsurf's
  // torus is nu x nv vertices, named after its surface parameters (u around the axis).
  const char *const *grid_names = nullptr;
};

// hubdeg's default depends on n; it is spelled like this in -help and resolved in code.
constexpr const char *kHubdegDefault = "n-1";

const std::vector<KindDef> &table();

} // namespace pgk::gen::detail
