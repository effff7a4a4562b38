// Issue 9's MatMult target (after rabbitpp <= 1.9x the ideal time), a diagnostic: the MatMult
// after rabbitpp reads ~1 GB from DRAM beyond its compulsory 1.34 GB on communities:n=8000000,
// about 62 B for each of the 16M entries whose column lies in another community
// (bench/results/rabbitpp_spmv_ncu_6eba3a9_h200.txt). Does keeping x in L2 (an access policy
// window on x with persisting hits, cudaLimitPersistingL2CacheSize at its maximum) take those
// bytes off? cuSPARSE's CSR SpMV (what MATAIJCUSPARSE's MatMult calls) after the original
// numbering and after rabbitpp, each algorithm, with and without the window; CUDA events,
// median of 20 after 5 warm-up; the ideal as bench_rabbitpp's (compulsory bytes / D2D copy
// bandwidth measured here). Built by bench/diag/spmv_l2_window.sh (not by CMake); no PETSc.
//   spmv_l2_window SPEC THREADS      e.g. communities:n=8000000 16
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "bench/common/copy_bandwidth.hpp"
#include "bench/common/cusparse_check.hpp"
#include "kernels/common/cuda_check.cuh"
#include "src/common/permute_pattern.hpp"
#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"

namespace {

template <class F> double median_ms(cudaStream_t s, int warm, int runs, F f)
{
  cudaEvent_t a, b;
  PGK_CUDA_CHECK(cudaEventCreate(&a));
  PGK_CUDA_CHECK(cudaEventCreate(&b));
  std::vector<double> t;
  for (int r = -warm; r < runs; ++r) {
    PGK_CUDA_CHECK(cudaEventRecord(a, s));
    f();
    PGK_CUDA_CHECK(cudaEventRecord(b, s));
    PGK_CUDA_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    PGK_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 0) t.push_back(ms);
  }
  PGK_CUDA_CHECK(cudaEventDestroy(a));
  PGK_CUDA_CHECK(cudaEventDestroy(b));
  return pgk::bench::summarize(t).median;
}

// Read plus write bytes per second of a 2 GiB device-to-device copy (bench_rabbitpp's figure).
double copy_bandwidth()
{
  const std::size_t bytes = std::size_t{2} << 30;
  return 2.0 * bytes / pgk::bench::summarize(pgk::bench::measure_device_copy(bytes, 3, 10).memcpy_seconds).median;
}

void set_window(cudaStream_t s, void *base, size_t bytes, float hit_ratio)
{
  cudaStreamAttrValue v{};
  v.accessPolicyWindow.base_ptr  = base;
  v.accessPolicyWindow.num_bytes = bytes;
  v.accessPolicyWindow.hitRatio  = hit_ratio;
  v.accessPolicyWindow.hitProp   = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp  = cudaAccessPropertyStreaming;
  PGK_CUDA_CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
}

} // namespace

