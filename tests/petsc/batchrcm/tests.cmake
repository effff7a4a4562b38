# MatOrdering batchrcm and PC reorder (issue 3).
set(T $<TARGET_FILE:test_batchrcm>)
set(SAME --expect "all checks passed" --expect "identical to the reference")
foreach(backend serial cpu auto)
  foreach(spec lap3d7:n=14 lap3d27:n=9 elast3d:n=6 convdiff2d:n=40 aniso2d:n=30,variant=2 disconnected:n=4000,parts=9
               hubrow:n=5000 powerlaw:n=20000,communities=12 random:n=3000,deg=3 path:n=2 empty:n=1 lap2d5:nx=1,ny=1)
    string(REGEX REPLACE "[:=,]" "_" tag ${spec})
    pgk_test(petsc.batchrcm.${backend}.${tag} LABELS petsc ARGS ${SAME} -- ${T} -gen ${spec} -mat_ordering_batchrcm_backend ${backend} -mat_ordering_batchrcm_min_parallel_nnz 0 -repeat 3)
  endforeach()
endforeach()
# The paper's host algorithms (serial Alg. 1, speculative batches) next to the default levels one.
foreach(backend serial cpu)
  foreach(spec lap3d7:n=14 disconnected:n=4000,parts=9 powerlaw:n=20000,communities=12)
    string(REGEX REPLACE "[:=,]" "_" tag ${spec})
    pgk_test(petsc.batchrcm.${backend}_paper.${tag} LABELS petsc ARGS ${SAME} -- ${T} -gen ${spec} -mat_ordering_batchrcm_backend ${backend} -mat_ordering_batchrcm_host_algorithm paper -mat_ordering_batchrcm_min_parallel_nnz 0 -repeat 2)
  endforeach()
endforeach()
# The gpu backend's placeholder set: its array zeroed on other threads from 2^22 entries.
pgk_test(petsc.batchrcm.zero_fill LABELS petsc ARGS --expect "zero fill: all checks passed" -- ${T} -case zero_fill)
# A permutation of 2^22 rows or more is copied into its index set on the cpu backend's threads.
pgk_test(petsc.batchrcm.cpu.large_permutation LABELS petsc ARGS ${SAME} -- ${T} -gen lap2d5:n=2050 -mat_ordering_batchrcm_backend cpu -mat_ordering_batchrcm_threads 4)
# auto on host data: serial between min_parallel_nnz and min_cpu_nnz, cpu from min_cpu_nnz.
pgk_test(petsc.batchrcm.auto_host_below_cpu_threshold LABELS petsc ARGS ${SAME} --expect "backend serial" -- ${T} -gen lap3d7:n=14 -mat_ordering_batchrcm_min_parallel_nnz 1000 -mat_ordering_batchrcm_view)
pgk_test(petsc.batchrcm.auto_host_cpu LABELS petsc ARGS ${SAME} --expect "backend cpu" -- ${T} -gen lap3d7:n=14 -mat_ordering_batchrcm_min_parallel_nnz 1000 -mat_ordering_batchrcm_min_cpu_nnz 1000 -mat_ordering_batchrcm_view)
pgk_test(petsc.batchrcm.view_host_algorithm LABELS petsc ARGS ${SAME} --expect "backend cpu \\([0-9]+ threads\\), host algorithm levels" -- ${T} -gen lap3d7:n=14 -mat_ordering_batchrcm_backend cpu -mat_ordering_batchrcm_view)
# Start nodes and valence conventions; nonsymmetric pattern (ordered on A + A^T); the view.
pgk_test(petsc.batchrcm.georgeliu LABELS petsc ARGS ${SAME} -- ${T} -gen random:n=2000,deg=5 -mat_ordering_batchrcm_backend cpu -mat_ordering_batchrcm_start georgeliu -mat_ordering_batchrcm_diagonal_in_valence 0)
pgk_test(petsc.batchrcm.given_start LABELS petsc ARGS ${SAME} -- ${T} -gen disconnected:n=900,parts=3 -mat_ordering_batchrcm_backend cpu -mat_ordering_batchrcm_start 17)
pgk_test(petsc.batchrcm.nonsymmetric LABELS petsc ARGS ${SAME} -- ${T} -f ${PGK_DATA}/general5_real.mtx -mat_ordering_batchrcm_backend cpu)
pgk_test(petsc.batchrcm.view LABELS petsc ARGS ${SAME} --expect "bandwidth 144 -> 114" --expect "time: symmetrize" -- ${T} -mat_ordering_batchrcm_view)
pgk_test(petsc.batchrcm.help LABELS petsc ARGS --expect "-mat_ordering_batchrcm_backend" -- ${T} -help -mat_ordering_batchrcm_view)
pgk_test(petsc.batchrcm.mpi LABELS petsc NP 2 ARGS ${SAME} -- ${T} -gen lap3d27:n=12 -mat_ordering_batchrcm_backend cpu -repeat 2)
pgk_test(petsc.batchrcm.mpi_serial LABELS petsc NP 2 ARGS ${SAME} -- ${T} -gen powerlaw:n=8000 -mat_ordering_batchrcm_backend serial)
# Bad input: PETSc errors, never a crash.
pgk_test(petsc.batchrcm.nonsquare LABELS petsc ARGS --fail --expect "Must be square matrix" -- ${T} -case nonsquare)
pgk_test(petsc.batchrcm.unassembled LABELS petsc ARGS --fail --expect "Not for unassembled matrix" -- ${T} -case unassembled)
# A pattern flagged structurally symmetric that is not (one triangle only): an error that names the
# flag, never an index set that is no permutation (before, the levels algorithm returned one).
pgk_test(petsc.batchrcm.false_symmetry_flag LABELS petsc ARGS --fail --expect "flagged structurally symmetric .* but its pattern is not"
         -- ${T} -case false_flag)
