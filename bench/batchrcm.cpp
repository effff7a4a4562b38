static const char help[] =
  "batchrcm benchmark: Reverse Cuthill-McKee on generated matrices, side by side in one run:\n"
  "  serial reference (src/rcm_serial), CPU batch RCM with 1..16 threads, GPU batch RCM,\n"
  "  PETSc's MATORDERINGRCM and cuSOLVER's csrsymrcmHost. Core = ordering from the given start node;\n"
  "  end-to-end = start node included (PETSc and cuSOLVER always include it). Every backend's\n"
  "  permutation is checked equal to the reference. Then: auto vs serial on small matrices.\n"
  "Options: -matrices <spec;spec;...>, -runs <k> (10, GPU), -slow_runs <k> (10, host baselines),\n"
  "  -big_runs <k> (5, host baselines on matrices past 50M nonzeros; every record states its runs),\n"
  "  cuSOLVER takes at most 3 runs (it is orders of magnitude slower).\n"
  "  -threads <1,2,4,8,16>, -cusolver_max_nnz <n> (30000000), -results <dir>\n";

#include <petscgpukit.h>
#include <petsctime.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <thread>
#include <string>
#include <vector>

// cuSOLVER csrsymrcmHost is deprecated (pointing to cuDSS, which has no RCM); it is the baseline
// the issue names, so its deprecation warnings are silenced here.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "bench/common/bench_common.hpp"
#include "src/common/envelope.hpp"
#include "src/matgen/generators.hpp"
#include "petsc_plugin/sys/pgk_petsc.hpp"
#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/start_node.hpp"
#if defined(PGK_HAVE_CUDA)
  #include <cuda_runtime.h>
  #include <cusolverSp.h>
  #include <petscdevice_cuda.h>
  #include "kernels/common/kernels.hpp"
  #include "kernels/batchrcm/rcm_gpu.hpp"
#endif

using pgk::bench::Record;
using pgk::bench::Stats;
using Clock = std::chrono::steady_clock;

static double Seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

