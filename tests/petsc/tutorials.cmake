# PETSc's own tutorials, compiled unmodified from the PETSc source tree and run with
# -dll_append: the way an existing application meets petscgpukit.
set(PGK_PETSC_TUTORIALS "" CACHE PATH "Folder holding PETSc's src/ksp/ksp/tutorials/ex2.c (found automatically)")
if(NOT PGK_PETSC_TUTORIALS)
  set(_pgk_candidates ${PETSC_DIR}/share/petsc/examples/src/ksp/ksp/tutorials ${PETSC_DIR}/src/ksp/ksp/tutorials)
  foreach(dir ${_pgk_candidates})
    if(EXISTS ${dir}/ex2.c AND EXISTS ${dir}/ex43.c AND EXISTS ${dir}/ex45.c AND EXISTS ${dir}/ex49.c AND EXISTS ${dir}/ex56.c)
      set(PGK_PETSC_TUTORIALS ${dir} CACHE PATH "" FORCE)
      break()
    endif()
  endforeach()
endif()
if(NOT PGK_PETSC_TUTORIALS)
  message(FATAL_ERROR "PETSc's tutorial sources (src/ksp/ksp/tutorials/ex2.c, ex43.c, ex45.c, ex49.c, ex56.c) were not found "
                      "under ${PETSC_DIR}; set -DPGK_PETSC_TUTORIALS=<dir> (a PETSc install has them under share/petsc/examples)")
endif()
message(STATUS "petscgpukit: PETSc tutorials from ${PGK_PETSC_TUTORIALS}")

foreach(ex ex2 ex43 ex45 ex49 ex56)
  add_executable(tutorial_${ex} ${PGK_PETSC_TUTORIALS}/${ex}.c)
  target_link_libraries(tutorial_${ex} PRIVATE PkgConfig::PETSC m) # PETSc only: not linked to us
  set_target_properties(tutorial_${ex} PROPERTIES LINKER_LANGUAGE C)
endforeach()
# SNES ex19 (driven cavity, nonsymmetric Jacobian), beside the KSP tutorials in PETSc's tree.
get_filename_component(_pgk_src ${PGK_PETSC_TUTORIALS}/../../.. ABSOLUTE)
set(PGK_PETSC_EX19 ${_pgk_src}/snes/tutorials/ex19.c CACHE FILEPATH "PETSc's src/snes/tutorials/ex19.c")
if(NOT EXISTS ${PGK_PETSC_EX19})
  message(FATAL_ERROR "PETSc's src/snes/tutorials/ex19.c was not found at ${PGK_PETSC_EX19}")
endif()
add_executable(tutorial_snes_ex19 ${PGK_PETSC_EX19})
target_link_libraries(tutorial_snes_ex19 PRIVATE PkgConfig::PETSC m)
set_target_properties(tutorial_snes_ex19 PROPERTIES LINKER_LANGUAGE C)

set(DLL -dll_append ${PGK_LIB} -petscgpukit_view)
set(CONV --expect "petscgpukit 0\\.1\\.0" --expect "Linear solve converged due to CONVERGED" --reject "DIVERGED")
set(EX2 $<TARGET_FILE:tutorial_ex2>)
set(EX45 $<TARGET_FILE:tutorial_ex45>)
set(EX56 $<TARGET_FILE:tutorial_ex56>)
set(EX2_ARGS -m 40 -n 40 -ksp_converged_reason)
set(EX45_ARGS -da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_type cg -pc_type jacobi -ksp_converged_reason)
set(EX56_ARGS -ne 9 -alpha 1.e-3 -ksp_type cg -pc_type gamg -use_mat_nearnullspace -ksp_rtol 1e-6 -ksp_converged_reason)

