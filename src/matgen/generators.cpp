// Spec strings, the table of kinds and their parameters, validation, and dispatch to the
// stencil (stencils.cpp) and random graph (graphs.cpp, rgg2d.cpp) builders.
#include "src/matgen/generators.hpp"

#include "src/common/csr_build.hpp"
#include "src/matgen/detail.hpp"
#include "src/matgen/kinds.hpp"
#include "src/matgen/parse_number.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace pgk::gen {

namespace {

using detail::kHubdegDefault;
using detail::Kind;
using detail::KindDef;
using detail::ParamDef;
using detail::Params;
using detail::table;

constexpr std::int64_t kIndexMax = std::numeric_limits<Index>::max();

const char *const kGridNames[] = {"nx", "ny", "nz"};

// Name of grid size k (< grid_dims) of a kind.
const char *grid_name(const KindDef &d, int k) { return d.grid_names ? d.grid_names[k] : kGridNames[k]; }

std::string known_kinds() {
  std::string list;
  for (const auto &d : table()) list += (list.empty() ? "" : ", ") + std::string(d.name);
  return list;
}

const KindDef &find_kind(const std::string &name) {
  for (const auto &d : table()) {
    if (name == d.name) return d;
  }
  throw std::invalid_argument("unknown matrix kind '" + name + "'; known kinds: " + known_kinds());
}

std::vector<std::string> param_names(const KindDef &d) {
  std::vector<std::string> names;
  for (int k = 0; k < d.grid_dims; ++k) names.emplace_back(grid_name(d, k));
  if (d.grid_dims > 0) names.emplace_back("n");
  for (const auto &p : d.params) names.emplace_back(p.name);
  return names;
}

// Typed access to a kind's parameters with its defaults; all errors name kind and key.
class Reader {
public:
  Reader(const KindDef &def, const Spec &spec) : def_(def), spec_(spec) {}

  [[noreturn]] void fail(const std::string &what) const {
    throw std::invalid_argument(std::string(def_.name) + ": " + what);
  }

  bool given(const std::string &key) const { return spec_.params.count(key) != 0; }

  // Integer in [lo, hi]; `text` is the value to use (given or default).
  std::int64_t integer(const std::string &key, const std::string &text, std::int64_t lo, std::int64_t hi) const {
    std::int64_t v = 0;
    const NumberStatus st = parse_int64(text, v);
    if (st == NumberStatus::Invalid) fail("parameter '" + key + "' must be an integer, got '" + text + "'");
    if (st == NumberStatus::OutOfRange || v < lo || v > hi) {
      std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
      if (hi == kIndexMax && kIndexMax < std::numeric_limits<std::int64_t>::max())
        range += " (the 32-bit Index range; build with PGK_INDEX_64 for more)";
      fail("parameter '" + key + "' = " + text + " is outside " + range);
    }
    return v;
  }

  double real(const std::string &key, const std::string &text) const {
    double v = 0;
    if (parse_double(text, v) != NumberStatus::Ok || !std::isfinite(v))
      fail("parameter '" + key + "' must be a finite number, got '" + text + "'");
    return v;
  }

  std::uint64_t seed(const std::string &key, const std::string &text) const {
    std::uint64_t v = 0;
    if (parse_uint64(text, v) != NumberStatus::Ok)
      fail("parameter '" + key + "' must be an unsigned 64-bit integer, got '" + text + "'");
    return v;
  }

  // The text of a declared, non-grid parameter: given or default.
  std::string text(const std::string &key) const {
    const auto it = spec_.params.find(key);
    if (it != spec_.params.end()) return it->second;
    for (const auto &p : def_.params) {
      if (key == p.name) {
        if (!p.fallback) fail("missing parameter '" + key + "'");
        return p.fallback;
      }
    }
    fail("internal error: undeclared parameter '" + key + "'");
  }

  std::int64_t integer(const std::string &key, std::int64_t lo, std::int64_t hi) const {
    return integer(key, text(key), lo, hi);
  }
  double real(const std::string &key) const { return real(key, text(key)); }
  std::uint64_t seed() const { return seed("seed", text("seed")); }

