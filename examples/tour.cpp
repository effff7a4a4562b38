static const char help[] = "petscgpukit tour: every registered component on a generated problem next to PETSc's built-in\n"
                           "baseline, as one table. On a machine without a GPU it runs the CPU paths at smaller sizes.\n"
                           "  -n <edge>       grid edge of the 3D 7-point Laplacian for the orderings and ILU\n"
                           "                  (default 96 with a GPU, 32 without)\n"
                           "  -aniso <spec>   anisotropic problem for trilf next to jacobi, CG (default\n"
                           "                  aniso3d:n=128,ax=0.0001,ay=0.01,az=1 with a GPU, n=40 without: strong\n"
                           "                  couplings along z, which the natural ordering keeps far from the diagonal)\n"
                           "  -conv <spec>    convection-dominated problem for trilf next to jacobi, GMRES (default\n"
                           "                  convdiff3d:n=128,peclet=3000 with a GPU, convdiff3d:n=40,peclet=1000 without)\n"
                           "  -carp <spec>    nonsymmetric problem for carpcg next to GMRES + bjacobi/ILU(0) (default\n"
                           "                  convdiff2d:n=256,peclet=1000 with a GPU, n=64 without)\n"
                           "  -cpu            force the CPU paths even when a GPU is usable\n"
                           "  -pictures <bool>          draw pictures with PETSc's image viewer (default true): spy plots\n"
                           "                            before/after batchrcm and rabbitpp, convergence of jacobi and trilf\n"
                           "  -pictures_dir <dir>       where (default pgk-tour-pictures, named at the end)\n"
                           "  -pictures_matrix <spec>   the matrix of the spy plots (default rgg2d:n=3000,deg=8)\n"
                           "  -pictures_size <pixels>   height of a picture (default 400)\n"
                           "Each solve reads the options of its prefix: lap_reorder_, lap_ilu_rcm_, aniso_jacobi_,\n"
                           "aniso_trilf_, conv_jacobi_, conv_trilf_, carp_, carp_gmres_ (e.g. -aniso_trilf_pc_trilf_block_size 2).\n";

/* Only the public API: <petscgpukit.h> and PETSc's own headers, as in any application. */
#include <petscgpukit.h>
#include <petscdevice.h>
#include <petscksp.h>
#include <petsctime.h>

#include "tour_pictures.hpp"

#include <functional>
#include <string>
#include <vector>

struct Row {
  std::string step, backend, time, result;
};