pgk_test(tutorial.ex2 LABELS tutorial ARGS ${CONV} --expect "Norm of error" -- ${EX2} ${DLL} ${EX2_ARGS})
pgk_test(tutorial.ex2_help LABELS tutorial ARGS --expect "-petscgpukit_view" -- ${EX2} -dll_append ${PGK_LIB} -help)
pgk_test(tutorial.ex45 LABELS tutorial ARGS ${CONV} --expect "Residual norm" -- ${EX45} ${DLL} ${EX45_ARGS})
pgk_test(tutorial.ex56 LABELS tutorial ARGS ${CONV} -- ${EX56} ${DLL} ${EX56_ARGS})
pgk_test(tutorial.ex2_mpi LABELS tutorial NP 2 ARGS ${CONV} -- ${EX2} ${DLL} ${EX2_ARGS})
pgk_test(tutorial.ex45_mpi LABELS tutorial NP 2 ARGS ${CONV} -- ${EX45} ${DLL} ${EX45_ARGS})
pgk_test(tutorial.ex56_mpi LABELS tutorial NP 2 ARGS ${CONV} -- ${EX56} ${DLL} ${EX56_ARGS})
# Mat aijcompound (issue 10, host path): ex56 unmodified with -mat_type aijcompound (assembled by
# MatSetValues into the compound CSR) takes exactly the iterations of AIJ with CG + pbjacobi (compared
# both ways with 0%), on one rank and on 2 (mpicompoundaij: MatMPIAIJSetPreallocation, values of
# elements on the other rank's nodes).
set(CMP56 ${CMAKE_CURRENT_SOURCE_DIR}/support/compare_iterations.sh)
set(EX56_PBJ -ne 9 -alpha 1.e-3 -ksp_type cg -pc_type pbjacobi -ksp_rtol 1e-6 -ksp_converged_reason)
pgk_test(tutorial.ex56_aijcompound LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 ${EX56} ${DLL} ${EX56_PBJ} -mat_type aijcompound -ksp_view --- ${EX56} ${DLL} ${EX56_PBJ})
pgk_test(tutorial.ex56_aij_vs_aijcompound LABELS tutorial ARGS --expect "iterations within"
         -- ${CMP56} 0 ${EX56} ${DLL} ${EX56_PBJ} --- ${EX56} ${DLL} ${EX56_PBJ} -mat_type aijcompound)
set(MPI2 ${PGK_MPIEXEC} -n 2) # inside each compared command (the comparison itself runs once)
pgk_test(tutorial.ex56_aijcompound_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} ${EX56} ${DLL} ${EX56_PBJ} -mat_type aijcompound -ksp_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX56} ${DLL} ${EX56_PBJ} ${PGK_GPU_OPTS})
pgk_test(tutorial.ex56_aijcompound_mpi_bjacobi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 ${MPI2} ${EX56} ${DLL} ${EX56_PBJ} -pc_type bjacobi -sub_pc_type pbjacobi -mat_type aijcompound -ksp_view ${PGK_GPU_OPTS}
         --- ${MPI2} ${EX56} ${DLL} ${EX56_PBJ} -pc_type bjacobi -sub_pc_type pbjacobi ${PGK_GPU_OPTS})
# Factorizations of an aijcompound operator are of its expansion (MATSEQAIJ's): PETSc's default
# solvers work unchanged. ex56 (full 3x3 blocks): GMRES + ILU on 1 rank, + PCBJACOBI/ILU on 2, the
# iterations of AIJ; ex2 (a 5-point Laplacian read in 2x2 blocks): the expansion's ILU(0) has the
# fill of whole blocks, BAIJ's, and takes BAIJ's iterations.
pgk_test(tutorial.ex56_aijcompound_default LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 ${EX56} ${DLL} -ne 9 -ksp_converged_reason -mat_type aijcompound -ksp_view --- ${EX56} ${DLL} -ne 9 -ksp_converged_reason)
pgk_test(tutorial.ex56_aijcompound_default_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij" --expect "type: ilu"
         -- ${CMP56} 0 ${MPI2} ${EX56} ${DLL} -ne 9 -ksp_converged_reason -mat_type aijcompound -ksp_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX56} ${DLL} -ne 9 -ksp_converged_reason ${PGK_GPU_OPTS})
# LU of the expansion under every ordering of A (scalar rows: the factor is made without inodes, whose
# kernel needs each inode's rows together; qmd gave a wrong LU and rowlength a failed one before)
foreach(ord qmd rowlength rabbitpp)
  pgk_test(tutorial.ex56_aijcompound_lu_${ord} LABELS tutorial ARGS --expect "iterations within"
           -- ${CMP56} 0 ${EX56} ${DLL} -ne 7 -ksp_type gmres -ksp_converged_reason -pc_type lu -pc_factor_mat_ordering_type ${ord} -mat_type aijcompound
           --- ${EX56} ${DLL} -ne 7 -ksp_type gmres -ksp_converged_reason -pc_type lu -pc_factor_mat_ordering_type ${ord})