int main(int argc, char **argv)
{
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SPEC THREADS\n", argv[0]);
    return 2;
  }
  static_assert(sizeof(pgk::Index) == 4, "32-bit indices (as PETSc's default build)");
  const pgk::Csr         a   = pgk::gen::generate(pgk::gen::parse_spec(argv[1]));
  const pgk::Index       n   = a.nrows;
  const long long        nnz = a.nnz();
  pgk::rabbitpp::Options o;
  o.threads            = std::atoi(argv[2]);
  o.input_is_symmetric = true;
  std::vector<pgk::Index> natural(static_cast<size_t>(n));
  std::iota(natural.begin(), natural.end(), pgk::Index{0});
  const std::vector<pgk::Index> rabbitpp = pgk::rabbitpp::rabbitpp_batch(pgk::view_of(a), o);

  int dev = 0, l2 = 0, max_persist = 0, max_window = 0;
  PGK_CUDA_CHECK(cudaGetDevice(&dev));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, dev));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, dev));
  cudaStream_t s;
  PGK_CUDA_CHECK(cudaStreamCreate(&s));
  const double bw         = copy_bandwidth();
  const double compulsory = 2.0 * n * 8 + (n + 1.0) * 4 + nnz * 12.0;
  const double ideal_ms   = compulsory / bw * 1e3;
  std::printf("%s: n %d, nnz %lld; L2 %d MiB, max persisting %d MiB, max window %d MiB; copy %.0f GB/s; ideal %.4f ms (%.3g bytes)\n", argv[1], n, nnz, l2 >> 20, max_persist >> 20, max_window >> 20, bw / 1e9, ideal_ms, compulsory);

  cusparseHandle_t h;
  PGK_BENCH_CUSPARSE(cusparseCreate(&h));
  PGK_BENCH_CUSPARSE(cusparseSetStream(h, s));
  const size_t                                                  xbytes   = static_cast<size_t>(n) * 8;
  const std::pair<std::string, const std::vector<pgk::Index> *> orders[] = {{"original", &natural}, {"rabbitpp", &rabbitpp}};
  for (const auto &[name, perm] : orders) {
    const pgk::PermutedPattern pp = pgk::permute_pattern_symmetric(pgk::view_of(a), *perm);
    std::vector<double>        vals(static_cast<size_t>(nnz), 1.0);
    if (!a.values.empty())
      for (long long e = 0; e < nnz; ++e) vals[pp.dst[e]] = a.values[e];
    int    *rp, *ci;
    double *v, *x, *y;
    PGK_CUDA_CHECK(cudaMalloc(&rp, (n + 1) * sizeof(int)));
    PGK_CUDA_CHECK(cudaMalloc(&ci, nnz * sizeof(int)));
    PGK_CUDA_CHECK(cudaMalloc(&v, nnz * sizeof(double)));
    PGK_CUDA_CHECK(cudaMalloc(&x, xbytes));
    PGK_CUDA_CHECK(cudaMalloc(&y, xbytes));
    PGK_CUDA_CHECK(cudaMemcpy(rp, pp.pattern.rowptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    PGK_CUDA_CHECK(cudaMemcpy(ci, pp.pattern.colidx.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    PGK_CUDA_CHECK(cudaMemcpy(v, vals.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
    std::vector<double> hx(static_cast<size_t>(n));
    for (pgk::Index i = 0; i < n; ++i) hx[i] = 1.0 + (i % 7) * 0.125;
    PGK_CUDA_CHECK(cudaMemcpy(x, hx.data(), xbytes, cudaMemcpyHostToDevice));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t X, Y;
    PGK_BENCH_CUSPARSE(cusparseCreateCsr(&A, n, n, nnz, rp, ci, v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    PGK_BENCH_CUSPARSE(cusparseCreateDnVec(&X, n, x, CUDA_R_64F));
    PGK_BENCH_CUSPARSE(cusparseCreateDnVec(&Y, n, y, CUDA_R_64F));
    const double one = 1, zero = 0;
    for (const auto &[alg_name, alg] : {std::make_pair("CSR_ALG1", CUSPARSE_SPMV_CSR_ALG1), std::make_pair("CSR_ALG2", CUSPARSE_SPMV_CSR_ALG2)}) {
      const cusparseSpMVAlg_t algv      = alg; // a lambda may not capture a structured binding (C++17)
      size_t                  buf_bytes = 0;
      void                   *buf       = nullptr;
      PGK_BENCH_CUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, algv, &buf_bytes));
      PGK_CUDA_CHECK(cudaMalloc(&buf, std::max<size_t>(buf_bytes, 1)));
      const auto spmv = [&] { PGK_BENCH_CUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, algv, buf)); };
      // Windows: none, then persisting carve-outs of the whole maximum with the hit ratio that fits
      // it to x, and of half of it (PGK_L2W_WINDOWS=0: none). Then, without a window, the L2's
      // fetch granularity from DRAM (cudaLimitMaxL2FetchGranularity, a hint): a random read of x
      // costs about 62 B of DRAM after rabbitpp, two 32-byte sectors.
      const bool windows = !std::getenv("PGK_L2W_WINDOWS") || std::atoi(std::getenv("PGK_L2W_WINDOWS")) != 0;
      for (const double share : {0.0, 1.0, 0.5}) {
        if (share > 0 && !windows) continue;
        const size_t carve = static_cast<size_t>(share * max_persist);
        PGK_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, carve));
        const size_t window = std::min<size_t>(xbytes, static_cast<size_t>(max_window));
        const float  hit    = carve ? static_cast<float>(std::min(1.0, static_cast<double>(carve) / window)) : 0.f;
        set_window(s, carve ? x : nullptr, carve ? window : 0, hit);
        const double ms = median_ms(s, 5, 20, spmv);
        std::printf("  %-8s %s  carve-out %5.1f MiB, window %5.1f MiB, hit ratio %.2f: %.4f ms, %.3fx ideal\n", name.c_str(), alg_name, carve / 1048576.0, carve ? window / 1048576.0 : 0.0, hit, ms, ms / ideal_ms);
        set_window(s, nullptr, 0, 0.f);
        PGK_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
      }
      size_t gran0 = 0;
      PGK_CUDA_CHECK(cudaDeviceGetLimit(&gran0, cudaLimitMaxL2FetchGranularity));
      for (const size_t gran : {size_t{32}, size_t{64}, size_t{128}, gran0}) {
        PGK_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, gran));
        size_t got = 0;
        PGK_CUDA_CHECK(cudaDeviceGetLimit(&got, cudaLimitMaxL2FetchGranularity));
        const double ms = median_ms(s, 5, 20, spmv);
        std::printf("  %-8s %s  L2 fetch granularity %3zu B (asked %3zu, default %zu): %.4f ms, %.3fx ideal\n", name.c_str(), alg_name, got, gran, gran0, ms, ms / ideal_ms);
      }
      PGK_CUDA_CHECK(cudaFree(buf));
    }
    std::vector<double> hy(static_cast<size_t>(n));
    PGK_CUDA_CHECK(cudaMemcpy(hy.data(), y, xbytes, cudaMemcpyDeviceToHost));
    double sum = 0;
    for (double t : hy) sum += t;
    std::printf("  %-8s sum(y) %.17g\n", name.c_str(), sum);
    PGK_BENCH_CUSPARSE(cusparseDestroySpMat(A));
    PGK_BENCH_CUSPARSE(cusparseDestroyDnVec(X));
    PGK_BENCH_CUSPARSE(cusparseDestroyDnVec(Y));
    for (void *p : {static_cast<void *>(rp), static_cast<void *>(ci), static_cast<void *>(v), static_cast<void *>(x), static_cast<void *>(y)}) PGK_CUDA_CHECK(cudaFree(p));
  }
  PGK_BENCH_CUSPARSE(cusparseDestroy(h));
  PGK_CUDA_CHECK(cudaStreamDestroy(s));
  return 0;
}
