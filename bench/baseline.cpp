static const char help[] = "Baseline figures every later SpMV-like benchmark is compared with:\n"
                           "  1. the copy bandwidth of the device (or of host memory on a CPU-only run), read + write;\n"
                           "  2. MatMult of PETSc's own MATAIJCUSPARSE (and MATAIJ on one core) on a 3D 7-point Laplacian,\n"
                           "     as time and as a fraction of the copy bandwidth for its compulsory bytes.\n"
                           "Options: -n <grid edge> (default 144 on a GPU: 20.7M nonzeros; 48 on a CPU), -runs <k> (20),\n"
                           "         -warmup <k> (3), -results <dir> (bench/results), -copy_mib <m> (2048 GPU, 512 CPU),\n"
                           "         -host_matmult <bool> (also time MATAIJ on the host, default true)\n";

#include <petscgpukit.h>
#include <petsctime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "bench/common/bench_timing.hpp"
#include "bench/common/bench_cxx.hpp"
#if defined(PGK_HAVE_CUDA)
#  include <petscdevice_cuda.h>
#  include "bench/common/copy_bandwidth.hpp"
#  include "kernels/common/kernels.hpp"
#endif

using pgk::bench::Record;
using pgk::bench::Stats;

static std::string HostDescription()
{
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string   line, model = "unknown CPU";
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  return model;
}

