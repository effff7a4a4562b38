static const char help[] =
  "petscgpukit tour: every registered component on a default problem next to PETSc's built-in\n"
  "baseline, as one table. On a machine without a GPU it runs the CPU paths at a smaller size.\n"
  "  -n <edge>      grid edge of the 3D 7-point Laplacian (default 96 with a GPU, 32 without)\n"
  "  -cpu           force the CPU paths even when a GPU is usable\n";

#include <petscgpukit.h>
#include <petscdevice.h>
#include <petscksp.h>
#include <petsctime.h>

#include <cstring>
#include <string>

#include "petsc_plugin/sys/csr_access.hpp"

struct Row {
  std::string step, backend, time, result;
};

static std::string Seconds(PetscLogDouble s)
{
  char b[32];
  if (s < 1e-3) PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(b, sizeof b, "%.1f us", s * 1e6));
  else if (s < 1) PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(b, sizeof b, "%.2f ms", s * 1e3));
  else PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(b, sizeof b, "%.2f s", s));
  return b;
}

// Wall time of f(), with a device synchronization so asynchronous GPU work is included (only
// when a device is in use: a CPU-only run must not initialize one).
static PetscBool tour_gpu = PETSC_FALSE;
template <class F>
static PetscErrorCode Timed(F f, PetscLogDouble *seconds)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  if (tour_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscTime(&t0));
  PetscCall(f());
  if (tour_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscTime(&t1));
  *seconds = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt       n = -1, its;
  KSPConvergedReason reason;
  PetscBool      gpu, force_cpu = PETSC_FALSE;
  Mat            A;
  Vec            x, b;
  KSP            ksp;
  PetscLogDouble t;
  std::vector<Row> rows;
  char           buf[256];

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "petscgpukit tour", NULL);
  PetscCall(PetscOptionsInt("-n", "grid edge", NULL, n, &n, NULL));
  PetscCall(PetscOptionsBool("-cpu", "force the CPU paths", NULL, force_cpu, &force_cpu, NULL));
  PetscOptionsEnd();
  if (force_cpu) gpu = PETSC_FALSE;
  if (n < 0) n = gpu ? 96 : 32;
  tour_gpu = gpu;
  const char       *mtype = gpu ? MATAIJCUSPARSE : MATAIJ;
  const std::string spec  = "lap3d7:n=" + std::to_string(n);

  PetscCall(PetscGpuKitView(PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(Timed([&]() -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec.c_str(), NULL, &A));
    PetscCall(MatConvert(A, mtype, MAT_INPLACE_MATRIX, &A));
    PetscFunctionReturn(PETSC_SUCCESS);
  }, &t));
  MatInfo  info;
  PetscInt N;
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  PetscCall(PetscSNPrintf(buf, sizeof buf, "%" PetscInt_FMT " rows, %.0f nonzeros", N, info.nz_used));
  rows.push_back({"generate " + spec, "petscgpukit (host)", Seconds(t), buf});

  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, b)); // warm-up; also makes the device copy current
  PetscCall(Timed([&]() -> PetscErrorCode {
    PetscFunctionBegin;
    for (int k = 0; k < 10; ++k) PetscCall(MatMult(A, x, b));
    PetscFunctionReturn(PETSC_SUCCESS);
  }, &t));
  const double bytes = info.nz_used * 12.0 + N * 20.0;
  PetscCall(PetscSNPrintf(buf, sizeof buf, "%.1f GB/s of compulsory traffic", bytes / (t / 10) / 1e9));
  rows.push_back({"MatMult (PETSc baseline)", mtype, Seconds(t / 10), buf});

  // The platform's own step: the CSR where it lives, validated there, no silent transfer.
  PgkMatCSR      csr;
  pgk::CsrCheck  check;
  PetscLogDouble ctog0 = petsc_ctog_ct, gtoc0 = petsc_gtoc_ct;
  PetscCall(Timed([&]() -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(PgkMatGetCSR(A, PGK_MEM_AUTO, &csr));
    PetscCall(PgkMatCSRCheck(&csr, &check));
    PetscFunctionReturn(PETSC_SUCCESS);
  }, &t));
  const char *where = PetscMemTypeHost(csr.mtype) ? "host reference" : "device kernel";
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscCall(PetscSNPrintf(buf, sizeof buf, "structure %s, %lld NaN/Inf, transfers %.0f", check.structure_ok() ? "ok" : "BAD", check.nonfinite, (petsc_ctog_ct - ctog0) + (petsc_gtoc_ct - gtoc0)));
  rows.push_back({"CSR view + validation", where, Seconds(t), buf});

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PC pc;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_CURRENT, PETSC_CURRENT, 10000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(x, 0.0));
  PetscCall(Timed([&]() -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(KSPSolve(ksp, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }, &t));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscSNPrintf(buf, sizeof buf, "%" PetscInt_FMT " iterations, %s", its, KSPConvergedReasons[reason]));
  rows.push_back({"KSPCG + PCJACOBI (PETSc baseline)", mtype, Seconds(t), buf});

  // MatOrdering batchrcm next to PETSc's rcm: the same matrix, ordered where it lives.
  for (const char *ord : {MATORDERINGBATCHRCM, MATORDERINGRCM}) {
    IS rperm, cperm;
    PetscCall(Timed([&]() -> PetscErrorCode {
      PetscFunctionBegin;
      PetscCall(MatGetOrdering(A, ord, &rperm, &cperm));
      PetscFunctionReturn(PETSC_SUCCESS);
    }, &t));
    PetscCall(ISDestroy(&rperm));
    PetscCall(ISDestroy(&cperm));
    const bool ours = !std::strcmp(ord, MATORDERINGBATCHRCM);
    rows.push_back({std::string("MatGetOrdering ") + ord + (ours ? "" : " (PETSc baseline)"), ours ? (gpu ? "batchrcm auto (gpu)" : "batchrcm auto") : "host", Seconds(t), ours ? "identical to the serial reference (tested)" : ""});
  }

  // ILU(0) in the RCM ordering: PC reorder keeps a device operator on the device (the cuSPARSE
  // ILU runs in the natural ordering of the permuted matrix); PETSc's own route factors on the host.
  for (int variant = 0; variant < 2; ++variant) {
    KSP k2;
    PC  p2;
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &k2));
    PetscCall(KSPSetOperators(k2, A, A));
    PetscCall(KSPSetType(k2, KSPCG));
    PetscCall(KSPGetPC(k2, &p2));
    if (variant == 0) {
      PetscCall(PCSetType(p2, PCREORDER));
      KSP inner;
      PC  ipc;
      PetscCall(PCReorderGetKSP(p2, &inner));
      PetscCall(KSPGetPC(inner, &ipc));
      PetscCall(PCSetType(ipc, PCICC));
    } else {
      PetscCall(PCSetType(p2, PCICC));
      PetscCall(PCFactorSetMatOrderingType(p2, MATORDERINGRCM));
    }
    PetscCall(KSPSetTolerances(k2, 1e-8, PETSC_CURRENT, PETSC_CURRENT, 10000));
    PetscCall(VecSet(x, 0.0));
    PetscCall(Timed([&]() -> PetscErrorCode {
      PetscFunctionBegin;
      PetscCall(KSPSolve(k2, b, x));
      PetscFunctionReturn(PETSC_SUCCESS);
    }, &t));
    PetscCall(KSPGetIterationNumber(k2, &its));
    PetscCall(KSPGetConvergedReason(k2, &reason));
    PetscCall(PetscSNPrintf(buf, sizeof buf, "%" PetscInt_FMT " iterations, %s", its, KSPConvergedReasons[reason]));
    rows.push_back({variant == 0 ? "KSPCG + PC reorder(batchrcm) + ICC(0)" : "KSPCG + ICC(0), rcm (PETSc baseline)", mtype, Seconds(t), buf});
    PetscCall(KSPDestroy(&k2));
  }

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%-40s %-22s %-10s %s\n", "step", "backend", "time", "result"));
  for (const auto &r : rows) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-40s %-22s %-10s %s\n", r.step.c_str(), r.backend.c_str(), r.time.c_str(), r.result.c_str()));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-40s %s\n", "not yet registered", "rabbitpp, trilf, carpcg, aijcompound (they join this table as they land)"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
