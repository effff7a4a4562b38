// Named, parameterised test matrices for the unit tests, the examples and the benchmarks.
//
// A matrix is named by a spec string "kind:key=value,key=value", e.g. "lap3d7:n=64" or
// "powerlaw:n=100000,gamma=2.2,seed=3", so that a benchmark line or a failing test can be
// reproduced from its log. Output is bit-identical across runs, compilers and platforms:
// randomness comes from pgk::SplitMix64 (rng.hpp), random values are dyadic rationals
// whose sums are exact, and no libm function influences the structure.
//
// Every kind stores the diagonal in every row; grid kinds use the natural lexicographic
// ordering, x fastest: node (x, y, z) has index x + nx * (y + ny * z). Block kinds interleave:
// node k owns rows block_size * k .. block_size * k + block_size - 1. helmholtz2dc and quatsurf
// are the real expansions of complex and quaternion matrices in Mat aijcompound's entry form
// (src/matgen/detail.hpp says exactly how).
#pragma once

#include "src/common/csr.hpp"

#include <map>
#include <string>
#include <vector>

namespace pgk::gen {

struct Spec {
  std::string kind;
  std::map<std::string, std::string> params; // values as written; validated when used
};

// Parses "kind" or "kind:key=value,...". For grid kinds n=<k> sets every dimension not
// given explicitly ("lap3d7:n=64,nz=8" is 64 x 64 x 8). Spaces around names and values are
// ignored. Throws std::invalid_argument naming the problem on an unknown kind, an unknown,
// duplicate, missing or malformed parameter, or a value out of range.
Spec parse_spec(const std::string &text);

// Inverse of parse_spec: "kind" or "kind:key=value,..." with keys in sorted order.
std::string to_string(const Spec &spec);

struct Shape {
  Index nrows;      // == ncols: every kind is square
  Index block_size; // 3 elast3d (displacement components), 2 helmholtz2dc (complex), 4 quatsurf
                    // (quaternion), else 1
  bool symmetric;   // values exactly symmetric (structure is always symmetric)
};

// Size and properties without generating. Throws std::invalid_argument like parse_spec,
// also when the size does not fit in Index.
Shape describe(const Spec &spec);

// Rows [row_begin, row_end) of the global matrix: rowptr local (starts at 0), colidx
// global, sorted, unique, values filled. This is how MPI ranks generate only their own
// rows; any split concatenates to generate(spec), also one that cuts a block row. Grid kinds
// build only the requested rows; random kinds build the whole graph and slice it. Throws
// std::invalid_argument on a bad spec or range, std::overflow_error if the slice's nnz does
// not fit in Index.
Csr generate_rows(const Spec &spec, Index row_begin, Index row_end);

inline Csr generate(const Spec &s) { return generate_rows(s, 0, describe(s).nrows); }

// Planted community of each vertex, for the kinds that have them: "communities" and "powerlaw" (values in
// [0, communities)) and "disconnected" (the part a vertex was generated in, values in
// [0, parts); no edge joins two parts, but a sparse part need not itself be connected).
// Throws std::invalid_argument for other kinds.
std::vector<Index> planted_communities(const Spec &spec);

struct KindInfo {
  std::string name;   // e.g. "lap3d7"
  std::string params; // e.g. "nx ny nz (n sets all)"; defaults shown as key=value
  std::string help;   // one line
};

const std::vector<KindInfo> &kinds(); // in the order of -help output

} // namespace pgk::gen
