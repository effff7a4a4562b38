static const char help[] = "MatOrdering rabbitpp benchmark (issue 9), on each generated graph in one run:\n"
                           "  1. MatGetOrdering rabbitpp through PETSc, as a user calls it: backend cpu with each thread count on\n"
                           "     the host MATAIJ, backend gpu on the MATAIJCUSPARSE copy (wall clock); then the same called\n"
                           "     directly (rabbitpp_batch at the largest thread count, rabbitpp_gpu) for the time per phase, and\n"
                           "     the figures (modularity, insularity, communities, hubs) of rabbitpp and rabbit. Every backend's\n"
                           "     permutation is checked equal to the first one.\n"
                           "  2. MatMult (MATAIJCUSPARSE, CUDA events; one host core on a CPU-only run) after permuting by\n"
                           "     random, original, PETSc rcm, batchrcm, rabbit, rabbitpp, as a ratio to the ideal time\n"
                           "     (compulsory bytes / copy bandwidth measured in the same run);\n"
                           "  3. pay-back in SpMVs = ordering time / (MatMult original - MatMult after);\n"
                           "  4. the Targets of issue 9 with met / MISSED;  5. spy plots before and after, as image files.\n"
                           "Options: -matrices <spec;spec;...>, -target_matrix <spec> (default: the first),\n"
                           "  -threads <1,2,4,8,16> (cpu thread counts on the target graph), -threads_other <16> (on the others),\n"
                           "  -sweep_all <bool> (every graph gets -threads), -orderings <random,original,rcm,batchrcm,rabbit,rabbitpp>\n"
                           "  (also rabbitpp_kN: rabbitpp with -mat_ordering_rabbitpp_hub_factor N for that call),\n"
                           "  -runs <10>, -warmup <3> (device rows), -cpu_warmup <1> (host rows), -min_runs <1>,\n"
                           "  -row_seconds <20> (a host row whose runs would take longer gets fewer runs, stated in its note;\n"
                           "  with -min_runs 1 a run longer than half of it is timed once, by its warm-up run),\n"
                           "  -aux_row_seconds <10> (the same for rcm, batchrcm and rabbit's host ordering times),\n"
                           "  -phase_runs <3> (direct host calls for the phases), -spmv_runs <50>, -spmv_warmup <5>,\n"
                           "  -copy_mib <2048>, -spy <bool>, -spy_matrix <communities:n=20000>, -spy_orderings <original,rabbitpp>,\n"
                           "  -spy_size <256> (pixels; a 256x256 PPM is 192 KiB), -results <dir> (bench/results).\n"
                           "  -mat_ordering_rabbitpp_{batch,insular_first,hub_scope,hub_factor} apply to every call, direct ones included.\n";

#include <petscgpukit.h>
#include <petsctime.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bench/common/bench_cxx.hpp"
#include "bench/rabbitpp/context.hpp"
#if defined(PGK_HAVE_CUDA)
#  include "bench/common/copy_bandwidth.hpp"
#  include "kernels/common/kernels.hpp"
#endif

using namespace pgk::bench::rabbitpp;

// Device run: the graphs of 10M-110M nonzeros, target first, one of each generator class
// the issue names. Each has an x larger than the H100's 50 MB L2: the seed chose its matrices by x
// beyond L2 (notes/002), and with x resident in L2 the order of the columns changes the DRAM traffic
// little (the 4M-vertex graphs used until the seventieth session had x = 32 MB). Host run: small ones.
static const char kDeviceMatrices[] = "communities:n=8000000;communities:n=7000000,intra=4,inter=8;"
                                      "powerlaw:n=10000000,communities=5000,mixing=0.3;rgg2d:n=8000000";
static const char kHostMatrices[]   = "communities:n=200000;communities:n=100000,inter=8;powerlaw:n=100000,communities=200,mixing=0.3;rgg2d:n=200000";

