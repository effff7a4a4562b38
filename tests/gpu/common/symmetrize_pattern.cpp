// Device pattern(A + A^T) (kernels/symmetrize_pattern.cu) against the host reference
// (pgk::rcm::symmetrize_pattern): identical rows on nonsymmetric patterns, and "already
// symmetric" reported, with nothing built, on symmetric ones.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "src/common/csr_build.hpp"
#include "kernels/common/device_csr.hpp"
#include "src/matgen/generators.hpp"
#include "src/batchrcm/symmetrize.hpp"
#include "src/common/rng.hpp"

template <class T>
static std::vector<T> to_host(const T *d, size_t n) {
  std::vector<T> h(n);
  if (n) cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

int main() {
  pgk::SplitMix64 rng(99);
  int cases = 0, failures = 0;
  const char *specs[] = {"random:n=2000,deg=7", "lap3d7:n=9", "hubrow:n=3000", "powerlaw:n=5000", "path:n=3", "empty:n=1", "disconnected:n=500,parts=4"};
  for (const char *spec : specs) {
    for (int drop = 0; drop < 3; ++drop) { // 0: symmetric as generated; 1, 2: entries dropped at random
      const pgk::Csr full = pgk::gen::generate(pgk::gen::parse_spec(spec));
      pgk::Csr a;
      a.nrows = a.ncols = full.nrows;
      a.rowptr.assign(1, 0);
      for (pgk::Index i = 0; i < full.nrows; ++i) {
        for (pgk::Index k = full.rowptr[i]; k < full.rowptr[i + 1]; ++k)
          if (drop == 0 || full.colidx[k] == i || rng.bounded(4) != 0) a.colidx.push_back(full.colidx[k]);
        a.rowptr.push_back((pgk::Index)a.colidx.size());
      }
      pgk::Index *dr = nullptr, *dc = nullptr;
      cudaMalloc(&dr, sizeof(pgk::Index) * a.rowptr.size());
      cudaMalloc(&dc, sizeof(pgk::Index) * (a.colidx.size() + 1));
      cudaMemcpy(dr, a.rowptr.data(), sizeof(pgk::Index) * a.rowptr.size(), cudaMemcpyHostToDevice);
      cudaMemcpy(dc, a.colidx.data(), sizeof(pgk::Index) * a.colidx.size(), cudaMemcpyHostToDevice);
      pgk::CsrView dv;
      dv.nrows = dv.ncols = a.nrows;
      dv.rowptr = dr;
      dv.colidx = dc;
      pgk::cuda::DeviceCsrPattern out;
      bool built = false;
      try {
        built = pgk::cuda::symmetrize_pattern(dv, out, nullptr);
      } catch (const std::exception &e) {
        std::printf("%s drop %d: %s\n", spec, drop, e.what());
        return 1;
      }
      const bool symmetric = pgk::rcm::is_structurally_symmetric(pgk::view_of(a));
      const pgk::Csr ref = pgk::rcm::symmetrize_pattern(pgk::view_of(a));
      bool ok = built == !symmetric;
      if (built) {
        const auto rp = to_host(out.view().rowptr, a.nrows + 1);
        const auto ci = to_host(out.view().colidx, rp.back());
        ok = ok && rp == ref.rowptr && ci == ref.colidx;
      }
      ++cases;
      if (!ok) {
        ++failures;
        std::printf("MISMATCH %s drop %d (built %d, symmetric %d)\n", spec, drop, built, symmetric);
      }
      cudaFree(dr);
      cudaFree(dc);
    }
  }
  std::printf("kernel_symmetrize: %d cases, %d mismatches\n", cases, failures);
  return failures ? 1 : 0;
}