// Times MatMult y = A x; on the device with CUDA events on PETSc's stream, else wall clock.
static PetscErrorCode TimeMatMult(Mat A, PetscBool device, int warmup, int runs, Stats *s)
{
  Vec x, y;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(pgk::bench::TimeOp(
      device, warmup, runs, [&]() { return MatMult(A, x, y); }, s));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Options {
  PetscInt  n = -1, runs = 20, warmup = 3, copy_mib = -1;
  char      results[PETSC_MAX_PATH_LEN] = PGK_BENCH_RESULTS_DIR;
  PetscBool host_mm                     = PETSC_TRUE;
};

static PetscErrorCode GetOptions(PetscBool gpu, Options *o)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_baseline", NULL);
  PetscCall(PetscOptionsInt("-n", "grid edge of the 3D Laplacian", NULL, o->n, &o->n, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed runs", NULL, o->runs, &o->runs, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed runs first", NULL, o->warmup, &o->warmup, NULL));
  PetscCall(PetscOptionsInt("-copy_mib", "copy size in MiB", NULL, o->copy_mib, &o->copy_mib, NULL));
  PetscCall(PetscOptionsString("-results", "folder for the JSON lines", NULL, o->results, o->results, sizeof o->results, NULL));
  PetscCall(PetscOptionsBool("-host_matmult", "also time MATAIJ on the host", NULL, o->host_mm, &o->host_mm, NULL));
  PetscOptionsEnd();
  if (o->n < 0) o->n = gpu ? 144 : 48;
  if (o->copy_mib < 0) o->copy_mib = gpu ? 2048 : 512;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 1. Copy bandwidth of the device (cudaMemcpy and a copy kernel) or of host memory (memcpy, one
// core); *copy_bw gets the best, in bytes/s read + written.
static PetscErrorCode CopyBandwidth(PetscBool gpu, const Options &o, std::vector<Record> &rows, double *copy_bw)
{
  const size_t bytes = (size_t)o.copy_mib << 20;

  PetscFunctionBegin;
  *copy_bw = 0;
  if (gpu) {
#if defined(PGK_HAVE_CUDA)
    pgk::bench::CopyTimes ct;
    PGK_BENCH_CALL_CXX(PETSC_COMM_WORLD, PETSC_ERR_GPU, ct = pgk::bench::measure_device_copy(bytes, (int)o.warmup, (int)o.runs));
    for (int kind = 0; kind < 2; ++kind) {
      Record r;
      r.benchmark   = "copy_bandwidth";
      r.matrix      = std::to_string(o.copy_mib) + " MiB buffer";
      r.backend     = kind == 0 ? "cudaMemcpy D2D" : "copy kernel (float4)";
      r.stats       = pgk::bench::summarize(kind == 0 ? ct.memcpy_seconds : ct.kernel_seconds);
      r.extra_name  = "GBps_read_plus_write";
      r.value_extra = 2.0 * bytes / r.stats.median / 1e9;
      *copy_bw      = std::max(*copy_bw, 2.0 * bytes / r.stats.median);
      rows.push_back(r);
    }
#endif
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  std::vector<char> a(bytes, 1), b(bytes, 2);
  Stats             s = pgk::bench::measure((int)o.warmup, (int)o.runs, [&] {
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    auto t1 = std::chrono::steady_clock::now();
    a[bytes / 2] ^= b[bytes / 3]; // keep the copy observable
    return std::chrono::duration<double>(t1 - t0).count();
  });
  Record            r;
  r.benchmark   = "copy_bandwidth";
  r.matrix      = std::to_string(o.copy_mib) + " MiB buffer";
  r.backend     = "memcpy (1 core)";
  r.stats       = s;
  r.extra_name  = "GBps_read_plus_write";
  r.value_extra = 2.0 * bytes / s.median / 1e9;
  *copy_bw      = 2.0 * bytes / s.median;
  rows.push_back(r);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 2. MatMult of PETSc's own types on a 3D 7-point Laplacian, as time and as a fraction of the
// copy bandwidth for its compulsory bytes.
static PetscErrorCode MatMultBaseline(PetscBool gpu, const Options &o, double copy_bw, std::vector<Record> &rows)
{
  const std::string                              spec = "lap3d7:n=" + std::to_string(o.n);
  std::vector<std::pair<std::string, PetscBool>> types;

  PetscFunctionBegin;
  if (gpu) types.push_back({MATAIJCUSPARSE, PETSC_TRUE});
  if (!gpu || o.host_mm) types.push_back({MATAIJ, PETSC_FALSE});
  for (auto &[type, on_device] : types) {
    Mat      A;
    MatInfo  info;
    PetscInt N;
    PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec.c_str(), NULL, &A));
    PetscCall(MatConvert(A, type.c_str(), MAT_INPLACE_MATRIX, &A));
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
    const double nnz = info.nz_used;
    Record       r;
    r.benchmark = "matmult_baseline";
    r.matrix    = spec;
    r.n         = N;
    r.nnz       = (long long)nnz;
    r.backend   = std::string("PETSc MatMult ") + type + (on_device ? "" : " (1 core)");
    PetscCall(TimeMatMult(A, on_device, (int)o.warmup, (int)o.runs, &r.stats));
    // Compulsory bytes: values and column indices once, row pointer, x read once, y written once.
    const double compulsory = nnz * (sizeof(PetscScalar) + sizeof(PetscInt)) + (N + 1.0) * sizeof(PetscInt) + 2.0 * N * sizeof(PetscScalar);
    r.extra_name            = "fraction_of_copy_bandwidth";
    r.value_extra           = compulsory / r.stats.median / copy_bw;
    r.note                  = "compulsory bytes " + std::to_string((long long)compulsory) + "; GB/s " + std::to_string(compulsory / r.stats.median / 1e9);
    rows.push_back(r);
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The table, and one JSON line per record.
static PetscErrorCode Report(std::vector<Record> &rows, const std::string &device, const char *commit, const std::string &jsonl)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_baseline on %s, commit %s\n", device.c_str(), commit));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-18s %-26s %-40s %11s %11s %11s %5s %10s\n", "benchmark", "matrix", "backend", "median s", "min s", "max s", "runs", "extra"));
  for (auto &r : rows) {
    r.device = device;
    r.commit = commit;
    PetscCall(
        PetscPrintf(PETSC_COMM_WORLD, "%-18s %-26s %-40s %11.4e %11.4e %11.4e %5d %10.3f %s\n", r.benchmark.c_str(), r.matrix.c_str(), r.backend.c_str(), r.stats.median, r.stats.min, r.stats.max, r.stats.runs, r.value_extra, r.extra_name.c_str()));
    PetscCheck(pgk::bench::append_jsonl(jsonl, r), PETSC_COMM_WORLD, PETSC_ERR_FILE_OPEN, "cannot append to %s", jsonl.c_str());
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "appended %d records to %s\n", (int)rows.size(), jsonl.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Options             o;
  PetscMPIInt         size;
  const char         *commit;
  PetscBool           gpu;
  double              copy_bw = 0; // bytes/s, read + write
  std::vector<Record> rows;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "bench_baseline measures one device or one core: run it on 1 rank");
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  PetscCall(GetOptions(gpu, &o));
  std::string device = "host: " + HostDescription();
#if defined(PGK_HAVE_CUDA)
  if (gpu) device = pgk::cuda::current_device_description();
#endif
  PetscCall(CopyBandwidth(gpu, o, rows, &copy_bw));
  PetscCall(MatMultBaseline(gpu, o, copy_bw, rows));
  PetscCall(Report(rows, device, commit, std::string(o.results) + "/bench_baseline.jsonl"));
  PetscCall(PetscFinalize());
  return 0;
}
