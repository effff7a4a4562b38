/* The tour's pictures (tour_pictures.hpp): PETSc's draw system does all the drawing and saving. */
#include "tour_pictures.hpp"

#include <petscdraw.h>
#include <petscgpukit.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <system_error>

// The format PETSc saves by default: the first of PNG (libpng), GIF, JPEG it was configured
// with, PPM otherwise (always available, uncompressed).
static const char *ImageExtension(void)
{
#if defined(PETSC_HAVE_LIBPNG)
  return ".png";
#elif defined(PETSC_HAVE_GIFLIB)
  return ".gif";
#elif defined(PETSC_HAVE_LIBJPEG)
  return ".jpg";
#else
  return ".ppm";
#endif
}

// Runs f() inside `dir`. PETSc 3.26 takes everything from the first dot of a save name on as
// the image extension (keeping the dot: "a.png" is saved as "a..png"), and the folder may hold
// a dot (~/.cache, a user name), so pictures are saved from inside their folder under a name
// without dots and without an extension (PETSc then adds its default one).
template <class F> static PetscErrorCode InFolder(const std::string &dir, F f)
{
  std::error_code ec;

  PetscFunctionBegin;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  PetscCheck(!ec, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read the current folder: %s", ec.message().c_str());
  std::filesystem::current_path(dir, ec);
  PetscCheck(!ec, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot enter %s: %s", dir.c_str(), ec.message().c_str());
  const PetscErrorCode ierr = f();
  std::filesystem::current_path(cwd, ec); // back even when f() failed
  PetscCall(ierr);
  PetscCheck(!ec, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot return to %s: %s", cwd.c_str(), ec.message().c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The tour's draws read their options under this prefix, so that the -draw_* options a user
// gives for their own viewers stay off them; -<prefix>draw_save_single_file makes every save of
// a draw rewrite one file (by default PETSc writes a folder of numbered frames, and a draw of
// type image saves into a folder named after its title from the first PetscDrawSave() on).
static const char kDrawPrefix[] = "pgk_tour_";

// Gives `draw` (of type image) the prefix and the save name `stem` (one file, in the current
// folder).
static PetscErrorCode SaveAs(PetscDraw draw, const std::string &stem)
{
  PetscFunctionBegin;
  PetscCall(PetscDrawSetOptionsPrefix(draw, kDrawPrefix));
  PetscCall(PetscDrawSetFromOptions(draw)); // reads -pgk_tour_draw_save_single_file
  PetscCall(PetscDrawSetSave(draw, stem.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Records `stem` + extension as written, after checking PETSc did write it.
static PetscErrorCode Written(TourPictures &pics, const std::string &stem, const std::string &what)
{
  std::error_code ec;

  PetscFunctionBegin;
  const std::string file  = pics.dir + "/" + stem + ImageExtension();
  const auto        bytes = std::filesystem::file_size(file, ec);
  PetscCheck(!ec && bytes > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "PETSc's image viewer did not write %s", file.c_str());
  pics.files.push_back(file);
  pics.what.push_back(what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TourPicturesSetUp(TourPictures &pics)
{
  PetscMPIInt     rank;
  std::error_code ec;

  PetscFunctionBegin;
  if (!pics.enabled) PetscFunctionReturn(PETSC_SUCCESS);
  pics.dir = std::filesystem::absolute(pics.dir, ec).lexically_normal().string();
  if (!pics.dir.empty() && pics.dir.back() == '/') pics.dir.pop_back();
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) std::filesystem::create_directories(pics.dir, ec);
  PetscCheck(!ec, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot create the pictures folder %s: %s", pics.dir.c_str(), ec.message().c_str());
  PetscCall(PetscOptionsSetValue(NULL, (std::string("-") + kDrawPrefix + "draw_save_single_file").c_str(), "true"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One picture of two spy plots side by side: A on the left, B on the right, each labelled; drawn
// by MatView on a draw viewer of type image and saved inside the pictures folder.
static PetscErrorCode SpyPair(TourPictures &pics, Mat A, Mat B, const std::string &stem, const std::string &left, const std::string &right)
{
  PetscFunctionBegin;
  PetscCall(InFolder(pics.dir, [&]() -> PetscErrorCode {
    PetscViewer v;
    PetscDraw   draw;

    PetscFunctionBegin;
    PetscCall(PetscViewerDrawOpen(PETSC_COMM_SELF, NULL, stem.c_str(), 0, 0, (int)(2 * pics.size), (int)pics.size, &v));
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)v, kDrawPrefix)); // its draw takes the prefix
    PetscCall(PetscViewerDrawSetDrawType(v, PETSC_DRAW_IMAGE));
    PetscCall(PetscViewerDrawGetDraw(v, 0, &draw));
    PetscCall(SaveAs(draw, stem));
    for (int side = 0; side < 2; ++side) {
      PetscCall(PetscDrawSetViewPort(draw, 0.5 * side, 0.0, 0.5 * side + 0.5, 1.0));
      PetscCall(MatView(side ? B : A, v)); // clears and draws this half only (the viewport clips)
      PetscCall(PetscDrawSetCoordinates(draw, 0.0, 0.0, 1.0, 1.0));
      PetscCall(PetscDrawString(draw, 0.04, 0.95, PETSC_DRAW_BLACK, (side ? right : left).c_str()));
    }
    PetscCall(PetscDrawSetViewPort(draw, 0.0, 0.0, 1.0, 1.0)); // a rule between the two halves
    PetscCall(PetscDrawLine(draw, 0.5, 0.0, 0.5, 1.0, PETSC_DRAW_GRAY));
    PetscCall(PetscDrawFlush(draw));
    PetscCall(PetscDrawSave(draw)); // MatView saved each half as it drew; this is the whole picture
    PetscCall(PetscViewerDestroy(&v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TourSpyPlots(TourPictures &pics, const std::vector<std::string> &orderings)
{
  PetscMPIInt rank;
  Mat         A;
  PetscInt    n;

  PetscFunctionBegin;
  if (!pics.enabled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank != 0) PetscFunctionReturn(PETSC_SUCCESS); // one picture, drawn by one rank
  // A host matrix on one rank (prefix tour_spy_: the tour's -mat_type does not apply to it).
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_SELF, pics.matrix.c_str(), "tour_spy_", &A));
  PetscCall(MatGetSize(A, &n, NULL));
  for (const std::string &ordering : orderings) {
    IS  rperm, cperm;
    Mat B;
    // What an application does to see an ordering: permute rows and columns, view the result.
    PetscCall(MatGetOrdering(A, ordering.c_str(), &rperm, &cperm));
    PetscCall(MatPermute(A, rperm, cperm, &B));
    PetscCall(SpyPair(pics, A, B, "spy_" + ordering, "as generated", "after MatGetOrdering " + ordering));
    PetscCall(Written(pics, "spy_" + ordering, pics.matrix + " (" + std::to_string(n) + " rows): as generated | " + ordering));
    PetscCall(MatDestroy(&B));
    PetscCall(ISDestroy(&rperm));
    PetscCall(ISDestroy(&cperm));
  }
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The curves into `lg`: point k of curve c is (k, log10(norm_k / norm_0)); a curve that has
// ended repeats its last point, which draws nothing more (PetscDrawLG takes one point of every
// curve at a time).
static PetscErrorCode AddCurves(PetscDrawLG lg, const std::vector<TourCurve> &curves)
{
  size_t                 longest = 0;
  std::vector<PetscReal> x(curves.size()), y(curves.size());

  PetscFunctionBegin;
  for (const TourCurve &c : curves) longest = std::max(longest, c.norms.size());
  for (size_t k = 0; k < longest; ++k) {
    for (size_t c = 0; c < curves.size(); ++c) {
      const std::vector<PetscReal> &h = curves[c].norms;
      const size_t                  i = std::min(k, h.size() - 1);
      x[c]                            = (PetscReal)i;
      y[c]                            = h[0] > 0 ? std::log10(std::max(h[i] / h[0], (PetscReal)1e-20)) : 0;
    }
    PetscCall(PetscDrawLGAddPoint(lg, x.data(), y.data()));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TourConvergencePlot(TourPictures &pics, const std::string &stem, const std::string &title, const std::vector<TourCurve> &curves)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (!pics.enabled || curves.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  for (const TourCurve &c : curves) PetscCheck(!c.norms.empty(), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "no residual history for %s", c.label.c_str());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank != 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(InFolder(pics.dir, [&]() -> PetscErrorCode {
    PetscDraw                 draw;
    PetscDrawLG               lg;
    PetscDrawAxis             axis;
    std::vector<const char *> legend;

    PetscFunctionBegin;
    PetscCall(PetscDrawCreate(PETSC_COMM_SELF, NULL, stem.c_str(), 0, 0, (int)(1.6 * pics.size), (int)pics.size, &draw));
    PetscCall(PetscDrawSetType(draw, PETSC_DRAW_IMAGE));
    PetscCall(SaveAs(draw, stem));
    PetscCall(PetscDrawLGCreate(draw, (PetscInt)curves.size(), &lg));
    for (const TourCurve &c : curves) legend.push_back(c.label.c_str());
    PetscCall(PetscDrawLGSetLegend(lg, legend.data()));
    PetscCall(PetscDrawLGGetAxis(lg, &axis));
    PetscCall(PetscDrawAxisSetLabels(axis, title.c_str(), "iteration", "log10 residual / first"));
    PetscCall(AddCurves(lg, curves));
    PetscCall(PetscDrawLGDraw(lg));
    PetscCall(PetscDrawSave(draw));
    PetscCall(PetscDrawLGDestroy(&lg));
    PetscCall(PetscDrawDestroy(&draw));
    PetscFunctionReturn(PETSC_SUCCESS);
  }));
  std::string what = title + ":";
  for (const TourCurve &c : curves) what += " " + c.label + " " + std::to_string(c.norms.size() - 1) + " its;";
  what.pop_back();
  PetscCall(Written(pics, stem, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TourPicturesPrint(const TourPictures &pics)
{
  PetscFunctionBegin;
  if (!pics.enabled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\npictures (PETSc's image viewer, %s): %s\n", ImageExtension() + 1, pics.dir.c_str()));
  for (size_t k = 0; k < pics.files.size(); ++k) {
    const std::string name = std::filesystem::path(pics.files[k]).filename().string();
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-24s %s\n", name.c_str(), pics.what[k].c_str()));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
