// The index sets MatGetOrdering returns, made from one permutation.
#pragma once

#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <vector>

// *irow and *icol from perm (perm[new] = old, n entries allocated with PetscMalloc1): one
// sequential index set that owns perm (PETSC_OWN_POINTER; *perm is set to NULL), returned as
// both, referenced twice, as PETSc's own spectral ordering does. The caller destroys each as
// usual. One set instead of two halves the cost PETSc adds to the ordering (ISCreateGeneral
// scans every new set once for its bounds: about 15 ms at 14.7M rows on an H200 node), and
// factorizations and MatPermute then see isrow == iscol. Not Collective.
PetscErrorCode PgkCreatePermutationISFromArray(PetscInt n, PetscInt **perm, IS *irow, IS *icol);

// As PgkCreatePermutationISFromArray, from a vector: copied into PETSc's memory first, on
// `threads` threads when perm holds at least 2^22 entries (PETSc's PETSC_COPY_VALUES copies on
// one thread into fresh pages; below about 2^22 entries, starting 16 threads costs more than the
// copy saves, measured on an H200 node). The result does not depend on `threads` (<= 1: this
// thread only). Not Collective.
PetscErrorCode PgkCreatePermutationISes(const std::vector<PetscInt> &perm, PetscInt threads, IS *irow, IS *icol);
