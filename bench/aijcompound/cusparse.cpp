// bench_aijcompound (c)-(e): what cuSPARSE offers for the same product, on the same x.
//   (c) scalar CSR (cusparseSpMV, CSR_ALG1 and CSR_ALG2) on the expanded matrix (every block
//       stored full), and on the matrix as generated where that differs (elast3d's finite-difference
//       blocks are not full): those rows are shown but not counted as the cuSPARSE baseline;
//   (d) BSR with blockDim = bs: cusparseDbsrmv with row- and column-major blocks, and the generic
//       cusparseSpMV BSR_ALG1 where the cuSPARSE has it;
//   (e) complex entries: cusparseSpMV CSR ALG1/ALG2 in CUDA_C_64F on the complex matrix itself
//       (n/2 rows, one cuDoubleComplex per entry: the compound values as they are).
// Set-up (buffers, cusparseSpMV_preprocess) is outside the timing; every result is checked
// against the host reference.
#include "bench/aijcompound/context.hpp"

#include <cuComplex.h>
#include <cusparse.h>

#include <algorithm>

#include "bench/common/bench_cxx.hpp"
#include "src/aijcompound/entry.hpp"

// The generic API's BSR SpMV (CUSPARSE_SPMV_BSR_ALG1) is in cuSPARSE 12.6 (CUDA 13.0); older
// releases get the legacy bsrmv rows only.
#if CUSPARSE_VER_MAJOR > 12 || (CUSPARSE_VER_MAJOR == 12 && CUSPARSE_VER_MINOR >= 6)
#  define PGK_HAVE_SPMV_BSR 1
#endif