// The ordering options MatOrdering rabbitpp reads, for the direct calls (threads: per call).
static PetscErrorCode GetOrderingOptions(pgk::rabbitpp::Options *r)
{
  PetscInt  batch = 0, hub_factor = 1;
  PetscBool insular_first = PETSC_FALSE;
  char      scope[64]     = "noninsular";

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_ordering_rabbitpp_batch", &batch, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_ordering_rabbitpp_insular_first", &insular_first, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_rabbitpp_hub_scope", scope, sizeof scope, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_ordering_rabbitpp_hub_factor", &hub_factor, NULL));
  r->batch         = (pgk::Index)batch;
  r->hub_factor    = (int)hub_factor;
  r->insular_first = insular_first ? true : false;
  r->hub_scope     = std::string(scope) == "all" ? pgk::rabbitpp::HubScope::All : pgk::rabbitpp::HubScope::NonInsular;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetOptions(PetscBool gpu, Options *o)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_rabbitpp", NULL);
  PetscCall(PetscOptionsString("-matrices", "generator specs separated by ;", NULL, o->matrices, o->matrices, sizeof o->matrices, NULL));
  PetscCall(PetscOptionsString("-target_matrix", "the graph the targets are judged on (default: the first)", NULL, o->target, o->target, sizeof o->target, NULL));
  PetscCall(PetscOptionsString("-threads", "cpu thread counts on the target graph", NULL, o->threads, o->threads, sizeof o->threads, NULL));
  PetscCall(PetscOptionsString("-threads_other", "cpu thread counts on the other graphs", NULL, o->threads_other, o->threads_other, sizeof o->threads_other, NULL));
  PetscCall(PetscOptionsBool("-sweep_all", "every graph gets -threads", NULL, o->sweep_all, &o->sweep_all, NULL));
  PetscCall(PetscOptionsString("-orderings", "orderings of the SpMV comparison", NULL, o->orderings, o->orderings, sizeof o->orderings, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed runs", NULL, o->runs, &o->runs, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed runs first (device rows)", NULL, o->warmup, &o->warmup, NULL));
  PetscCall(PetscOptionsInt("-cpu_warmup", "untimed runs first (host rows)", NULL, o->cpu_warmup, &o->cpu_warmup, NULL));
  PetscCall(PetscOptionsInt("-min_runs", "fewest timed runs of a row over budget", NULL, o->min_runs, &o->min_runs, NULL));
  PetscCall(PetscOptionsReal("-row_seconds", "budget of a row of ordering times", NULL, o->row_seconds, &o->row_seconds, NULL));
  PetscCall(PetscOptionsReal("-aux_row_seconds", "budget of rcm, batchrcm, rabbit's host rows", NULL, o->aux_row_seconds, &o->aux_row_seconds, NULL));
  PetscCall(PetscOptionsInt("-phase_runs", "timed direct host calls for the phases", NULL, o->phase_runs, &o->phase_runs, NULL));
  PetscCall(PetscOptionsInt("-spmv_runs", "timed MatMults", NULL, o->spmv_runs, &o->spmv_runs, NULL));
  PetscCall(PetscOptionsInt("-spmv_warmup", "untimed MatMults first", NULL, o->spmv_warmup, &o->spmv_warmup, NULL));
  PetscCall(PetscOptionsInt("-copy_mib", "copy-bandwidth buffer, MiB", NULL, o->copy_mib, &o->copy_mib, NULL));
  PetscCall(PetscOptionsBool("-spy", "write the spy plots", NULL, o->spy, &o->spy, NULL));
  PetscCall(PetscOptionsString("-spy_matrix", "matrix of the spy plots", NULL, o->spy_matrix, o->spy_matrix, sizeof o->spy_matrix, NULL));
  PetscCall(PetscOptionsString("-spy_orderings", "orderings drawn", NULL, o->spy_orderings, o->spy_orderings, sizeof o->spy_orderings, NULL));
  PetscCall(PetscOptionsInt("-spy_size", "image edge in pixels", NULL, o->spy_size, &o->spy_size, NULL));
  PetscCall(PetscOptionsString("-results", "folder for the JSON lines and the pictures", NULL, o->results, o->results, sizeof o->results, NULL));
  PetscOptionsEnd();
  if (!o->matrices[0]) PetscCall(PetscStrncpy(o->matrices, gpu ? kDeviceMatrices : kHostMatrices, sizeof o->matrices));
  if (!o->target[0]) PetscCall(PetscStrncpy(o->target, Split(o->matrices, ';').at(0).c_str(), sizeof o->target));
  PetscCheck(o->runs >= 1 && o->spmv_runs >= 1 && o->phase_runs >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-runs, -spmv_runs and -phase_runs must be >= 1");
  PetscCall(GetOrderingOptions(&o->ordering));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static std::vector<int> ThreadCounts(const char *list)
{
  std::vector<int> t;
  for (const std::string &s : Split(list, ',')) t.push_back(std::max(1, std::atoi(s.c_str())));
  return t;
}

// The copy bandwidth of the device (bytes/s read + written, the best of cudaMemcpy and a copy
// kernel), recorded like bench_baseline's; 0 on a host run.
static PetscErrorCode CopyBandwidth(PetscBool gpu, const Options &o, Results &res, double *bw)
{
  PetscFunctionBegin;
  *bw = 0;
#if defined(PGK_HAVE_CUDA)
  if (gpu) {
    const size_t          bytes = (size_t)o.copy_mib << 20;
    pgk::bench::CopyTimes ct;
    PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, ct = pgk::bench::measure_device_copy(bytes, 3, 20));
    for (int kind = 0; kind < 2; ++kind) {
      Row r;
      r.matrix     = std::to_string(o.copy_mib) + " MiB buffer";
      r.backend    = kind == 0 ? "copy bandwidth: cudaMemcpy D2D" : "copy bandwidth: copy kernel (float4)";
      r.metric     = "seconds";
      r.s          = pgk::bench::summarize(kind == 0 ? ct.memcpy_seconds : ct.kernel_seconds);
      r.extra_name = "GBps_read_plus_write";
      r.extra      = 2.0 * bytes / r.s.median / 1e9;
      *bw          = std::max(*bw, 2.0 * bytes / r.s.median);
      res.add(r);
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "copy bandwidth %.0f GB/s (read + written, the best of cudaMemcpy and a copy kernel)\n", *bw / 1e9));
  }
