// The operations of src/aijcompound/ops.cpp on the device compound CSR: diagonal, block-diagonal
// inverse, scale, shift, diagonal scale, AXPY, the explicit transpose's values and the product.
// Each output scalar is written by one thread, computed with the reference's operations in the
// reference's order (entry.cuh), so every result equals the reference bit for bit; the only
// atomics are on integer flags (a minimum and a set bit: their result does not depend on order).
#include "kernels/aijcompound/entry.cuh"
#include "kernels/aijcompound/ops.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

namespace pgk::cuda::aijcompound {
namespace {

constexpr int kThreads = 256;
constexpr int kRowThreads = 128; // one block row per thread: bs accumulators (invert: a 8x16 block)
constexpr long long kMaxBlocks = 1 << 16;

int grid(Offset items, int threads = kThreads) { return grid_for(items, threads, kMaxBlocks); }

template <ac::EntryKind K, int BS> constexpr int esize_of() { return K == ac::EntryKind::block ? BS * BS : BS; }

template <ac::EntryKind K, int BS>
__global__ void __launch_bounds__(kRowThreads)
    mult_kernel(const int *__restrict__ rowptr, const int *__restrict__ colidx, const double *__restrict__ values,
                Offset nbrows, const double *__restrict__ x, const double *z, double *y) {
  constexpr int ES = esize_of<K, BS>();
  for (Offset bi = thread_index(); bi < nbrows; bi += grid_stride()) {
    double acc[BS];
#pragma unroll
    for (int i = 0; i < BS; ++i) acc[i] = 0.0;
    for (int e = rowptr[bi]; e < rowptr[bi + 1]; ++e) {
      const double *xb = x + Offset(colidx[e]) * BS;
      double xv[BS];
#pragma unroll
      for (int j = 0; j < BS; ++j) xv[j] = xb[j];
      apply_entry<K, BS>(values + Offset(e) * ES, 1, xv, acc);
    }
    // z may be y: each scalar is read before this thread writes it.
#pragma unroll
    for (int i = 0; i < BS; ++i) y[bi * BS + i] = z ? __dadd_rn(acc[i], z[bi * BS + i]) : acc[i];
  }
}

// ac::invert_block on [A | I] (row-major, in local memory): the same pivot choice (first row of
// largest |m[r][c]|), the same zero test and the same rounded operations in the same order.
template <int BS> __device__ bool gauss_jordan(double (&m)[BS][2 * BS]) {
  for (int c = 0; c < BS; ++c) {
    int p = c;
    for (int r = c + 1; r < BS; ++r)
      if (fabs(m[r][c]) > fabs(m[p][c])) p = r;
    if (m[p][c] == 0.0) return false;
    if (p != c)
      for (int j = 0; j < 2 * BS; ++j) {
        const double t = m[p][j];
        m[p][j] = m[c][j];
        m[c][j] = t;
      }
    const double piv = m[c][c];
    for (int j = 0; j < 2 * BS; ++j) m[c][j] = __ddiv_rn(m[c][j], piv);
    for (int r = 0; r < BS; ++r) {
      const double f = m[r][c];
      if (r == c || f == 0.0) continue;
      for (int j = 0; j < 2 * BS; ++j) m[r][j] = __dsub_rn(m[r][j], __dmul_rn(f, m[c][j]));
    }
  }
  return true;
}

// One block row per thread; a missing block or a zero pivot lowers *bad to the row.
template <ac::EntryKind K, int BS>
__global__ void __launch_bounds__(kRowThreads)
    invert_kernel(const int *__restrict__ diagpos, const double *__restrict__ values, Offset nbrows,
                  double *__restrict__ inv, unsigned *bad) {
  constexpr int ES = esize_of<K, BS>();
  for (Offset bi = thread_index(); bi < nbrows; bi += grid_stride()) {
    const int e = diagpos[bi];
    if (e < 0) { // the reference inverts a zero block: a zero pivot at once
      atomicMin(bad, static_cast<unsigned>(bi));
      continue;
    }
    double m[BS][2 * BS];
    for (int i = 0; i < BS; ++i)
      for (int j = 0; j < BS; ++j) {
        m[i][j] = expanded_value(K, BS, values + Offset(e) * ES, 1, i, j);
        m[i][BS + j] = i == j ? 1.0 : 0.0;
      }
    if (!gauss_jordan<BS>(m)) {
      atomicMin(bad, static_cast<unsigned>(bi));
      continue;
    }
    double *block = inv + bi * BS * BS;
    for (int i = 0; i < BS; ++i)
      for (int j = 0; j < BS; ++j) block[j * BS + i] = m[i][BS + j];
  }
}

__global__ void diagonal_kernel(const int *__restrict__ diagpos, const double *__restrict__ values, Offset nbrows,
                                ac::EntryKind kind, int bs, int es, double *__restrict__ d) {
  for (Offset t = thread_index(); t < nbrows * bs; t += grid_stride()) {
    const int e = diagpos[t / bs], i = static_cast<int>(t % bs);
    d[t] = e < 0 ? 0.0 : expanded_value(kind, bs, values + Offset(e) * es, 1, i, i);
  }
}

__global__ void scale_kernel(double *values, Offset n, double alpha) {
  for (Offset t = thread_index(); t < n; t += grid_stride()) values[t] = __dmul_rn(values[t], alpha);
}

__global__ void axpy_kernel(double *__restrict__ y, Offset n, double alpha, const double *__restrict__ x) {
  for (Offset t = thread_index(); t < n; t += grid_stride()) y[t] = __dadd_rn(y[t], __dmul_rn(alpha, x[t]));
}

// The real part sits on the whole scalar diagonal of a complex/quaternion entry.
__global__ void shift_kernel(const int *__restrict__ diagpos, double *__restrict__ values, Offset n, bool block, int bs,
                             int es, double alpha) {
  for (Offset bi = thread_index(); bi < n; bi += grid_stride()) {
    double *v = values + Offset(diagpos[bi]) * es;
    if (block)
      for (int i = 0; i < bs; ++i) v[i * bs + i] = __dadd_rn(v[i * bs + i], alpha);
    else v[0] = __dadd_rn(v[0], alpha);
  }
}

// Raises *flag when a scaling (l over nbrows blocks, then r over nbcols) varies inside a block.
__global__ void constancy_kernel(const double *l, Offset nl, const double *r, Offset nr, int bs, int *flag) {
  for (Offset t = thread_index(); t < nl + nr; t += grid_stride()) {
    const double *s = t < nl ? l : r;
    if (!s) continue;
    const double *b = s + (t < nl ? t : t - nl) * bs;
    for (int i = 1; i < bs; ++i)
      if (!(b[i] == b[0])) {
        atomicExch(flag, 1);
        break;
      }
  }
}

// The block row of entry e: the last row whose first entry is <= e (rows may be empty).
__device__ Offset row_of(const int *rowptr, Offset nbrows, int e) {
  Offset lo = 0, hi = nbrows; // rowptr[lo] <= e < rowptr[hi]
  while (hi - lo > 1) {
    const Offset mid = lo + (hi - lo) / 2;
    if (rowptr[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

// Each stored scalar (l_i * a_ij) * r_j; complex/quaternion entries take one factor per block.
__global__ void diagonal_scale_kernel(const int *__restrict__ rowptr, const int *__restrict__ colidx, Offset nbrows,
                                      double *__restrict__ values, Offset nvalues, bool block, int bs, int es,
                                      const double *__restrict__ l, const double *__restrict__ r) {
  for (Offset t = thread_index(); t < nvalues; t += grid_stride()) {
    const int e = static_cast<int>(t / es), c = static_cast<int>(t % es);
    const int i = block ? c % bs : 0, j = block ? c / bs : 0;
    double v = values[t];
    if (l) v = __dmul_rn(l[row_of(rowptr, nbrows, e) * bs + i], v);
    if (r) v = __dmul_rn(v, r[Offset(colidx[e]) * bs + j]);
    values[t] = v;
  }
}

__global__ void transpose_values_kernel(const double *__restrict__ in, const int *__restrict__ source, Offset n,
                                        ac::EntryKind kind, int bs, int es, double *__restrict__ out) {
  for (Offset t = thread_index(); t < n; t += grid_stride()) {
    const Offset p = t / es;
    out[t] = transposed_component(kind, bs, in + Offset(source[p]) * es, static_cast<int>(t % es));
  }
}

} // namespace

void diagonal(const DeviceCompoundCsr &a, double *d, void *stream) {
  if (a.nbrows == 0) return;
  diagonal_kernel<<<grid(a.nbrows * Offset(a.bs)), kThreads, 0, as_stream(stream)>>>(
      a.diagpos.data(), a.values.data(), a.nbrows, a.kind, a.bs, a.esize(), d);
  PGK_CUDA_CHECK_LAUNCH();
}

Index invert_block_diagonal(const DeviceCompoundCsr &a, double *inv, void *stream) {
  if (a.nbrows != a.nbcols) throw std::invalid_argument("aijcompound: invert_block_diagonal needs a square matrix");
  DeviceBuffer<unsigned> bad(1, stream);
  PGK_CUDA_CHECK(cudaMemsetAsync(bad.data(), 0xff, sizeof(unsigned), as_stream(stream))); // UINT_MAX: none
  if (a.nbrows > 0)
    with_shape(a.kind, a.bs, [&](auto kind, auto bs) {
      invert_kernel<decltype(kind)::value, decltype(bs)::value>
          <<<grid(a.nbrows, kRowThreads), kRowThreads, 0, as_stream(stream)>>>(a.diagpos.data(), a.values.data(),
                                                                               a.nbrows, inv, bad.data());
      PGK_CUDA_CHECK_LAUNCH();
    });
  const unsigned row = bad.get(0, stream);
  return row == UINT_MAX ? Index(-1) : static_cast<Index>(row);
}

void scale(DeviceCompoundCsr &a, double alpha, void *stream) {
  if (a.nvalues() == 0) return;
  scale_kernel<<<grid(a.nvalues()), kThreads, 0, as_stream(stream)>>>(a.values.data(), a.nvalues(), alpha);
  PGK_CUDA_CHECK_LAUNCH();
}

void shift(DeviceCompoundCsr &a, double alpha, void *stream) {
  if (a.missing_diagonal >= 0)
    throw std::invalid_argument("aijcompound: shift: block row " + std::to_string(a.missing_diagonal) +
                                " has no diagonal block");
  const Offset n = std::min(a.nbrows, a.nbcols);
  if (n == 0) return;
  shift_kernel<<<grid(n), kThreads, 0, as_stream(stream)>>>(a.diagpos.data(), a.values.data(), n,
                                                            a.kind == ac::EntryKind::block, a.bs, a.esize(), alpha);
  PGK_CUDA_CHECK_LAUNCH();
}

bool diagonal_scale(DeviceCompoundCsr &a, const double *l, const double *r, void *stream) {
  if (a.kind != ac::EntryKind::block) {
    DeviceBuffer<int> flag(1, stream);
    PGK_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0, sizeof(int), as_stream(stream)));
    const Offset nl = l ? a.nbrows : 0, nr = r ? a.nbcols : 0;
    if (nl + nr > 0) {
      constancy_kernel<<<grid(nl + nr), kThreads, 0, as_stream(stream)>>>(l, nl, r, nr, a.bs, flag.data());
      PGK_CUDA_CHECK_LAUNCH();
    }
    if (flag.get(0, stream) != 0) return false;
  }
  if (a.nvalues() == 0 || (!l && !r)) return true;
  diagonal_scale_kernel<<<grid(a.nvalues()), kThreads, 0, as_stream(stream)>>>(
      a.rowptr.data(), a.colidx.data(), a.nbrows, a.values.data(), a.nvalues(), a.kind == ac::EntryKind::block, a.bs,
      a.esize(), l, r);
  PGK_CUDA_CHECK_LAUNCH();
  return true;
}

void axpy(DeviceCompoundCsr &y, double alpha, const DeviceCompoundCsr &x, void *stream) {
  if (y.kind != x.kind || y.bs != x.bs || y.nbrows != x.nbrows || y.nbcols != x.nbcols || y.nnzb != x.nnzb)
    throw std::invalid_argument("aijcompound: axpy needs the same entry kind, block size and pattern");
  if (y.nvalues() == 0) return;
  axpy_kernel<<<grid(y.nvalues()), kThreads, 0, as_stream(stream)>>>(y.values.data(), y.nvalues(), alpha,
                                                                     x.values.data());
  PGK_CUDA_CHECK_LAUNCH();
}

void transpose_values(const DeviceCompoundCsr &a, const int *source, DeviceCompoundCsr &at, void *stream) {
  if (at.kind != a.kind || at.bs != a.bs || at.nbrows != a.nbcols || at.nbcols != a.nbrows || at.nnzb != a.nnzb)
    throw std::invalid_argument("aijcompound: transpose_values into a matrix that is not the transpose's pattern");
  if (at.nvalues() == 0) return;
  transpose_values_kernel<<<grid(at.nvalues()), kThreads, 0, as_stream(stream)>>>(
      a.values.data(), source, at.nvalues(), a.kind, a.bs, a.esize(), at.values.data());
  PGK_CUDA_CHECK_LAUNCH();
}

void mult(const DeviceCompoundCsr &a, const double *x, const double *z, double *y, void *stream) {
  if (a.nbrows == 0) return;
  with_shape(a.kind, a.bs, [&](auto kind, auto bs) {
    mult_kernel<decltype(kind)::value, decltype(bs)::value>
        <<<grid(a.nbrows, kRowThreads), kRowThreads, 0, as_stream(stream)>>>(a.rowptr.data(), a.colidx.data(),
                                                                             a.values.data(), a.nbrows, x, z, y);
    PGK_CUDA_CHECK_LAUNCH();
  });
}

} // namespace pgk::cuda::aijcompound