namespace pgk::bench::aijcompound {

struct Ctx {
  Problem          &p;
  Timer            &t;
  cusparseHandle_t  h;
  std::vector<Row> &rows;
};

// Times cusparseSpMV of A on p.xd into p.yd (values of `type`), after its buffer and preprocess.
// A set-up call that fails (a format or type this release does not support) skips the row.
static PetscErrorCode TimeSpMV(Ctx &c, cusparseSpMatDescr_t A, cudaDataType type, int64_t nx, int64_t ny, cusparseSpMVAlg_t alg, Row *r, std::string *skipped)
{
  const double                  one[2] = {1, 0}, zero[2] = {0, 0}; // real, or cuDoubleComplex
  cusparseDnVecDescr_t          x, y;
  size_t                        bytes = 0;
  pgk::cuda::DeviceBuffer<char> buffer;

  PetscFunctionBegin;
  PetscCallCUSPARSE(cusparseCreateDnVec(&x, nx, c.p.xd.data(), type));
  PetscCallCUSPARSE(cusparseCreateDnVec(&y, ny, c.p.yd.data(), type));
  cusparseStatus_t st = cusparseSpMV_bufferSize(c.h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, A, x, zero, y, type, alg, &bytes);
  if (st == CUSPARSE_STATUS_SUCCESS) {
    PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, buffer.allocate(std::max<size_t>(bytes, 1)));
    st = cusparseSpMV_preprocess(c.h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, A, x, zero, y, type, alg, buffer.data());
  }
  if (st != CUSPARSE_STATUS_SUCCESS) *skipped = std::string("set-up: ") + cusparseGetErrorString(st);
  else {
    PetscCall(TimeHotFlushed(
        c.t,
        [&]() -> PetscErrorCode {
          PetscCallCUSPARSE(cusparseSpMV(c.h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, A, x, zero, y, type, alg, buffer.data()));
          return PETSC_SUCCESS;
        },
        &r->hot, &r->flushed));
    PetscCall(RelativeError(c.p, c.p.yd.data(), &r->rel_err));
  }
  PetscCallCUSPARSE(cusparseDestroyDnVec(x));
  PetscCallCUSPARSE(cusparseDestroyDnVec(y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Adds r when it ran, a note line when it was skipped.
static PetscErrorCode Keep(Ctx &c, Row &r, const std::string &skipped)
{
  PetscFunctionBegin;
  if (skipped.empty()) c.rows.push_back(r);
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-58s skipped: %s\n", r.backend.c_str(), skipped.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// (c) Scalar CSR of m (the expansion, or the matrix as generated), ALG1 and ALG2.
static PetscErrorCode ScalarCsr(Ctx &c, const pgk::Csr &m, const char *which, bool baseline)
{
  DeviceCsr32          d;
  cusparseSpMatDescr_t A;

  PetscFunctionBegin;
  PetscCall(UploadCsr32(m.rowptr, m.colidx, m.values, c.t.stream, &d));
  PetscCallCUSPARSE(cusparseCreateCsr(&A, m.nrows, m.ncols, m.nnz(), d.rowptr.data(), d.colidx.data(), d.values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  for (cusparseSpMVAlg_t alg : {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2}) {
    Row         r;
    std::string skipped;
    r.group     = "cusparse";
    r.backend   = std::string("cusparseSpMV CSR ") + (alg == CUSPARSE_SPMV_CSR_ALG1 ? "ALG1" : "ALG2") + " (" + which + ")";
    r.baseline  = baseline;
    r.own_bytes = 12.0 * (double)m.nnz() + 4.0 * ((double)m.nrows + 1) + c.p.vector_bytes;
    if (!baseline) r.note = "scalar CSR as generated: " + std::to_string((long long)m.nnz()) + " stored scalars, not a cuSPARSE baseline";
    PetscCall(TimeSpMV(c, A, CUDA_R_64F, m.ncols, m.nrows, alg, &r, &skipped));
    PetscCall(Keep(c, r, skipped));
  }
  PetscCallCUSPARSE(cusparseDestroySpMat(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The real bs x bs blocks of the compound entries, row- or column-major within a block.
static std::vector<double> BlockValues(const ac::CompoundCsr &a, bool column_major)
{
  const int           bs = a.bs;
  std::vector<double> v((size_t)a.nnzb() * bs * bs);
  for (Index e = 0; e < a.nnzb(); ++e)
    for (int i = 0; i < bs; ++i)
      for (int j = 0; j < bs; ++j) v[(size_t)e * bs * bs + (column_major ? j * bs + i : i * bs + j)] = ac::expanded(a.kind, bs, a.entry(e), 1, i, j);
  return v;
}

// (d) bsrmv on blocks in `dir` order; the generic BSR SpMV on the same arrays where available.
static PetscErrorCode Bsr(Ctx &c, bool column_major)
{
  const ac::CompoundCsr &a   = c.p.c;
  const double           one = 1, zero = 0;
  DeviceCsr32            d;
  cusparseMatDescr_t     descr;
  Row                    r;

  PetscFunctionBegin;
  PetscCall(UploadCsr32(a.rowptr, a.colidx, BlockValues(a, column_major), c.t.stream, &d));
  r.group                       = "cusparse";
  r.baseline                    = true;
  r.own_bytes                   = (double)a.nnzb() * (8.0 * a.bs * a.bs + 4) + 4.0 * ((double)a.nbrows + 1) + c.p.vector_bytes;
  r.backend                     = std::string("cusparseDbsrmv BSR ") + std::to_string(a.bs) + "x" + std::to_string(a.bs) + (column_major ? " column-major" : " row-major");
  const cusparseDirection_t dir = column_major ? CUSPARSE_DIRECTION_COLUMN : CUSPARSE_DIRECTION_ROW;
  PetscCallCUSPARSE(cusparseCreateMatDescr(&descr));
  PetscCall(TimeHotFlushed(
      c.t,
      [&]() -> PetscErrorCode {
        PetscCallCUSPARSE(cusparseDbsrmv(c.h, dir, CUSPARSE_OPERATION_NON_TRANSPOSE, (int)a.nbrows, (int)a.nbcols, (int)a.nnzb(), &one, descr, d.values.data(), d.rowptr.data(), d.colidx.data(), a.bs, c.p.xd.data(), &zero, c.p.yd.data()));
        return PETSC_SUCCESS;
      },
      &r.hot, &r.flushed));
  PetscCall(RelativeError(c.p, c.p.yd.data(), &r.rel_err));
  PetscCallCUSPARSE(cusparseDestroyMatDescr(descr));
  c.rows.push_back(r);
#if defined(PGK_HAVE_SPMV_BSR)
  cusparseSpMatDescr_t A;
  std::string          skipped;
  r.backend = std::string("cusparseSpMV BSR_ALG1 ") + std::to_string(a.bs) + "x" + std::to_string(a.bs) + (column_major ? " column-major" : " row-major");
  PetscCallCUSPARSE(cusparseCreateBsr(&A, a.nbrows, a.nbcols, a.nnzb(), a.bs, a.bs, d.rowptr.data(), d.colidx.data(), d.values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F,
                                      column_major ? CUSPARSE_ORDER_COL : CUSPARSE_ORDER_ROW));
  PetscCall(TimeSpMV(c, A, CUDA_R_64F, (int64_t)a.nbcols * a.bs, (int64_t)a.nbrows * a.bs, CUSPARSE_SPMV_BSR_ALG1, &r, &skipped));
  PetscCall(Keep(c, r, skipped));
  PetscCallCUSPARSE(cusparseDestroySpMat(A));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

// (e) The complex matrix in CUDA_C_64F: entry (a, b) is the cuDoubleComplex a + b i, and the
// interlaced x and y are complex vectors of n/2 entries, so no array changes.
static PetscErrorCode ComplexCsr(Ctx &c)
{
  const ac::CompoundCsr &a = c.p.c;
  DeviceCsr32            d;
  cusparseSpMatDescr_t   A;

  PetscFunctionBegin;
  static_assert(sizeof(cuDoubleComplex) == 2 * sizeof(double), "cuDoubleComplex is two doubles");
  PetscCall(UploadCsr32(a.rowptr, a.colidx, a.values, c.t.stream, &d));
  PetscCallCUSPARSE(cusparseCreateCsr(&A, a.nbrows, a.nbcols, a.nnzb(), d.rowptr.data(), d.colidx.data(), d.values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_C_64F));
  for (cusparseSpMVAlg_t alg : {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2}) {
    Row         r;
    std::string skipped;
    r.group     = "cusparse";
    r.baseline  = true;
    r.backend   = std::string("cusparseSpMV complex CSR ") + (alg == CUSPARSE_SPMV_CSR_ALG1 ? "ALG1" : "ALG2") + " (CUDA_C_64F)";
    r.own_bytes = c.p.compound_bytes; // the same arrays as the compound CSR
    PetscCall(TimeSpMV(c, A, CUDA_C_64F, a.nbcols, a.nbrows, alg, &r, &skipped));
    PetscCall(Keep(c, r, skipped));
  }
  PetscCallCUSPARSE(cusparseDestroySpMat(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The best median per mode of the rows whose backend contains `what` (0: none).
static void Best(const std::vector<Row> &rows, const char *what, double best[2])
{
  best[0] = best[1] = 0;
  for (const Row &r : rows) {
    if (!r.baseline || r.backend.find(what) == std::string::npos) continue;
    if (best[0] == 0 || r.hot.median < best[0]) best[0] = r.hot.median;
    if (best[1] == 0 || r.flushed.median < best[1]) best[1] = r.flushed.median;
  }
}

PetscErrorCode BenchCuSparse(Problem &p, const Options &o, Timer &t, Summary &s, Results &res)
{
  std::vector<Row> rows;
  cusparseHandle_t h;

  PetscFunctionBegin;
  PetscCallCUSPARSE(cusparseCreate(&h));
  PetscCallCUSPARSE(cusparseSetStream(h, t.stream));
  Ctx c{p, t, h, rows};
  PetscCall(ScalarCsr(c, p.expanded, "expanded", true));
  if (!p.same_as_generated && o.generated_rows) PetscCall(ScalarCsr(c, p.generated, "as generated", false));
  PetscCall(Bsr(c, true));
  PetscCall(Bsr(c, false));
  if (p.c.kind == ac::EntryKind::complex) PetscCall(ComplexCsr(c));
  PetscCallCUSPARSE(cusparseDestroy(h));
  Best(rows, "", s.cusparse_best);
  Best(rows, "BSR", s.bsr_best);
  Best(rows, "complex", s.complex_csr);
  for (const Row &r : rows) PetscCall(res.add(p, s, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::aijcompound