endforeach()
pgk_test(tutorial.ex2.aijcompound_ilu LABELS tutorial ARGS --expect "iterations within"
         -- ${CMP56} 0 ${EX2} ${DLL} -m 30 -n 30 -ksp_converged_reason -mat_type aijcompound -mat_block_size 2 --- ${EX2} ${DLL} -m 30 -n 30 -ksp_converged_reason -mat_type baij -mat_block_size 2)
# The user's -mat_view shows the user's matrix once, as on AIJ: the factor steps' internal expansions
# (assembled under their own prefix) must not answer it.
foreach(pc lu ilu cholesky icc)
  pgk_test(tutorial.ex2.aijcompound_${pc}_mat_view LABELS tutorial ARGS --expect "type: seqcompoundaij" --reject "type: seqaij"
           -- ${EX2} ${DLL} -m 20 -n 20 -mat_type aijcompound -mat_block_size 2 -pc_type ${pc} -mat_view ::ascii_info)
endforeach()
# A first factorization expands the compound matrix once (-log_view's MatAIJCmpExpand: the symbolic
# step's expansion serves the numeric step; PCFactor's MatGetFactor queries take none).
pgk_test(tutorial.ex2.aijcompound_ilu_one_expansion LABELS tutorial ARGS --expect "MatAIJCmpExpand +1 1\\.0 "
         -- ${EX2} ${DLL} -m 20 -n 20 -mat_type aijcompound -mat_block_size 2 -pc_type ilu -log_view)
pgk_test(tutorial.ex2.aijcompound_ilu_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within"
         -- ${CMP56} 0 ${MPI2} ${EX2} ${DLL} -m 30 -n 30 -ksp_converged_reason -mat_type aijcompound -mat_block_size 2 ${PGK_GPU_OPTS}
         --- ${MPI2} ${EX2} ${DLL} -m 30 -n 30 -ksp_converged_reason -mat_type baij -mat_block_size 2 ${PGK_GPU_OPTS})
# ksp ex43 (Stokes on a DMDA, 3 dof): symmetric Dirichlet rows and columns (MatZeroRowsColumns), then
# PCFIELDSPLIT on fields (0,1) and 2 (MatCreateSubMatrix: the velocity block of the compound type,
# 2x2 entries) with LU on it: the iterations of AIJ.
set(EX43 $<TARGET_FILE:tutorial_ex43> ${DLL} -stokes_pc_use_amat -stokes_ksp_type fgmres -stokes_pc_type fieldsplit -stokes_pc_fieldsplit_block_size 3
    -stokes_pc_fieldsplit_type SYMMETRIC_MULTIPLICATIVE -stokes_pc_fieldsplit_0_fields 0,1 -stokes_pc_fieldsplit_1_fields 2 -stokes_fieldsplit_0_ksp_type preonly
    -stokes_fieldsplit_0_pc_type lu -stokes_fieldsplit_1_ksp_type preonly -stokes_fieldsplit_1_pc_type jacobi -c_str 0 -solcx_eta0 1.0 -solcx_eta1 1.0e6
    -solcx_xc 0.5 -solcx_nz 2 -mx 20 -my 20 -stokes_ksp_converged_reason)
pgk_test(tutorial.ex43_aijcompound_fieldsplit_lu LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 ${EX43} -dm_mat_type aijcompound -stokes_ksp_view --- ${EX43})
# The Schur complement with -schur_precondition selfp: the velocity block is compound (2x2 entries,
# inverted diagonal taken from it), the off-diagonal blocks are AIJ submatrices (rows and columns in
# blocks of different sizes), so selfp's products are AIJ's: AIJ's iterations
set(EX43S $<TARGET_FILE:tutorial_ex43> ${DLL} -stokes_ksp_type fgmres -stokes_pc_type fieldsplit -stokes_pc_fieldsplit_block_size 3 -stokes_pc_fieldsplit_type schur
    -stokes_pc_fieldsplit_schur_precondition selfp -stokes_pc_fieldsplit_0_fields 0,1 -stokes_pc_fieldsplit_1_fields 2 -stokes_fieldsplit_0_pc_type lu
    -stokes_fieldsplit_1_pc_type jacobi -c_str 0 -solcx_eta0 1.0 -solcx_eta1 1.0e6 -solcx_xc 0.5 -solcx_nz 2 -mx 20 -my 20 -stokes_ksp_converged_reason)
