// bench_rabbitpp section 5: spy plots of one moderate matrix before and after the orderings,
// drawn by PETSc's own draw viewer: MatView on a PETSCVIEWERDRAW whose PetscDraw is of type image,
// with -draw_save <file> -draw_save_single_file under the viewer's options prefix (MatView saves
// the picture itself). The format is PETSc's default, the first it can write of PNG (libpng),
// GIF (giflib), JPEG (libjpeg) and PPM (always available).
#include "bench/rabbitpp/context.hpp"

#include <petscdraw.h>
#include <petscgpukit.h>

#include <filesystem>
#include <system_error>

namespace pgk::bench::rabbitpp {

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

// "communities:n=20000,inter=8" -> "communities_n20000_inter8": a file name without dots (PETSc
// takes everything from a save name's first dot on as the image extension).
static std::string FileStem(const std::string &spec)
{
  std::string s;
  for (char c : spec) {
    if (c == ':' || c == ',') s += '_';
    else if (c == '.') s += 'p';
    else if (c != '=') s += c;
  }
  return s;
}

// Draws A into `dir`/`stem` + ImageExtension(). PETSc takes a save name's first dot as the
// start of its extension, and the results folder might hold one (e.g. under ~/.cache), so the
// image is written from inside `dir` under a name without dots.
static PetscErrorCode Spy(Mat A, const std::string &dir, const std::string &stem, const std::string &title, int size)
{
  static const char prefix[] = "pgk_bench_spy_";
  PetscViewer       v;
  std::error_code   ec;

  PetscFunctionBegin;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  std::filesystem::create_directories(dir, ec);
  std::filesystem::current_path(dir, ec);
  PetscCheck(!ec, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot enter %s: %s", dir.c_str(), ec.message().c_str());
  PetscCall(PetscOptionsSetValue(NULL, "-pgk_bench_spy_draw_save", stem.c_str()));
  PetscCall(PetscOptionsSetValue(NULL, "-pgk_bench_spy_draw_save_single_file", "true"));
  PetscCall(PetscViewerDrawOpen(PETSC_COMM_SELF, NULL, title.c_str(), 0, 0, size, size, &v));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)v, prefix));
  PetscCall(PetscViewerDrawSetDrawType(v, PETSC_DRAW_IMAGE));
  PetscCall(MatView(A, v)); // creates the draw (reading the options above), draws, saves
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(PetscOptionsClearValue(NULL, "-pgk_bench_spy_draw_save"));
  PetscCall(PetscOptionsClearValue(NULL, "-pgk_bench_spy_draw_save_single_file"));
  std::filesystem::current_path(cwd, ec);
  PetscCheck(!ec, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot return to %s: %s", cwd.c_str(), ec.message().c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The spy matrix reordered by `ordering` (MatGetOrdering on the host; "original": itself).
static PetscErrorCode Reordered(Mat A, const std::string &ordering, Mat *B)
{
  IS r, c;

  PetscFunctionBegin;
  if (ordering == "original") {
    PetscCall(PetscObjectReference((PetscObject)A));
    *B = A;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetOrdering(A, ordering.c_str(), &r, &c));
  PetscCall(MatPermute(A, r, c, B));
  PetscCall(ISDestroy(&r));
  PetscCall(ISDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode WriteSpyPlots(const Options &o, std::vector<std::string> *files)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_SELF, o.spy_matrix, NULL, &A));
  PetscCall(SetRabbitppBackend("cpu", 0));
  for (const std::string &ordering : Split(o.spy_orderings, ',')) {
    Mat               B;
    const std::string stem = "rabbitpp_spy_" + FileStem(o.spy_matrix) + "_" + ordering;
    PetscCall(Reordered(A, ordering, &B));
    PetscCall(Spy(B, o.results, stem, std::string(o.spy_matrix) + " " + ordering, (int)o.spy_size));
    PetscCall(MatDestroy(&B));
    files->push_back(std::string(o.results) + "/" + stem + ImageExtension());
  }
  PetscCall(ClearRabbitppBackend());
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::rabbitpp
