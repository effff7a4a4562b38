/*
   petscgpukit: GPU-resident orderings, preconditioners, solvers and SpMV for PETSc.

   Load it into any PETSc program at run time with
       -dll_append <prefix>/lib/libpetscgpukit.so
   (PETSc then calls PetscDLLibraryRegister_petscgpukit()), or link against it and call
   PetscGpuKitInitializePackage() after PetscInitialize().

   Every function here is collective on the communicator it is given unless it says otherwise.
*/
#pragma once

#include <petscksp.h>

#define PETSCGPUKIT_VERSION_MAJOR 0
#define PETSCGPUKIT_VERSION_MINOR 1
#define PETSCGPUKIT_VERSION_PATCH 0

/* The class id under which petscgpukit logs its events (-log_view, -info). */
PETSC_EXTERN PetscClassId PETSCGPUKIT_CLASSID;

/* Package set-up and tear-down. Initialize is idempotent and registers everything; its first
   call is collective on PETSC_COMM_WORLD (it counts the ranks sharing each node), so call it on
   every rank (-dll_append does, inside PetscInitialize()). Finalize is registered with
   PetscRegisterFinalize() and runs in PetscFinalize(). */
PETSC_EXTERN PetscErrorCode PetscGpuKitInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscGpuKitFinalizePackage(void);
/* Entry point that PETSc's -dll_append calls. */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscgpukit(void);

/* Version and build configuration; any argument may be NULL. has_cuda says whether the
   library was built with its CUDA kernels; the run-time device check is separate. */
PETSC_EXTERN PetscErrorCode PetscGpuKitGetVersion(PetscInt *major, PetscInt *minor, PetscInt *patch,
                                                  const char **commit, PetscBool *has_cuda);
/* Whether this build has its CUDA kernels and a CUDA device is usable now (Not Collective). */
PETSC_EXTERN PetscErrorCode PetscGpuKitDeviceAvailable(PetscBool *available);
/* Prints version, commit, build configuration, the device in use and the registered types. */
PETSC_EXTERN PetscErrorCode PetscGpuKitView(PetscViewer viewer);

/* ---- Types ------------------------------------------------------------------------------ */

/* MatOrdering: speculative batch-parallel Reverse Cuthill-McKee, on the GPU or all CPU cores,
   identical to the serial reference for the same start node (-mat_ordering_batchrcm_*). */
#define MATORDERINGBATCHRCM "batchrcm"

/* MatOrdering: Rabbit Order's communities numbered contiguously, then the RABBIT++ regrouping
   (hubs | other non-insular | insular), for SpMV locality; "rabbit" without the regrouping. The
   same permutation on the GPU and on any number of cores (-mat_ordering_rabbitpp_*). */
#define MATORDERINGRABBITPP "rabbitpp"
#define MATORDERINGRABBIT "rabbit"

/* PC: solve with the operator permuted by any MatOrdering (on the device for device matrices),
   an inner KSP with prefix <pc prefix>reorder_, and the solution permuted back. */
#define PCREORDER "reorder"
PETSC_EXTERN PetscErrorCode PCReorderGetKSP(PC pc, KSP *ksp);
PETSC_EXTERN PetscErrorCode PCReorderSetMatOrderingType(PC pc, MatOrderingType type);

/* PC: linear-forest tridiagonal preconditioner (Klein & Strzodka): the heaviest disjoint paths
   of the matrix graph, ordered to be tridiagonal and solved exactly; on the device for device
   matrices, per diagonal block in parallel (-pc_trilf_*). */
#define PCTRILF "trilf"
typedef enum { PC_TRILF_WEIGHT_ABS, PC_TRILF_WEIGHT_SCALED } PCTrilfWeight;
/* Figures of the last set-up on this rank (PCTrilfGetInfo). Times in milliseconds. In the 2x2
   block variant paths, longest and the factor counts refer to the graph of pairs. */
