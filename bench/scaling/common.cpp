// bench_scaling: the problem, collective timing, device memory and the rows (context.hpp).
#include "bench/scaling/context.hpp"

#include <petscgpukit.h>
#include <petsctime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "bench/common/bench_timing.hpp"
#if defined(PGK_HAVE_CUDA)
#  include <cuda_runtime.h>
#endif

namespace pgk::bench::scaling {

PetscErrorCode CreateProblem(const Env &env, const std::string &spec, MatType type, Problem *p)
{
  PetscLogDouble t0, t1;
  MatInfo        info;
  PetscInt       rstart, rend;
  PetscScalar   *xa;

  PetscFunctionBegin;
  p->spec = spec;
  // The generator assembles straight into the measured type: no second host copy of a large matrix.
  PetscCall(PetscOptionsSetValue(NULL, "-scaling_gen_mat_type", type));
  PetscCallMPI(MPI_Barrier(env.comm));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscGpuKitMatCreateGenerated(env.comm, spec.c_str(), "scaling_gen_", &p->A));
  PetscCallMPI(MPI_Barrier(env.comm));
  PetscCall(PetscTime(&t1));
  p->create_seconds = t1 - t0;
  PetscCall(MatGetSize(p->A, &p->n, NULL));
  PetscCall(MatGetInfo(p->A, MAT_GLOBAL_SUM, &info));
  p->nnz = (long long)info.nz_used;
  PetscCall(MatCreateVecs(p->A, &p->x, &p->b));
  PetscCall(VecDuplicate(p->x, &p->xtrue));
  // x_true from the global index (not VecSetRandom, whose values depend on the rank count).
  PetscCall(VecGetOwnershipRange(p->xtrue, &rstart, &rend));
  PetscCall(VecGetArrayWrite(p->xtrue, &xa));
  for (PetscInt i = rstart; i < rend; ++i) xa[i - rstart] = 1.0 + 0.5 * std::sin(0.37 * (double)i);
  PetscCall(VecRestoreArrayWrite(p->xtrue, &xa));
  PetscCall(ReferenceMult(env, p, p->xtrue, p->b));
  PetscCall(VecSet(p->x, 0.0));
  PetscCall(PetscPrintf(env.comm, "problem %s: %" PetscInt_FMT " rows, %lld nonzeros, %s, generated and assembled in %.2f s\n", spec.c_str(), p->n, p->nnz, type, p->create_seconds));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ReferenceMult(const Env &env, Problem *p, Vec x, Vec y)
{
  int ierr = 0, worst = 0;

  PetscFunctionBegin;
  if (p->device_mult_error.empty()) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = (int)MatMult(p->A, x, y);
    PetscCall(PetscPopErrorHandler());
    PetscCallMPI(MPIU_Allreduce(&ierr, &worst, 1, MPI_INT, MPI_MAX, env.comm));
    if (!worst) PetscFunctionReturn(PETSC_SUCCESS);
    // Only a device failure is recovered (what it allocated leaks); anything else stays an error.
    PetscCheck(env.gpu && worst == PETSC_ERR_GPU, env.comm, (PetscErrorCode)worst, "MatMult of the problem's matrix failed");
    const char *text = NULL, *specific = NULL;
    PetscCall(PetscErrorMessage((PetscErrorCode)worst, &text, &specific));
    p->device_mult_error = std::string("PETSc error ") + std::to_string(worst) + ": " + (specific && specific[0] ? specific : text ? text : "(no message)");
    PetscCall(PetscPrintf(env.comm, "  the device MatMult of %s failed (%s); its products come from the host\n", p->spec.c_str(), p->device_mult_error.c_str()));
  }
  PetscCall(MatBindToCPU(p->A, PETSC_TRUE));
  PetscCall(MatMult(p->A, x, y));
  PetscCall(MatBindToCPU(p->A, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DestroyProblem(Problem *p)
{
  PetscFunctionBegin;
  for (Vec *v : {&p->x, &p->b, &p->xtrue}) PetscCall(VecDestroy(v));
  PetscCall(MatDestroy(&p->A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MaxSeconds(const Env &env, const std::function<PetscErrorCode()> &f, double *sec)
{
  double local = 0;

  PetscFunctionBegin;
  // Every rank's device idle, then every rank starts together: the slowest rank is the wall time.
  PetscCall(pgk::bench::DeviceSync(env.gpu));
  PetscCallMPI(MPI_Barrier(env.comm));
  PetscCall(pgk::bench::Timed(env.gpu, f, &local));
  PetscCallMPI(MPIU_Allreduce(&local, sec, 1, MPI_DOUBLE, MPI_MAX, env.comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode Repeat(const Env &env, int warmup, int runs, const std::function<PetscErrorCode()> &f, Row *row)
{
  std::vector<double> t;

  PetscFunctionBegin;
  for (int i = 0; i < warmup + runs; ++i) {
    double sec;
    PetscCall(MaxSeconds(env, f, &sec));
    if (i >= warmup) t.push_back(sec);
  }
  const Stats s = summarize(t);
  row->value    = s.median;
  row->min      = s.min;
  row->max      = s.max;
  row->runs     = s.runs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceMemoryGiB(const Env &env, double *used, double *total)
{
  double local[2] = {0, 0}, global[2];

  PetscFunctionBegin;
#if defined(PGK_HAVE_CUDA)
  if (env.gpu) {
    size_t free_b = 0, total_b = 0;
    PetscCallCUDA(cudaMemGetInfo(&free_b, &total_b));
    local[0] = (double)(total_b - free_b) / 1073741824.0;
    local[1] = (double)total_b / 1073741824.0;
  }
#endif
  PetscCallMPI(MPIU_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, env.comm));
  *used  = global[0];
  *total = global[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DefaultOption(const std::string &prefix, const char *key, const std::string &value)
{
  const std::string name = "-" + prefix + key;
  PetscBool         set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, name.c_str(), &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, name.c_str(), value.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A JSON number, or null where the figure failed (JSON has no NaN).
static std::string Number(double v)
{
  char buf[64];
  if (!std::isfinite(v)) return "null";
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// '|' separates the fields of the SCALINGROW line; the free text must not contain it.
static std::string Field(std::string s)
{
  std::replace(s.begin(), s.end(), '|', '/');
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

static void AppendJson(const Env &env, const Problem &p, const Row &r)
{
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(env.jsonl).parent_path(), ec);
  FILE *f = std::fopen(env.jsonl.c_str(), "a");
  if (!f) {
    std::fprintf(stderr, "bench_scaling: cannot append to %s\n", env.jsonl.c_str());
    return;
  }
  std::fprintf(f,
               "{\"benchmark\":\"scaling\",\"kind\":\"figure\",\"component\":\"%s\",\"case\":\"%s\",\"matrix\":\"%s\",\"n\":%lld,\"nnz\":%lld,\"ranks\":%d,\"metric\":\"%s\",\"median\":%s,\"min\":%s,\"max\":%s,\"runs\":%d,"
               "\"iterations\":%lld,\"reason\":\"%s\",\"status\":\"%s\",\"device\":\"%s\",\"devices\":\"%s\",\"shared_gpu\":%s,\"commit\":\"%s\",\"note\":\"%s\"}\n",
               json_escape(r.component).c_str(), json_escape(r.name).c_str(), json_escape(p.spec).c_str(), (long long)p.n, p.nnz, (int)env.size, json_escape(r.metric).c_str(), Number(r.value).c_str(), Number(r.min).c_str(), Number(r.max).c_str(),
               r.runs, r.iterations, json_escape(r.reason).c_str(), json_escape(r.status).c_str(), json_escape(env.device).c_str(), json_escape(env.devices).c_str(), env.shared_gpu ? "true" : "false", json_escape(env.commit).c_str(),
               json_escape(r.note).c_str());
  std::fclose(f);
}

PetscErrorCode Emit(const Env &env, const Problem &p, const Row &r)
{
  char value[64], its[32];

  PetscFunctionBegin;
  if (r.status != "ok") std::snprintf(value, sizeof value, "%s", r.status == "unsupported" ? "UNSUPPORTED" : "FAILED");
  else if (r.metric == "seconds") std::snprintf(value, sizeof value, "%.4g s", r.value);
  else std::snprintf(value, sizeof value, "%.4g %s", r.value, r.metric.c_str());
  std::snprintf(its, sizeof its, "%lld", r.iterations);
  PetscCall(PetscPrintf(env.comm, "  %-34s %14s  its %-6s %-20s %s\n", r.name.c_str(), value, r.iterations >= 0 ? its : "-", r.reason.c_str(), r.note.c_str()));
  PetscCall(PetscPrintf(env.comm, "SCALINGROW|%s|%s|%s|%d|%.9g|%lld|%s|%s|%s|%d|%s|%s|%s\n", Field(r.component).c_str(), Field(r.name).c_str(), Field(r.metric).c_str(), (int)env.size, r.value, r.iterations, Field(r.reason).c_str(),
                        Field(r.status).c_str(), Field(env.devices).c_str(), env.shared_gpu ? 1 : 0, Field(env.device).c_str(), Field(env.commit).c_str(), Field(r.note).c_str()));
  if (env.rank == 0) AppendJson(env, p, r);
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::scaling
