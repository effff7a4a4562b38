// The tour's pictures, drawn and saved by PETSc's own draw system (PetscDraw of type image):
// spy plots of a generated matrix before and after an ordering (MatGetOrdering + MatPermute +
// MatView on a draw viewer), and convergence histories of two preconditioners (PetscDrawLG).
// Only the public API, as in any application.
#pragma once

#include <petscmat.h>

#include <string>
#include <vector>

struct TourPictures {
  PetscBool                enabled = PETSC_TRUE;
  std::string              dir     = "pgk-tour-pictures";  // made absolute by TourPicturesSetUp()
  std::string              matrix  = "rgg2d:n=3000,deg=8"; // vertices numbered at random: a cloud before any ordering
  PetscInt                 size    = 400;                  // pixels of one spy plot (square)
  std::vector<std::string> files, what;                    // written so far, and what each shows
};

// One residual history: the KSP's own norms, as KSPGetResidualHistory() returns them.
struct TourCurve {
  std::string            label;
  std::vector<PetscReal> norms;
};

// The folder (absolute, created on rank 0); call once before drawing.
PetscErrorCode TourPicturesSetUp(TourPictures &pics);
// spy_<ordering>.png for every ordering: the matrix as generated on the left, after
// MatPermute with MatGetOrdering(<ordering>) on the right (rank 0 draws, on PETSC_COMM_SELF).
PetscErrorCode TourSpyPlots(TourPictures &pics, const std::vector<std::string> &orderings);
// <stem>.png: log10 of each history relative to its first norm, against the iteration.
PetscErrorCode TourConvergencePlot(TourPictures &pics, const std::string &stem, const std::string &title, const std::vector<TourCurve> &curves);
// The folder and the files, the last lines the tour prints.
PetscErrorCode TourPicturesPrint(const TourPictures &pics);
