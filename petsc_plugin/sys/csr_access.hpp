// One internal API, used by every component, for the CSR arrays of a PETSc matrix and the
// arrays of a vector, with the memory they live in. It never copies silently: a transfer
// happens only where PETSc's own accessor logs one (CpuToGpu / GpuToCpu in -log_view).
#pragma once

#include "petsc_plugin/sys/pgk_petsc.hpp"

#include "src/common/csr_check.hpp"

// Where a caller wants the data.
typedef enum {
  PGK_MEM_AUTO,   // where it is current now: device for a device matrix whose device copy is valid
  PGK_MEM_HOST,   // host arrays (a device matrix with newer device values is copied back, logged)
  PGK_MEM_DEVICE, // device arrays (error for host matrix types)
} PgkMemPolicy;

struct PgkMatCSR {
  pgk::CsrView csr{};                       // full row pointer; MPI: the local diagonal block
  PetscMemType mtype  = PETSC_MEMTYPE_HOST; // where csr's arrays live
  PetscInt     rstart = 0;                  // first local row in the global numbering
  Mat          block  = nullptr;            // borrowed: the sequential matrix the arrays belong to
  // private: what Restore must undo
  PetscBool restore_rowij = PETSC_FALSE, restore_host_values = PETSC_FALSE, restore_device = PETSC_FALSE;
  PetscBool rowij_symmetric = PETSC_FALSE, rowij_blocks = PETSC_FALSE; // the MatGetRowIJ() flags to restore with
};

// Whether A stores PETSc's AIJ arrays: MATSEQAIJ / MATMPIAIJ and every type derived from them
// (AIJCUSPARSE, AIJPERM, AIJSELL, AIJCRL, AIJMKL, ...: PETSc's base-type rule, the type name
// begins with seqaij / mpiaij), sequential (*seq) or MPI (*mpi); either pointer may be NULL.
// Not Collective.
PetscErrorCode PgkMatIsAIJ(Mat A, PetscBool *seq, PetscBool *mpi);

// Errors with PETSC_ERR_ARG_WRONGSTATE for an unassembled matrix and PETSC_ERR_ARG_SIZ for a
// non-square one; `who` names the caller in the message ("MatOrdering batchrcm").
PetscErrorCode PgkCheckSquareAssembled(Mat A, const char who[]);

// Whether A may compute on the device, whatever its type: a build with the CUDA kernels, a usable
// device, and A not bound to the CPU. The rule of Mat aijcompound (its products) and of
// PgkMatScalarOperator, which asks it of an MPI compound matrix's diagonal block (that type keeps
// MatCreate's binding itself and computes through its blocks). Not Collective.
PetscBool PgkMatDeviceUsable(Mat A);

// PgkMatDeviceUsable(A) on every rank of A's communicator (logical and): what a collective
// conversion of A must agree on. Collective.
PetscErrorCode PgkMatDeviceUsableOnEveryRank(Mat A, PetscBool *device);

// Whether A is a cuSPARSE AIJ type, MATSEQAIJCUSPARSE or MATMPIAIJCUSPARSE (the types whose rows the
// components read on the device). Not Collective.
PetscErrorCode PgkMatIsCusparse(Mat A, PetscBool *cusparse);

// Whether a component should compute on the device for A: a cuSPARSE AIJ type (SEQ or MPI) for
// which PgkMatDeviceUsable holds. Not Collective.
PetscErrorCode PgkMatUseDevice(Mat A, PetscBool *device);

// Whether PgkMatGetCSR(A, PGK_MEM_AUTO) would hand out device arrays without a transfer: A (its
// local diagonal block) is MATSEQAIJCUSPARSE with a current device copy, in a build with the
// CUDA kernels and a usable device. Touches no array. Not Collective.
PetscErrorCode PgkMatDeviceCurrent(Mat A, PetscBool *current);

// A scalar operator for components that read scalar rows (PC trilf, PC reorder): for a
// compound-entry matrix (Mat aijcompound, sequential or MPI) its scalar expansion, built by
// MatConvert() from the compound CSR (device-newer values synced first, logged) as MATAIJCUSPARSE
// where the compound matrix computes on the device, else MATAIJ; same sizes and row partition.
// Any other A is returned itself with a new reference. Either way the caller destroys *S.
// *compound (may be NULL) says which. Collective on A when A is a compound matrix.
PetscErrorCode PgkMatScalarOperator(Mat A, PetscBool *compound, Mat *S);

// Supported: MATSEQAIJ, MATMPIAIJ (local diagonal block) and their derived types (PgkMatIsAIJ);
// device arrays only for MATSEQAIJCUSPARSE / MATMPIAIJCUSPARSE.
PetscErrorCode PgkMatGetCSR(Mat A, PgkMemPolicy policy, PgkMatCSR *csr);
PetscErrorCode PgkMatRestoreCSR(Mat A, PgkMatCSR *csr);
// The host row pointer and column indices only (values null): every AIJ type keeps its
// structure on the host, so this never transfers, whatever the type. Restore as above.
// MATSEQBAIJ and MATSEQSBAIJ give their graph of block rows, SBAIJ with both triangles: the
// graph PETSc's own orderings read (MatGetRowIJ() with blockcompressed), so an ordering of it
// is a permutation of the block rows, which is what MatGetOrdering() returns for these types
// and what their factorizations expect. Parallel BAIJ / SBAIJ: an error, as in PETSc's orderings.
PetscErrorCode PgkMatGetCSRStructureHost(Mat A, PgkMatCSR *csr);

// Validation where the data lives (device kernel or host reference).
PetscErrorCode PgkMatCSRCheck(const PgkMatCSR *csr, pgk::CsrCheck *check);

// Requirements a component states; the first violated one is reported with counts.
typedef enum { PGK_REQUIRE_FINITE = 1, PGK_REQUIRE_DIAGONAL = 2 } PgkRequirement;
PetscErrorCode PgkMatCSRRequire(Mat A, const PgkMatCSR *csr, int requirements, const char who[]);

typedef enum { PGK_ACCESS_READ, PGK_ACCESS_WRITE, PGK_ACCESS_READ_WRITE } PgkAccess;

// The device value array of a MATSEQAIJCUSPARSE matrix (PETSc's accessors: a read of a matrix
// assembled on the host uploads it, logged; a write marks the device copy the newer one).
PetscErrorCode PgkMatGetDeviceValues(Mat A, PgkAccess access, PetscScalar **v);
PetscErrorCode PgkMatRestoreDeviceValues(Mat A, PgkAccess access, PetscScalar **v);

// Whether v's arrays live on the device: a CUDA vector type not bound to the CPU.
PetscBool PgkVecIsDevice(Vec v);
// Vector arrays in the memory asked for (PETSC_MEMTYPE_HOST or PETSC_MEMTYPE_DEVICE).
PetscErrorCode PgkVecGetArray(Vec v, PgkAccess access, PetscMemType want, PetscScalar **a);
PetscErrorCode PgkVecRestoreArray(Vec v, PgkAccess access, PetscMemType want, PetscScalar **a);
