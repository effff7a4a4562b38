static const char help[] = "Mat aijcompound SpMV benchmark (issue 10, item 9), on the device, per matrix in one run:\n"
                           "  (a) our kernels through kernels/aijcompound's DevicePacked for every fixed variant of the tuner's\n"
                           "      candidates: ac::layout_candidates (-max_mem_ratio) and ac::schedule_grid of the layout that wins them,\n"
                           "      plus the variant (b) chose;\n"
                           "  (b) the PETSc user path: MatConvert(AIJ -> aijcompound), VECCUDA vectors from MatCreateVecs, a first\n"
                           "      MatMult untuned, MatAIJCompoundTune() with -mat_aijcompound_tune joint and a fresh cache file (its\n"
                           "      time and products), the tuned MatMult; a second MatConvert with the same cache file (source cache);\n"
                           "  (c) cuSPARSE scalar CSR (cusparseSpMV CSR_ALG1, CSR_ALG2) on the expanded matrix (and on the matrix as\n"
                           "      generated where its blocks are not full: shown, not a baseline);\n"
                           "  (d) cuSPARSE BSR with blockDim = bs (cusparseDbsrmv row- and column-major blocks; cusparseSpMV BSR_ALG1\n"
                           "      where available): 3x3 for elasticity, the 4x4 expansion of quaternions, 2x2 for complex;\n"
                           "  (e) complex entries: cuSPARSE complex CSR (CUDA_C_64F) on the n/2 x n/2 complex matrix;\n"
                           "  (f) PETSc MATAIJCUSPARSE MatMult (MatConvert, VECCUDA) on the expanded matrix.\n"
                           "Timing: CUDA events around the product only, median of -runs after -warmup, hot (a 100 us device wait\n"
                           "  queued before each run, so that the span is the device's time, not the host's launch) and\n"
                           "  L2-flushed (a read of a -flush_mib buffer before each run, outside the events). Bytes: the compulsory\n"
                           "  bytes of every row are those of the compound CSR-AoS with 4-byte indices (stored entries x (8 x scalars\n"
                           "  per entry + 4) + 4 (block rows + 1)) + x read + y written; GB/s and the fraction of the copy bandwidth\n"
                           "  (best of cudaMemcpy D2D and a copy kernel, read + written, measured in the same run) use them; x cuS =\n"
                           "  the best cuSPARSE row's time / this row's. Every result is checked against the host reference product.\n"
                           "Options: -matrices <spec;spec;...> (alias -gen; default vec3d27, quatsurf, helmholtz2dc at >= 20M scalar\n"
                           "  nonzeros; a spec ending in @rcm is renumbered blockwise by RCM, e.g. quatsurf:n=800@rcm), -quick (tiny matrices, 3 runs: a smoke test), -rows <ours,user,cusparse,petsc>, -runs <20>,\n"
                           "  -warmup <5>, -copy_mib <1024>, -flush_mib <200>, -max_mem_ratio <2.0>, -generated_rows <true>,\n"
                           "  -tune_cache <file> (removed first; default a temporary file), -results <dir> (bench/results).\n";

#include <petscgpukit.h>
#include <petscmat.h>
#include <petsctime.h>

#include <algorithm>
#include <string>
#include <vector>

#if defined(PGK_HAVE_CUDA)
#  include "bench/aijcompound/context.hpp"
#  include "bench/common/bench_cxx.hpp"
#  include "bench/common/copy_bandwidth.hpp"
#  include "kernels/common/kernels.hpp"

using namespace pgk::bench::aijcompound;
using pgk::bench::Stats;

// >= 20M scalar nonzeros and ~170-210 MB of compulsory bytes each (4x the H100's 50 MB L2):
// vec3d27 25.2M (full 3x3 blocks, the pattern of Q1 elasticity, 210 MB), quatsurf 71.7M (202 MB:
// a quaternion stores 4 scalars of its 16-entry expansion, so n = 480 with 25.8M expanded was
// only 74 MB, not past L2), helmholtz2dc 25.1M (171 MB). elast3d (finite differences) is not a default: its blocks are
// about a quarter full, so the compound form stores ~3.8x the scalars a scalar CSR holds
// (-matrices elast3d:n=54 measures it: 26.1M expanded, 6.9M as generated).
static const char kDefaultMatrices[] = "vec3d27:n=47;quatsurf:n=800;helmholtz2dc:n=1120";
static const char kQuickMatrices[]   = "vec3d27:n=6;quatsurf:n=24;helmholtz2dc:n=40";