pgk_test(petsc.batchrcm.false_symmetry_flag_cpu LABELS petsc ARGS --fail --expect "flagged structurally symmetric .* but its pattern is not"
         -- ${T} -case false_flag -mat_ordering_batchrcm_backend cpu -mat_ordering_batchrcm_threads 3)
pgk_test(petsc.batchrcm.bad_start LABELS petsc ARGS --fail --expect "is not a row of the 1728-row" -- ${T} -mat_ordering_batchrcm_start 99999)
pgk_test(petsc.batchrcm.bad_threads LABELS petsc ARGS --fail --expect "-mat_ordering_batchrcm_threads must be >= 0 .0: default.. got -1" -- ${T} -mat_ordering_batchrcm_threads -1)
pgk_test(petsc.batchrcm.bad_start_word LABELS petsc ARGS --fail --expect "expected peripheral, georgeliu or a row index" -- ${T} -mat_ordering_batchrcm_start middle)
# backend gpu on a host matrix uploads its structure (gpu.batchrcm.host_matrix_uploaded); without
# a device it is a PETSc error that names the way out.
pgk_test(petsc.batchrcm.gpu_backend_on_host_matrix LABELS petsc ARGS --no-gpu --fail --expect "needs a usable CUDA device to upload the seqaij matrix" -- ${T} -mat_ordering_batchrcm_backend gpu)

