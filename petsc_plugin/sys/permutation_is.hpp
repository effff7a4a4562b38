// The two index sets MatGetOrdering returns, filled from one permutation on the host threads
// the ordering ran on.
#pragma once

#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <vector>

// *irow and *icol: two sequential index sets holding perm (perm[new] = old), as every
// MatGetOrdering implementation returns them. Each owns its own copy (PETSC_OWN_POINTER), filled
// on `threads` threads when perm holds at least 2^20 entries: PETSc's PETSC_COPY_VALUES copies on
// one thread into fresh pages, which cost 61-95 ms for 9-15M rows on an H200 node, as much as
// the GPU ordering itself. The result does not depend on `threads` (<= 1: this thread only).
// Not Collective.
PetscErrorCode PgkCreatePermutationISes(const std::vector<PetscInt> &perm, PetscInt threads, IS *irow, IS *icol);