pgk_test(tutorial.ex43_aijcompound_schur_selfp LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 ${EX43S} -dm_mat_type aijcompound -stokes_ksp_view --- ${EX43S})
# ksp ex49 (2D plane-strain elasticity, Q1 on a DMDA, bs 2) with -dm_mat_type aijcompound: its
# symmetric Dirichlet conditions take the submatrix without the constrained rows and columns
# (MatCreateSubMatrix: whole nodes, so of the compound type again), -use_nonsymbc zeroes them
# (MatZeroRows): the iterations of the DMDA's AIJ, 1 and 2 ranks.
set(EX49 $<TARGET_FILE:tutorial_ex49> ${DLL} -mx 24 -my 24 -no_view -c_str 3 -sponge_E0 1 -sponge_E1 1000 -sponge_nu0 0.4 -sponge_nu1 0.2 -sponge_t 1 -sponge_w 8
    -elas_pc_type pbjacobi -elas_ksp_rtol 1e-8 -elas_ksp_converged_reason)
pgk_test(tutorial.ex49_aijcompound_submatrix LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 ${EX49} -elas_ksp_type cg -dm_mat_type aijcompound -elas_ksp_view --- ${EX49} -elas_ksp_type cg)
pgk_test(tutorial.ex49_aijcompound_submatrix_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} ${EX49} -elas_ksp_type cg -dm_mat_type aijcompound -elas_ksp_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX49} -elas_ksp_type cg ${PGK_GPU_OPTS})
pgk_test(tutorial.ex49_aijcompound_zero_rows_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 2 ${MPI2} ${EX49} -use_nonsymbc -elas_ksp_type gmres -dm_mat_type aijcompound -elas_ksp_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX49} -use_nonsymbc -elas_ksp_type gmres ${PGK_GPU_OPTS})
# PCASM on ex56's aijcompound operator (MatIncreaseOverlap, MatCreateSubMatrices: MATSEQAIJ subdomain
# matrices of the expansion, so the sub-solvers factor them): the iterations of AIJ
pgk_test(tutorial.ex56_aijcompound_asm_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} ${EX56} ${DLL} ${EX56_PBJ} -pc_type asm -pc_asm_overlap 2 -sub_pc_type icc -mat_type aijcompound -ksp_view ${PGK_GPU_OPTS}
         --- ${MPI2} ${EX56} ${DLL} ${EX56_PBJ} -pc_type asm -pc_asm_overlap 2 -sub_pc_type icc ${PGK_GPU_OPTS})
# PCREDISTRIBUTE and PCHMG on 2 ranks call MatGetRow on each rank's rows only; its row cache was composed
# on the matrix's communicator, which took a message tag on that rank alone, and the set-up hung in
# PETSc's next exchange (the containers are rank-local now). A hang fails by the 120 s time-out.
foreach(pc redistribute hmg)
  pgk_test(tutorial.ex56_aijcompound_${pc}_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
           -- ${CMP56} 0 ${MPI2} ${EX56} ${DLL} -ne 5 -ksp_type gmres -ksp_converged_reason -pc_type ${pc} -mat_type aijcompound -ksp_view ${PGK_GPU_OPTS}
           --- ${MPI2} ${EX56} ${DLL} -ne 5 -ksp_type gmres -ksp_converged_reason -pc_type ${pc} ${PGK_GPU_OPTS})
  set_tests_properties(tutorial.ex56_aijcompound_${pc}_mpi PROPERTIES TIMEOUT 120)
endforeach()
# -dm_mat_type aijcompound: a DMDA assembles it (snes ex19, 4 dof) and SNES computes the Jacobian by
# colored finite differences (SNES's default on a DM; PETSc's coloring runs on an AIJ workspace of the
# DM's pattern, its values copied in, fdcoloring.cpp): every linear solve takes as many iterations as
# with the DMDA's AIJ, on 1 and 2 ranks, with both differencing parameters.
set(EX19C -da_refine 2 -lidvelocity 100 -grashof 1e3 -ksp_type gmres -pc_type pbjacobi -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason)
foreach(fd wp ds)
  pgk_test(tutorial.ex19_aijcompound_fdcoloring_${fd} LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
           -- ${CMP56} 0 $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19C} -mat_fd_type ${fd} -dm_mat_type aijcompound -snes_view
           --- $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19C} -mat_fd_type ${fd})
