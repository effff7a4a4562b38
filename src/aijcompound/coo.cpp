// COO assembly map and its host value assembly.
#include "src/aijcompound/coo.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pgk::aijcompound {

namespace {

bool kept(const Index *coo_i, const Index *coo_j, Index k) { return coo_i[k] >= 0 && coo_j[k] >= 0; }

void check_input(Index ncoo, const Index *coo_i, const Index *coo_j, Index nrows, Index ncols, int bs) {
  check_kind(EntryKind::block, bs);
  auto fail = [](const std::string &what) { throw std::invalid_argument("aijcompound: COO: " + what); };
  if (ncoo < 0 || nrows < 0 || ncols < 0) fail("negative size");
  if (nrows % bs != 0 || ncols % bs != 0) fail("sizes are not multiples of the block size " + std::to_string(bs));
  if (ncoo > 0 && (!coo_i || !coo_j)) fail("null index array");
  for (Index k = 0; k < ncoo; ++k)
    if (kept(coo_i, coo_j, k) && (coo_i[k] >= nrows || coo_j[k] >= ncols))
      fail("entry " + std::to_string(k) + " (" + std::to_string(coo_i[k]) + ", " + std::to_string(coo_j[k]) +
           ") outside the " + std::to_string(nrows) + " x " + std::to_string(ncols) + " matrix");
}

// The block pattern: kept entries bucketed by block row (a counting sort), then each row's block
// columns sorted and made unique.
void build_pattern(Index ncoo, const Index *coo_i, const Index *coo_j, CompoundCsr &p) {
  const int bs = p.bs;
  std::vector<Index> start(static_cast<std::size_t>(p.nbrows) + 1, 0);
  for (Index k = 0; k < ncoo; ++k)
    if (kept(coo_i, coo_j, k)) ++start[coo_i[k] / bs + 1];
  for (Index r = 0; r < p.nbrows; ++r) start[r + 1] += start[r];
  std::vector<Index> bucket(static_cast<std::size_t>(start.back()));
  std::vector<Index> next(start.begin(), start.end() - 1);
  for (Index k = 0; k < ncoo; ++k)
    if (kept(coo_i, coo_j, k)) bucket[next[coo_i[k] / bs]++] = k;
  p.rowptr.assign(1, 0);
  p.colidx.clear();
  for (Index r = 0; r < p.nbrows; ++r) {
    const auto first = static_cast<std::ptrdiff_t>(p.colidx.size());
    for (Index q = start[r]; q < start[r + 1]; ++q) p.colidx.push_back(coo_j[bucket[q]] / bs);
    std::sort(p.colidx.begin() + first, p.colidx.end());
    p.colidx.erase(std::unique(p.colidx.begin() + first, p.colidx.end()), p.colidx.end());
    p.rowptr.push_back(static_cast<Index>(p.colidx.size()));
  }
  p.values.assign(static_cast<std::size_t>(p.nnzb()) * static_cast<std::size_t>(p.esize()), 0.0);
}

} // namespace

CooMap coo_map(Index ncoo, const Index *coo_i, const Index *coo_j, Index nrows, Index ncols, int bs) {
  check_input(ncoo, coo_i, coo_j, nrows, ncols, bs);
  CooMap m;
  CompoundCsr &p = m.pattern;
  p.kind = EntryKind::block;
  p.bs = bs;
  p.nbrows = nrows / bs;
  p.nbcols = ncols / bs;
  build_pattern(ncoo, coo_i, coo_j, p);
  // The target scalar of every kept entry (-1: ignored), counted per target.
  const Index nvalues = static_cast<Index>(p.values.size());
  std::vector<Index> target(static_cast<std::size_t>(ncoo), -1);
  m.jmap.assign(static_cast<std::size_t>(nvalues) + 1, 0);
  for (Index k = 0; k < ncoo; ++k) {
    if (!kept(coo_i, coo_j, k)) continue;
    const Index bi = coo_i[k] / bs, bj = coo_j[k] / bs;
    const auto first = p.colidx.begin() + p.rowptr[bi], last = p.colidx.begin() + p.rowptr[bi + 1];
    const Index e = static_cast<Index>(std::lower_bound(first, last, bj) - p.colidx.begin());
    target[k] = e * bs * bs + (coo_j[k] % bs) * bs + coo_i[k] % bs;
    ++m.jmap[target[k] + 1];
  }
  for (Index t = 0; t < nvalues; ++t) m.jmap[t + 1] += m.jmap[t];
  // Filling in increasing k keeps every target's entries in increasing k.
  m.perm.resize(static_cast<std::size_t>(m.jmap.back()));
  std::vector<Index> next(m.jmap.begin(), m.jmap.end() - 1);
  for (Index k = 0; k < ncoo; ++k)
    if (target[k] >= 0) m.perm[next[target[k]]++] = k;
  return m;
}

void coo_assemble(const Index *jmap, const Index *perm, const double *v, Index nvalues, bool add, double *values) {
  for (Index t = 0; t < nvalues; ++t) {
    if (jmap[t] == jmap[t + 1]) {
      if (!add) values[t] = 0.0;
      continue;
    }
    double sum = 0.0;
    for (Index p = jmap[t]; p < jmap[t + 1]; ++p) sum += v[perm[p]];
    values[t] = (add ? values[t] : 0.0) + sum;
  }
}

} // namespace pgk::aijcompound
