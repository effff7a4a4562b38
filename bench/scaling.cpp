static const char help[] = "Strong scaling of one component (issue 14): started by scripts/run-scaling with mpiexec -n 1 and -n 2, one\n"
                           "GPU per rank (PETSc's device selection: rank % devices on the node), the same problem at both counts.\n"
                           "  -component orderings: MatGetOrdering of each rank's diagonal block (-orderings <batchrcm,rabbitpp>), then\n"
                           "     the iterations of CG + bjacobi with ILU(0) in that ordering per block (sub-PC reorder; options <type>_)\n"
                           "  -component trilf: time to solution, KSPSolve with PC trilf per rank block, and the same with KSPSetUp first\n"
                           "     (options trilf_)\n"
                           "  -component aijcompound: MatMult after MatConvert(A, MATAIJCOMPOUND), next to the AIJ MatMult; a\n"
                           "     conversion that fails (no MPI type) is a FAILED/UNSUPPORTED row with PETSc's message\n"
                           "  -component carpcg: KSP carpcg with CARP across ranks, seconds an iteration and iterations (options carp_)\n"
                           "Times: the slowest rank, device synchronized, median of -runs <3> after -warmup <1>. Every figure is a table\n"
                           "row, a SCALINGROW line (for the script) and a JSON line in <-results>/scaling.jsonl with the ranks,\n"
                           "devices and commit. Options: -gen <spec> (the component's problem), -small (tiny problems: a CPU smoke\n"
                           "test), -cpu (host types even where a device is present), -mults <20> (MatMults a repetition),\n"
                           "-rtol <1e-6>, -max_it <5000>, -carp_blocks <65536> (over all ranks), -solve_seconds <20> (budget of the orderings' and carpcg's solves), -results <dir>.\n";

#include <petscdevice.h>
#include <petscgpukit.h>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "bench/common/bench_cxx.hpp"
#include "bench/scaling/context.hpp"
#if defined(PGK_HAVE_CUDA)
#  include <cuda_runtime.h>
#  include <petscdevice_cuda.h>

#  include "kernels/common/kernels.hpp"
#endif

using namespace pgk::bench::scaling;

static PetscErrorCode GetOptions(Options *o, PetscBool *cpu)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_scaling", NULL);
  PetscCall(PetscOptionsString("-component", "orderings, trilf, aijcompound or carpcg", NULL, o->component, o->component, sizeof o->component, NULL));
  PetscCall(PetscOptionsString("-gen", "generator spec of the problem", NULL, o->gen, o->gen, sizeof o->gen, NULL));
  PetscCall(PetscOptionsString("-orderings", "MatOrdering types", NULL, o->orderings, o->orderings, sizeof o->orderings, NULL));
  PetscCall(PetscOptionsBool("-small", "tiny problems", NULL, o->small, &o->small, NULL));
  PetscCall(PetscOptionsBool("-cpu", "host types even with a device", NULL, *cpu, cpu, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed repetitions", NULL, o->runs, &o->runs, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed repetitions first", NULL, o->warmup, &o->warmup, NULL));
  PetscCall(PetscOptionsInt("-mults", "MatMults a repetition", NULL, o->mults, &o->mults, NULL));
  PetscCall(PetscOptionsInt("-max_it", "iteration limit of the solves", NULL, o->max_it, &o->max_it, NULL));
  PetscCall(PetscOptionsInt("-carp_blocks", "CARP blocks over all ranks", NULL, o->carp_blocks, &o->carp_blocks, NULL));
  PetscCall(PetscOptionsReal("-rtol", "relative tolerance of the solves", NULL, o->rtol, &o->rtol, NULL));
  PetscCall(PetscOptionsReal("-solve_seconds", "time budget of a capped solve", NULL, o->solve_seconds, &o->solve_seconds, NULL));
  PetscCall(PetscOptionsString("-results", "folder of scaling.jsonl", NULL, o->results, o->results, sizeof o->results, NULL));
  PetscOptionsEnd();
  PetscCheck(o->runs >= 1 && o->warmup >= 0 && o->mults >= 1 && o->max_it >= 1 && o->carp_blocks >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-runs, -mults, -max_it and -carp_blocks must be >= 1, -warmup >= 0");
  if (!o->results[0]) PetscCall(PetscStrncpy(o->results, PGK_BENCH_RESULTS_DIR, sizeof o->results));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PGK_HAVE_CUDA)
