// Shared by issue 11's device sweep experiments (tile_sweep.cu, flag_sweep.cu, chain_sweep.cu): uploads, CUDA-event
// timing, cuSPARSE's CSR SpMV (a MatMult's unit), the library's multicolor double sweep (the
// same-run baseline) and its bits after two sweeps, on one fem2d problem. Bench code: no PETSc.
#pragma once

#include "bench/carpcg/tiles.hpp"
#include "bench/common/bench_common.hpp"
#include "bench/common/cusparse_check.hpp"
#include "kernels/carpcg/carpcg_gpu.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/event_timer.hpp"
#include "src/carpcg/coloring.hpp"
#include "src/carpcg/sweep.hpp"
#include "src/common/csr.hpp"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstring>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace pgk::bench_sweeps {

template <class T> inline cuda::DeviceBuffer<T> upload(const std::vector<T> &h, cudaStream_t s)
{
  cuda::DeviceBuffer<T> d;
  d.upload(h.data(), h.size(), s);
  return d;
}

// Median over `reps` of the time of `inner` calls of `body` between two CUDA events, in
// microseconds a call.
inline double time_us(cudaStream_t s, int reps, int inner, const std::function<void()> &body)
{
  cuda::EventTimer timer(2);
  return 1e6 * bench::measure(0, reps, [&] {
                 timer.record(0, s);
                 for (int i = 0; i < inner; ++i) body();
                 timer.record(1, s);
                 return 1e-3 * timer.ms(0, 1) / inner;
               }).median;
}

// cuSPARSE's CSR SpMV y = A x on the same matrix (what MATAIJCUSPARSE's MatMult calls), us a call.
inline double spmv_us(const Csr &a, cudaStream_t s)
{
  static_assert(sizeof(Index) == 4 || sizeof(Index) == 8, "Index");
  const cusparseIndexType_t it = sizeof(Index) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  auto                      rp = upload(a.rowptr, s), ci = upload(a.colidx, s);
  auto                      v = upload(a.values, s), x = upload(std::vector<double>(a.ncols, 1.0), s), y = upload(std::vector<double>(a.nrows, 0.0), s);
  cusparseHandle_t          h;
  PGK_BENCH_CUSPARSE(cusparseCreate(&h));
  PGK_BENCH_CUSPARSE(cusparseSetStream(h, s));
  cusparseSpMatDescr_t m;
  cusparseDnVecDescr_t vx, vy;
  PGK_BENCH_CUSPARSE(cusparseCreateCsr(&m, a.nrows, a.ncols, a.nnz(), rp.data(), ci.data(), v.data(), it, it, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  PGK_BENCH_CUSPARSE(cusparseCreateDnVec(&vx, a.ncols, x.data(), CUDA_R_64F));
  PGK_BENCH_CUSPARSE(cusparseCreateDnVec(&vy, a.nrows, y.data(), CUDA_R_64F));
  const double one = 1, zero = 0;
  size_t       bytes = 0;
  PGK_BENCH_CUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m, vx, &zero, vy, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, &bytes));
  cuda::DeviceBuffer<unsigned char> buf(bytes);
  auto                              call = [&] { PGK_BENCH_CUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m, vx, &zero, vy, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, buf.data())); };
  for (int i = 0; i < 20; ++i) call();
  const double us = time_us(s, 15, 50, call);
  PGK_BENCH_CUSPARSE(cusparseDestroySpMat(m));
  PGK_BENCH_CUSPARSE(cusparseDestroyDnVec(vx));
  PGK_BENCH_CUSPARSE(cusparseDestroyDnVec(vy));
  PGK_BENCH_CUSPARSE(cusparseDestroy(h));
  return us;
}

// The library's multicolor scheme (main's, CUDA graph on) set up on a copy of A on the device, with
// b and two vectors that start at 0.
struct LibrarySweep {
  cuda::DeviceBuffer<Index>  rp, ci;
  cuda::DeviceBuffer<double> v, db, x, y;
  cuda::CarpcgDevice         dev;

