# PC trilf (issue 4): the PETSc type against the host reference, on the host and the device.
set(T $<TARGET_FILE:test_trilf>)
set(SAME --expect "all checks passed" --expect "first setup: apply equals the reference" --expect "same pattern: apply equals the reference")
set(KEPT --expect "forests 1 of 2 setups") # the shift added no entry: the forest was reused
set(NOXFER --expect "transfers during set-up and 6 applies: ctog=0\\.? gtoc=0\\.?")
# Device set-ups: the program asserts the listed transfers itself (ExpectedSetupTransfers in
# trilf.cpp: the scalars each kernel reads back, nothing for applies with device vectors).
set(DEVXFER --expect "transfers during set-up and 6 applies: ctog=[0-9]+\\.? gtoc=[0-9]+\\.? as listed"
            --expect "transfers during the same-pattern set-up: ctog=[0-9]+\\.? gtoc=[0-9]+\\.? as listed")
set(TRILF_SPECS aniso2d:n=40,variant=1 aniso2d:n=40,variant=2 lap3d7:n=12 convdiff2d:n=40 convdiff3d:n=12 elast3d:n=5
                random:n=2000,deg=4 disconnected:n=3000,parts=7 hubrow:n=3000 powerlaw:n=5000,communities=8 path:n=2 empty:n=1 lap2d5:nx=1,ny=1)
foreach(bs 1 2)
  foreach(spec ${TRILF_SPECS})
    string(REGEX REPLACE "[:=,]" "_" tag ${spec})
    pgk_test(petsc.trilf.bs${bs}.${tag} LABELS petsc ARGS ${SAME} ${KEPT} ${NOXFER} --expect "on the host" -- ${T} -gen ${spec} -pc_trilf_block_size ${bs})
  endforeach()
  pgk_test(petsc.trilf.bs${bs}.mpi LABELS petsc NP 2 ARGS ${SAME} ${NOXFER} -- ${T} -gen convdiff3d:n=14 -pc_trilf_block_size ${bs})
  pgk_test(petsc.trilf.bs${bs}.mpi_aniso LABELS petsc NP 2 ARGS ${SAME} -- ${T} -gen aniso2d:n=60,variant=3 -pc_trilf_block_size ${bs})
