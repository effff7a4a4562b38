// The index sets MatGetOrdering returns, made from one permutation.
#pragma once

#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <thread>
#include <vector>

// *set returned as both *irow and *icol: one sequential index set, referenced twice (*set =
// NULL), as PETSc's own spectral ordering does. The caller destroys each as usual. One set
// instead of two halves the cost PETSc adds to the ordering (ISCreateGeneral scans every new set
// once for its bounds: about 15 ms at 14.7M rows on an H200 node), and factorizations and
// MatPermute then see isrow == iscol. Not Collective.
PetscErrorCode PgkPermutationISAsBoth(IS *set, IS *irow, IS *icol);

// A sequential index set of n >= 1 entries around *array (PetscMalloc1'd, n entries) that the
// caller fills with a permutation of 0..n-1 afterwards (a download from the device): *array first
// gets the bounds of every such permutation (zeros, then n - 1 last; the zero fill also faults
// fresh pages in), so that the bounds PETSc records when it creates the set (ISCreateGeneral scans
// the array once) hold for the permutation written later, and the scan can run while the device
// still computes it. The set owns the array (*array = NULL on success). The caller must write the
// permutation before anyone else sees the set, then call PetscObjectStateIncrease on it. -is_view
// would show the placeholder: when that option is set, create the set after the fill instead.
// Not Collective.
// zeroed: *array already holds zeros (PgkZeroFill), so only n - 1 is written before the scan.
PetscErrorCode PgkCreatePermutationISForFill(PetscInt n, PetscInt **array, IS *is, PetscBool zeroed = PETSC_FALSE);

// Zeros a fresh array of n entries on `threads` other threads while the caller goes on (the
// device ordering into it meanwhile): the page faults and the fill, 39-47 ms of the caller's time
// at 14.7M rows on one thread, once the device's level-synchronous ordering took 13.7 ms of it
// (bench/NOTES.md). Starts only from 2^22 entries and more than one thread (else wait() says
// false and the caller zeroes as before). wait() joins and says whether the array is zero; the
// destructor joins too. The caller must not write the array before wait(). No PETSc call.
class PgkZeroFill {
public:
  PgkZeroFill(PetscInt *array, PetscInt n, PetscInt threads);
  ~PgkZeroFill();
  PgkZeroFill(const PgkZeroFill &)            = delete;
  PgkZeroFill &operator=(const PgkZeroFill &) = delete;
  bool         wait();

private:
  std::thread worker_;
  bool        zeroed_ = false;
};

// *irow and *icol (one set, as PgkPermutationISAsBoth) from perm[new] = old, copied into PETSc's
// memory on `threads` threads when perm holds at least 2^22 entries (PETSc's PETSC_COPY_VALUES copies on
// one thread into fresh pages; below about 2^22 entries, starting 16 threads costs more than the
// copy saves, measured on an H200 node). The result does not depend on `threads` (<= 1: this
// thread only). Not Collective.
PetscErrorCode PgkCreatePermutationISes(const std::vector<PetscInt> &perm, PetscInt threads, IS *irow, IS *icol);

// Where mat is a MATSEQAIJ (or a type built on it) whose inode routines are in use (rows in groups
// of identical structure, MatInodeGetInodeSizes), *irow / *icol are replaced by the same
// permutation with each inode's rows kept together: the inodes in the order their first row comes
// in the given permutation, each inode's rows in natural order. MATSEQAIJ's inode LU and ILU need
// that (PETSc's own orderings order the inode graph, and MatGetOrdering expands it); a permutation
// of the scalar rows that splits an inode made ILU on ksp ex56 (3 dof a node) stop on a zero
// pivot. Else, and where every inode is one row, nothing changes. Deterministic. Not Collective.
PetscErrorCode PgkPermutationKeepInodes(Mat mat, IS *irow, IS *icol);
