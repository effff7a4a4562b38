#include "src/trilf/weights.hpp"

#include "src/common/csr_build.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace pgk::trilf {

const char *to_string(Weight w) { return w == Weight::Scaled ? "scaled" : "abs"; }

Weight parse_weight(const std::string &name) {
  if (name == "abs") return Weight::Abs;
  if (name == "scaled") return Weight::Scaled;
  throw std::invalid_argument("trilf: unknown weight '" + name + "' (abs, scaled)");
}

void check_matrix(const CsrView &a, const char *what) {
  std::string why;
  if (!validate_csr(a, &why)) throw std::invalid_argument(std::string(what) + ": invalid CSR: " + why);
  if (a.nrows != a.ncols) throw std::invalid_argument(std::string(what) + ": matrix is not square");
  if (!rows_sorted_unique(a, &why))
    throw std::invalid_argument(std::string(what) + ": rows must be sorted and unique: " + why);
  if (!a.values) return;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      if (!std::isfinite(a.values[e]))
        throw std::domain_error(std::string(what) + ": non-finite value " + std::to_string(a.values[e]) + " at (" +
                                std::to_string(i) + ", " + std::to_string(a.colidx[e]) + ")");
}

namespace {

// Row scale s_i of Weight::Scaled (see the header), as sqrt(s_i).
std::vector<double> sqrt_scales(const CsrView &a) {
  std::vector<double> r(static_cast<std::size_t>(a.nrows), 1.0);
  for (Index i = 0; i < a.nrows; ++i) {
    double diag = 0, offmax = 0;
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const double v = a.values ? std::fabs(a.values[e]) : 1.0;
      if (a.colidx[e] == i) diag = v;
      else offmax = std::max(offmax, v);
    }
    const double s = diag != 0 ? diag : (offmax != 0 ? offmax : 1.0);
    r[static_cast<std::size_t>(i)] = std::sqrt(s);
  }
  return r;
}

} // namespace

Csr weight_graph(const CsrView &a, Weight wkind) {
  check_matrix(a, "trilf weights");
  const Index n = a.nrows;
  // X = |A| without the diagonal, then X^T by the shared transpose (rows come out sorted).
  Csr x;
  x.nrows = x.ncols = n;
  x.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index i = 0; i < n; ++i) {
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      if (a.colidx[e] == i) continue;
      x.colidx.push_back(a.colidx[e]);
      x.values.push_back(a.values ? std::fabs(a.values[e]) : 1.0);
    }
    x.rowptr[static_cast<std::size_t>(i) + 1] = static_cast<Index>(x.colidx.size());
  }
  const Csr xt = transpose(view_of(x));
  const std::vector<double> r = wkind == Weight::Scaled ? sqrt_scales(a) : std::vector<double>();

  // Row i of W = merge of row i of X and row i of X^T (both sorted, unique).
  Csr w;
  w.nrows = w.ncols = n;
  w.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  w.colidx.reserve(2 * x.colidx.size());
  w.values.reserve(2 * x.colidx.size());
  for (Index i = 0; i < n; ++i) {
    Index p = x.rowptr[i], pe = x.rowptr[i + 1];
    Index q = xt.rowptr[i], qe = xt.rowptr[i + 1];
    while (p < pe || q < qe) {
      Index j;
      double xij = 0, xji = 0;
      if (q >= qe || (p < pe && x.colidx[p] < xt.colidx[q])) {
        j = x.colidx[p];
        xij = x.values[p++];
      } else if (p >= pe || xt.colidx[q] < x.colidx[p]) {
        j = xt.colidx[q];
        xji = xt.values[q++];
      } else {
        j = x.colidx[p];
        xij = x.values[p++];
        xji = xt.values[q++];
      }
      double v = xij + xji; // commutative: w_ij == w_ji bit for bit
      if (wkind == Weight::Scaled) v = v / (r[static_cast<std::size_t>(i)] * r[static_cast<std::size_t>(j)]);
      if (!(v > 0)) continue; // stored zeros and underflow are not edges
      w.colidx.push_back(j);
      w.values.push_back(v);
    }
    w.rowptr[static_cast<std::size_t>(i) + 1] = static_cast<Index>(w.colidx.size());
  }
  // Overflow of a sum of two finite values would give +Inf: report it rather than let an
  // infinite weight win every comparison silently.
  for (std::size_t e = 0; e < w.values.size(); ++e)
    if (!std::isfinite(w.values[e])) throw std::domain_error("trilf weights: edge weight overflows");
  return w;
}

double edge_weight(const CsrView &w, Index i, Index j) {
  const Index *b = w.colidx + w.rowptr[i], *e = w.colidx + w.rowptr[i + 1];
  const Index *it = std::lower_bound(b, e, j);
  return (it != e && *it == j) ? w.values[it - w.colidx] : 0.0;
}

} // namespace pgk::trilf
