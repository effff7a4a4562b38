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

struct Mat_SeqAIJCompound {
  ac::CompoundCsr                c;
  std::unique_ptr<ac::Transpose> t;                                         // explicit transpose, built at the first MatMultTranspose
  bool                           t_stale = false;                           // values changed since t was built: refresh_values
  std::vector<double>            ibdiag;                                    // MatInvertBlockDiagonal's output, owned here
  PetscInt                       entry_option = MAT_AIJCOMPOUND_ENTRY_AUTO; // what -mat_aijcompound_entry asked for
  Mat                            inner        = nullptr;                    // MATSEQAIJ that MatSetValues assembles into (assembly.cpp)
};

static inline Mat_SeqAIJCompound *MatAIJCompoundData(Mat A)
{
  return (Mat_SeqAIJCompound *)A->data;
}

// The operations of ops.cpp and assembly.cpp into A->ops.
void           MatAIJCompoundSetComputeOps(Mat A);
void           MatAIJCompoundSetAssemblyOps(Mat A);
PetscErrorCode MatAIJCompoundComposeAssembly(Mat A); // MatSeqAIJSetPreallocation_C
// Values of the compound CSR changed in place: the transpose refreshes, the inner AIJ is dropped.
PetscErrorCode MatAIJCompoundValuesChanged(Mat A);
// -mat_aijcompound_entry with A's prefix.
PetscErrorCode MatAIJCompoundGetEntryOption(Mat A, PetscInt *option);
// The compound CSR of an assembled sequential matrix S with block size bs (errors for bad bs or kind).
PetscErrorCode MatAIJCompoundFromMat(Mat S, PetscInt bs, PetscInt option, ac::CompoundCsr *c);
// An assembled MATSEQAIJCOMPOUND on comm (one rank) holding c (moved in; validated), entry option kept.
PetscErrorCode MatCreateSeqAIJCompoundWithCsr(MPI_Comm comm, ac::CompoundCsr &&c, PetscInt option, Mat *B);
// The expanded scalar matrix as a new MATSEQAIJ.
PetscErrorCode MatAIJCompoundExpand(Mat A, Mat *B);