endforeach()
# GMRES + ILU (SNES ex19's default solver): the ILU of the expansion refactored at every Newton step
pgk_test(tutorial.ex19_aijcompound_ilu LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 $<TARGET_FILE:tutorial_snes_ex19> ${DLL} -da_refine 2 -lidvelocity 100 -grashof 1e3 -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason -dm_mat_type aijcompound -snes_view
         --- $<TARGET_FILE:tutorial_snes_ex19> ${DLL} -da_refine 2 -lidvelocity 100 -grashof 1e3 -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason)
# PCMG on the DMDA (SOR smoothers on each level's aijcompound matrix through the cached expansion;
# the interpolation, made by PETSc with the DM's matrix type and block size 1, becomes AIJ): AIJ's iterations
set(EX19MGC -da_refine 2 -lidvelocity 100 -grashof 1e3 -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason -pc_type mg)
pgk_test(tutorial.ex19_aijcompound_mg LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij" --expect "type: sor"
         -- ${CMP56} 0 $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19MGC} -dm_mat_type aijcompound -snes_view --- $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19MGC})
# PCMG with Galerkin coarse operators (MatPtAP of the compound fine matrix: MATAIJ's of its expansion)
pgk_test(tutorial.ex19_aijcompound_mg_galerkin LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19MGC} -pc_mg_galerkin both -dm_mat_type aijcompound -snes_view --- $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19MGC} -pc_mg_galerkin both)
pgk_test(tutorial.ex19_aijcompound_mg_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19MGC} -dm_mat_type aijcompound -snes_view ${PGK_GPU_OPTS} --- ${MPI2} $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19MGC} ${PGK_GPU_OPTS})
pgk_test(valgrind.ex19_aijcompound_fdcoloring LABELS "valgrind;tutorial" ARGS ${VGOK} --expect "Nonlinear solve converged"
         -- ${VG} $<TARGET_FILE:tutorial_snes_ex19> ${DLL} -dm_mat_type aijcompound -pc_type ilu -pc_factor_mat_ordering_type rcm -snes_converged_reason -malloc_debug -malloc_dump)
pgk_test(tutorial.ex19_aijcompound_fdcoloring_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19C} -dm_mat_type aijcompound -snes_view ${PGK_GPU_OPTS}
         --- ${MPI2} $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19C} ${PGK_GPU_OPTS})
# With -snes_fd (the Jacobian by plain finite differences: MatZeroEntries, MatSetValues, assembly at
# every Newton step) the DMDA's aijcompound matrix works on 2 ranks (mpicompoundaij, values-only
# re-assembly): every linear solve takes as many iterations as with the DMDA's AIJ.
set(EX19FD -da_refine 1 -snes_fd -ksp_type gmres -pc_type pbjacobi -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason)
pgk_test(tutorial.ex19_aijcompound_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19FD} -dm_mat_type aijcompound -snes_view ${PGK_GPU_OPTS}
         --- ${MPI2} $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19FD} ${PGK_GPU_OPTS})

# Our PCs on our compound matrix: PC trilf and PC reorder set up from its scalar expansion (MatConvert,
# freed after each set-up) and take the iterations of the AIJ original, both ways; 2 ranks (trilf on
# each diagonal block; reorder per block under bjacobi). snes ex19 (4 dof): trilf builds its forest once
# and refactors at every later Newton step (the expansion is new, the compound pattern the same).
set(EX56T ${EX56} ${DLL} -ne 9 -ksp_type gmres -ksp_converged_reason)
foreach(case "trilf|-pc_type;trilf" "trilf_block|-pc_type;trilf;-pc_trilf_block_size;2" "reorder_ilu|-pc_type;reorder;-reorder_pc_type;ilu")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 tag)
  list(SUBLIST case 1 -1 pcopts)
  pgk_test(tutorial.ex56_aijcompound_${tag} LABELS tutorial ARGS --expect "iterations within" --expect "operator: compound entries .aijcompound., (set up from|reordered as) its scalar expansion"
           -- ${CMP56} 0 ${EX56T} ${pcopts} -mat_type aijcompound -ksp_view --- ${EX56T} ${pcopts})
  pgk_test(tutorial.ex56_aijcompound_${tag}_baseline LABELS tutorial ARGS --expect "iterations within"
           -- ${CMP56} 0 ${EX56T} ${pcopts} --- ${EX56T} ${pcopts} -mat_type aijcompound)
