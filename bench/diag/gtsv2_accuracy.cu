// Stand-alone check of cuSPARSE gtsv2 and gtsv2_nopivot on tridiag(-1, d, -1) of several sizes: the
// relative residual, in long double on the host (README, PC trilf: the gtsv2 inaccuracy). Not built by
// CMake; on a GPU node: nvcc -O2 -arch=sm_90 gtsv2_accuracy.cu -lcusparse -o gtsv2_accuracy && ./gtsv2_accuracy
#include <cusparse.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#include <cmath>
static double run(int n, bool pivot, double diag)
{
  std::vector<double> dl(n, -1.0), d(n, diag), du(n, -1.0), b(n);
  dl[0]     = 0;
  du[n - 1] = 0;
  for (int i = 0; i < n; ++i) b[i] = 1.0 + (i % 7) * 0.1;
  double *ddl, *dd, *ddu, *db;
  void   *buf;
  cudaMalloc(&ddl, n * 8);
  cudaMalloc(&dd, n * 8);
  cudaMalloc(&ddu, n * 8);
  cudaMalloc(&db, n * 8);
  cudaMemcpy(ddl, dl.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, d.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(ddu, du.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * 8, cudaMemcpyHostToDevice);
  cusparseHandle_t h;
  cusparseCreate(&h);
  size_t           bytes = 0;
  cusparseStatus_t s1    = pivot ? cusparseDgtsv2_bufferSizeExt(h, n, 1, ddl, dd, ddu, db, n, &bytes) : cusparseDgtsv2_nopivot_bufferSizeExt(h, n, 1, ddl, dd, ddu, db, n, &bytes);
  cudaMalloc(&buf, bytes);
  cusparseStatus_t    s2 = pivot ? cusparseDgtsv2(h, n, 1, ddl, dd, ddu, db, n, buf) : cusparseDgtsv2_nopivot(h, n, 1, ddl, dd, ddu, db, n, buf);
  cudaError_t         e  = cudaDeviceSynchronize();
  std::vector<double> x(n);
  cudaMemcpy(x.data(), db, n * 8, cudaMemcpyDeviceToHost);
  long double r2 = 0, b2 = 0;
  for (int i = 0; i < n; ++i) {
    long double ax = (long double)d[i] * x[i] + (i ? (long double)dl[i] * x[i - 1] : 0) + (i < n - 1 ? (long double)du[i] * x[i + 1] : 0);
    r2 += (ax - b[i]) * (ax - b[i]);
    b2 += (long double)b[i] * b[i];
  }
  cusparseDestroy(h);
  cudaFree(ddl);
  cudaFree(dd);
  cudaFree(ddu);
  cudaFree(db);
  cudaFree(buf);
  if (s1 || s2 || e) printf("  status %d %d %d\n", (int)s1, (int)s2, (int)e);
  return (double)std::sqrt(r2 / b2);
}
int main()
{
  const int sizes[] = {2, 3, 100, 511, 512, 513, 1000, 1023, 1024, 1025, 2000, 2001, 2047, 2048, 2049, 4097, 10001, 100001};
  for (double diag : {2.0, 2.5})
    for (int n : sizes) printf("diag %.1f n %6d  gtsv2 relres %.3e  gtsv2_nopivot relres %.3e\n", diag, n, run(n, true, diag), run(n, false, diag));
  return 0;
}