#else
  (void)gpu;
  (void)o;
  (void)res;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateProblem(const std::string &spec, PetscBool gpu, const Options &o, Problem *p)
{
  const PetscInt *ia, *ja;
  PetscBool       done;

  PetscFunctionBegin;
  p->spec = spec;
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_SELF, spec.c_str(), NULL, &p->host));
  PetscCall(MatGetRowIJ(p->host, 0, PETSC_FALSE, PETSC_FALSE, &p->n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ refused %s", spec.c_str());
  p->nnz        = ia[p->n];
  p->csr.nrows  = (pgk::Index)p->n;
  p->csr.ncols  = (pgk::Index)p->n;
  p->csr.rowptr = (const pgk::Index *)ia;
  p->csr.colidx = (const pgk::Index *)ja;
  p->threads    = ThreadCounts(spec == o.target || o.sweep_all ? o.threads : o.threads_other);
  PetscCheck(!p->threads.empty(), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "no cpu thread count for %s", spec.c_str());
  p->sum.matrix = spec;
  p->sum.n      = p->n;
  p->sum.nnz    = p->nnz;
  if (gpu) { // the device copy, uploaded: MatGetOrdering's gpu backend orders a matrix where it lives
    Vec x, y;
    PetscCall(MatConvert(p->host, MATAIJCUSPARSE, MAT_INITIAL_MATRIX, &p->dev));
    PetscCall(MatCreateVecs(p->dev, &x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(p->dev, x, y));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DestroyProblem(Problem *p)
{
  const PetscInt *ia, *ja;
  PetscInt        n;
  PetscBool       done;

  PetscFunctionBegin;
  ia = (const PetscInt *)p->csr.rowptr;
  ja = (const PetscInt *)p->csr.colidx;
  PetscCall(MatRestoreRowIJ(p->host, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCall(MatDestroy(&p->dev));
  PetscCall(MatDestroy(&p->host));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Options                  o;
  Results                  res;
  const char              *commit;
  PetscBool                gpu;
  PetscMPIInt              size;
  double                   copy_bw = 0;
  std::vector<Summary>     sums;
  std::vector<std::string> pictures;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "bench_rabbitpp measures one device and one node: run it on 1 rank");
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  PetscCall(GetOptions(gpu, &o));
  res.device = "host (" + std::to_string(std::thread::hardware_concurrency()) + " hardware threads)";
#if defined(PGK_HAVE_CUDA)
  if (gpu) res.device = pgk::cuda::current_device_description();
#endif
  res.commit = commit;
  res.jsonl  = std::string(o.results) + "/bench_rabbitpp.jsonl";
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_rabbitpp on %s%s, commit %s\n", res.device.c_str(), gpu ? (" (host: " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads)").c_str() : "", commit));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "runs: device rows %d after %d warm-up; host rows up to %d after %d warm-up within %.0f s a row (rcm, batchrcm, rabbit: %.0f s; fewer runs are stated in the row), MatMult %d after %d warm-up\n", (int)o.runs,
                        (int)o.warmup, (int)o.runs, (int)o.cpu_warmup, (double)o.row_seconds, (double)o.aux_row_seconds, (int)o.spmv_runs, (int)o.spmv_warmup));
  PetscCall(CopyBandwidth(gpu, o, res, &copy_bw));
  const std::vector<std::string> specs = Split(o.matrices, ';');
  BenchProgress                  progress("bench_rabbitpp", specs.size());
  for (const std::string &spec : specs) {
    Problem        p;
    PetscLogDouble t0, t1;
    PetscCall(progress.Start(spec));
    PetscCall(PetscTime(&t0));
    PetscCall(CreateProblem(spec, gpu, o, &p));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n%s: %" PetscInt_FMT " rows, %lld nonzeros\n", spec.c_str(), p.n, p.nnz));
    PetscCall(BenchOrderingTimes(p, o, gpu, res));
    PetscCall(BenchPhases(p, o, gpu, res));
    PetscCall(BenchSpmv(p, o, gpu, copy_bw, res));
    sums.push_back(p.sum);
    PetscCall(DestroyProblem(&p));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  (%s took %.1f s, generation and set-up included)\n", spec.c_str(), (double)(t1 - t0)));
  }
  if (o.spy) PetscCall(WriteSpyPlots(o, &pictures));
  PetscCall(PrintTable(res));
  PetscCall(PrintTargets(sums, o, gpu));
  for (const std::string &f : pictures) {
    std::error_code ec;
    const auto      bytes = std::filesystem::file_size(f, ec);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "picture (spy plot, %dx%d pixels, %lld bytes): %s\n", (int)o.spy_size, (int)o.spy_size, ec ? -1LL : (long long)bytes, f.c_str()));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "appended %d records to %s\n", (int)res.rows.size(), res.jsonl.c_str()));
  PetscCall(PetscFinalize());
  return 0;
}
