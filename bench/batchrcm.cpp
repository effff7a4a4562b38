static const char help[] = "batchrcm benchmark: Reverse Cuthill-McKee on generated matrices, side by side in one run:\n"
                           "  serial reference (src/batchrcm/serial), CPU batch RCM with 1..16 threads, GPU batch RCM,\n"
                           "  PETSc's MATORDERINGRCM and cuSOLVER's csrsymrcmHost. Core = ordering from the given start node;\n"
                           "  end-to-end = start node included (PETSc and cuSOLVER always include it). Every backend's\n"
                           "  permutation is checked equal to the reference. The GPU end to end is split into its kernel\n"
                           "  phases (start node plan, ordering + copy back). Then MatGetOrdering as a user calls it on a\n"
                           "  SeqAIJ sharing the arrays, no symmetry flag (backends serial, cpu with the largest -threads in\n"
                           "  host algorithms levels and paper, gpu on a MATSEQAIJCUSPARSE copy), next to PETSc's rcm, with\n"
                           "  the targets of issue 12. Then: auto vs serial on small matrices. -user_only skips the\n"
                           "  kernel-level host rows (serial reference, CPU batch per thread count, cuSOLVER).\n"
                           "Options: -matrices <spec;spec;...>, -runs <k> (10, GPU), -slow_runs <k> (10, host baselines),\n"
                           "  -big_runs <k> (5, host baselines on matrices past 50M nonzeros; every record states its runs),\n"
                           "  cuSOLVER takes at most 3 runs (it is orders of magnitude slower).\n"
                           "  -threads <1,2,4,8,16>, -cusolver_max_nnz <n> (30000000), -batch_nodes <B> (GPU batch size,\n"
                           "  default 0: automatic, 256 or 512), -batch_cut walker|nodes (GPU batch cut, default nodes), -batch_valence <T> (GPU batch scratch), -small_matrices <spec;...>,\n"
                           "  -results <dir>\n";

#include <petscgpukit.h>
#include <petsctime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

// cuSOLVER csrsymrcmHost is deprecated (pointing to cuDSS, which has no RCM); it is the baseline
// the issue names, so its deprecation warnings are silenced here.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "bench/common/bench_common.hpp"
#include "bench/common/bench_cxx.hpp"
#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/common/envelope.hpp"
#include "src/matgen/generators.hpp"
#if defined(PGK_HAVE_CUDA)
#  include <cuda_runtime.h>
#  include <cusolverSp.h>
#  include <petscdevice_cuda.h>
#  include "kernels/batchrcm/rcm_gpu.hpp"
#  include "kernels/common/kernels.hpp"
#endif

#include "bench/batchrcm/context.hpp"