  // Grid size nx / ny / nz: given, else n, else missing.
  Index dim(const char *key) const {
    if (given(key)) return static_cast<Index>(integer(key, spec_.params.at(key), 0, kIndexMax));
    if (given("n")) return static_cast<Index>(integer("n", spec_.params.at("n"), 0, kIndexMax));
    fail(std::string("missing parameter '") + key + "' (or n to set every dimension)");
  }

private:
  const KindDef &def_;
  const Spec &spec_;
};

// rows = a * b * c, or an error if it exceeds Index.
Index checked_product(const Reader &r, std::int64_t a, std::int64_t b, std::int64_t c) {
  std::int64_t v = a;
  for (const std::int64_t f : {b, c}) {
    if (f != 0 && v > kIndexMax / f)
      r.fail("matrix size exceeds the Index range (" + std::to_string(kIndexMax) +
             " rows); build with PGK_INDEX_64 or use a smaller grid");
    v *= f;
  }
  return static_cast<Index>(v);
}

void check_keys(const KindDef &def, const Reader &r, const Spec &spec) {
  const std::vector<std::string> names = param_names(def);
  for (const auto &[key, value] : spec.params) {
    bool known = false;
    for (const auto &n : names) known = known || key == n;
    if (!known) {
      std::string accepted;
      for (const auto &n : names) accepted += (accepted.empty() ? "" : ", ") + n;
      r.fail("unknown parameter '" + key + "' (accepted: " + accepted + ")");
    }
  }
}

// The grid sizes nx, ny, nz (grid kinds) or the vertex count n.
void read_sizes(const KindDef &def, const Reader &r, Params &p) {
  if (def.grid_dims > 0) {
    p.nx = r.dim(grid_name(def, 0));
    p.ny = r.dim(grid_name(def, 1));
    p.nz = def.grid_dims == 3 ? r.dim(grid_name(def, 2)) : 1;
    // Validate an explicit n even when every dimension overrides it.
    if (r.given("n")) r.integer("n", 0, kIndexMax);
    const Index nodes = checked_product(r, p.nx, p.ny, p.nz);
    checked_product(r, nodes, detail::block_size_of(def.kind), 1);
    if (def.kind == Kind::Quatsurf && detail::quatsurf_coord_bound(p.nx, p.ny) > detail::kQuatsurfMaxCoord)
      r.fail("nu and nv too large for the exact integer geometry: (12 ceil(nv/8) + 5) ceil(nu/8) must be at most 2^21");
  } else {
    p.n = static_cast<Index>(r.integer("n", 0, kIndexMax));
  }
}

void read_powerlaw(const Reader &r, Params &p) {
  // Sum of the 2^30-scaled integer weights must fit in 64 bits.
  if (static_cast<std::uint64_t>(p.n) > (std::uint64_t{1} << 32)) r.fail("n must be at most 2^32");
  p.communities = static_cast<Index>(r.integer("communities", 1, kIndexMax));
  p.avgdeg = r.real("avgdeg");
  if (p.avgdeg < 0) r.fail("parameter 'avgdeg' must be >= 0");
  if (static_cast<double>(p.n) * p.avgdeg / 2 > static_cast<double>(kIndexMax))
    r.fail("n * avgdeg / 2 edges exceed the Index range");
  p.gamma = r.real("gamma");
  // 1/(gamma - 1) <= 100 keeps the fixed-point power-law weights in range; the tail
  // of a gamma closer to 1 could not be represented anyway.
  if (!(p.gamma >= 1.01)) r.fail("parameter 'gamma' must be >= 1.01");
  p.mixing = r.real("mixing");
  if (p.mixing < 0 || p.mixing > 1) r.fail("parameter 'mixing' must be in [0, 1]");
  p.seed = r.seed();
}

// The parameters besides the sizes.
void read_kind_params(Kind kind, const Reader &r, Params &p) {
  switch (kind) {
  case Kind::Elast3d:
    p.lambda = r.real("lambda");
    p.mu = r.real("mu");
    break;
  case Kind::Aniso2d: p.variant = static_cast<int>(r.integer("variant", 1, 3)); break;
  case Kind::Aniso2d5:
    p.ax = r.real("ax");
    p.ay = r.real("ay");
    if (!(p.ax > 0 && p.ay > 0)) r.fail("parameters 'ax', 'ay' must be > 0");
    break;
  case Kind::Aniso3d:
    p.ax = r.real("ax");
    p.ay = r.real("ay");
    p.az = r.real("az");
    if (!(p.ax > 0 && p.ay > 0 && p.az > 0)) r.fail("parameters 'ax', 'ay', 'az' must be > 0");
    break;
  case Kind::Convdiff2d:
  case Kind::Convdiff3d: p.peclet = r.real("peclet"); break;
  case Kind::Fem2d:
    p.side = r.real("side"), p.reaction = r.real("reaction");
    if (!(p.side > 0)) r.fail("parameter 'side' must be > 0");
    break;
  case Kind::Helmholtz2d: p.kh = r.real("kh"), p.peclet = r.real("peclet"); break;
  case Kind::Helmholtz2dc: p.kh = r.real("kh"), p.eps = r.real("eps"); break;
  case Kind::Quatsurf:
    p.shift = r.real("shift");
    p.seed = r.seed();
    break;
  case Kind::Random:
    p.deg = static_cast<Index>(r.integer("deg", 0, kIndexMax));
    p.seed = r.seed();
    break;
  case Kind::Rgg2d:
    // Keeps the integer radius computation (rgg2d_radius2) inside 64 bits.
    if (static_cast<std::uint64_t>(p.n) > (std::uint64_t{1} << 48)) r.fail("n must be at most 2^48");
    p.deg = static_cast<Index>(r.integer("deg", 0, kIndexMax));
    p.seed = r.seed();
    break;
  case Kind::Disconnected:
    p.parts = static_cast<Index>(r.integer("parts", 1, kIndexMax));
    p.deg = static_cast<Index>(r.integer("deg", 0, kIndexMax));
    p.seed = r.seed();
    break;
  case Kind::Hubrow: {
    p.deg = static_cast<Index>(r.integer("deg", 0, kIndexMax));
    const Index others = p.n > 0 ? p.n - 1 : 0;
    p.hubdeg = r.given("hubdeg") ? static_cast<Index>(r.integer("hubdeg", 0, others)) : others;
    p.seed = r.seed();
    break;
  }
  case Kind::Powerlaw: read_powerlaw(r, p); break;
  case Kind::Communities:
    p.intra = static_cast<Index>(r.integer("intra", 0, 1 << 20));
    p.inter = static_cast<Index>(r.integer("inter", 0, 1 << 20));
    p.deg = p.intra + p.inter + 2; // for the size check below (path: 2 more)
    p.seed = r.seed();
    break;
  default: break;
  }
}

} // namespace