  LibrarySweep(const Csr &a, const std::vector<double> &b, double lambda, cudaStream_t s)
      : rp(upload(a.rowptr, s)), ci(upload(a.colidx, s)), v(upload(a.values, s)), db(upload(b, s)), x(upload(std::vector<double>(a.nrows, 0.0), s)), y(upload(std::vector<double>(a.nrows, 0.0), s))
  {
    CsrView       dv      = view_of(a);
    const CsrView pattern = dv;
    dv.rowptr = rp.data(), dv.colidx = ci.data(), dv.values = v.data();
    cuda::CarpcgDeviceOptions o;
    o.lambda = lambda;
    dev.setup(dv, pattern, o, s);
  }
};

// The library's double sweep on the same matrix and b: the same-run baseline, us a double sweep.
inline double multicolor_us(const Csr &a, const std::vector<double> &b, double lambda, cudaStream_t s)
{
  LibrarySweep l(a, b, lambda, s);
  double      *in = l.x.data(), *out = l.y.data();
  auto         call = [&] { l.dev.double_sweep(in, l.db.data(), out, s), std::swap(in, out); };
  for (int i = 0; i < 20; ++i) call();
  return time_us(s, 15, 50, call);
}

// Two double sweeps from 0 with b: the library's, as the bits to match.
inline std::vector<double> library_two_sweeps(const Csr &a, const std::vector<double> &b, double lambda, cudaStream_t s)
{
  LibrarySweep l(a, b, lambda, s);
  l.dev.double_sweep(l.x.data(), l.db.data(), l.y.data(), s);
  l.dev.double_sweep(l.y.data(), l.db.data(), l.x.data(), s);
  return l.x.download(s);
}

// A's rows with their squared norms and right-hand sides, stored in a given order: stored row w is
// A's row order[w] (the experiments' operators in colour or band order).
struct StoredRows {
  std::vector<Index>  rowptr{0}, cols;
  std::vector<double> vals, norms2, rhs;
};

inline StoredRows rows_in_order(const Csr &a, const std::vector<double> &b, const std::vector<double> &norms, const std::vector<Index> &order)
{
  StoredRows h;
  for (Index r : order) {
    const Index lo = a.rowptr[r], hi = a.rowptr[r + 1];
    h.cols.insert(h.cols.end(), a.colidx.begin() + lo, a.colidx.begin() + hi);
    h.vals.insert(h.vals.end(), a.values.begin() + lo, a.values.begin() + hi);
    h.rowptr.push_back(static_cast<Index>(h.cols.size()));
    h.norms2.push_back(norms[r]), h.rhs.push_back(b[r]);
  }
  return h;
}

// StoredRows on the device.
struct DeviceRows {
  cuda::DeviceBuffer<Index>  rowptr, cols;
  cuda::DeviceBuffer<double> vals, norms2, rhs;

  DeviceRows(const StoredRows &h, cudaStream_t s) : rowptr(upload(h.rowptr, s)), cols(upload(h.cols, s)), vals(upload(h.vals, s)), norms2(upload(h.norms2, s)), rhs(upload(h.rhs, s)) {}
};

// Entries of two vectors that differ in bits.
inline Index bits_differ(const std::vector<double> &u, const std::vector<double> &v)
{
  Index d = 0;
  for (size_t i = 0; i < u.size(); ++i) d += std::memcmp(&u[i], &v[i], sizeof(double)) != 0;
  return d;
}

// The last colour with rows: where the library's double sweep turns (projected twice in one launch).
inline int last_colour(const carpcg::Coloring &c)
{
  int last = c.ncolors - 1;
  while (last >= 0 && c.class_size(last) == 0) --last;
  return last;
}

// A study's problem (bench_tiles::fem2d_study) with what the multicolor experiments need: the row
// norms, the library's colouring and its last colour.
struct SweepStudy {
  bench_tiles::Fem2dStudy fem;
  std::vector<double>     norms;
  carpcg::Coloring        col;
  int                     last = -1;
};

inline std::optional<SweepStudy> sweep_study(int argc, char **argv, const char *rest, int min_rest = 1)
{
  auto fem = bench_tiles::fem2d_study(argc, argv, rest, min_rest);
  if (!fem) return std::nullopt;
  SweepStudy st{std::move(*fem), {}, {}, -1};
  st.norms = carpcg::row_norms2(view_of(st.fem.a));
  st.col   = carpcg::distance2_coloring(view_of(st.fem.a));
  st.last  = last_colour(st.col);
  return st;
}

} // namespace pgk::bench_sweeps
