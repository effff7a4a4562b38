#include "tests/support/device.hpp"

#include "kernels/common/kernels.hpp"

#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>
#include <exception>

namespace pgk::test {

namespace {

DeviceStatus probe() {
  DeviceStatus s;
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    s.reason = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
    (void)cudaGetLastError();
    return s;
  }
  if (n == 0) {
    s.reason = "cudaGetDeviceCount reports 0 devices";
    return s;
  }
  // A context must be creatable too (a device in exclusive mode, or out of memory, is not usable).
  const cudaError_t c = cudaFree(nullptr);
  if (c != cudaSuccess) {
    s.reason = std::string("creating a context: ") + cudaGetErrorName(c) + ": " + cudaGetErrorString(c);
    (void)cudaGetLastError();
    return s;
  }
  try {
    s.description = pgk::cuda::current_device_description();
  } catch (const std::exception &x) {
    s.reason = std::string("device query: ") + x.what();
    return s;
  }
  s.usable = true;
  return s;
}

} // namespace

const DeviceStatus &device_status() {
  static const DeviceStatus status = probe();
  return status;
}

bool gpu_required() {
  const char *env = std::getenv("PGK_REQUIRE_GPU");
  return env && std::strcmp(env, "1") == 0;
}

void GpuTest::SetUp() {
  const DeviceStatus &s = device_status();
  if (s.usable) return;
  if (gpu_required()) GTEST_FAIL() << "PGK_REQUIRE_GPU=1 but no usable CUDA device: " << s.reason;
  GTEST_SKIP() << "no usable CUDA device: " << s.reason;
}

DeviceCsr::DeviceCsr(const Csr &a, bool with_values) {
  rowptr.upload(a.rowptr.data(), a.rowptr.size(), nullptr);
  colidx.upload(a.colidx.data(), a.colidx.size(), nullptr);
  view.nrows = a.nrows;
  view.ncols = a.ncols;
  view.rowptr = rowptr.data();
  view.colidx = colidx.data();
  if (with_values && !a.values.empty()) {
    values.upload(a.values.data(), a.values.size(), nullptr);
    view.values = values.data();
  }
}

Csr download(const CsrView &d) {
  Csr a;
  a.nrows = d.nrows;
  a.ncols = d.ncols;
  a.rowptr = download(d.rowptr, static_cast<std::size_t>(d.nrows) + 1);
  const auto nnz = static_cast<std::size_t>(a.rowptr.back());
  a.colidx = download(d.colidx, nnz);
  if (d.values) a.values = download(d.values, nnz);
  return a;
}

} // namespace pgk::test