endforeach()
pgk_test(tutorial.ex56_aijcompound_trilf_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "operator: compound entries .aijcompound., set up from its scalar expansion"
         -- ${CMP56} 0 ${MPI2} ${EX56T} -pc_type trilf -mat_type aijcompound -ksp_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX56T} -pc_type trilf ${PGK_GPU_OPTS})
pgk_test(tutorial.ex56_aijcompound_bjacobi_reorder_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "operator: compound entries .aijcompound., reordered as its scalar expansion"
         -- ${CMP56} 0 ${MPI2} ${EX56T} -pc_type bjacobi -sub_pc_type reorder -sub_reorder_pc_type ilu -mat_type aijcompound -ksp_view ${PGK_GPU_OPTS}
         --- ${MPI2} ${EX56T} -pc_type bjacobi -sub_pc_type reorder -sub_reorder_pc_type ilu ${PGK_GPU_OPTS})
pgk_test(tutorial.ex56_aijcompound_reorder_mpi_refused LABELS "tutorial;mpi" ARGS --fail --expect "PC reorder permutes a sequential operator. in parallel use it per block"
         -- ${MPI2} ${EX56T} -pc_type reorder -mat_type aijcompound ${PGK_GPU_OPTS})
# PCGAMG on a compound operator (ex56's own recipe: CG + GAMG with the rigid-body near null space):
# its strength graph and products are MATAIJ's of the expansion, its prolongator (made with the
# operator's type, 3 x 6 blocks) becomes AIJ, the coarse levels are AIJ; the fine level keeps the
# compound type (products, smoother). The iterations of AIJ, both ways, 1 and 2 ranks; snes ex19 with
# GAMG re-set up at every Newton step, with and without reused interpolation: AIJ's in every solve.
pgk_test(tutorial.ex56_aijcompound_gamg LABELS tutorial ARGS --expect "iterations within" --expect "type: gamg" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 ${EX56} ${DLL} ${EX56_ARGS} -mat_type aijcompound -ksp_view --- ${EX56} ${DLL} ${EX56_ARGS})
pgk_test(tutorial.ex56_aijcompound_gamg_baseline LABELS tutorial ARGS --expect "iterations within"
         -- ${CMP56} 0 ${EX56} ${DLL} ${EX56_ARGS} --- ${EX56} ${DLL} ${EX56_ARGS} -mat_type aijcompound)
pgk_test(tutorial.ex56_aijcompound_gamg_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} ${EX56} ${DLL} ${EX56_ARGS} -mat_type aijcompound -ksp_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX56} ${DLL} ${EX56_ARGS} ${PGK_GPU_OPTS})
pgk_test(tutorial.ex56_aijcompound_gamg_trilf LABELS tutorial ARGS --expect "iterations within"
         -- ${CMP56} 0 ${EX56T} -pc_type gamg -mg_levels_pc_type trilf -mat_type aijcompound --- ${EX56T} -pc_type gamg -mg_levels_pc_type trilf)
set(EX19G $<TARGET_FILE:tutorial_snes_ex19> ${DLL} -da_refine 2 -lidvelocity 100 -grashof 1e3 -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason -pc_type gamg -mg_levels_pc_type sor)
foreach(reuse true false)
  pgk_test(tutorial.ex19_aijcompound_gamg_reuse_${reuse} LABELS tutorial ARGS --expect "iterations within" --expect "type: seqcompoundaij"
           -- ${CMP56} 0 ${EX19G} -pc_gamg_reuse_interpolation ${reuse} -dm_mat_type aijcompound -snes_view --- ${EX19G} -pc_gamg_reuse_interpolation ${reuse})