namespace detail {

Params resolve(const Spec &spec) {
  const KindDef &def = find_kind(spec.kind);
  const Reader r(def, spec);
  check_keys(def, r, spec);
  Params p;
  p.kind = def.kind;
  read_sizes(def, r, p);
  read_kind_params(def.kind, r, p);
  if (def.kind == Kind::Random || def.kind == Kind::Disconnected || def.kind == Kind::Hubrow ||
      def.kind == Kind::Rgg2d || def.kind == Kind::Communities) {
    // Fail here, not after minutes of drawing edges that no CSR could hold.
    const std::int64_t per_row = std::min<std::int64_t>(p.deg, p.n > 0 ? p.n - 1 : 0) + 1;
    if (p.n > 0 && per_row > kIndexMax / p.n)
      r.fail("n * deg exceeds the Index range; build with PGK_INDEX_64 or lower deg");
  }
  return p;
}

Index block_size_of(Kind k) {
  switch (k) {
  case Kind::Elast3d:
  case Kind::Vec3d27: return 3;
  case Kind::Helmholtz2dc: return 2;
  case Kind::Quatsurf: return 4;
  default: return 1;
  }
}

Index nrows_of(const Params &p) {
  switch (p.kind) {
  case Kind::Lap2d5:
  case Kind::Aniso2d:
  case Kind::Aniso2d5:
  case Kind::Convdiff2d:
  case Kind::Fem2d:
  case Kind::Helmholtz2d:
  case Kind::Helmholtz2dc:
  case Kind::Quatsurf:
  case Kind::Lap3d7:
  case Kind::Lap3d27:
  case Kind::Aniso3d:
  case Kind::Elast3d:
  case Kind::Vec3d27:
  case Kind::Convdiff3d: return block_size_of(p.kind) * (p.nx * p.ny * p.nz); // checked by resolve
  default: return p.n;
  }
}

bool is_grid_kind(Kind k) {
  return !(k == Kind::Random || k == Kind::Disconnected || k == Kind::Hubrow || k == Kind::Powerlaw ||
           k == Kind::Rgg2d || k == Kind::Communities);
}

} // namespace detail