static PetscErrorCode GetOptions(Options *o)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_batchrcm", NULL);
  PetscCall(PetscOptionsString("-matrices", "generator specs separated by ;", NULL, o->matrices, o->matrices, sizeof o->matrices, NULL));
  PetscCall(PetscOptionsString("-small_matrices", "specs of the auto vs serial comparison", NULL, o->small, o->small, sizeof o->small, NULL));
  PetscCall(PetscOptionsString("-threads", "CPU batch thread counts", NULL, o->threads, o->threads, sizeof o->threads, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed runs", NULL, o->runs, &o->runs, NULL));
  PetscCall(PetscOptionsInt("-slow_runs", "timed runs of the host baselines", NULL, o->slow_runs, &o->slow_runs, NULL));
  PetscCall(PetscOptionsInt("-big_runs", "timed runs of the host baselines past 50M nonzeros", NULL, o->big_runs, &o->big_runs, NULL));
  PetscCall(PetscOptionsInt("-cusolver_max_nnz", "largest matrix given to cuSOLVER", NULL, o->cusolver_max_nnz, &o->cusolver_max_nnz, NULL));
  PetscCall(PetscOptionsInt("-batch_nodes", "GPU batch size B (0: the default)", NULL, o->batch_nodes, &o->batch_nodes, NULL));
  PetscCall(PetscOptionsInt("-batch_valence", "GPU batch scratch T in row entries (0: the default)", NULL, o->batch_valence, &o->batch_valence, NULL));
  PetscCall(PetscOptionsString("-gpu_algorithm", "GPU algorithm of the kernel rows: batch or levels (empty: the default)", NULL, o->gpu_algorithm, o->gpu_algorithm, sizeof o->gpu_algorithm, NULL));
  PetscCall(PetscOptionsInt("-levels_blocks", "levels: blocks of its grid (0: all resident)", NULL, o->levels_blocks, &o->levels_blocks, NULL));
  PetscCall(PetscOptionsString("-batch_cut", "GPU batch cut of the kernel rows: walker or nodes (empty: the default)", NULL, o->batch_cut, o->batch_cut, sizeof o->batch_cut, NULL));
  PetscCall(PetscOptionsBool("-user_only", "only the MatGetOrdering rows, PETSc's rcm and the GPU kernel rows", NULL, o->user_only, &o->user_only, NULL));
  PetscCall(PetscOptionsBool("-gpu_only", "with -user_only: only the device rows (kernel, MatGetOrdering on the device matrix, flag set or not) and the index-set copies", NULL, o->gpu_only, &o->gpu_only, NULL));
  PetscCall(PetscOptionsBool("-with_rcm", "with -gpu_only: PETSc's rcm as well (the baseline of the gpu-over-rcm target, in the same run)", NULL, o->with_rcm, &o->with_rcm, NULL));
  PetscCall(PetscOptionsString("-results", "folder for the JSON lines", NULL, o->results, o->results, sizeof o->results, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The serial start-node search, the serial reference (core and end to end), the CPU batch.
static PetscErrorCode BenchHost(Problem &p, const Options &o, Results &res)
{
  PetscFunctionBegin;
  res.add(p.spec, "natural", "bandwidth", p.n, p.nnz, Stats(), pgk::envelope(p.g).bandwidth);
  // The serial start-node search (plan_components on one thread), for reference.
  Stats start = pgk::bench::measure(0, p.sr, [&] {
    auto t0 = Clock::now();
    auto q  = pgk::rcm::plan_components(p.g, p.opts);
    return Seconds(t0, Clock::now());
  });
  res.add(p.spec, "host start node (plan_components)", "start_node", p.n, p.nnz, start, -1);
  Stats core = pgk::bench::measure(1, p.sr, [&] {
    auto t0 = Clock::now();
    p.ref   = pgk::rcm::serial_rcm_from_roots(p.g, p.plan.roots, p.opts);
    return Seconds(t0, Clock::now());
  });
  Stats e2e  = pgk::bench::measure(0, p.sr, [&] {
    auto t0 = Clock::now();
    auto q  = pgk::rcm::serial_rcm(p.g, p.opts);
    return Seconds(t0, Clock::now());
  });
  p.bw1      = pgk::envelope(p.g, p.ref).bandwidth;
  res.add(p.spec, "serial reference", "core", p.n, p.nnz, core, p.bw1);
  res.add(p.spec, "serial reference", "end_to_end", p.n, p.nnz, e2e, p.bw1);
  for (const std::string &t : Split(o.threads, ',')) {
    pgk::rcm::Options bo = p.opts;
    bo.cpu.threads       = std::atoi(t.c_str());
    std::vector<pgk::Index> q;
    Stats                   c = pgk::bench::measure(1, p.sr, [&] {
      auto t0 = Clock::now();
      q       = pgk::rcm::batch_rcm_cpu_from_roots(p.g, p.plan.roots, bo);
      return Seconds(t0, Clock::now());
    });
    PetscCheck(q == p.ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cpu batch (%s threads) differs from the reference", p.spec.c_str(), t.c_str());
    // End to end: the start-node search runs on the same threads (parallel BFS levels).
    Stats e = pgk::bench::measure(0, p.sr, [&] {
      auto t0 = Clock::now();
      q       = pgk::rcm::batch_rcm_cpu(p.g, bo);
      return Seconds(t0, Clock::now());
    });
    PetscCheck(q == p.ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cpu batch end to end (%s threads) differs from the reference", p.spec.c_str(), t.c_str());
    res.add(p.spec, "cpu batch " + t + " threads", "core", p.n, p.nnz, c, p.bw1);
    res.add(p.spec, "cpu batch " + t + " threads", "end_to_end", p.n, p.nnz, e, p.bw1);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PGK_HAVE_CUDA)
// The GPU batch RCM on the matrix uploaded first (not timed: the GPU path orders a matrix where
// it lives): core and end to end (wall clock), and the end to end's kernel phases as the device
// code measures them (start-node plan; ordering + copy back), with what the runs did.
static PetscErrorCode BenchGpu(const Problem &p, const Options &o, Results &res)
{
  pgk::Index             *d_rowptr, *d_colidx;
  std::vector<pgk::Index> q;
  std::vector<double>     plan_s, order_s;
  pgk::rcm::Options       go = p.opts;
  pgk::cuda::RcmGpuInfo   info;
  pgk::rcm::Stats         st;
  Stats                   c, e;

  PetscFunctionBegin;
  if (o.batch_nodes > 0) go.gpu.batch_nodes = (int)o.batch_nodes;
  if (o.batch_valence > 0) go.gpu.batch_valence = (int)o.batch_valence;
  if (!strcmp(o.gpu_algorithm, "levels")) go.gpu.algorithm = pgk::rcm::GpuAlgorithm::Levels;
  else if (!strcmp(o.gpu_algorithm, "batch")) go.gpu.algorithm = pgk::rcm::GpuAlgorithm::Batch;
  else PetscCheck(!o.gpu_algorithm[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-gpu_algorithm %s: expected batch or levels", o.gpu_algorithm);
  go.gpu.levels_blocks = (int)o.levels_blocks;
  if (!strcmp(o.batch_cut, "walker")) go.gpu.batch_cut = pgk::rcm::GpuBatchCut::Walker;
  else if (!strcmp(o.batch_cut, "nodes")) go.gpu.batch_cut = pgk::rcm::GpuBatchCut::Nodes;
  else PetscCheck(!o.batch_cut[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-batch_cut %s: expected walker or nodes", o.batch_cut);
  PetscCallCUDA(cudaMalloc(&d_rowptr, sizeof(pgk::Index) * (p.n + 1)));
  PetscCallCUDA(cudaMalloc(&d_colidx, sizeof(pgk::Index) * (p.nnz ? p.nnz : 1)));
  PetscCallCUDA(cudaMemcpy(d_rowptr, p.a.rowptr.data(), sizeof(pgk::Index) * (p.n + 1), cudaMemcpyHostToDevice));
  PetscCallCUDA(cudaMemcpy(d_colidx, p.a.colidx.data(), sizeof(pgk::Index) * p.nnz, cudaMemcpyHostToDevice));
  pgk::CsrView dg = p.g;
  dg.rowptr       = d_rowptr;
  dg.colidx       = d_colidx;
  dg.values       = nullptr;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, c = pgk::bench::measure(3, (int)o.runs, [&] {
                                                       auto t0 = Clock::now();
                                                       q       = pgk::cuda::rcm_gpu_from_roots(dg, p.plan.roots, go, nullptr);
                                                       return Seconds(t0, Clock::now());
                                                     }));
  PetscCheck(q == p.ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: gpu batch (core) differs from the reference", p.spec.c_str());
  int run = 0;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, e = pgk::bench::measure(3, (int)o.runs, [&] {
                                                       auto t0        = Clock::now();
                                                       q              = pgk::cuda::rcm_gpu(dg, go, nullptr, &st, &info);
                                                       const double t = Seconds(t0, Clock::now());
                                                       if (run++ >= 3) { // after the warm-up runs, as measure() counts them
                                                         plan_s.push_back(info.plan_ms * 1e-3);
                                                         order_s.push_back(info.order_ms * 1e-3);
                                                       }
                                                       return t;
                                                     }));
  PetscCheck(q == p.ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: gpu batch (end to end) differs from the reference", p.spec.c_str());
  // The same with the symmetry unknown, as MatGetOrdering on a matrix without the flag runs it: the
  // pattern is checked on the device first (and found symmetric).
  pgk::rcm::Options uo  = go;
  uo.input_is_symmetric = false;
  Stats u;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, u = pgk::bench::measure(1, (int)o.runs, [&] {
                                                       auto t0 = Clock::now();
                                                       q       = pgk::cuda::rcm_gpu(dg, uo, nullptr);
                                                       return Seconds(t0, Clock::now());
                                                     }));
  PetscCheck(q == p.ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: gpu batch (symmetry unknown) differs from the reference", p.spec.c_str());
  res.add(p.spec, "gpu batch, symmetry unknown", "end_to_end", p.n, p.nnz, u, p.bw1);
  res.add(p.spec, "gpu batch", "core", p.n, p.nnz, c, p.bw1);
  res.add(p.spec, "gpu batch", "end_to_end", p.n, p.nnz, e, p.bw1);
  const Stats ps = pgk::bench::summarize(plan_s), os = pgk::bench::summarize(order_s);
  res.add(p.spec, "gpu batch kernel: start node plan", "end_to_end_phase", p.n, p.nnz, ps, -1);
  res.add(p.spec, "gpu batch kernel: ordering + copy back", "end_to_end_phase", p.n, p.nnz, os, p.bw1);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  gpu %s B=%d T=%d cut=%s end to end %.3f ms = kernel phases: plan %.3f ms (%d rounds, %d BFS levels) + ordering %.3f ms (%d blocks, %llu batches, %llu empty, %llu forwarding)\n",
                        info.levels ? "levels" : "batch", info.batch_nodes, info.batch_valence, go.gpu.batch_cut == pgk::rcm::GpuBatchCut::Nodes ? "nodes" : "walker", 1e3 * e.median, 1e3 * ps.median, info.peripheral_rounds, info.bfs_levels,
                        1e3 * os.median, info.blocks, (unsigned long long)st.batches_executed, (unsigned long long)info.empty_batches, (unsigned long long)st.batches_forwarding_overhang));
  PetscCallCUDA(cudaFree(d_rowptr));
  PetscCallCUDA(cudaFree(d_colidx));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

// PETSc's rcm through MatGetOrdering on a SeqAIJ sharing our arrays.
static PetscErrorCode BenchPetscRcm(const Problem &p, Results &res)
{
  Mat                   A;
  std::vector<PetscInt> q;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, (PetscInt)p.n, (PetscInt)p.n, (PetscInt *)p.a.rowptr.data(), (PetscInt *)p.a.colidx.data(), (PetscScalar *)p.a.values.data(), &A));
  Stats s = TimeOrdering(A, MATORDERINGRCM, p.sr, q);
  res.add(p.spec, "PETSc rcm", "end_to_end", p.n, p.nnz, s, pgk::envelope(p.g, q).bandwidth);
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PGK_HAVE_CUDA) && !defined(PGK_INDEX_64)
// cuSOLVER's csrsymrcmHost (host code, at most 3 runs).
static PetscErrorCode BenchCusolver(const Problem &p, Results &res)
{
  cusolverSpHandle_t h;
  cusparseMatDescr_t d;
  std::vector<int>   q(p.n);

  PetscFunctionBegin;
  PetscCallCUSOLVER(cusolverSpCreate(&h));
  PetscCallCUSPARSE(cusparseCreateMatDescr(&d));
  Stats                   s = pgk::bench::measure(0, (int)PetscMin(p.sr, 3), [&] {
    auto t0 = Clock::now();
    PetscCallAbort(PETSC_COMM_SELF, cusolverSpXcsrsymrcmHost(h, (int)p.n, (int)p.nnz, d, p.a.rowptr.data(), p.a.colidx.data(), q.data()) == CUSOLVER_STATUS_SUCCESS ? PETSC_SUCCESS : PETSC_ERR_LIB);
    return Seconds(t0, Clock::now());
  });
  std::vector<pgk::Index> qq(q.begin(), q.end());
  res.add(p.spec, "cuSOLVER csrsymrcmHost", "end_to_end", p.n, p.nnz, s, pgk::envelope(p.g, qq).bandwidth);
  PetscCallCUSPARSE(cusparseDestroyMatDescr(d));
  PetscCallCUSOLVER(cusolverSpDestroy(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

// Every backend on one matrix, then its rows of the table.
static PetscErrorCode BenchMatrix(const std::string &spec, const Options &o, PetscBool gpu, Results &res)
{
  Problem p;

  PetscFunctionBegin;
  p.spec = spec;
  p.a    = pgk::gen::generate(pgk::gen::parse_spec(spec));
  p.g    = pgk::view_of(p.a);
  p.n    = p.a.nrows;
  p.nnz  = p.a.nnz();
  p.plan = pgk::rcm::plan_components(p.g, p.opts);
  // Host baselines on matrices past 50M nonzeros take seconds a run: big_runs of them.
  p.sr = (int)(p.nnz > 50000000 ? o.big_runs : o.slow_runs);
  if (o.user_only) {
    p.ref = pgk::rcm::serial_rcm_from_roots(p.g, p.plan.roots, p.opts);
    p.bw1 = pgk::envelope(p.g, p.ref).bandwidth;
  } else PetscCall(BenchHost(p, o, res));
#if defined(PGK_HAVE_CUDA)
  if (gpu) PetscCall(BenchGpu(p, o, res));
#endif
  if (!o.gpu_only || o.with_rcm) PetscCall(BenchPetscRcm(p, res));
  PetscCall(BenchUserCalls(p, o, gpu, res));
#if defined(PGK_HAVE_CUDA) && !defined(PGK_INDEX_64)
  if (gpu && !o.user_only && p.nnz <= o.cusolver_max_nnz) PetscCall(BenchCusolver(p, res));
#endif
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "done %s (%lld rows, %lld nonzeros)\n", spec.c_str(), p.n, p.nnz));
  for (size_t k = res.rows.size(); k-- > 0 && res.rows[k].matrix == spec;)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-34s %-18s median %.4g s (%d runs)\n", res.rows[k].backend.c_str(), res.rows[k].metric.c_str(), res.rows[k].s.median, res.rows[k].s.runs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Small matrices: MatGetOrdering with -mat_ordering_batchrcm_backend auto against serial.
static PetscErrorCode BenchAutoVsSerial(const Options &o, Results &res)
{
  PetscFunctionBegin;
  for (const std::string &spec : Split(o.small, ';')) {
    Mat A;
    PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_SELF, spec.c_str(), NULL, &A));
    PetscInt N;
    MatInfo  info;
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
    for (const char *backend : {"serial", "auto"}) {
      PetscCall(PetscOptionsSetValue(NULL, "-mat_ordering_batchrcm_backend", backend));
      Stats s = pgk::bench::measure(3, (int)o.runs, [&] {
        IS   r, c;
        auto t0 = Clock::now();
        PetscCallAbort(PETSC_COMM_SELF, MatGetOrdering(A, MATORDERINGBATCHRCM, &r, &c));
        const double t = Seconds(t0, Clock::now());
        PetscCallAbort(PETSC_COMM_SELF, ISDestroy(&r));
        PetscCallAbort(PETSC_COMM_SELF, ISDestroy(&c));
        return t;
      });
      res.add(spec, std::string("MatGetOrdering batchrcm ") + backend, "end_to_end", N, (long long)info.nz_used, s, -1);
    }
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The table, and the target ratios (geometric means over matrices with >= 10M nonzeros).
static PetscErrorCode Report(const Results &res)
{
  std::map<std::string, std::map<std::string, double>> med; // matrix -> backend/metric -> median

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nbench_batchrcm on %s (host: %u hardware threads), commit %s\n", res.device.c_str(), std::thread::hardware_concurrency(), res.commit.c_str()));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-34s %-30s %-10s %10s %10s %10s %4s %10s\n", "matrix", "backend", "metric", "median s", "min s", "max s", "runs", "bandwidth"));
  for (const Row &r : res.rows) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-34s %-30s %-10s %10.4g %10.4g %10.4g %4d %10lld\n", r.matrix.c_str(), r.backend.c_str(), r.metric.c_str(), r.s.median, r.s.min, r.s.max, r.s.runs, r.bandwidth));
    med[r.matrix][r.backend + "/" + r.metric] = r.s.median;
    med[r.matrix]["nnz"]                      = (double)r.nnz;
  }
  double lg_petsc = 0, lg_serial = 0, lg_cpu16 = 0, lg_cusolver = 0, worst_petsc = 1e300;
  int    k = 0, kc = 0;
  for (const Row &r : res.rows) {
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
  PetscCall(ReportUserCalls(med));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "auto vs serial on small matrices (target: auto <= 1.5x serial):\n"));
  for (auto &[m, v] : med)
    if (v.count("MatGetOrdering batchrcm auto/end_to_end")) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-24s auto/serial = %.2f\n", m.c_str(), v["MatGetOrdering batchrcm auto/end_to_end"] / v["MatGetOrdering batchrcm serial/end_to_end"]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "appended %d records to %s\n", (int)res.rows.size(), res.jsonl.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Options     o;
  Results     res;
  const char *commit;
  PetscBool   gpu;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(GetOptions(&o));
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  res.device = "host only";
#if defined(PGK_HAVE_CUDA)
  if (gpu) res.device = pgk::cuda::current_device_description();
#endif
  res.commit = commit;
  res.jsonl  = std::string(o.results) + "/bench_batchrcm.jsonl";

  const std::vector<std::string> specs = Split(o.matrices, ';');
  BenchProgress                  progress("bench_batchrcm", specs.size());
  for (const std::string &spec : specs) {
    PetscCall(progress.Start(spec));
    PetscCall(BenchMatrix(spec, o, gpu, res));
  }
  PetscCall(BenchAutoVsSerial(o, res));
  PetscCall(Report(res));
  PetscCall(PetscFinalize());
  return 0;
}