# Unmodified PETSc tutorials: ILU in the batchrcm ordering, and PC reorder, against PETSc's rcm (within 10%).
set(CMP ${CMAKE_CURRENT_SOURCE_DIR}/support/compare_iterations.sh 10)
set(MPI2 ${PGK_MPIEXEC} -n 2) # inside each compared command (the comparison itself runs once)
set(EX45R $<TARGET_FILE:tutorial_ex45> -dll_append ${PGK_LIB} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type gmres -ksp_rtol 1e-8 -ksp_converged_reason)
set(EX56R $<TARGET_FILE:tutorial_ex56> -dll_append ${PGK_LIB} -ne 11 -ksp_type cg -ksp_rtol 1e-8 -ksp_converged_reason)
pgk_test(tutorial.ex45.ilu_batchrcm LABELS tutorial ARGS --expect "iterations within" -- ${CMP} ${EX45R} -pc_type ilu -pc_factor_mat_ordering_type batchrcm --- ${EX45R} -pc_type ilu -pc_factor_mat_ordering_type rcm)
pgk_test(tutorial.ex45.reorder_ilu LABELS tutorial ARGS --expect "iterations within" --expect "type: reorder" -- ${CMP} ${EX45R} -pc_type reorder -reorder_pc_type ilu -ksp_view --- ${EX45R} -pc_type ilu -pc_factor_mat_ordering_type rcm)
pgk_test(tutorial.ex56.icc_batchrcm LABELS tutorial ARGS --expect "iterations within" -- ${CMP} ${EX56R} -pc_type icc -pc_factor_mat_ordering_type batchrcm --- ${EX56R} -pc_type icc -pc_factor_mat_ordering_type rcm)
pgk_test(tutorial.ex56.reorder_icc LABELS tutorial ARGS --expect "iterations within" -- ${CMP} ${EX56R} -pc_type reorder -reorder_pc_type icc --- ${EX56R} -pc_type icc -pc_factor_mat_ordering_type rcm)
pgk_test(tutorial.ex45.bjacobi_batchrcm_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" -- ${CMP} ${MPI2} ${EX45R} -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_ordering_type batchrcm --- ${MPI2} ${EX45R} -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_ordering_type rcm)
pgk_test(tutorial.ex45.bjacobi_reorder_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" -- ${CMP} ${MPI2} ${EX45R} -pc_type bjacobi -sub_pc_type reorder -sub_reorder_pc_type ilu --- ${MPI2} ${EX45R} -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_ordering_type rcm)
pgk_test(tutorial.ex45.asm_batchrcm_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" -- ${CMP} ${MPI2} ${EX45R} -pc_type asm -sub_pc_type ilu -sub_pc_factor_mat_ordering_type batchrcm --- ${MPI2} ${EX45R} -pc_type asm -sub_pc_type ilu -sub_pc_factor_mat_ordering_type rcm)
# BAIJ: MatGetOrdering permutes block rows, which PETSc's BAIJ ILU reads (before: point rows, a zero
# pivot); PC reorder, which permutes A's entries one by one, refuses BAIJ/SBAIJ with a clear error.
set(EX2B $<TARGET_FILE:tutorial_ex2> -dll_append ${PGK_LIB} -m 40 -n 40 -mat_type baij -mat_block_size 2 -ksp_converged_reason)
pgk_test(tutorial.ex2.baij_ilu_batchrcm LABELS tutorial ARGS --expect "iterations within" -- ${CMP} ${EX2B} -pc_type ilu -pc_factor_mat_ordering_type batchrcm --- ${EX2B} -pc_type ilu -pc_factor_mat_ordering_type rcm)
pgk_test(tutorial.ex2.baij_bjacobi_batchrcm_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" -- ${CMP} ${MPI2} ${EX2B} -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_ordering_type batchrcm --- ${MPI2} ${EX2B} -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_ordering_type rcm)
pgk_test(tutorial.ex2.sbaij_reorder_refused LABELS tutorial ARGS --fail --expect "PC reorder needs a MATAIJ, MATAIJCUSPARSE or MATAIJCOMPOUND operator .or a type derived from them.. got seqsbaij"
         -- $<TARGET_FILE:tutorial_ex2> -dll_append ${PGK_LIB} -m 20 -n 20 -mat_type sbaij -pc_type reorder)
# No collective call inside MatGetOrdering: with 2 ranks on a 33^3 grid the diagonal blocks have
# 125169 and 117678 nonzeros, so thresholds between them send one rank to the cpu backend
# (whose default thread count is the node's share of cores) and the other to serial. The share
# is counted at package initialization; counting it inside the ordering (a collective that only
# one rank entered) hung this run. A short timeout makes a hang fail fast.
pgk_test(petsc.batchrcm.mpi_straddle_threshold NP 2 LABELS petsc ARGS --expect "Linear solve converged" --expect "backend cpu" --expect "backend serial"
         -- $<TARGET_FILE:tutorial_ex45> -dll_append ${PGK_LIB} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type gmres -ksp_rtol 1e-8 -ksp_converged_reason
            -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_ordering_type batchrcm -sub_mat_ordering_batchrcm_min_parallel_nnz 120000 -sub_mat_ordering_batchrcm_min_cpu_nnz 120000 -sub_mat_ordering_batchrcm_view)
set_tests_properties(petsc.batchrcm.mpi_straddle_threshold PROPERTIES TIMEOUT 60)
pgk_test(petsc.reorder.parallel_refused LABELS petsc NP 2 ARGS --fail --expect "use it per block: -pc_type bjacobi -sub_pc_type reorder" -- ${EX45R} -pc_type reorder)
pgk_test(petsc.reorder.help LABELS petsc ARGS --expect "-pc_reorder_mat_ordering_type" -- ${EX45R} -pc_type reorder -help)

# ---- gpu: the ordering where the matrix lives, the reorder PC on the device ------------------
set(DEV -mat_type aijcusparse -vec_type cuda -use_gpu_aware_mpi 0)
set(DEVXFER --expect "transfers ctog=0\\.? gtoc=[1-9][0-9]*\\.? as listed")
foreach(spec lap3d7:n=30 lap3d27:n=16 elast3d:n=10 disconnected:n=20000,parts=13 hubrow:n=200000 powerlaw:n=100000 convdiff3d:n=20 path:n=2 empty:n=1)
  string(REGEX REPLACE "[:=,]" "_" tag ${spec})
  # The matrix does not move: only the permutation and the listed scalars come back (the program
  # asserts the exact count per ordering, ExpectedDeviceTransfers in batchrcm.cpp).
  pgk_test(gpu.batchrcm.${tag} LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -gen ${spec} ${DEV} -mat_ordering_batchrcm_backend gpu -repeat 5)
endforeach()
# 1.2M rows through the gpu backend, on a device matrix and on an uploaded host one: the index set
# is created around its 4.8 MB array while the batch kernel runs, and the download fills it.
pgk_test(gpu.batchrcm.large_permutation LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -gen lap2d5:n=1100 ${DEV} -mat_ordering_batchrcm_backend gpu -repeat 2)
# 4.4M rows (2^22 and more): the set's array is zeroed on other threads while the device orders.
pgk_test(gpu.batchrcm.large_permutation_threads LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -gen lap2d5:n=2100 ${DEV} -mat_ordering_batchrcm_backend gpu -repeat 2)
pgk_test(gpu.batchrcm.large_permutation_uploaded LABELS "gpu;petsc" ARGS --gpu ${SAME} -- ${T} -gen lap2d5:n=1100 -mat_ordering_batchrcm_backend gpu ${PGK_GPU_OPTS})
# -is_view shows a set as PETSc creates it, so with it the set is made after the download (the
# permutation, not the placeholder of zeros the device path otherwise creates the set around).
pgk_test(gpu.batchrcm.is_view LABELS "gpu;petsc" ARGS --gpu ${SAME} --expect "^1 3$" --reject "^1 0$" -- ${T} -gen lap2d5:n=3 ${DEV} -mat_ordering_batchrcm_backend gpu -mat_ordering_batchrcm_min_parallel_nnz 0 -is_view)
pgk_test(gpu.batchrcm.given_start LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -gen disconnected:n=20000,parts=13 ${DEV} -mat_ordering_batchrcm_backend gpu -mat_ordering_batchrcm_start 17 -repeat 2)
pgk_test(gpu.batchrcm.auto_picks_gpu LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} --expect "backend gpu, gpu algorithm levels" -- ${T} -gen lap3d7:n=40 ${DEV} -mat_ordering_batchrcm_view)
# The gpu algorithms: paper (the speculative batch kernel) on request, and on its own for a row
# over 128 entries (levels' limit), which the view says; the exact transfers of each.
foreach(spec lap3d7:n=30 disconnected:n=20000,parts=13 convdiff3d:n=20)
  string(REGEX REPLACE "[:=,]" "_" tag ${spec})
  pgk_test(gpu.batchrcm.paper.${tag} LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -gen ${spec} ${DEV} -mat_ordering_batchrcm_backend gpu -mat_ordering_batchrcm_gpu_algorithm paper -repeat 3)
endforeach()
pgk_test(gpu.batchrcm.view_paper LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} --expect "backend gpu, gpu algorithm paper," -- ${T} -gen lap3d7:n=30 ${DEV} -mat_ordering_batchrcm_backend gpu -mat_ordering_batchrcm_gpu_algorithm paper -mat_ordering_batchrcm_view)
pgk_test(gpu.batchrcm.view_long_row LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} --expect "gpu algorithm paper \\(a row over 128 entries\\)" -- ${T} -gen hubrow:n=20000 ${DEV} -mat_ordering_batchrcm_backend gpu -mat_ordering_batchrcm_view)
# gpu on a host matrix: its structure goes up in two logged copies (the program expects them), the
# permutation and the listed scalars come back.
pgk_test(gpu.batchrcm.host_matrix_uploaded LABELS "gpu;petsc" ARGS --gpu ${SAME} --expect "transfers ctog=6\\.? gtoc=[1-9][0-9]*\\.? as listed" -- ${T} -gen lap3d7:n=30 -mat_ordering_batchrcm_backend gpu -repeat 3 ${PGK_GPU_OPTS})
pgk_test(gpu.batchrcm.host_matrix_uploaded_nonsymmetric LABELS "gpu;petsc" ARGS --gpu ${SAME} -- ${T} -f ${PGK_DATA}/general5_real.mtx -mat_ordering_batchrcm_backend gpu ${PGK_GPU_OPTS})
pgk_test(gpu.batchrcm.nonsymmetric LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -f ${PGK_DATA}/general5_real.mtx ${DEV} -mat_ordering_batchrcm_backend gpu)
pgk_test(gpu.batchrcm.mpi LABELS "gpu;petsc" NP 2 ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -gen lap3d27:n=16 ${DEV} -mat_ordering_batchrcm_backend gpu)
set(EX45G ${EX45R} -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0)
pgk_test(gpu.tutorial.ex45.ilu_batchrcm LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" -- ${CMP} ${EX45G} -pc_type ilu -pc_factor_mat_ordering_type batchrcm --- ${EX45R} -pc_type ilu -pc_factor_mat_ordering_type rcm)
pgk_test(gpu.tutorial.ex45.reorder_ilu LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "permuted on the device" -- ${CMP} ${EX45G} -pc_type reorder -reorder_pc_type ilu -ksp_view --- ${EX45R} -pc_type ilu -pc_factor_mat_ordering_type rcm)
pgk_test(gpu.tutorial.ex56.reorder_icc LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" -- ${CMP} ${EX56R} ${DEV} -pc_type reorder -reorder_pc_type icc --- ${EX56R} -pc_type icc -pc_factor_mat_ordering_type rcm)
pgk_test(gpu.tutorial.ex45.bjacobi_reorder_mpi LABELS "gpu;tutorial;mpi" ARGS --gpu --expect "iterations within" -- ${CMP} ${MPI2} ${EX45G} -pc_type bjacobi -sub_pc_type reorder -sub_reorder_pc_type ilu --- ${MPI2} ${EX45R} -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_ordering_type rcm)
# The reorder PC's device kernels (gather/scatter/value refill) and the device symmetrization
# under compute-sanitizer, vendor kernels excluded (see petsc_tests.cmake). The inner PC is
# Jacobi: cuSPARSE's ILU analysis kernel (csrilu02_analysis_leftLookingWholeRow) draws a
# racecheck error of its own, outside petscgpukit (seen on the H100, CUDA 13.0).
foreach(tool memcheck racecheck)
  pgk_test(gpu.sanitizer.${tool}.reorder LABELS "gpu;tutorial" ARGS --gpu ${PGK_NEEDS_SANITIZER} --expect "Linear solve converged" --expect "(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)"
           -- ${PGK_COMPUTE_SANITIZER} --tool ${tool} --kernel-name-exclude kns=cusparse --error-exitcode 1
              $<TARGET_FILE:tutorial_ex45> -dll_append ${PGK_LIB} -da_grid_x 9 -da_grid_y 9 -da_grid_z 9 -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0
              -pc_type reorder -reorder_pc_type jacobi -reorder_ksp_type richardson -reorder_ksp_max_it 3 -ksp_converged_reason)
  pgk_test(gpu.sanitizer.${tool}.batchrcm_nonsymmetric LABELS "gpu;petsc" ARGS --gpu ${PGK_NEEDS_SANITIZER} ${SAME} --expect "(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)"
           -- ${PGK_COMPUTE_SANITIZER} --tool ${tool} --kernel-name-exclude kns=cusparse --error-exitcode 1
              ${T} -f ${PGK_DATA}/general5_real.mtx ${DEV} -mat_ordering_batchrcm_backend gpu)
endforeach()