endforeach()
# Zero diagonals (documented fallback: split or replaced pivot, never NaN; in 2x2 blocks a zero
# diagonal paired with a neighbour is no tiny pivot) and empty rows (a one-row path whose pivot is
# replaced; MatShift then stores their diagonal, a new pattern, so the forest is rebuilt).
pgk_test(petsc.trilf.bs1.zero_diag LABELS petsc ARGS ${SAME} ${KEPT} --expect "first setup on the host: .*replaced [1-9]" -- ${T} -case zero_diag)
pgk_test(petsc.trilf.bs2.zero_diag LABELS petsc ARGS ${SAME} ${KEPT} -- ${T} -case zero_diag -pc_trilf_block_size 2)
pgk_test(petsc.trilf.bs1.empty_rows LABELS petsc ARGS ${SAME} --expect "first setup on the host: .*replaced [1-9]" --expect "forests 2 of 2 setups" -- ${T} -case empty_rows)
pgk_test(petsc.trilf.bs2.empty_rows LABELS petsc ARGS ${SAME} --expect "forests 2 of 2 setups" -- ${T} -case empty_rows -pc_trilf_block_size 2)
# Options reach the PC and give the reference's result.
pgk_test(petsc.trilf.scaled LABELS petsc ARGS ${SAME} -- ${T} -gen convdiff2d:n=50 -pc_trilf_weight scaled)
pgk_test(petsc.trilf.uncharged LABELS petsc ARGS ${SAME} -- ${T} -gen aniso2d:n=50,variant=2 -pc_trilf_charge_period 1 -pc_trilf_iterations 40)
pgk_test(petsc.trilf.charged_offset LABELS petsc ARGS ${SAME} -- ${T} -gen random:n=3000,deg=5 -pc_trilf_charge_offset 1 -pc_trilf_charge_prob 0.3 -pc_trilf_seed 7 -pc_trilf_iterations 11)
pgk_test(petsc.trilf.pivot_tol LABELS petsc ARGS ${SAME} -- ${T} -case zero_diag -pc_trilf_pivot_tol 0)
# Solves: fewer iterations than jacobi where couplings are strong along lines.
pgk_test(petsc.trilf.solve_aniso LABELS petsc ARGS ${SAME} --expect "gmres iterations: trilf" -- ${T} -gen aniso2d:n=100,variant=2 -solve gmres -expect_fewer -ksp_rtol 1e-8)
pgk_test(petsc.trilf.solve_convdiff LABELS petsc ARGS ${SAME} --expect "bcgs iterations: trilf" -- ${T} -gen convdiff2d:n=100 -solve bcgs -expect_fewer -ksp_rtol 1e-8)
pgk_test(petsc.trilf.solve_block LABELS petsc ARGS ${SAME} -- ${T} -gen elast3d:n=8 -pc_trilf_block_size 2 -solve gmres -expect_fewer -ksp_rtol 1e-8)
# Block variant against the scalar one in the same run (issue 15): no more GMRES(30) iterations on
# the 2D anisotropic problems of the issue (strong along y 1e-3, along x 1e-2) and on convection
# (cell Peclet 1). With the paper's pairing (-pc_trilf_block_pairing matching) the first two need
# 10x and 3x the scalar count (tests/unit/trilf/krylov.cpp).
set(BVS -pc_trilf_block_size 2 -solve gmres -compare_scalar -ksp_rtol 1e-6 -ksp_max_it 5000)
pgk_test(petsc.trilf.block_vs_scalar.aniso_y LABELS petsc ARGS ${SAME} --expect "gmres iterations: trilf block" -- ${T} -gen aniso3d:nx=128,ny=128,nz=1,ax=1e-3,ay=1,az=1e-30 ${BVS})
pgk_test(petsc.trilf.block_vs_scalar.aniso_x LABELS petsc ARGS ${SAME} --expect "gmres iterations: trilf block" -- ${T} -gen aniso3d:nx=128,ny=128,nz=1,ax=1,ay=1e-2,az=1e-30 ${BVS})
pgk_test(petsc.trilf.block_vs_scalar.convdiff LABELS petsc ARGS ${SAME} --expect "gmres iterations: trilf block" -- ${T} -gen convdiff2d:n=128,peclet=129 ${BVS})
pgk_test(petsc.trilf.bs2.matching LABELS petsc ARGS ${SAME} ${KEPT} -- ${T} -gen aniso2d:n=40,variant=1 -pc_trilf_block_size 2 -pc_trilf_block_pairing matching)
pgk_test(petsc.trilf.view LABELS petsc ARGS ${SAME} --expect "weight coverage: c_id 0\\.[0-9]+ .*c_pi 0\\.[0-9]+" --expect "linear forest: [0-9]+ paths, longest"
         --expect "last setup \\(ms\\): weights" -- ${T} -gen aniso2d:n=50,variant=2 -solve gmres -ksp_view)
pgk_test(petsc.trilf.view_mpi LABELS petsc NP 2 ARGS ${SAME} --expect "one trilf per rank on its diagonal block \\(2 ranks" -- ${T} -gen aniso2d:n=50,variant=2 -solve gmres -ksp_view)
pgk_test(petsc.trilf.help LABELS petsc ARGS --expect "-pc_trilf_block_size" --expect "-pc_trilf_block_pairing" --expect "-pc_trilf_reuse_forest" -- ${T} -help)
pgk_test(petsc.trilf.log_view LABELS petsc ARGS ${SAME} --expect "PgkTrilfForest +1 " --expect "PgkTrilfNumeric +1 " --expect "PgkTrilfApply" -- ${T} -log_view)
# Bad input: clear PETSc errors.
pgk_test(petsc.trilf.nonsquare LABELS petsc ARGS --fail --expect "requires a square matrix" -- ${T} -case nonsquare)
pgk_test(petsc.trilf.unassembled LABELS petsc ARGS --fail --expect "requires an assembled matrix" -- ${T} -case unassembled)
pgk_test(petsc.trilf.nan LABELS petsc ARGS --fail --expect "NaN or Inf" -- ${T} -case nan)
pgk_test(petsc.trilf.nan_mpi LABELS petsc NP 2 ARGS --fail --expect "NaN or Inf" -- ${T} -case nan)
# A NaN in a values-only update: the re-set-up's own check names it (the forest is kept).
pgk_test(petsc.trilf.nan_update LABELS petsc ARGS --fail --expect "non-finite value nan at \\(0, 1\\)" -- ${T} -case nan_update)
pgk_test(petsc.trilf.bad_block_size LABELS petsc ARGS --fail --expect "block size must be 1 or 2, got 3" -- ${T} -pc_trilf_block_size 3)
pgk_test(petsc.trilf.gtsv2_needs_device LABELS petsc ARGS --fail --expect "-pc_trilf_solver gtsv2 needs the scalar variant on a device" -- ${T} -pc_trilf_solver gtsv2)
pgk_test(petsc.trilf.bad_period LABELS petsc ARGS --fail --expect "charge_period >= 1" -- ${T} -pc_trilf_charge_period 0)

