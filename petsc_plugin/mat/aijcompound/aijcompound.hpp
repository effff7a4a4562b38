// Mat aijcompound (issue 10): what the type's files share. aijcompound.cpp is the type (creation,
// conversions, registration, manual page); aijcompound/ops.cpp the operations on the compound CSR;
// aijcompound/assembly.cpp assembly through MatSetValues into an inner MATSEQAIJ.
#pragma once

#include "petsc_plugin/sys/pgk_petsc.hpp"
#include "src/aijcompound/ops.hpp"

#include <petsc/private/matimpl.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace ac = pgk::aijcompound;

extern const char *const MatAIJCompoundEntries[];
enum { MAT_AIJCOMPOUND_ENTRY_AUTO, MAT_AIJCOMPOUND_ENTRY_BLOCK, MAT_AIJCOMPOUND_ENTRY_COMPLEX, MAT_AIJCOMPOUND_ENTRY_QUATERNION };

struct MatAIJCompoundDevice; // device.cpp: the compound CSR, its tuned layout and the transpose on the GPU
struct MatAIJCompoundCoo;    // coo.cpp: the maps of MatSetPreallocationCOO

struct Mat_SeqAIJCompound {
  ac::CompoundCsr                c;
  std::unique_ptr<ac::Transpose> t;                                         // explicit transpose, built at the first MatMultTranspose
  bool                           t_stale = false;                           // values changed since t was built: refresh_values
  std::vector<double>            ibdiag;                                    // MatInvertBlockDiagonal's output, owned here
  PetscInt                       entry_option = MAT_AIJCOMPOUND_ENTRY_AUTO; // what -mat_aijcompound_entry asked for
  Mat                            inner        = nullptr;                    // MATSEQAIJ that MatSetValues assembles into (assembly.cpp)
  // Device copy (null until first device use). Where the values are current is A->offloadmask:
  // CPU (c.values newer, or no device copy), GPU (device newer: c.values stale), BOTH.
  std::shared_ptr<MatAIJCompoundDevice> dev;
  std::shared_ptr<MatAIJCompoundCoo>    coo; // set by MatSetPreallocationCOO
};

static inline Mat_SeqAIJCompound *MatAIJCompoundData(Mat A)
{
  return (Mat_SeqAIJCompound *)A->data;
}

extern PetscLogEvent MAT_AIJCompoundTune;   // tune.cpp: the layout x schedule search
extern PetscLogEvent MAT_AIJCompoundExpand; // aijcompound.cpp: an expansion to a scalar matrix (set-ups' cost)