endforeach()
pgk_test(tutorial.ex19_aijcompound_gamg_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} ${EX19G} -dm_mat_type aijcompound -snes_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX19G} ${PGK_GPU_OPTS})
pgk_test(valgrind.ex19_aijcompound_gamg LABELS "valgrind;tutorial" ARGS ${VGOK} --expect "Nonlinear solve converged"
         -- ${VG} $<TARGET_FILE:tutorial_snes_ex19> ${DLL} -da_refine 1 -snes_converged_reason -pc_type gamg -mg_levels_pc_type sor -pc_gamg_reuse_interpolation true -dm_mat_type aijcompound -malloc_debug -malloc_dump)
set(EX19T $<TARGET_FILE:tutorial_snes_ex19> ${DLL} -da_refine 2 -lidvelocity 100 -grashof 1e3 -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason -pc_type trilf)
pgk_test(tutorial.ex19_aijcompound_trilf LABELS tutorial ARGS --expect "iterations within" --expect "forest built 1 of [2-9][0-9]* setups"
         -- ${CMP56} 0 ${EX19T} -dm_mat_type aijcompound -snes_view --- ${EX19T})
pgk_test(valgrind.ex56_aijcompound_trilf_reorder LABELS "valgrind;tutorial" ARGS ${VGOK} --expect "Linear solve converged"
         -- ${VG} ${EX56} ${DLL} -ne 3 -ksp_type gmres -ksp_converged_reason -mat_type aijcompound -pc_type reorder -reorder_pc_type trilf -malloc_debug -malloc_dump)
pgk_test(valgrind.ex56_ilu_rabbitpp_inodes LABELS "valgrind;tutorial" ARGS ${VGOK} --expect "Linear solve converged"
         -- ${VG} ${EX56} ${DLL} -ne 3 -ksp_converged_reason -pc_type ilu -pc_factor_mat_ordering_type rabbitpp -malloc_debug -malloc_dump)

# On the GPU: device matrix and vector types, the same unmodified programs.
set(GPU_CONV --gpu ${CONV} --expect "device: NVIDIA" --expect "type: (seq|mpi)aijcusparse")
pgk_test(gpu.tutorial.ex2 LABELS "gpu;tutorial" ARGS ${GPU_CONV} -- ${EX2} ${DLL} -ksp_view ${EX2_ARGS} ${PGK_DEVICE_TYPES})
pgk_test(gpu.tutorial.ex45 LABELS "gpu;tutorial" ARGS ${GPU_CONV} -- ${EX45} ${DLL} -ksp_view ${EX45_ARGS} -dm_mat_type aijcusparse -dm_vec_type cuda ${PGK_GPU_OPTS})
pgk_test(gpu.tutorial.ex56 LABELS "gpu;tutorial" ARGS ${GPU_CONV} -- ${EX56} ${DLL} -ksp_view ${EX56_ARGS} ${PGK_DEVICE_TYPES})
pgk_test(gpu.tutorial.ex2_mpi LABELS "gpu;tutorial" NP 2 ARGS ${GPU_CONV} -- ${EX2} ${DLL} -ksp_view ${EX2_ARGS} ${PGK_DEVICE_TYPES})
pgk_test(gpu.tutorial.ex45_mpi LABELS "gpu;tutorial" NP 2 ARGS ${GPU_CONV} -- ${EX45} ${DLL} -ksp_view ${EX45_ARGS} -dm_mat_type aijcusparse -dm_vec_type cuda ${PGK_GPU_OPTS})
# The DMDA's aijcompound matrix with CUDA vectors (products on the device) and its Jacobian by colored
# finite differences (values set on the host, uploaded at the next product): iterations of AIJCUSPARSE.
pgk_test(gpu.tutorial.ex19_aijcompound_fdcoloring LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19C} -dm_mat_type aijcompound -dm_vec_type cuda -snes_view ${PGK_GPU_OPTS}
         --- $<TARGET_FILE:tutorial_snes_ex19> ${DLL} ${EX19C} -dm_mat_type aijcusparse -dm_vec_type cuda ${PGK_GPU_OPTS})
