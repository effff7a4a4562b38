// Mat aijcompound under MPI (issue 10, item 6): MATMPIAIJCOMPOUND, what mpi.cpp (type, building,
// conversions), mpi_assembly.cpp (MatSetValues into an inner MATMPIAIJ) and mpi_ops.cpp (the
// operations) share. The layout is MPIAIJ's: per rank a diagonal block and an off-diagonal block,
// both MATSEQAIJCOMPOUND, and a ghost vector filled by a VecScatter. Unlike MPIAIJ, the ghosts are
// whole blocks: the off-diagonal block's block columns are the sorted global block columns of
// garray, and the scatter moves all bs scalars of each such block.
#pragma once

#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"

#include <string>
#include <utility>
#include <vector>

// A sequential vector sharing the local part of a vector (VecGetLocalVector), for the products of
// the sequential blocks; created for the type of the vector it last wrapped.
struct MatAIJCompoundLocalVec {
  Vec         w = nullptr;
  std::string parent_type;
};

// One MatSetValues call kept for the next assembly (see mpi_assembly.cpp).
struct MatAIJCompoundPendingValues {
  std::vector<PetscInt>    rows, cols;
  std::vector<PetscScalar> v; // empty: the call passed no values (zeros)
  InsertMode               mode;
};

struct Mat_MPIAIJCompound {
  Mat                    Ad = nullptr;                        // diagonal block, MATSEQAIJCOMPOUND on PETSC_COMM_SELF; kept as the same object
  Mat                    Ao = nullptr;                        // off-diagonal block: local rows x (garray.size() * bs) compacted ghost columns
  std::vector<PetscInt>  garray;                              // global block columns of Ao's block columns, ascending
  Vec                    lvec         = nullptr;              // ghost values, garray.size() * bs scalars, of the matrix's vector type
  VecScatter             Mvctx        = nullptr;              // global x -> lvec, whole blocks
  ac::EntryKind          kind         = ac::EntryKind::block; // the same on every rank and in both blocks
  PetscInt               entry_option = MAT_AIJCOMPOUND_ENTRY_AUTO;
  std::vector<PetscInt>  pattern;    // kind, both blocks' structure and garray at the last build (nonzero state)
  MatAIJCompoundLocalVec xl, yl, zl; // local views of MatMult's x, y and z

  // assembly (mpi_assembly.cpp)
  Mat                                          inner = nullptr; // MATMPIAIJ that MatSetValues assembles into
  std::vector<MatAIJCompoundPendingValues>     pending;         // values set while there is no inner matrix
  std::vector<std::pair<MatOption, PetscBool>> options;         // MatSetOption()s the inner matrix must follow
};

static inline Mat_MPIAIJCompound *MatMPIAIJCompoundData(Mat A)
{
  return (Mat_MPIAIJCompound *)A->data;
}

// mpi.cpp
// Builds (or rebuilds, keeping the diagonal block object) A's blocks from the assembled MATMPIAIJ
// or MATMPIAIJCUSPARSE S with A's layout; the entry kind from option, agreed on by all ranks. Collective.
PetscErrorCode MatMPIAIJCompoundBuild(Mat A, Mat S, PetscInt option);
// Re-stores complex/quaternion entries of both blocks on every rank as real blocks. Collective.
PetscErrorCode MatMPIAIJCompoundToBlockKind(Mat A, const char why[]);
// The compound values changed in place: the inner matrix is dropped (collective callers only).
PetscErrorCode MatMPIAIJCompoundValuesChanged(Mat A);
// Local views of v: get (read-only or read-write) and restore.
PetscErrorCode MatAIJCompoundGetLocalVec(MatAIJCompoundLocalVec &lv, Vec v, PetscBool read, Vec *w);
PetscErrorCode MatAIJCompoundRestoreLocalVec(MatAIJCompoundLocalVec &lv, Vec v, PetscBool read, Vec *w);

// mpi_expansion.cpp
// The expanded matrix as a new MATMPIAIJ (every stored block as bs x bs scalars). Collective.
PetscErrorCode MatMPIAIJCompoundExpand(Mat A, Mat *B);
// This rank's rows of the expansion, global columns ascending (CSR: i from 0). Not collective.
PetscErrorCode MatMPIAIJCompoundLocalRows(Mat A, std::vector<PetscInt> &i, std::vector<PetscInt> &j, std::vector<PetscScalar> &v);

// mpi_ops.cpp, mpi_assembly.cpp: the operations into A->ops, the composed assembly functions.
void           MatMPIAIJCompoundSetComputeOps(Mat A);
void           MatMPIAIJCompoundSetAssemblyOps(Mat A);
PetscErrorCode MatMPIAIJCompoundComposeAssembly(Mat A, PetscBool compose);
PetscErrorCode MatMPIAIJCompoundDestroyAssembly(Mat A);

PETSC_EXTERN PetscErrorCode MatCreate_MPIAIJCompound(Mat A);
// Solver registrations of the MPI type (every factorization: a clear error).
PetscErrorCode MatMPIAIJCompoundRegisterFactors(void);