struct Tour {
  PetscBool        gpu   = PETSC_FALSE;
  MatType          mtype = MATAIJ;
  std::vector<Row> rows;
  TourPictures     pics;
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
template <class F> static PetscErrorCode Timed(const Tour &tour, F f, PetscLogDouble *seconds)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  if (tour.gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscTime(&t0));
  PetscCall(f());
  if (tour.gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscTime(&t1));
  *seconds = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A generated matrix (each rank its rows) in the tour's matrix type.
static PetscErrorCode Generate(Tour &tour, const std::string &spec, Mat *A)
{
  PetscLogDouble t;
  MatInfo        info;
  PetscInt       N;
  char           buf[128];

  PetscFunctionBegin;
  PetscCall(Timed(
      tour,
      [&]() -> PetscErrorCode {
        PetscFunctionBegin;
        PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec.c_str(), NULL, A));
        PetscCall(MatConvert(*A, tour.mtype, MAT_INPLACE_MATRIX, A));
        PetscFunctionReturn(PETSC_SUCCESS);
      },
      &t));
  PetscCall(MatGetSize(*A, &N, NULL));
  PetscCall(MatGetInfo(*A, MAT_GLOBAL_SUM, &info));
  PetscCall(PetscSNPrintf(buf, sizeof buf, "%" PetscInt_FMT " rows, %.0f nonzeros", N, info.nz_used));
  tour.rows.push_back({"generate " + spec, "petscgpukit (host)", Seconds(t), buf});
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PETSc's MatMult, the yardstick of everything else.
static PetscErrorCode MatMultRow(Tour &tour, Mat A)
{
  Vec            x, b;
  MatInfo        info;
  PetscInt       N;
  PetscLogDouble t;
  char           buf[128];

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, b)); // warm-up; also makes the device copy current
  PetscCall(Timed(
      tour,
      [&]() -> PetscErrorCode {
        PetscFunctionBegin;
        for (int k = 0; k < 10; ++k) PetscCall(MatMult(A, x, b));
        PetscFunctionReturn(PETSC_SUCCESS);
      },
      &t));
  const double bytes = info.nz_used * 12.0 + N * 20.0;
  PetscCall(PetscSNPrintf(buf, sizeof buf, "%.1f GB/s of compulsory traffic", bytes / (t / 10) / 1e9));
  tour.rows.push_back({"MatMult (PETSc baseline)", tour.mtype, Seconds(t / 10), buf});
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatOrdering batchrcm next to PETSc's rcm: the same matrix, ordered where it lives.
static PetscErrorCode OrderingRows(Tour &tour, Mat A)
{
  PetscFunctionBegin;
  for (const bool ours : {true, false}) {
    IS             rperm, cperm;
    PetscLogDouble t;
    PetscCall(Timed(
        tour,
        [&]() -> PetscErrorCode {
          PetscFunctionBegin;
          PetscCall(MatGetOrdering(A, ours ? MATORDERINGBATCHRCM : MATORDERINGRCM, &rperm, &cperm));
          PetscFunctionReturn(PETSC_SUCCESS);
        },
        &t));
    PetscCall(ISDestroy(&rperm));
    PetscCall(ISDestroy(&cperm));
    if (ours) tour.rows.push_back({"MatGetOrdering batchrcm", tour.gpu ? "batchrcm auto (gpu)" : "batchrcm auto", Seconds(t), "identical to the serial reference (tested)"});
    else tour.rows.push_back({"MatGetOrdering rcm (PETSc baseline)", "host", Seconds(t), ""});
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One solve of A x = A 1 from x = 0 (rtol 1e-8): set-up and solve timed, iterations reported.
// `configure` sets the PC; the KSP then reads the options of `prefix`. With `curve`, the
// residual history of the solve goes there (for a convergence plot).
static PetscErrorCode SolveRow(Tour &tour, Mat A, KSPType type, const char *prefix, const std::string &pcname, const std::function<PetscErrorCode(PC)> &configure, TourCurve *curve = nullptr)
{
  KSP                ksp;
  PC                 pc;
  Vec                x, b;
  PetscInt           its;
  KSPConvergedReason reason;
  PetscLogDouble     t_setup, t_solve;
  char               buf[256];

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, b));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(configure(pc));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_CURRENT, PETSC_CURRENT, 10000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPGetType(ksp, &type)); // the options may have changed it
  if (curve) PetscCall(KSPSetResidualHistory(ksp, NULL, PETSC_DECIDE, PETSC_TRUE));
  PetscCall(Timed(
      tour, [&]() { return KSPSetUp(ksp); }, &t_setup));
  PetscCall(Timed(
      tour, [&]() { return KSPSolve(ksp, b, x); }, &t_solve));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (curve) {
    const PetscReal *hist;
    PetscInt         nhist;
    PetscCall(KSPGetResidualHistory(ksp, &hist, &nhist));
    curve->norms.assign(hist, hist + nhist);
  }
  PetscCall(PetscSNPrintf(buf, sizeof buf, "%4" PetscInt_FMT " iterations, %s, set-up %s", its, KSPConvergedReasons[reason], Seconds(t_setup).c_str()));
  std::string result = buf, where = tour.mtype;
  PetscBool   trilf;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCTRILF, &trilf));
  if (trilf) { // what the forest kept: c_pi of A's weight in T, next to the natural tridiagonal part c_id
    PCTrilfInfo info;
    PetscCall(PCTrilfGetInfo(pc, &info));
    PetscCall(PetscSNPrintf(buf, sizeof buf, "; c_pi %.2f (c_id %.2f)", (double)info.c_pi, (double)info.c_id));
    result += buf;
    where = info.on_device ? "trilf (device)" : "trilf (host reference)";
  }
  tour.rows.push_back({std::string("KSP ") + type + " + " + pcname, where, Seconds(t_setup + t_solve), result});
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ILU(0) in the RCM ordering, two ways: PC reorder keeps a device operator on the device (the
// cuSPARSE ILU runs in the natural ordering of the permuted matrix B = P A P^T); PETSc's own
// route (-pc_factor_mat_ordering_type rcm) factors on the host.
static PetscErrorCode ReorderRows(Tour &tour, Mat A)
{
  PetscFunctionBegin;
  PetscCall(SolveRow(tour, A, KSPGMRES, "lap_reorder_", "PC reorder (batchrcm, ILU(0))", [](PC pc) -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(PCSetType(pc, PCREORDER)); // inner KSP: preonly + ILU(0), prefix lap_reorder_reorder_
    PetscFunctionReturn(PETSC_SUCCESS);
  }));
  PetscCall(SolveRow(tour, A, KSPGMRES, "lap_ilu_rcm_", "ILU(0) in rcm (PETSc baseline)", [](PC pc) -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGRCM));
    PetscFunctionReturn(PETSC_SUCCESS);
  }));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PC trilf next to PC jacobi on a problem whose strong couplings run along lines; their residual