# ex56's aijcompound operator with CUDA vectors and PETSc's default solver (GMRES + ILU of the
# expansion on the host; bjacobi/ILU on 2 ranks) against AIJCUSPARSE's own ILU: the same iterations.
pgk_test(gpu.tutorial.ex56_aijcompound_ilu LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "type: seqcompoundaij"
         -- ${CMP56} 0 ${EX56} ${DLL} -ne 9 -ksp_converged_reason -mat_type aijcompound -vec_type cuda -ksp_view ${PGK_GPU_OPTS}
         --- ${EX56} ${DLL} -ne 9 -ksp_converged_reason ${PGK_DEVICE_TYPES})
pgk_test(gpu.tutorial.ex56_aijcompound_ilu_mpi LABELS "gpu;tutorial;mpi" ARGS --gpu --expect "iterations within" --expect "type: mpicompoundaij"
         -- ${CMP56} 0 ${MPI2} ${EX56} ${DLL} -ne 9 -ksp_converged_reason -mat_type aijcompound -vec_type cuda -ksp_view ${PGK_GPU_OPTS}
         --- ${MPI2} ${EX56} ${DLL} -ne 9 -ksp_converged_reason ${PGK_DEVICE_TYPES})
# PC trilf on the scalar expansion of a device aijcompound (MATAIJCUSPARSE: set up and applied on the
# device) and PC reorder + ILU: the iterations of the AIJCUSPARSE original (5%: the products differ in rounding).
pgk_test(gpu.tutorial.ex56_aijcompound_trilf LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "built on the device" --expect "operator: compound entries"
         -- ${CMP56} 5 ${EX56T} -pc_type trilf -mat_type aijcompound -vec_type cuda -ksp_view ${PGK_GPU_OPTS} --- ${EX56T} -pc_type trilf ${PGK_DEVICE_TYPES})
pgk_test(gpu.tutorial.ex56_aijcompound_reorder_ilu LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "permuted on the device" --expect "operator: compound entries"
         -- ${CMP56} 5 ${EX56T} -pc_type reorder -reorder_pc_type ilu -mat_type aijcompound -vec_type cuda -ksp_view ${PGK_GPU_OPTS} --- ${EX56T} -pc_type reorder -reorder_pc_type ilu ${PGK_DEVICE_TYPES})
pgk_test(gpu.tutorial.ex56_aijcompound_trilf_mpi LABELS "gpu;tutorial;mpi" ARGS --gpu --expect "iterations within" --expect "2 on the device.. sums over ranks" --expect "operator: compound entries"
         -- ${CMP56} 5 ${MPI2} ${EX56T} -pc_type trilf -mat_type aijcompound -vec_type cuda -ksp_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX56T} -pc_type trilf ${PGK_DEVICE_TYPES})
# PCGAMG on a device aijcompound: the expansion it reads (graph, products) is MATAIJCUSPARSE, and so
# are the prolongator and the coarse operators (PtAP on the device), so the whole hierarchy computes
# there; against AIJCUSPARSE's GAMG (15%, 2 of 14 iterations: the products round differently, and
# GAMG's eigen estimates with them). On 2 ranks the coarse levels are MATMPIAIJCUSPARSE.
pgk_test(gpu.tutorial.ex56_aijcompound_gamg LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "type: gamg" --expect "type: seqcompoundaij"
         --expect "type: seqaijcusparse"
         -- ${CMP56} 15 ${EX56} ${DLL} ${EX56_ARGS} -mat_type aijcompound -vec_type cuda -ksp_view ${PGK_GPU_OPTS} --- ${EX56} ${DLL} ${EX56_ARGS} ${PGK_DEVICE_TYPES})
pgk_test(gpu.tutorial.ex56_aijcompound_gamg_device_mpi LABELS "gpu;tutorial;mpi" ARGS --gpu --expect "iterations within" --expect "type: gamg"
         --expect "type: mpicompoundaij" --expect "type: mpiaijcusparse"
         -- ${CMP56} 15 ${MPI2} ${EX56} ${DLL} ${EX56_ARGS} -mat_type aijcompound -vec_type cuda -ksp_view ${PGK_GPU_OPTS} --- ${MPI2} ${EX56} ${DLL} ${EX56_ARGS} ${PGK_DEVICE_TYPES})
pgk_test(gpu.tutorial.ex56_mpi LABELS "gpu;tutorial" NP 2 ARGS ${GPU_CONV} -- ${EX56} ${DLL} -ksp_view ${EX56_ARGS} ${PGK_DEVICE_TYPES})