# Unmodified PETSc tutorials through -dll_append: trilf converges, its count next to jacobi's
# (compare_iterations.sh prints both; 0: trilf may not need more iterations than jacobi).
set(CMP0 ${CMAKE_CURRENT_SOURCE_DIR}/support/compare_iterations.sh 0)
# SNES ex19, judged on each of its Newton steps' linear solves: trilf may need no more iterations
# than jacobi in any step, nor in total. On the host the solves use GMRES(300), classical Gram-Schmidt
# twice (refine_always; one pass gives the same counts on the host). At PETSc's default restart, 30, a
# step's count was set by rounding more than by the preconditioner (sixty-sixth session, CPU, one
# library, three orthogonalizations that differ only in rounding: CGS, MGS, CGS with refinement):
# jacobi's step 6 took 5702, 3097 and 3691 iterations, and on 2 ranks its step 5 did not converge
# under CGS; on two H100 nodes trilf's step 5 took 3657 and 2423 (2 ranks). So the +30% per-step
# bound held on one node and failed on another. At restart 300 the three move no count by more than
# 1%, and trilf takes 0.41-0.69x jacobi's iterations in every step on 1 and 2 ranks
# (bench/results/ex19_restart_study_cpu.txt). The device tests below differ (why: there).
set(CMP19 ${CMAKE_CURRENT_SOURCE_DIR}/support/compare_iterations.sh --total 0 0)
set(EX45T $<TARGET_FILE:tutorial_ex45> -dll_append ${PGK_LIB} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type gmres -ksp_rtol 1e-8 -ksp_converged_reason)
set(EX19 $<TARGET_FILE:tutorial_snes_ex19> -dll_append ${PGK_LIB} -ksp_type gmres -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason -lidvelocity 100 -grashof 1e4)
set(EX19T ${EX19} -da_refine 4 -ksp_gmres_restart 300 -ksp_gmres_cgs_refinement_type refine_always)
set(MPI2 ${PGK_MPIEXEC} -n 2)
# Types derived from AIJ (-mat_type aijperm, aijsell, aijmkl, ...) store its arrays: taken as AIJ,
# with the same iterations (before: "needs MATAIJ").
set(EX2T $<TARGET_FILE:tutorial_ex2> -dll_append ${PGK_LIB} -m 40 -n 40 -ksp_converged_reason -pc_type trilf)
pgk_test(tutorial.ex2.trilf_aijperm LABELS tutorial ARGS --expect "iterations within" -- ${CMP0} ${EX2T} -mat_type aijperm --- ${EX2T})
pgk_test(tutorial.ex2.trilf_aijsell_block_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" -- ${CMP0} ${MPI2} ${EX2T} -mat_type aijsell -pc_trilf_block_size 2 --- ${MPI2} ${EX2T} -pc_trilf_block_size 2)
pgk_test(tutorial.ex45.trilf LABELS tutorial ARGS --expect "iterations within" --expect "type: trilf" -- ${CMP0} ${EX45T} -pc_type trilf -ksp_view --- ${EX45T} -pc_type jacobi)
pgk_test(tutorial.snes_ex19.trilf LABELS tutorial ARGS --expect "iterations within" --expect "type: trilf" --expect "Nonlinear solve converged" -- ${CMP19} ${EX19T} -pc_type trilf -ksp_view --- ${EX19T} -pc_type jacobi)
pgk_test(tutorial.ex45.trilf_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" -- ${CMP0} ${MPI2} ${EX45T} -pc_type trilf --- ${MPI2} ${EX45T} -pc_type jacobi)
pgk_test(tutorial.snes_ex19.trilf_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "Nonlinear solve converged" -- ${CMP19} ${MPI2} ${EX19T} -pc_type trilf --- ${MPI2} ${EX19T} -pc_type jacobi)

pgk_test(valgrind.trilf LABELS "valgrind;petsc" ARGS ${VGOK} ${SAME}
         -- ${VG} ${T} -gen convdiff2d:n=20 -solve gmres -malloc_debug -malloc_dump)
pgk_test(valgrind.trilf_block LABELS "valgrind;petsc" ARGS ${VGOK} ${SAME}
         -- ${VG} ${T} -gen elast3d:n=3 -pc_trilf_block_size 2 -malloc_debug -malloc_dump)

# ---- gpu: set-up and apply on the device, only the listed scalars moved ----------------------------
set(DEV -mat_type aijcusparse -vec_type cuda -use_gpu_aware_mpi 0)
# The same for a DM-built operator and vectors (PETSc tutorials).
set(DMDEV -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0)
foreach(bs 1 2)
  foreach(spec aniso2d:n=300,variant=2 lap3d7:n=40 convdiff3d:n=30 elast3d:n=12 powerlaw:n=50000 hubrow:n=100000 disconnected:n=20000,parts=13 path:n=2 empty:n=1)
    string(REGEX REPLACE "[:=,]" "_" tag ${spec})
    pgk_test(gpu.trilf.bs${bs}.${tag} LABELS "gpu;petsc" ARGS --gpu ${SAME} ${KEPT} ${DEVXFER} --expect "on the device" -- ${T} -gen ${spec} ${DEV} -pc_trilf_block_size ${bs})
  endforeach()
  pgk_test(gpu.trilf.bs${bs}.zero_diag LABELS "gpu;petsc" ARGS --gpu ${SAME} ${KEPT} --expect "on the device" -- ${T} -case zero_diag ${DEV} -pc_trilf_block_size ${bs})
  pgk_test(gpu.trilf.bs${bs}.empty_rows LABELS "gpu;petsc" ARGS --gpu ${SAME} --expect "on the device" -- ${T} -case empty_rows ${DEV} -pc_trilf_block_size ${bs})
  pgk_test(gpu.trilf.bs${bs}.mpi LABELS "gpu;petsc;mpi" NP 2 ARGS --gpu ${SAME} ${DEVXFER} --expect "on the device" -- ${T} -gen convdiff3d:n=24 ${DEV} -pc_trilf_block_size ${bs})
endforeach()
pgk_test(gpu.trilf.bs2.matching LABELS "gpu;petsc" ARGS --gpu ${SAME} ${KEPT} ${DEVXFER} --expect "on the device" -- ${T} -gen aniso2d:n=300,variant=1 ${DEV} -pc_trilf_block_size 2 -pc_trilf_block_pairing matching)
pgk_test(gpu.trilf.block_vs_scalar.aniso_y LABELS "gpu;petsc" ARGS --gpu ${SAME} --expect "gmres iterations: trilf block" -- ${T} -gen aniso3d:nx=128,ny=128,nz=1,ax=1e-3,ay=1,az=1e-30 ${DEV} ${BVS})
# A device operator with host vectors: set-up on the device, each apply stages r up and z down
# through the logged copies (1 CpuToGpu + 1 GpuToCpu an apply, asserted), same result.
foreach(bs 1 2)
  pgk_test(gpu.trilf.bs${bs}.host_vectors LABELS "gpu;petsc" ARGS --gpu ${SAME} ${KEPT} ${DEVXFER} --expect "on the device"
           -- ${T} -gen convdiff3d:n=24 -mat_type aijcusparse -vec_type standard ${PGK_GPU_OPTS} -pc_trilf_block_size ${bs})
  pgk_test(gpu.trilf.bs${bs}.host_vectors_mpi LABELS "gpu;petsc;mpi" NP 2 ARGS --gpu ${SAME} ${DEVXFER} --expect "on the device"
           -- ${T} -gen convdiff3d:n=24 -mat_type aijcusparse -vec_type standard -use_gpu_aware_mpi 0 -pc_trilf_block_size ${bs})
endforeach()
pgk_test(gpu.trilf.solve_aniso LABELS "gpu;petsc" ARGS --gpu ${SAME} --expect "gmres iterations: trilf" -- ${T} -gen aniso2d:n=300,variant=2 ${DEV} -solve gmres -expect_fewer -ksp_rtol 1e-8)
pgk_test(gpu.trilf.solve_convdiff LABELS "gpu;petsc" ARGS --gpu ${SAME} --expect "bcgs iterations: trilf" -- ${T} -gen convdiff3d:n=40 ${DEV} -solve bcgs -expect_fewer -ksp_rtol 1e-8)
# cuSPARSE's gtsv2 as the tridiagonal solver: the same preconditioner to rounding.
foreach(solver gtsv2)
  pgk_test(gpu.trilf.${solver} LABELS "gpu;petsc" ARGS --gpu ${SAME} ${KEPT} ${DEVXFER} --expect "on the device" -- ${T} -gen convdiff3d:n=30 ${DEV} -pc_trilf_solver ${solver})
  pgk_test(gpu.trilf.${solver}_zero_diag LABELS "gpu;petsc" ARGS --gpu ${SAME} --expect "replaced [1-9]" -- ${T} -case zero_diag ${DEV} -pc_trilf_solver ${solver})
endforeach()
pgk_test(gpu.trilf.gtsv2_block_refused LABELS "gpu;petsc" ARGS --gpu --fail --expect "needs the scalar variant" -- ${T} ${DEV} -pc_trilf_solver gtsv2 -pc_trilf_block_size 2)
# On the device the set-up's weight pass checks A and names the first non-finite entry.
pgk_test(gpu.trilf.nan LABELS "gpu;petsc" ARGS --gpu --fail --expect "trilf weights: non-finite value nan at \\(0, 1\\)" -- ${T} -case nan ${DEV})
pgk_test(gpu.trilf.nan_update LABELS "gpu;petsc" ARGS --gpu --fail --expect "non-finite value nan at \\(0, 1\\)" -- ${T} -case nan_update ${DEV})
pgk_test(gpu.trilf.nan_update_mpi LABELS "gpu;petsc" NP 2 ARGS --gpu --fail --expect "non-finite value nan at \\(0, 1\\)" -- ${T} -case nan_update ${DEV})
pgk_test(gpu.trilf.view LABELS "gpu;petsc" ARGS --gpu ${SAME} --expect "built on the device" -- ${T} -gen aniso2d:n=100,variant=2 ${DEV} -solve gmres -ksp_view)
set(EX45G ${EX45T} ${DMDEV})
# On the device ex19 + trilf runs a grid smaller by one refinement (-da_refine 3) with GMRES(300) and
# modified Gram-Schmidt, under the host tests' bound. Why not the host's command lines: PETSc 3.26.1's
# CUDA VecMDot, which classical Gram-Schmidt calls with up to restart vectors, returns wrong sums for
# some vector counts (sixty-seventh session, H100, bench_vecmdot_check in bench/diag/vecmdot_check.c,
# bench/results/vecmdot_check_h100.txt): at n = 9604 every call with 384 or 400 vectors and 6 of 2000
# with 127; at n = 1e6 every call with 100. So on CUDA vectors GMRES(300) with classical Gram-Schmidt
# broke down at restarts for jacobi as for trilf and two runs of one command differed, at restart 256
# and 128 as at 300 (2 ranks), and at restart 30 a step's count is set by rounding (above; the 2-rank
# test's verdict at +30% a step depended on the node). Modified Gram-Schmidt calls VecDot instead and
# gives the host's counts exactly; at -da_refine 3 no step needs 300 iterations, so GMRES never
# restarts, the counts are the same under CGS with refinement, MGS and (trilf) one CGS pass on the
# host (bench/results/ex19_restart_study_cpu.txt), and trilf takes 181-209 iterations a step against
# jacobi's 246-285 on 1 and 2 ranks.
set(EX19G ${EX19} -da_refine 3 -ksp_gmres_restart 300 -ksp_gmres_modifiedgramschmidt ${DMDEV})
pgk_test(gpu.tutorial.ex45.trilf LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "built on the device" -- ${CMP0} ${EX45G} -pc_type trilf -ksp_view --- ${EX45G} -pc_type jacobi)
pgk_test(gpu.tutorial.snes_ex19.trilf LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "built on the device" --expect "Nonlinear solve converged" -- ${CMP19} ${EX19G} -pc_type trilf -ksp_view --- ${EX19G} -pc_type jacobi)
pgk_test(gpu.tutorial.ex45.trilf_mpi LABELS "gpu;tutorial;mpi" ARGS --gpu --expect "iterations within" -- ${CMP0} ${MPI2} ${EX45G} -pc_type trilf --- ${MPI2} ${EX45G} -pc_type jacobi)
pgk_test(gpu.tutorial.snes_ex19.trilf_mpi LABELS "gpu;tutorial;mpi" ARGS --gpu --expect "iterations within" --expect "Nonlinear solve converged" -- ${CMP19} ${MPI2} ${EX19G} -pc_type trilf --- ${MPI2} ${EX19G} -pc_type jacobi)
foreach(tool memcheck racecheck)
  foreach(bs 1 2)
    pgk_test(gpu.sanitizer.${tool}.trilf_bs${bs} LABELS gpu ARGS --gpu ${PGK_NEEDS_SANITIZER} ${SAME} --expect "SUMMARY: 0 (errors|hazards)"
             -- ${PGK_COMPUTE_SANITIZER} --tool ${tool} --error-exitcode 1 --kernel-name-exclude kns=cusparse ${T} -gen convdiff2d:n=60 ${DEV} -pc_trilf_block_size ${bs})
  endforeach()
endforeach()

# trilf as the smoother of PETSc's multigrid (issue 15 item 2), unmodified tutorials: the counts next to
# the default smoother's (Chebyshev + Jacobi). Measured (CPU, 1 rank, ex45 33^3, GMRES rtol 1e-8):
# PCMG 3 levels 10 vs 7 (trilf +43%: the Laplacian is isotropic, a line smoother buys nothing there),
# GAMG 9 vs 9; snes ex19 (-da_refine 2) with GAMG: trilf fewer in every Newton step (24 26 vs 29 79 ...).
set(EX45MG $<TARGET_FILE:tutorial_ex45> -dll_append ${PGK_LIB} -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type gmres -ksp_rtol 1e-8 -ksp_converged_reason)
set(EX19MG $<TARGET_FILE:tutorial_snes_ex19> -dll_append ${PGK_LIB} -da_refine 2 -snes_converged_reason -ksp_converged_reason -pc_type gamg)
set(CMP50 ${CMAKE_CURRENT_SOURCE_DIR}/support/compare_iterations.sh 50)
set(CMPMG19 ${CMAKE_CURRENT_SOURCE_DIR}/support/compare_iterations.sh --total 10 30)
pgk_test(tutorial.ex45.trilf_pcmg_smoother LABELS tutorial ARGS --expect "iterations within" -- ${CMP50} ${EX45MG} -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type trilf --- ${EX45MG} -pc_type mg -pc_mg_levels 3)
pgk_test(tutorial.ex45.trilf_pcmg_smoother_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" -- ${CMP50} ${MPI2} ${EX45MG} -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type trilf --- ${MPI2} ${EX45MG} -pc_type mg -pc_mg_levels 3)
pgk_test(gpu.tutorial.ex45.trilf_pcmg_smoother LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" -- ${CMP50} ${EX45MG} -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type trilf ${DMDEV}
         --- ${EX45MG} -pc_type mg -pc_mg_levels 3 ${DMDEV})
pgk_test(tutorial.ex45.trilf_gamg_smoother LABELS tutorial ARGS --expect "iterations within" -- ${CMP0} ${EX45MG} -pc_type gamg -mg_levels_pc_type trilf --- ${EX45MG} -pc_type gamg)
pgk_test(tutorial.snes_ex19.trilf_gamg_smoother LABELS tutorial ARGS --expect "iterations within" --expect "Nonlinear solve converged" -- ${CMPMG19} ${EX19MG} -mg_levels_pc_type trilf --- ${EX19MG})
pgk_test(tutorial.ex45.trilf_gamg_smoother_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" -- ${CMP0} ${MPI2} ${EX45MG} -pc_type gamg -mg_levels_pc_type trilf --- ${MPI2} ${EX45MG} -pc_type gamg)
pgk_test(tutorial.snes_ex19.trilf_gamg_smoother_mpi LABELS "tutorial;mpi" ARGS --expect "iterations within" --expect "Nonlinear solve converged" -- ${CMPMG19} ${MPI2} ${EX19MG} -mg_levels_pc_type trilf --- ${MPI2} ${EX19MG})
# Forest reuse across GAMG re-set-ups (Newton steps): with -pc_gamg_reuse_interpolation the level
# operators keep their pattern, so each level's forest is built once (3 levels, 2 smoothed; 3 Newton
# steps: 2 forests, then 4 values-only set-ups; 2 ranks: 2 Newton steps, 2 + 2, on every rank).
# Without it PCGAMG resets its levels, smoothers included.
set(REUSE19 --expect "PgkTrilfForest +2 1.0" --expect "PgkTrilfNumeric +4 1.0" --expect "Nonlinear solve converged due to CONVERGED_FNORM_RELATIVE iterations 3")
set(REUSE19MPI --expect "PgkTrilfForest +2 1.0" --expect "PgkTrilfNumeric +2 1.0" --expect "Nonlinear solve converged due to CONVERGED_FNORM_RELATIVE iterations 2")
pgk_test(tutorial.snes_ex19.trilf_gamg_forest_reuse LABELS tutorial ARGS ${REUSE19} -- ${EX19MG} -mg_levels_pc_type trilf -pc_gamg_reuse_interpolation true -log_view)
pgk_test(tutorial.snes_ex19.trilf_gamg_forest_reuse_mpi LABELS "tutorial;mpi" ARGS ${REUSE19MPI} -- ${MPI2} ${EX19MG} -mg_levels_pc_type trilf -pc_gamg_reuse_interpolation true -log_view)
pgk_test(gpu.tutorial.snes_ex19.trilf_gamg_forest_reuse LABELS "gpu;tutorial" ARGS --gpu ${REUSE19} -- ${EX19MG} -mg_levels_pc_type trilf -pc_gamg_reuse_interpolation true -log_view ${DMDEV})
# The same on the device (aijcusparse on every level: GAMG's coarse operators keep the type).
pgk_test(gpu.tutorial.ex45.trilf_gamg_smoother LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" -- ${CMP0} ${EX45MG} -pc_type gamg -mg_levels_pc_type trilf ${DMDEV} --- ${EX45MG} -pc_type gamg ${DMDEV})
pgk_test(gpu.tutorial.snes_ex19.trilf_gamg_smoother LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "Nonlinear solve converged" -- ${CMPMG19} ${EX19MG} -mg_levels_pc_type trilf ${DMDEV} --- ${EX19MG} ${DMDEV})

# The recommended smoother recipe (README "As a multigrid smoother"): GAMG with trilf under damped
# Richardson, 2 sweeps. On convection it converges where GAMG's default smoother does not; on
# anisotropy it needs no more iterations than the default (measured at 128^2, CPU: 9 vs none within
# 200, CG 6 vs 57 strong along y, 11 vs 27 strong along x). Plain PETSc client, options only.
set(SG $<TARGET_FILE:test_solve_generated> -dll_append ${PGK_LIB} -ksp_rtol 1e-6 -ksp_max_it 200 -ksp_converged_reason)
set(RECIPE -pc_type gamg -mg_levels_pc_type trilf -mg_levels_ksp_type richardson -mg_levels_ksp_richardson_scale 0.8 -mg_levels_ksp_max_it 2)
set(RECIPE_CASES "convection@convdiff2d:n=128,peclet=500@gmres" "aniso_y@aniso2d5:n=128@cg" "aniso_x@aniso2d5:n=128,ax=1,ay=0.01@cg")
foreach(case ${RECIPE_CASES})
  string(REPLACE "@" ";" case ${case})
  list(GET case 0 name)
  list(GET case 1 gen)
  list(GET case 2 ksp)
  set(EXP --expect "iterations within")
  if(name STREQUAL "convection")
    list(APPEND EXP --expect "ok \\(the baseline did not converge\\)")
  endif()
  pgk_test(petsc.trilf.gamg_recipe.${name} LABELS petsc ARGS ${EXP} -- ${CMP0} ${SG} -gen ${gen} -ksp_type ${ksp} ${RECIPE} --- ${SG} -gen ${gen} -ksp_type ${ksp} -pc_type gamg)
  pgk_test(petsc.trilf.gamg_recipe.${name}_mpi LABELS "petsc;mpi" ARGS ${EXP} -- ${CMP0} ${MPI2} ${SG} -gen ${gen} -ksp_type ${ksp} ${RECIPE} --- ${MPI2} ${SG} -gen ${gen} -ksp_type ${ksp} -pc_type gamg)
  pgk_test(gpu.trilf.gamg_recipe.${name} LABELS gpu ARGS --gpu ${EXP} -- ${CMP0} ${SG} -gen ${gen} -ksp_type ${ksp} ${RECIPE} -mat_type aijcusparse -vec_type cuda -use_gpu_aware_mpi 0
           --- ${SG} -gen ${gen} -ksp_type ${ksp} -pc_type gamg -mat_type aijcusparse -vec_type cuda -use_gpu_aware_mpi 0)
endforeach()