static PetscErrorCode GetOptions(Options *o)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_aijcompound", NULL);
  PetscCall(PetscOptionsBool("-quick", "tiny matrices and 3 runs (a smoke test)", NULL, o->quick, &o->quick, NULL));
  if (o->quick) o->runs = 3, o->warmup = 1, o->copy_mib = 64;
  PetscCall(PetscOptionsString("-matrices", "generator specs separated by ;", NULL, o->matrices, o->matrices, sizeof o->matrices, NULL));
  PetscCall(PetscOptionsString("-gen", "alias of -matrices", NULL, o->matrices, o->matrices, sizeof o->matrices, NULL));
  PetscCall(PetscOptionsString("-rows", "row groups: ours,user,cusparse,petsc", NULL, o->rows, o->rows, sizeof o->rows, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed runs per row and mode", NULL, o->runs, &o->runs, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed runs first", NULL, o->warmup, &o->warmup, NULL));
  PetscCall(PetscOptionsInt("-copy_mib", "copy-bandwidth buffer, MiB", NULL, o->copy_mib, &o->copy_mib, NULL));
  PetscCall(PetscOptionsInt("-flush_mib", "L2 flush buffer, MiB", NULL, o->flush_mib, &o->flush_mib, NULL));
  PetscCall(PetscOptionsReal("-max_mem_ratio", "the tuner's memory cap (-mat_aijcompound_max_mem_ratio)", NULL, o->max_mem_ratio, &o->max_mem_ratio, NULL));
  PetscCall(PetscOptionsBool("-generated_rows", "scalar rows on the matrix as generated where it differs from the expansion", NULL, o->generated_rows, &o->generated_rows, NULL));
  PetscCall(PetscOptionsString("-tune_cache", "tuning cache file (removed first)", NULL, o->cache, o->cache, sizeof o->cache, NULL));
  PetscCall(PetscOptionsString("-results", "folder for the JSON lines", NULL, o->results, o->results, sizeof o->results, NULL));
  PetscOptionsEnd();
  if (!o->matrices[0]) PetscCall(PetscStrncpy(o->matrices, o->quick ? kQuickMatrices : kDefaultMatrices, sizeof o->matrices));
  PetscCheck(o->runs >= 1 && o->warmup >= 0 && o->copy_mib >= 1 && o->flush_mib >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-runs must be >= 1, -warmup >= 0, -copy_mib and -flush_mib >= 1");
  for (const std::string &g : Split(o->rows, ',')) PetscCheck(g == "ours" || g == "user" || g == "cusparse" || g == "petsc", PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-rows: unknown group %s (ours, user, cusparse, petsc)", g.c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The copy bandwidth every fraction is measured against (bytes/s, read + written), recorded.
static PetscErrorCode CopyBandwidth(const Options &o, Results &res)
{
  pgk::bench::CopyTimes ct;

  PetscFunctionBegin;
  const size_t bytes = (size_t)o.copy_mib << 20;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, ct = pgk::bench::measure_device_copy(bytes, 3, 20));
  const Stats m = pgk::bench::summarize(ct.memcpy_seconds), k = pgk::bench::summarize(ct.kernel_seconds);
  res.copy_bw           = 2.0 * bytes / std::min(m.median, k.median);
  const std::string buf = "\"" + std::to_string(o.copy_mib) + " MiB\"";
  PetscCall(res.figure(nullptr, "copy bandwidth: cudaMemcpy D2D", "GBps_read_plus_write", 2.0 * bytes / m.median / 1e9, {{"buffer", buf}}, "median of 20"));
  PetscCall(res.figure(nullptr, "copy bandwidth: copy kernel (float4)", "GBps_read_plus_write", 2.0 * bytes / k.median / 1e9, {{"buffer", buf}}, "median of 20"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "copy bandwidth: %.1f GB/s (best of cudaMemcpy D2D %.1f and a copy kernel %.1f, read + written, %d MiB)\n", res.copy_bw / 1e9, 2.0 * bytes / m.median / 1e9, 2.0 * bytes / k.median / 1e9, (int)o.copy_mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A section that fails (PETSc's message is printed above) is counted and skipped, not the run.
static PetscErrorCode Section(const char *name, PetscErrorCode ierr, int *failures)
{
  PetscFunctionBegin;
  if (ierr) {
    ++*failures;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  SECTION FAILED: %s (PETSc error %d, message above); its rows are missing\n", name, (int)ierr));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Every selected row group on one matrix; the cuSPARSE rows first (the speedup column divides by
// their best), the PETSc path before the fixed variants (which time its choice too).
static PetscErrorCode BenchMatrix(const std::string &spec, const Options &o, Timer &t, Results &res, Summary *s, int *failures)
{
  Problem p;

  PetscFunctionBegin;
  PetscCall(CreateProblem(spec, &p));
  s->spec           = spec;
  s->kind           = ac::kind_name(p.c.kind);
  s->bs             = p.c.bs;
  s->compound_bytes = p.compound_bytes;
  s->nnz            = (long long)p.expanded.nnz();
  PetscCall(PrintHeader(p, res.copy_bw));
  if (o.has("cusparse")) PetscCall(Section("cuSPARSE rows", BenchCuSparse(p, o, t, *s, res), failures));
  if (o.has("user")) PetscCall(Section("PETSc aijcompound path", BenchUserPath(p, o, t, *s, res), failures));
  if (o.has("ours")) PetscCall(Section("fixed variants", BenchFixedVariants(p, o, t, *s, res), failures));
  if (o.has("petsc")) PetscCall(Section("PETSc aijcusparse", BenchPetscCuSparse(p, o, t, *s, res), failures));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Run(const char *commit)
{
  Options              o;
  Results              res;
  Timer                t;
  std::vector<Summary> sums;
  int                  failures = 0;

  PetscFunctionBegin;
  PetscCall(GetOptions(&o));
  res.device = pgk::cuda::current_device_description();
  res.commit = commit;
  res.jsonl  = std::string(o.results) + "/bench_aijcompound.jsonl";
  t.warmup = (int)o.warmup, t.runs = (int)o.runs;
  PetscCall(PetscGetCurrentCUDAStream(&t.stream));
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, t.flush.allocate((size_t)o.flush_mib << 20));
  PetscCallCUDA(cudaMemsetAsync(t.flush.data(), 1, t.flush.size(), t.stream));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_aijcompound on %s, commit %s; CUDA events, median of %d runs after %d, hot (a 100 us device wait before each run) and flushed (%d MiB read before each run)\n", res.device.c_str(), commit, (int)o.runs,
                        (int)o.warmup, (int)o.flush_mib));
  if (o.runs < 10) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "fewer than 10 timed runs: a smoke test, not figures to report\n"));
  PetscCall(CopyBandwidth(o, res));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "columns: median ms, GB/s of the compulsory compound bytes, their fraction of the copy bandwidth, the best cuSPARSE row's time / this row's, hot then flushed; max |y - y_ref| / max |y_ref|\n"));
  for (const std::string &spec : Split(o.matrices, ';')) {
    Summary s;
    PetscCall(BenchMatrix(spec, o, t, res, &s, &failures));
    sums.push_back(s);
  }
  PetscCall(PrintTargets(sums, res.copy_bw));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "appended %d records to %s\n", res.records, res.jsonl.c_str()));
  PetscCheck(failures == 0, PETSC_COMM_WORLD, PETSC_ERR_LIB, "%d section(s) failed (SECTION FAILED above)", failures);
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  const char    *commit;
  PetscBool      gpu;
  PetscMPIInt    size;
  PetscLogDouble t0, t1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscTime(&t0));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "bench_aijcompound runs on one rank");
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  PetscCheck(gpu, PETSC_COMM_WORLD, PETSC_ERR_SUP, "bench_aijcompound needs petscgpukit's CUDA kernels and a usable CUDA device");
#if defined(PGK_HAVE_CUDA)
  PetscCall(Run(commit));
#endif
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%.1f s in all\n", (double)(t1 - t0)));
  PetscCall(PetscFinalize());
  return 0;
}