// The device each rank computes on (PETSc chose it at initialization: rank % devices on the node)
// by ordinal and PCI bus id; ranks on one bus id share a GPU.
static PetscErrorCode DescribeDevices(Env *env)
{
  int                 dev;
  char                bus[32] = "";
  std::vector<char>   all(32 * (size_t)env->size);
  std::vector<int>    devs(env->size);
  const char         *visible = std::getenv("CUDA_VISIBLE_DEVICES");
  std::vector<size_t> seen;

  PetscFunctionBegin;
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetPCIBusId(bus, (int)sizeof bus, dev));
  PetscCallMPI(MPI_Allgather(bus, 32, MPI_CHAR, all.data(), 32, MPI_CHAR, env->comm));
  PetscCallMPI(MPI_Allgather(&dev, 1, MPI_INT, devs.data(), 1, MPI_INT, env->comm));
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, env->device = pgk::cuda::current_device_description());
  for (PetscMPIInt r = 0; r < env->size; ++r) {
    const std::string id(&all[32 * (size_t)r]);
    env->devices += (r ? "," : "") + std::string("rank") + std::to_string(r) + ":dev" + std::to_string(devs[r]) + "@" + id;
    for (PetscMPIInt q = 0; q < r; ++q)
      if (id == std::string(&all[32 * (size_t)q])) env->shared_gpu = true;
  }
  env->devices += " (node has " + std::to_string(pgk::cuda::device_count()) + " visible to rank 0" + (visible ? std::string(", CUDA_VISIBLE_DEVICES=") + visible : std::string()) + ")";
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

static PetscErrorCode SetUpEnv(Env *env, PetscBool cpu)
{
  PetscBool   avail;
  const char *commit;

  PetscFunctionBegin;
  env->comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_rank(env->comm, &env->rank));
  PetscCallMPI(MPI_Comm_size(env->comm, &env->size));
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscCall(PetscGpuKitDeviceAvailable(&avail));
  env->commit   = commit;
  env->gpu      = avail && !cpu ? PETSC_TRUE : PETSC_FALSE;
  env->mat_type = env->gpu ? MATAIJCUSPARSE : MATAIJ;
  env->jsonl    = std::string(env->o.results) + "/scaling.jsonl";
  env->device   = "host (" + std::to_string(std::thread::hardware_concurrency()) + " hardware threads)";
  env->devices  = "host";
#if defined(PGK_HAVE_CUDA)
  if (env->gpu) {
    // Before any allocation: PETSc selects this rank's device now, not at the first device object.
    PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
    PetscCall(DescribeDevices(env));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Env       env;
  PetscBool cpu = PETSC_FALSE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(GetOptions(&env.o, &cpu));
  PetscCall(SetUpEnv(&env, cpu));
  PetscCall(PetscPrintf(env.comm, "bench_scaling %s on %d rank(s), %s, commit %s\n  devices: %s%s\n", env.o.component, (int)env.size, env.device.c_str(), env.commit.c_str(), env.devices.c_str(),
                        env.shared_gpu ? "  [ranks SHARE a GPU: a correctness run, not a scaling figure]" : ""));
  const std::string c = env.o.component;
  if (c == "orderings") PetscCall(RunOrderings(env));
  else if (c == "trilf") PetscCall(RunTrilf(env));
  else if (c == "aijcompound") PetscCall(RunAijCompound(env));
  else if (c == "carpcg") PetscCall(RunCarpcg(env));
  else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-component must be orderings, trilf, aijcompound or carpcg, not '%s'", env.o.component);
  PetscCall(PetscPrintf(env.comm, "bench_scaling %s: done, JSON lines appended to %s\n", env.o.component, env.jsonl.c_str()));
  PetscCall(PetscFinalize());
  return 0;
}