typedef struct {
  PetscBool on_device;
  PetscInt rows, npaths, longest, factor_edges, forest_edges, cycles_broken, rounds_run, pairs, splits, replaced;
  PetscReal c_id, c_pi; /* weight coverage of the original tridiagonal part and of trilf's T */
  PetscReal t_weights, t_factor, t_cycles, t_paths, t_assemble, t_lu;
  PetscInt forests, setups; /* set-ups that built a forest, and all set-ups */
} PCTrilfInfo;
PETSC_EXTERN PetscErrorCode PCTrilfSetBlockSize(PC pc, PetscInt bs);
PETSC_EXTERN PetscErrorCode PCTrilfSetWeight(PC pc, PCTrilfWeight w);
PETSC_EXTERN PetscErrorCode PCTrilfGetInfo(PC pc, PCTrilfInfo *info);

/* KSP: CARP-CG (Gordon & Gordon), CG on the double Kaczmarz sweep; converges for nonsymmetric and
   indefinite systems; needs PCNONE (-ksp_carpcg_scheme sequential|multicolor|carp|cimmino,
   -ksp_carpcg_*; see the KSPCARPCG manual page in petsc_plugin/ksp/carpcg.cpp). */
#define KSPCARPCG "carpcg"

/* Mat: compound entries (real k x k blocks, k = 2..8; complex as 2 scalars; quaternion as 4
   scalars) in a compound CSR, built by MatConvert from AIJ/BAIJ/AIJCUSPARSE with a block size or
   assembled with MatSetValues (-mat_type aijcompound; -mat_aijcompound_entry
   auto|block|complex|quaternion); host path, MATSEQAIJCOMPOUND on one rank, MATMPIAIJCOMPOUND on
   more (see their manual pages in petsc_plugin/mat/aijcompound.cpp and aijcompound/mpi.cpp). */
#define MATAIJCOMPOUND "aijcompound"
#define MATSEQAIJCOMPOUND "seqcompoundaij"
#define MATMPIAIJCOMPOUND "mpicompoundaij"
/* Runs the autotuner now (-mat_aijcompound_tune, default joint) instead of at the first device
   MatMult after assembly, searching even where the cache file holds a winner (the new winner
   replaces it); a no-op on the host path. Not collective (each rank tunes its block).
   MatAIJCompoundGetTuning() reports the chosen variant ("ELL-SoA static 256x8"), where it came from
   (default, forced, tuned, cache) and the GB/s measured for it (0 when not measured). */
PETSC_EXTERN PetscErrorCode MatAIJCompoundTune(Mat A);
PETSC_EXTERN PetscErrorCode MatAIJCompoundGetTuning(Mat A, const char **variant, const char **source, PetscReal *gbs);

/* ---- Test and benchmark matrices -------------------------------------------------------- */

/*
   PetscGpuKitMatCreateGenerated - creates a matrix from a generator specification, each rank
   generating only its own rows. The type comes from MatSetFromOptions() with the given prefix
   (so -mat_type aijcusparse works), MATAIJ otherwise.

   spec: "kind:param=value,..." such as "lap3d7:n=64", "elast3d:nx=20,ny=20,nz=40",
         "aniso2d:n=500,variant=2", "powerlaw:n=100000,communities=32".
         PetscGpuKitGeneratorList() prints every kind with its parameters.
*/
PETSC_EXTERN PetscErrorCode PetscGpuKitMatCreateGenerated(MPI_Comm comm, const char spec[], const char prefix[],
                                                          Mat *A);
PETSC_EXTERN PetscErrorCode PetscGpuKitGeneratorList(PetscViewer viewer);

/*
   PetscGpuKitMatLoad - loads a matrix from a Matrix Market file (*.mtx, coordinate format,
   general/symmetric/skew-symmetric/hermitian, real/integer/pattern) or from a PETSc binary
   file (anything else). Malformed Matrix Market input gives PETSC_ERR_FILE_UNEXPECTED with
   "file:line: reason". Pattern files get the value 1.0; complex files are refused (PetscScalar
   is real). Type from MatSetFromOptions() with the given prefix.
*/
PETSC_EXTERN PetscErrorCode PetscGpuKitMatLoad(MPI_Comm comm, const char path[], const char prefix[], Mat *A);