// The operations of ops.cpp and assembly.cpp into A->ops.
void           MatAIJCompoundSetComputeOps(Mat A);
void           MatAIJCompoundSetAssemblyOps(Mat A);
void           MatAIJCompoundSetFDColoringOps(Mat A);                    // fdcoloring.cpp, sequential and MPI
void           MatAIJCompoundSetSubMatrixOps(Mat A);                     // submatrix.cpp, sequential and MPI
void           MatAIJCompoundSetZeroRowsOps(Mat A, PetscBool mpi);       // zero_rows.cpp, sequential and MPI
void           MatAIJCompoundSetExpansionCacheOps(Mat A, PetscBool mpi); // expansion_cache.cpp: MatSOR (both), MatGetRow/Values (seq)
PetscErrorCode MatAIJCompoundSetProductOps(Mat A);                       // product.cpp: MatProduct of the expansions (both)
PetscErrorCode MatAIJCompoundCachedExpansion(Mat A, Mat *E);             // expansion_cache.cpp: A's expansion at its current state (borrowed)
void           MatAIJCompoundSetFactorOps(Mat A);                        // factor.cpp (sequential): MatGetRowIJ
// MatGetFactor(A, MATSOLVERPETSC, LU/ILU/Cholesky/ICC): MATSEQAIJ's factor of the expansion (factor.cpp).
PetscErrorCode MatGetFactor_SeqAIJCompound_Petsc(Mat A, MatFactorType ftype, Mat *F);
// Re-stores complex/quaternion entries as real blocks (ops.cpp; the device copy is rebuilt).
PetscErrorCode MatAIJCompoundToBlockKind(Mat A, const char why[]);
PetscErrorCode MatAIJCompoundComposeAssembly(Mat A); // MatSeqAIJSetPreallocation_C
// Values of the compound CSR changed in place: the transpose refreshes, the inner AIJ is dropped.
PetscErrorCode MatAIJCompoundValuesChanged(Mat A);
// The same after a device operation changed the values (the host copy is stale, mask GPU).
PetscErrorCode MatAIJCompoundDeviceValuesDone(Mat A);
// -mat_aijcompound_entry with A's prefix.
PetscErrorCode MatAIJCompoundGetEntryOption(Mat A, PetscInt *option);
// The compound CSR of an assembled sequential matrix S with block size bs (errors for bad bs or kind).
PetscErrorCode MatAIJCompoundFromMat(Mat S, PetscInt bs, PetscInt option, ac::CompoundCsr *c);
// An assembled MATSEQAIJCOMPOUND on comm (one rank) holding c (moved in; validated), entry option kept.
PetscErrorCode MatCreateSeqAIJCompoundWithCsr(MPI_Comm comm, ac::CompoundCsr &&c, PetscInt option, Mat *B);
// The device path (device.cpp, tune.cpp). An operation runs on the device when the build has the
// CUDA kernels, a device is usable, A is not bound to the CPU and the vectors are device vectors;
// otherwise *done is PETSC_FALSE and the caller runs the host reference (after MatAIJCompoundSyncHost).
PetscBool      MatAIJCompoundUseDevice(Mat A);
PetscErrorCode MatAIJCompoundDeviceMult(Mat A, Vec x, Vec z, Vec y, PetscBool transpose, PetscBool *done);
// y = A x (+ z; z may be y, or null) on A's side stream, ordered after the work queued on PETSc's
// stream so far; PETSc's stream must not touch y until MatAIJCompoundDeviceJoin(A) has ordered it
// after the product (PETSc's stream may read x meanwhile). *done as MatAIJCompoundDeviceMult.
PetscErrorCode MatAIJCompoundDeviceMultForked(Mat A, Vec x, Vec z, Vec y, PetscBool *done);
PetscErrorCode MatAIJCompoundDeviceJoin(Mat A);
PetscErrorCode MatAIJCompoundDeviceGetDiagonal(Mat A, Vec v, PetscBool *done);
PetscErrorCode MatAIJCompoundDeviceInvertBlockDiagonal(Mat A, PetscBool *done);
PetscErrorCode MatAIJCompoundDeviceScale(Mat A, PetscScalar a, PetscBool *done);
PetscErrorCode MatAIJCompoundDeviceShift(Mat A, PetscScalar a, PetscBool *done);
PetscErrorCode MatAIJCompoundDeviceDiagonalScale(Mat A, Vec l, Vec r, PetscBool *done);
PetscErrorCode MatAIJCompoundDeviceAXPY(Mat Y, PetscScalar a, Mat X, PetscBool *done);
// The host values current again (one logged download when the device copy is newer).
PetscErrorCode MatAIJCompoundSyncHost(Mat A);
// The pattern or entry kind of c changed on the host: the device copy and the tuned layout go.
PetscErrorCode MatAIJCompoundDeviceReset(Mat A);
// -mat_view ::ascii_info lines of the device copy (layout, schedule, GB/s of the last tuning).
PetscErrorCode MatAIJCompoundDeviceView(Mat A, PetscViewer viewer);
// COO assembly (coo.cpp): MatSetPreallocationCOO_C and MatSetValuesCOO_C.
PetscErrorCode MatAIJCompoundComposeCOO(Mat A);
// Converts B (A's expansion, (MPI)AIJ, consumed) further to `type` and hands it out as `reuse` asks.
PetscErrorCode MatAIJCompoundFinishConvert(Mat A, Mat B, MatType type, MatReuse reuse, Mat *newmat);
// Internal matrices assembled by MatSetValues (the MPI expansion, MatLoad's step) are assembled under
// this options prefix, so that -mat_view and friends skip them.
#define MAT_AIJCOMPOUND_EXPANSION_PREFIX "aijcompound_expansion_"
// The expanded scalar matrix as a new MATSEQAIJ with A's prefix, built on the expansion's arrays
// (no copy; its assembly answers no viewer option).
PetscErrorCode MatAIJCompoundExpand(Mat A, Mat *B);
// The same, with PETSc's inode routines on or off (MAT_USE_INODES).
PetscErrorCode MatAIJCompoundExpandInodes(Mat A, PetscBool use_inodes, Mat *B);
// The expansion's CSR arrays (host values synced first), one PetscMalloc3 allocation (rowptr first)
// for a matrix built on them, which then owns it through MatAIJCompoundOwnArrays (a container
// under `name` that frees it with the matrix).
PetscErrorCode MatAIJCompoundExpandArrays(Mat A, PetscInt **rowptr, PetscInt **colidx, PetscScalar **values);
PetscErrorCode MatAIJCompoundOwnArrays(Mat B, const char *name, PetscInt *rowptr);
PetscErrorCode MatAIJCompoundCopyPrefix(Mat A, Mat B);
// A (either type) assembled with block size 1 becomes *inner, its MATAIJ (assembly.cpp).
PetscErrorCode MatAIJCompoundBecomeAIJ(Mat A, Mat *inner);
// MatLoad into a matrix of this type, sequential or MPI (aijcompound.cpp).
PetscErrorCode MatLoad_AIJCompound(Mat A, PetscViewer viewer);
// MatNorm of either type: the expansion's, by MATAIJ (aijcompound.cpp).
PetscErrorCode MatNorm_AIJCompound(Mat A, NormType type, PetscReal *norm);
