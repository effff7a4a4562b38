// Device CSR validation (kernels/csr_check.cu) against the host reference (src/csr_check.cpp)
// on generated matrices with planted defects: every count must match, every case.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "src/common/csr_check.hpp"
#include "src/matgen/generators.hpp"
#include "kernels/common/kernels.hpp"
#include "src/common/rng.hpp"

#define CHECK_CUDA(call)                                                                   \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));  \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

template <class T>
static T *to_device(const std::vector<T> &h) {
  T *d = nullptr;
  if (h.empty()) return nullptr;
  if (cudaMalloc(&d, h.size() * sizeof(T)) != cudaSuccess) return nullptr;
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

int main() {
  const char *specs[] = {"lap3d7:n=20", "random:n=3000,deg=9,seed=4", "hubrow:n=5000,hubdeg=4999", "elast3d:n=7",
                         "empty:n=1", "path:n=2", "disconnected:n=999,parts=7", "powerlaw:n=4000"};
  pgk::SplitMix64 rng(2026);
  int cases = 0, failures = 0;
  for (const char *spec : specs) {
    for (int defect = 0; defect < 6; ++defect) {
      pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
      const pgk::Index nnz = a.nnz();
      if (nnz > 0) {
        const pgk::Index k = (pgk::Index)rng.bounded((std::uint64_t)nnz);
        switch (defect) {
        case 1: a.values[k] = std::numeric_limits<double>::quiet_NaN(); break;
        case 2: a.values[k] = -std::numeric_limits<double>::infinity(); break;
        case 3: a.colidx[k] = a.ncols + 3; break;                    // out of range
        case 4: a.colidx[k] = a.colidx[k] > 0 ? a.colidx[k] - 1 : 1; break; // unsorted or duplicate
        case 5: a.values.clear(); break;                           // a pattern: no values to check
        default: break;
        }
      }
      const pgk::CsrCheck ref = pgk::check_csr(pgk::view_of(a));
      pgk::CsrView d;
      d.nrows = a.nrows;
      d.ncols = a.ncols;
      d.rowptr = to_device(a.rowptr);
      d.colidx = to_device(a.colidx);
      d.values = to_device(a.values);
      pgk::CsrCheck got;
      try {
        got = pgk::cuda::check_csr(d, nullptr);
      } catch (const std::exception &e) {
        std::printf("%s defect %d: %s\n", spec, defect, e.what());
        return 1;
      }
      cudaFree(const_cast<pgk::Index *>(d.rowptr));
      cudaFree(const_cast<pgk::Index *>(d.colidx));
      cudaFree(const_cast<double *>(d.values));
      ++cases;
      if (!(got == ref)) {
        ++failures;
        std::printf("MISMATCH %s defect %d: device (%lld %lld %lld %lld %lld %lld) reference (%lld %lld %lld %lld %lld %lld)\n", spec, defect,
                    got.bad_rowptr, got.bad_colidx, got.unsorted_rows, got.nonfinite, got.empty_rows, got.missing_diagonal,
                    ref.bad_rowptr, ref.bad_colidx, ref.unsorted_rows, ref.nonfinite, ref.empty_rows, ref.missing_diagonal);
      }
    }
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("kernel_csr_check: %d cases, %d mismatches\n", cases, failures);
  return failures ? 1 : 0;
}