// histories in one picture, convergence_<tag>.
static PetscErrorCode TrilfRows(Tour &tour, const std::string &spec, KSPType type, const char *tag)
{
  Mat                    A;
  std::vector<TourCurve> curves;

  PetscFunctionBegin;
  PetscCall(Generate(tour, spec, &A));
  for (const bool trilf : {false, true}) {
    const std::string prefix = std::string(tag) + (trilf ? "_trilf_" : "_jacobi_");
    curves.push_back({trilf ? "PC trilf" : "PC jacobi", {}});
    PetscCall(SolveRow(
        tour, A, type, prefix.c_str(), trilf ? "PC trilf" : "PC jacobi (PETSc baseline)", [trilf](PC pc) { return PCSetType(pc, trilf ? PCTRILF : PCJACOBI); }, tour.pics.enabled ? &curves.back() : nullptr));
  }
  PetscCall(TourConvergencePlot(tour.pics, std::string("convergence_") + tag, std::string("KSP ") + type + ", " + spec, curves));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// KSP carpcg (row projections, no PC) next to what a user runs on a nonsymmetric problem: GMRES
// with PETSc's default block Jacobi + ILU(0).
static PetscErrorCode CarpcgRows(Tour &tour, const std::string &spec)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(Generate(tour, spec, &A));
  PetscCall(SolveRow(tour, A, KSPCARPCG, "carp_", "no PC (row projections)", [](PC pc) { return PCSetType(pc, PCNONE); }));
  PetscCall(SolveRow(tour, A, KSPGMRES, "carp_gmres_", "bjacobi + ILU(0) (PETSc baseline)", [](PC pc) { return PCSetType(pc, PCBJACOBI); }));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Mat aijcompound next to the AIJ it came from: a 3x3-block matrix converted by MatConvert, the first
// MatMult (on the device it chooses the layout: tuned or from the cache), then the steady MatMult.
static PetscErrorCode AijCompoundRows(Tour &tour, const std::string &spec)
{
  Mat            A, C;
  Vec            x, ya, yc;
  PetscLogDouble t_first, t_aij, t_cmp;
  PetscReal      na, nd;
  const char    *variant, *source;
  PetscReal      gbs;
  char           buf[256];
  auto           ten = [](Mat M, Vec in, Vec out) -> PetscErrorCode {
    PetscFunctionBegin;
    for (int k = 0; k < 10; ++k) PetscCall(MatMult(M, in, out));
    PetscFunctionReturn(PETSC_SUCCESS);
  };

  PetscFunctionBegin;
  PetscCall(Generate(tour, spec, &A));
  PetscCall(MatConvert(A, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatCreateVecs(C, &x, &yc));
  PetscCall(MatCreateVecs(A, NULL, &ya));
  PetscCall(VecSet(x, 1.0));
  PetscCall(Timed(
      tour, [&]() { return MatMult(C, x, yc); }, &t_first));
  PetscCall(MatMult(A, x, ya));
  PetscCall(Timed(
      tour, [&]() { return ten(A, x, ya); }, &t_aij));
  PetscCall(Timed(
      tour, [&]() { return ten(C, x, yc); }, &t_cmp));
  PetscCall(VecNorm(ya, NORM_2, &na));
  PetscCall(VecAXPY(ya, -1.0, yc));
  PetscCall(VecNorm(ya, NORM_2, &nd));
  PetscCall(MatAIJCompoundGetTuning(C, &variant, &source, &gbs));
  PetscCall(PetscSNPrintf(buf, sizeof buf, "%.2fx the AIJ MatMult (%s), |y - y_aij| / |y_aij| %.1e; first MatMult %s", (double)(t_aij / t_cmp), Seconds(t_aij / 10).c_str(), (double)(na > 0 ? nd / na : nd), Seconds(t_first).c_str()));
  tour.rows.push_back({"MatMult, Mat aijcompound (" + spec + ")", std::string(variant) + " (" + source + ")", Seconds(t_cmp / 10), buf});
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&yc));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrintTable(const Tour &tour)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%-46s %-24s %-10s %s\n", "step", "backend", "time", "result"));
  for (const auto &r : tour.rows) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-46s %-24s %-10s %s\n", r.step.c_str(), r.backend.c_str(), r.time.c_str(), r.result.c_str()));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-46s %s\n", "not in this table yet", "rabbitpp (in the pictures)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Tour      tour;
  PetscInt  n          = -1;
  PetscBool force_cpu  = PETSC_FALSE;
  char      aniso[256] = "", conv[256] = "", carp[256] = "", pdir[PETSC_MAX_PATH_LEN], pspec[256];
  Mat       A;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscGpuKitDeviceAvailable(&tour.gpu));
  PetscCall(PetscStrncpy(pdir, tour.pics.dir.c_str(), sizeof pdir));
  PetscCall(PetscStrncpy(pspec, tour.pics.matrix.c_str(), sizeof pspec));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "petscgpukit tour", NULL);
  PetscCall(PetscOptionsInt("-n", "grid edge of the Laplacian", NULL, n, &n, NULL));
  PetscCall(PetscOptionsString("-aniso", "anisotropic problem (trilf, CG)", NULL, aniso, aniso, sizeof aniso, NULL));
  PetscCall(PetscOptionsString("-conv", "convection-dominated problem (trilf, GMRES)", NULL, conv, conv, sizeof conv, NULL));
  PetscCall(PetscOptionsString("-carp", "nonsymmetric problem (carpcg, GMRES + ILU(0))", NULL, carp, carp, sizeof carp, NULL));
  PetscCall(PetscOptionsBool("-cpu", "force the CPU paths", NULL, force_cpu, &force_cpu, NULL));
  PetscCall(PetscOptionsBool("-pictures", "draw spy plots and convergence histories (PETSc's image viewer)", NULL, tour.pics.enabled, &tour.pics.enabled, NULL));
  PetscCall(PetscOptionsString("-pictures_dir", "folder of the pictures", NULL, pdir, pdir, sizeof pdir, NULL));
  PetscCall(PetscOptionsString("-pictures_matrix", "matrix of the spy plots", NULL, pspec, pspec, sizeof pspec, NULL));
  PetscCall(PetscOptionsInt("-pictures_size", "height of a picture in pixels", NULL, tour.pics.size, &tour.pics.size, NULL));
  PetscOptionsEnd();
  tour.pics.dir    = pdir;
  tour.pics.matrix = pspec;
  if (force_cpu) tour.gpu = PETSC_FALSE;
  tour.mtype = tour.gpu ? MATAIJCUSPARSE : MATAIJ;
  if (n < 0) n = tour.gpu ? 96 : 32;
  if (!aniso[0]) PetscCall(PetscStrncpy(aniso, tour.gpu ? "aniso3d:n=128,ax=0.0001,ay=0.01,az=1" : "aniso3d:n=40,ax=0.0001,ay=0.01,az=1", sizeof aniso));
  if (!carp[0]) PetscCall(PetscStrncpy(carp, tour.gpu ? "convdiff2d:n=256,peclet=1000" : "convdiff2d:n=64,peclet=1000", sizeof carp));
  if (!conv[0]) PetscCall(PetscStrncpy(conv, tour.gpu ? "convdiff3d:n=128,peclet=3000" : "convdiff3d:n=40,peclet=1000", sizeof conv));

  PetscCall(TourPicturesSetUp(tour.pics));
  PetscCall(PetscGpuKitView(PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(Generate(tour, "lap3d7:n=" + std::to_string(n), &A));
  PetscCall(MatMultRow(tour, A));
  PetscCall(OrderingRows(tour, A));
  PetscCall(ReorderRows(tour, A));
  PetscCall(MatDestroy(&A));
  PetscCall(AijCompoundRows(tour, tour.gpu ? "vec3d27:n=64" : "vec3d27:n=16"));
  PetscCall(TrilfRows(tour, aniso, KSPCG, "aniso"));
  PetscCall(TrilfRows(tour, conv, KSPGMRES, "conv"));
  PetscCall(CarpcgRows(tour, carp));
  PetscCall(TourSpyPlots(tour.pics, {MATORDERINGBATCHRCM, MATORDERINGRABBITPP}));
  PetscCall(PrintTable(tour));
  PetscCall(TourPicturesPrint(tour.pics));
  PetscCall(PetscFinalize());
  return 0;
}