Spec parse_spec(const std::string &text) {
  auto trim = [](std::string s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return std::string();
    const auto last = s.find_last_not_of(" \t");
    return s.substr(first, last - first + 1);
  };
  auto fail = [&text](const std::string &what) { throw std::invalid_argument("matrix spec '" + text + "': " + what); };

  Spec spec;
  const auto colon = text.find(':');
  spec.kind = trim(text.substr(0, colon));
  if (spec.kind.empty()) fail("missing kind (expected kind:key=value,...)");
  if (colon != std::string::npos) {
    const std::string rest = text.substr(colon + 1);
    std::size_t pos = 0;
    for (;;) {
      const auto comma = rest.find(',', pos);
      const std::string item = rest.substr(pos, comma == std::string::npos ? comma : comma - pos);
      const auto eq = item.find('=');
      if (trim(item).empty()) fail("empty parameter (expected key=value)");
      if (eq == std::string::npos) fail("parameter '" + trim(item) + "' has no value (expected key=value)");
      const std::string key = trim(item.substr(0, eq));
      const std::string value = trim(item.substr(eq + 1));
      if (key.empty()) fail("parameter '" + trim(item) + "' has no name (expected key=value)");
      if (value.empty()) fail("parameter '" + key + "' has an empty value");
      if (!spec.params.emplace(key, value).second) fail("parameter '" + key + "' given twice");
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  detail::resolve(spec); // reports unknown kinds/keys and bad values now, not at use
  return spec;
}

std::string to_string(const Spec &spec) {
  std::string s = spec.kind;
  char sep = ':';
  for (const auto &[key, value] : spec.params) {
    s += sep + key + "=" + value;
    sep = ',';
  }
  return s;
}

Shape describe(const Spec &spec) {
  const Params p = detail::resolve(spec);
  Shape shape;
  shape.nrows = detail::nrows_of(p);
  shape.block_size = detail::block_size_of(p.kind);
  shape.symmetric =
      !((p.kind == Kind::Convdiff2d || p.kind == Kind::Convdiff3d || p.kind == Kind::Helmholtz2d) && p.peclet != 0);
  if (p.kind == Kind::Helmholtz2dc) shape.symmetric = detail::helmholtz2dc_damping(p) == 0;
  return shape;
}

Csr generate_rows(const Spec &spec, Index row_begin, Index row_end) {
  const Params p = detail::resolve(spec);
  const Index n = detail::nrows_of(p);
  if (row_begin < 0 || row_begin > row_end || row_end > n)
    throw std::invalid_argument(spec.kind + ": row range [" + std::to_string(row_begin) + ", " +
                                std::to_string(row_end) + ") is not inside [0, " + std::to_string(n) + ")");
  if (detail::is_grid_kind(p.kind)) return detail::stencil_rows(p, row_begin, row_end);
  Csr full = detail::graph_matrix(p); // not const: returned by move, not copied
  if (row_begin == 0 && row_end == n) return full;
  return row_slice(full, row_begin, row_end);
}

std::vector<Index> planted_communities(const Spec &spec) {
  const Params p = detail::resolve(spec);
  if (p.kind != Kind::Powerlaw && p.kind != Kind::Disconnected && p.kind != Kind::Communities)
    throw std::invalid_argument(spec.kind + ": no planted communities (only powerlaw, disconnected and communities)");
  return detail::graph_communities(p);
}

const std::vector<KindInfo> &kinds() {
  static const std::vector<KindInfo> infos = [] {
    std::vector<KindInfo> out;
    for (const auto &d : table()) {
      std::string params;
      auto add = [&params](const std::string &word) { params += (params.empty() ? "" : " ") + word; };
      for (int k = 0; k < d.grid_dims; ++k) add(grid_name(d, k));
      if (d.grid_dims > 0) add("(n sets all)");
      for (const auto &p : d.params) add(p.fallback ? std::string(p.name) + "=" + p.fallback : std::string(p.name));
      out.push_back({d.name, params, d.help});
    }
    return out;
  }();
  return infos;
}

} // namespace pgk::gen