static std::vector<std::string> Split(const std::string &s, char sep)
{
  std::vector<std::string> out;
  std::stringstream        ss(s);
  std::string              item;
  while (std::getline(ss, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

struct Row {
  std::string matrix, backend, metric;
  long long   n, nnz;
  Stats       s;
  long long   bandwidth;
};

int main(int argc, char **argv)
{
  char      matrices[4096] = "lap3d7:n=160;lap3d27:n=100;elast3d:n=72;lap2d5:n=2900;rgg2d:n=4000000,deg=8;powerlaw:n=2000000,avgdeg=10;lap3d7:n=245;elast3d:n=132";
  char      thr[256]       = "1,2,4,8,16";
  char      results[PETSC_MAX_PATH_LEN] = PGK_BENCH_RESULTS_DIR;
  PetscInt  runs = 10, slow_runs = 10, big_runs = 5, cusolver_max_nnz = 30000000;
  const char *commit;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_batchrcm", NULL);
  PetscCall(PetscOptionsString("-matrices", "generator specs separated by ;", NULL, matrices, matrices, sizeof matrices, NULL));
  PetscCall(PetscOptionsString("-threads", "CPU batch thread counts", NULL, thr, thr, sizeof thr, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed runs", NULL, runs, &runs, NULL));
  PetscCall(PetscOptionsInt("-slow_runs", "timed runs of the host baselines", NULL, slow_runs, &slow_runs, NULL));
  PetscCall(PetscOptionsInt("-big_runs", "timed runs of the host baselines past 50M nonzeros", NULL, big_runs, &big_runs, NULL));
  PetscCall(PetscOptionsInt("-cusolver_max_nnz", "largest matrix given to cuSOLVER", NULL, cusolver_max_nnz, &cusolver_max_nnz, NULL));
  PetscCall(PetscOptionsString("-results", "folder for the JSON lines", NULL, results, results, sizeof results, NULL));
  PetscOptionsEnd();
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscBool gpu;
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  std::string device = "host only";
#if defined(PGK_HAVE_CUDA)
  if (gpu) device = pgk::cuda::current_device_description();
#endif
  std::vector<Row> rows;
  const std::string jsonl = std::string(results) + "/bench_batchrcm.jsonl";
  // Each record goes to the JSON lines as soon as it is measured, so a run cut short keeps them.
  auto add = [&](const std::string &m, const std::string &b, const std::string &metric, long long n, long long nnz, const Stats &s, long long bw) {
    rows.push_back({m, b, metric, n, nnz, s, bw});
    Record j;
    j.benchmark   = "batchrcm";
    j.matrix      = m;
    j.n           = n;
    j.nnz         = nnz;
    j.backend     = b;
    j.metric      = metric == "bandwidth" ? "bandwidth" : "seconds_" + metric;
    j.stats       = s;
    j.extra_name  = "bandwidth_after";
    j.value_extra = (double)bw;
    j.device      = device;
    j.commit      = commit;
    if (!pgk::bench::append_jsonl(jsonl, j)) std::fprintf(stderr, "cannot append to %s\n", jsonl.c_str());
  };

  for (const std::string &spec : Split(matrices, ';')) {
    const pgk::Csr      a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    const pgk::CsrView  g = pgk::view_of(a);
    const long long     n = a.nrows, nnz = a.nnz();
    pgk::rcm::Options   opts; // paper's start node, diagonal counted
    const auto          plan = pgk::rcm::plan_components(g, opts);
    std::vector<pgk::Index> ref;
    const long long     bw0 = pgk::envelope(g).bandwidth;
    add(spec, "natural", "bandwidth", n, nnz, Stats(), bw0);
    // Host baselines on matrices past 50M nonzeros take seconds a run: big_runs of them.
    const int sr = (int)(nnz > 50000000 ? big_runs : slow_runs);

    // The serial start-node search (plan_components on one thread), for reference.
    Stats start = pgk::bench::measure(0, sr, [&] { auto t0 = Clock::now(); auto p = pgk::rcm::plan_components(g, opts); return Seconds(t0, Clock::now()); });
    add(spec, "host start node (plan_components)", "start_node", n, nnz, start, -1);
    // Serial reference.
    Stats core = pgk::bench::measure(1, sr, [&] { auto t0 = Clock::now(); ref = pgk::rcm::serial_rcm_from_roots(g, plan.roots, opts); return Seconds(t0, Clock::now()); });
    Stats e2e  = pgk::bench::measure(0, sr, [&] { auto t0 = Clock::now(); auto p = pgk::rcm::serial_rcm(g, opts); return Seconds(t0, Clock::now()); });
    const long long bw1 = pgk::envelope(g, ref).bandwidth;
    add(spec, "serial reference", "core", n, nnz, core, bw1);
    add(spec, "serial reference", "end_to_end", n, nnz, e2e, bw1);

    // CPU batch.
    for (const std::string &t : Split(thr, ',')) {
      pgk::rcm::Options bo = opts;
      bo.cpu.threads = std::atoi(t.c_str());
      std::vector<pgk::Index> p;
      Stats c = pgk::bench::measure(1, sr, [&] { auto t0 = Clock::now(); p = pgk::rcm::batch_rcm_cpu_from_roots(g, plan.roots, bo); return Seconds(t0, Clock::now()); });
      PetscCheck(p == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cpu batch (%s threads) differs from the reference", spec.c_str(), t.c_str());
      // End to end: the start-node search runs on the same threads (parallel BFS levels).
      Stats e = pgk::bench::measure(0, sr, [&] { auto t0 = Clock::now(); p = pgk::rcm::batch_rcm_cpu(g, bo); return Seconds(t0, Clock::now()); });
      PetscCheck(p == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cpu batch end to end (%s threads) differs from the reference", spec.c_str(), t.c_str());
      add(spec, "cpu batch " + t + " threads", "core", n, nnz, c, bw1);
      add(spec, "cpu batch " + t + " threads", "end_to_end", n, nnz, e, bw1);
    }

#if defined(PGK_HAVE_CUDA)
    if (gpu) {
      // Matrix on the device first (not timed): the GPU path orders it where it lives.
      pgk::Index *d_rowptr, *d_colidx;
      PetscCallCUDA(cudaMalloc(&d_rowptr, sizeof(pgk::Index) * (n + 1)));
      PetscCallCUDA(cudaMalloc(&d_colidx, sizeof(pgk::Index) * (nnz ? nnz : 1)));
      PetscCallCUDA(cudaMemcpy(d_rowptr, a.rowptr.data(), sizeof(pgk::Index) * (n + 1), cudaMemcpyHostToDevice));
      PetscCallCUDA(cudaMemcpy(d_colidx, a.colidx.data(), sizeof(pgk::Index) * nnz, cudaMemcpyHostToDevice));
      pgk::CsrView dg = g;
      dg.rowptr = d_rowptr;
      dg.colidx = d_colidx;
      dg.values = nullptr;
      std::vector<pgk::Index> p;
      const pgk::rcm::Options &go = opts;
      Stats c, e;
      PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, c = pgk::bench::measure(3, (int)runs, [&] { auto t0 = Clock::now(); p = pgk::cuda::rcm_gpu_from_roots(dg, plan.roots, go, nullptr); return Seconds(t0, Clock::now()); }));
      PetscCheck(p == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: gpu batch (core) differs from the reference", spec.c_str());
      PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, e = pgk::bench::measure(3, (int)runs, [&] { auto t0 = Clock::now(); p = pgk::cuda::rcm_gpu(dg, go, nullptr); return Seconds(t0, Clock::now()); }));
      PetscCheck(p == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: gpu batch (end to end) differs from the reference", spec.c_str());
      add(spec, "gpu batch", "core", n, nnz, c, bw1);
      add(spec, "gpu batch", "end_to_end", n, nnz, e, bw1);
      PetscCallCUDA(cudaFree(d_rowptr));
      PetscCallCUDA(cudaFree(d_colidx));
    }
#endif

    // PETSc's rcm through MatGetOrdering on a SeqAIJ sharing our arrays.
    {
      Mat A;
      PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, (PetscInt)n, (PetscInt)n, (PetscInt *)a.rowptr.data(), (PetscInt *)a.colidx.data(), (PetscScalar *)a.values.data(), &A));
      std::vector<PetscInt> p;
      Stats s = pgk::bench::measure(1, sr, [&] {
        IS   r, c;
        auto t0 = Clock::now();
        PetscCallAbort(PETSC_COMM_SELF, MatGetOrdering(A, MATORDERINGRCM, &r, &c));
        const double t = Seconds(t0, Clock::now());
        const PetscInt *idx;
        PetscCallAbort(PETSC_COMM_SELF, ISGetIndices(r, &idx));
        p.assign(idx, idx + n);
        PetscCallAbort(PETSC_COMM_SELF, ISRestoreIndices(r, &idx));
        PetscCallAbort(PETSC_COMM_SELF, ISDestroy(&r));
        PetscCallAbort(PETSC_COMM_SELF, ISDestroy(&c));
        return t;
      });
      add(spec, "PETSc rcm", "end_to_end", n, nnz, s, pgk::envelope(g, p).bandwidth);
      PetscCall(MatDestroy(&A));
    }

#if defined(PGK_HAVE_CUDA) && !defined(PGK_INDEX_64)
    if (gpu && nnz <= cusolver_max_nnz) {
      cusolverSpHandle_t h;
      cusparseMatDescr_t d;
      std::vector<int>   p(n);
      PetscCallCUSOLVER(cusolverSpCreate(&h));
      PetscCallCUSPARSE(cusparseCreateMatDescr(&d));
      Stats s = pgk::bench::measure(0, (int)PetscMin(sr, 3), [&] {
        auto t0 = Clock::now();
        PetscCallAbort(PETSC_COMM_SELF, cusolverSpXcsrsymrcmHost(h, (int)n, (int)nnz, d, a.rowptr.data(), a.colidx.data(), p.data()) == CUSOLVER_STATUS_SUCCESS ? PETSC_SUCCESS : PETSC_ERR_LIB);
        return Seconds(t0, Clock::now());
      });
      std::vector<pgk::Index> pp(p.begin(), p.end());
      add(spec, "cuSOLVER csrsymrcmHost", "end_to_end", n, nnz, s, pgk::envelope(g, pp).bandwidth);
      PetscCallCUSPARSE(cusparseDestroyMatDescr(d));
      PetscCallCUSOLVER(cusolverSpDestroy(h));
    }
#endif
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "done %s (%lld rows, %lld nonzeros)\n", spec.c_str(), n, nnz));
    for (size_t k = rows.size(); k-- > 0 && rows[k].matrix == spec;)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-34s %-18s median %.4g s (%d runs)\n", rows[k].backend.c_str(), rows[k].metric.c_str(), rows[k].s.median, rows[k].s.runs));
  }

  // Small matrices: MatGetOrdering with -mat_ordering_batchrcm_backend auto against serial.
  for (const char *spec : {"lap2d5:n=40", "lap3d7:n=12", "random:n=5000,deg=6", "elast3d:n=6", "powerlaw:n=20000"}) {
    Mat A;
    PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_SELF, spec, NULL, &A));
    PetscInt N;
    MatInfo  info;
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
    for (const char *backend : {"serial", "auto"}) {
      PetscCall(PetscOptionsSetValue(NULL, "-mat_ordering_batchrcm_backend", backend));
      Stats s = pgk::bench::measure(3, (int)runs, [&] {
        IS   r, c;
        auto t0 = Clock::now();
        PetscCallAbort(PETSC_COMM_SELF, MatGetOrdering(A, MATORDERINGBATCHRCM, &r, &c));
        const double t = Seconds(t0, Clock::now());
        PetscCallAbort(PETSC_COMM_SELF, ISDestroy(&r));
        PetscCallAbort(PETSC_COMM_SELF, ISDestroy(&c));
        return t;
      });
      add(spec, std::string("MatGetOrdering batchrcm ") + backend, "end_to_end", N, (long long)info.nz_used, s, -1);
    }
    PetscCall(MatDestroy(&A));
  }

  // Table, JSON lines, and the target ratios.
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nbench_batchrcm on %s (host: %u hardware threads), commit %s\n", device.c_str(), std::thread::hardware_concurrency(), commit));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-34s %-30s %-10s %10s %10s %10s %4s %10s\n", "matrix", "backend", "metric", "median s", "min s", "max s", "runs", "bandwidth"));
  std::map<std::string, std::map<std::string, double>> med; // matrix -> backend/metric -> median
  for (const Row &r : rows) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-34s %-30s %-10s %10.4g %10.4g %10.4g %4d %10lld\n", r.matrix.c_str(), r.backend.c_str(), r.metric.c_str(), r.s.median, r.s.min, r.s.max, r.s.runs, r.bandwidth));
    med[r.matrix][r.backend + "/" + r.metric] = r.s.median;
  }
  // Geometric means over matrices with >= 10M nonzeros.
  double lg_petsc = 0, lg_serial = 0, lg_cpu16 = 0, lg_cusolver = 0, worst_petsc = 1e300;
  int    k = 0, kc = 0;
  for (const Row &r : rows) {
    if (r.backend != "serial reference" || r.metric != "end_to_end" || r.nnz < 10000000) continue;
    auto &m = med[r.matrix];
    if (!m.count("gpu batch/end_to_end")) continue;
    const double gpu_e2e = m["gpu batch/end_to_end"];
    lg_petsc += std::log(m["PETSc rcm/end_to_end"] / gpu_e2e);
    worst_petsc = std::min(worst_petsc, m["PETSc rcm/end_to_end"] / gpu_e2e);
    lg_serial += std::log(m["serial reference/end_to_end"] / gpu_e2e);
    if (m.count("cpu batch 16 threads/end_to_end")) lg_cpu16 += std::log(m["serial reference/end_to_end"] / m["cpu batch 16 threads/end_to_end"]);
    if (m.count("cuSOLVER csrsymrcmHost/end_to_end")) {
      lg_cusolver += std::log(m["cuSOLVER csrsymrcmHost/end_to_end"] / gpu_e2e);
      ++kc;
    }
    ++k;
  }
  if (k) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nTargets over %d matrices with >= 10M nonzeros (geometric means, end to end):\n", k));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  GPU vs PETSc rcm:        %.2fx (target >= 15x; worst matrix %.2fx, target >= 5x)\n", std::exp(lg_petsc / k), worst_petsc));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  GPU vs serial reference: %.2fx (target >= 6x)\n", std::exp(lg_serial / k)));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  CPU 16 threads vs serial: %.2fx (target >= 3x)\n", std::exp(lg_cpu16 / k)));
    if (kc) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  cuSOLVER vs GPU:         %.1fx slower over %d matrices (target >= 100x)\n", std::exp(lg_cusolver / kc), kc));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "auto vs serial on small matrices (target: auto <= 1.5x serial):\n"));
  for (auto &[m, v] : med)
    if (v.count("MatGetOrdering batchrcm auto/end_to_end")) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-24s auto/serial = %.2f\n", m.c_str(), v["MatGetOrdering batchrcm auto/end_to_end"] / v["MatGetOrdering batchrcm serial/end_to_end"]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "appended %d records to %s\n", (int)rows.size(), jsonl.c_str()));
  PetscCall(PetscFinalize());
  return 0;
}
