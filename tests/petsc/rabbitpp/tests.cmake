# MatOrdering rabbitpp and rabbit (issue 9): the PETSc type against the host reference.
set(T $<TARGET_FILE:test_rabbitpp>)
set(SAME --expect "all checks passed" --expect "identical to the reference")
foreach(backend serial cpu auto)
  foreach(spec communities:n=3000 communities:n=2000,inter=8 powerlaw:n=5000,communities=20 lap3d7:n=12 rgg2d:n=4000
               disconnected:n=3000,parts=7 hubrow:n=3000 random:n=2000,deg=3 path:n=2 empty:n=5 lap2d5:nx=1,ny=1)
    string(REGEX REPLACE "[:=,]" "_" tag ${spec})
    pgk_test(petsc.rabbitpp.${backend}.${tag} LABELS petsc ARGS ${SAME} -- ${T} -gen ${spec} -mat_ordering_rabbitpp_backend ${backend} -mat_ordering_rabbitpp_threads 3 -repeat 2)
  endforeach()
endforeach()
# The skew gate (-mat_ordering_rabbitpp_min_skew, default 0.25): min_skew 0 regroups the graphs of
# near-uniform degree too (the paper's RABBIT++), against the reference with the same option.
foreach(backend serial cpu)
  foreach(spec communities:n=3000 rgg2d:n=4000 disconnected:n=3000,parts=7 lap3d7:n=12 random:n=2000,deg=3)
    string(REGEX REPLACE "[:=,]" "_" tag ${spec})
    pgk_test(petsc.rabbitpp.always.${backend}.${tag} LABELS petsc ARGS ${SAME} --expect "regrouped \\(min_skew 0: always\\)"
             -- ${T} -gen ${spec} -mat_ordering_rabbitpp_backend ${backend} -mat_ordering_rabbitpp_threads 3 -mat_ordering_rabbitpp_min_skew 0 -mat_ordering_rabbitpp_view)
  endforeach()
endforeach()
# The gate's two verdicts in the view, and rabbitpp below the gate equal to rabbit's permutation.
pgk_test(petsc.rabbitpp.gate_keeps_rabbit LABELS petsc ARGS ${SAME} --expect "not regrouped, the Rabbit order kept: skew 0\\.145 below min_skew 0\\.250"
         --expect "equal to rabbit's permutation" -- ${T} -gen communities:n=3000 -mat_ordering_rabbitpp_view -compare_rabbit)
pgk_test(petsc.rabbitpp.gate_regroups LABELS petsc ARGS ${SAME} --expect "regrouped: skew 0\\.331, at least min_skew 0\\.250"
         --expect "differs from rabbit's permutation" -- ${T} -gen powerlaw:n=5000,communities=20 -mat_ordering_rabbitpp_view -compare_rabbit)
pgk_test(petsc.rabbitpp.gate_threshold LABELS petsc ARGS ${SAME} --expect "regrouped: skew 0\\.145, at least min_skew 0\\.140"
         --expect "differs from rabbit's permutation" -- ${T} -gen communities:n=3000 -mat_ordering_rabbitpp_min_skew 0.14 -mat_ordering_rabbitpp_view -compare_rabbit)
pgk_test(petsc.rabbitpp.min_skew_refused LABELS petsc ARGS --fail --expect "min_skew must be in \\[0, 1\\]. got 1\\.5"
         -- ${T} -gen communities:n=2000 -mat_ordering_rabbitpp_min_skew 1.5)
pgk_test(petsc.rabbit.cpu LABELS petsc ARGS ${SAME} -- ${T} -type rabbit -gen powerlaw:n=5000,communities=20 -mat_ordering_rabbitpp_backend cpu)
# K = 1 is the classic Rabbit Order: equal to the serial reference (src/rabbitpp/serial.cpp).
pgk_test(petsc.rabbitpp.batch1 LABELS petsc ARGS ${SAME} --expect "K = 1 equals the serial reference" -- ${T} -gen communities:n=2000 -mat_ordering_rabbitpp_batch 1 -mat_ordering_rabbitpp_backend cpu)
pgk_test(petsc.rabbitpp.batch7 LABELS petsc ARGS ${SAME} -- ${T} -gen rgg2d:n=3000 -mat_ordering_rabbitpp_batch 7 -mat_ordering_rabbitpp_backend cpu)
pgk_test(petsc.rabbitpp.layouts LABELS petsc ARGS ${SAME} -- ${T} -gen powerlaw:n=5000,communities=20 -mat_ordering_rabbitpp_insular_first -mat_ordering_rabbitpp_hub_scope all)
pgk_test(petsc.rabbitpp.hub_factor LABELS petsc ARGS ${SAME} --expect "in-degree above 2 x the average"
         -- ${T} -gen powerlaw:n=5000,communities=20 -mat_ordering_rabbitpp_hub_factor 2 -mat_ordering_rabbitpp_view)
pgk_test(petsc.rabbitpp.hub_factor_refused LABELS petsc ARGS --fail --expect "hub_factor must be in \\[1, 2\\^20\\]. got 0"
         -- ${T} -gen communities:n=2000 -mat_ordering_rabbitpp_hub_factor 0)
pgk_test(petsc.rabbitpp.nonsymmetric LABELS petsc ARGS ${SAME} -- ${T} -f ${PGK_DATA}/general5_real.mtx -mat_ordering_rabbitpp_backend cpu)
# An unsymmetric pattern flagged structurally symmetric: trusted, a valid permutation, the same as the flagged
# reference on one thread (this matrix hung the cpu backend before a62575e; a hang fails in 60 s).
pgk_test(petsc.rabbitpp.false_symmetry_flag LABELS petsc ARGS ${SAME}
         -- ${T} -case false_flag -mat_ordering_rabbitpp_backend cpu -mat_ordering_rabbitpp_threads 3 -mat_ordering_rabbitpp_batch 16 -repeat 2)
set_tests_properties(petsc.rabbitpp.false_symmetry_flag PROPERTIES TIMEOUT 60)
pgk_test(petsc.rabbitpp.view LABELS petsc ARGS ${SAME} --expect "communities [0-9]+ \\(largest" --expect "modularity 0\\.[0-9]+" --expect "time: graph"
         -- ${T} -mat_ordering_rabbitpp_view)
pgk_test(petsc.rabbitpp.help LABELS petsc ARGS --expect "-mat_ordering_rabbitpp_backend" --expect "-mat_ordering_rabbitpp_hub_scope" --expect "-mat_ordering_rabbitpp_huge_pages" --expect "-mat_ordering_rabbitpp_min_skew: <now 0\\.25" -- ${T} -help)
pgk_test(petsc.rabbitpp.view_cpu LABELS petsc ARGS ${SAME} --expect "backend cpu \\(2 threads\\)" --expect "list arena \\(2 nnz\\(G\\) \\+ 1024 entries, huge pages advised\\): 0 compactions"
         -- ${T} -gen communities:n=3000 -mat_ordering_rabbitpp_backend cpu -mat_ordering_rabbitpp_threads 2 -mat_ordering_rabbitpp_view)
# Huge pages off: 4 KiB pages, the same permutation (SAME: identical to the reference), on a list arena over 2 MiB.
pgk_test(petsc.rabbitpp.huge_pages_off LABELS petsc ARGS ${SAME} --expect "list arena \\(2 nnz\\(G\\) \\+ 1024 entries, 4 KiB pages\\)"
         -- ${T} -gen communities:n=60000 -mat_ordering_rabbitpp_backend cpu -mat_ordering_rabbitpp_threads 2 -mat_ordering_rabbitpp_huge_pages 0 -mat_ordering_rabbitpp_view)
pgk_test(petsc.rabbitpp.mpi LABELS petsc NP 2 ARGS ${SAME} -- ${T} -gen communities:n=6000 -mat_ordering_rabbitpp_backend cpu -repeat 2)
# A rank bound to one core gets one thread by default (the affinity mask, not the node's share):
# bound by taskset, and by Open MPI's --bind-to core on 2 ranks.
find_program(PGK_TASKSET taskset)
pgk_test(petsc.rabbitpp.threads_bound_to_one_core LABELS petsc ARGS ${SAME} --needs-tool taskset ${PGK_TASKSET} --expect "\\(1 thread\\)"
         --reject "\\([0-9]+ threads\\)" -- ${PGK_TASKSET} -c 0 ${T} -gen communities:n=3000 -mat_ordering_rabbitpp_backend cpu -mat_ordering_rabbitpp_view)
if(PGK_MPIEXEC_IS_OPEN_MPI)
  pgk_test(petsc.rabbitpp.mpi_threads_bound_to_one_core LABELS "petsc;mpi" ARGS ${SAME} --expect "\\(1 thread\\)" --reject "\\([0-9]+ threads\\)"
           -- ${PGK_MPIEXEC} --bind-to core -n 2 ${T} -gen communities:n=6000 -mat_ordering_rabbitpp_backend cpu -mat_ordering_rabbitpp_view)
endif()
pgk_test(petsc.rabbitpp.mpi_auto LABELS petsc NP 2 ARGS ${SAME} -- ${T} -gen powerlaw:n=8000 -type rabbit)
# Bad input: PETSc errors, never a crash.
pgk_test(petsc.rabbitpp.nonsquare LABELS petsc ARGS --fail --expect "Must be square matrix" -- ${T} -case nonsquare)
pgk_test(petsc.rabbitpp.unassembled LABELS petsc ARGS --fail --expect "Not for unassembled matrix" -- ${T} -case unassembled)
pgk_test(petsc.rabbitpp.bad_batch LABELS petsc ARGS --fail --expect "batch must be >= 0" -- ${T} -mat_ordering_rabbitpp_batch -3)
pgk_test(petsc.rabbitpp.gpu_backend_on_host_matrix LABELS petsc ARGS --fail --expect "host matrix type seqaij" -- ${T} -mat_ordering_rabbitpp_backend gpu)

# Unmodified PETSc tutorials: PC reorder and PCFactor in the rabbitpp ordering converge.
set(EX45Q $<TARGET_FILE:tutorial_ex45> -dll_append ${PGK_LIB} -da_grid_x 25 -da_grid_y 25 -da_grid_z 25 -ksp_type gmres -ksp_rtol 1e-8 -ksp_converged_reason)
pgk_test(tutorial.ex45.reorder_rabbitpp LABELS tutorial ARGS --expect "Linear solve converged" --expect "ordering: rabbitpp"
         -- ${EX45Q} -pc_type reorder -pc_reorder_mat_ordering_type rabbitpp -reorder_pc_type ilu -ksp_view)
pgk_test(tutorial.ex45.ilu_rabbit LABELS tutorial ARGS --expect "Linear solve converged" -- ${EX45Q} -pc_type ilu -pc_factor_mat_ordering_type rabbit)
# BAIJ with block size 2: rabbitpp permutes the block rows; before, PETSc's BAIJ ILU read its point
# permutation as block rows and hung (hence the short timeout).
pgk_test(tutorial.ex2.baij_ilu_rabbitpp LABELS tutorial ARGS --expect "Linear solve converged"
         -- $<TARGET_FILE:tutorial_ex2> -dll_append ${PGK_LIB} -m 40 -n 40 -mat_type baij -mat_block_size 2 -ksp_converged_reason -pc_type ilu -pc_factor_mat_ordering_type rabbitpp)
set_tests_properties(tutorial.ex2.baij_ilu_rabbitpp PROPERTIES TIMEOUT 60)
# ksp ex56 (3 dof a node, so MATSEQAIJ groups rows in inodes): PETSc's inode LU and ILU need each
# inode's rows together, and rabbit's scalar permutation split them (zero pivot, DIVERGED_PC_FAILED);
# the orderings now regroup inodes (PgkPermutationKeepInodes), as PETSc's own orderings do. Both
# orderings and batchrcm, ILU and LU, 1 rank and bjacobi on 2.
foreach(ord rabbitpp rabbit batchrcm)
  foreach(pc ilu lu)
    pgk_test(tutorial.ex56.${pc}_${ord}_inodes LABELS tutorial ARGS --expect "Linear solve converged" --expect "keep the matrix's [0-9]+ inodes together"
             -- $<TARGET_FILE:tutorial_ex56> -dll_append ${PGK_LIB} -ne 4 -ksp_converged_reason -pc_type ${pc} -pc_factor_mat_ordering_type ${ord} -info :mat)
  endforeach()
endforeach()
pgk_test(tutorial.ex56.bjacobi_rabbitpp_inodes_mpi LABELS "tutorial;mpi" ARGS --expect "Linear solve converged"
         -- ${PGK_MPIEXEC} -n 2 $<TARGET_FILE:tutorial_ex56> -dll_append ${PGK_LIB} -ne 6 -ksp_converged_reason -pc_type bjacobi -sub_pc_factor_mat_ordering_type rabbitpp ${PGK_GPU_OPTS})
pgk_test(tutorial.ex45.bjacobi_rabbitpp_mpi LABELS "tutorial;mpi" ARGS --expect "Linear solve converged"
         -- ${PGK_MPIEXEC} -n 2 ${EX45Q} -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_ordering_type rabbitpp)

# ---- gpu: the ordering where the matrix lives (kernels/rabbitpp), equal to the host reference --
# The matrix does not move: only the permutation and the listed scalars come back (the program
# asserts the exact count per ordering, ExpectedDeviceTransfers in rabbitpp.cpp).
set(DEVXFER --expect "transfers ctog=0\\.? gtoc=[1-9][0-9]*\\.? as listed")
foreach(backend gpu auto)
  foreach(spec communities:n=3000 communities:n=2000,inter=8 powerlaw:n=5000,communities=20 lap3d7:n=12 rgg2d:n=4000
               disconnected:n=3000,parts=7 hubrow:n=3000 random:n=2000,deg=3 path:n=2 empty:n=5 lap2d5:nx=1,ny=1)
    string(REGEX REPLACE "[:=,]" "_" tag ${spec})
    pgk_test(gpu.rabbitpp.${backend}.${tag} LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER}
             -- ${T} -gen ${spec} ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_backend ${backend} -repeat 2)
  endforeach()
endforeach()
pgk_test(gpu.rabbitpp.rabbit LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -type rabbit -gen powerlaw:n=5000,communities=20 ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_backend gpu)
pgk_test(gpu.rabbitpp.batch1 LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} --expect "K = 1 equals the serial reference"
         -- ${T} -gen communities:n=2000 ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_batch 1 -mat_ordering_rabbitpp_backend gpu)
pgk_test(gpu.rabbitpp.batch7 LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -gen rgg2d:n=3000 ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_batch 7 -mat_ordering_rabbitpp_backend gpu)
pgk_test(gpu.rabbitpp.layouts LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER}
         -- ${T} -gen powerlaw:n=5000,communities=20 ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_insular_first -mat_ordering_rabbitpp_hub_scope all -mat_ordering_rabbitpp_backend gpu)
pgk_test(gpu.rabbitpp.hub_factor LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER}
         -- ${T} -gen powerlaw:n=5000,communities=20 ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_hub_factor 2 -mat_ordering_rabbitpp_backend gpu)
# The skew gate on the device: both verdicts, with the figures (view) and without (the gate's count
# stays on the device; the transfers are the same list), against the reference.
foreach(spec communities:n=3000 powerlaw:n=5000,communities=20)
  string(REGEX REPLACE "[:=,]" "_" tag ${spec})
  pgk_test(gpu.rabbitpp.gate.${tag} LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} --expect "(regrouped: skew 0\\.331|not regrouped, the Rabbit order kept: skew 0\\.145)"
           -- ${T} -gen ${spec} ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_backend gpu -mat_ordering_rabbitpp_view -repeat 2)
  pgk_test(gpu.rabbitpp.always.${tag} LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER}
           -- ${T} -gen ${spec} ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_backend gpu -mat_ordering_rabbitpp_min_skew 0 -repeat 2)
endforeach()
pgk_test(gpu.rabbitpp.nonsymmetric LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} -- ${T} -f ${PGK_DATA}/general5_real.mtx ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_backend gpu)
# -view: the figures (2 more copies, counted) and auto's choice.
pgk_test(gpu.rabbitpp.view LABELS "gpu;petsc" ARGS --gpu ${SAME} ${DEVXFER} --expect "backend gpu" --expect "communities [0-9]+ \\(largest" --expect "time: graph"
         --expect "rounds by step: begin [0-9.e+-]+ s, aggregate [0-9.e+-]+ s, decide [0-9.e+-]+ s, store [0-9.e+-]+ s \\([0-9]+ compactions: [0-9.e+-]+ s\\), apply [0-9.e+-]+ s"
         -- ${T} -gen communities:n=3000 ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_view)
foreach(backend gpu auto)
  pgk_test(gpu.rabbitpp.mpi_${backend} LABELS "gpu;petsc" NP 2 ARGS --gpu ${SAME} ${DEVXFER}
           -- ${T} -gen communities:n=6000 ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_backend ${backend} -repeat 2)
endforeach()
# The device kernels under compute-sanitizer, through MatGetOrdering (vendor kernels excluded:
# cuSPARSE's SpMV runs in the program's MatMult).
foreach(tool memcheck racecheck)
  pgk_test(gpu.sanitizer.${tool}.rabbitpp LABELS "gpu;petsc" ARGS --gpu ${PGK_NEEDS_SANITIZER} ${SAME} ${DEVXFER} --expect "(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)"
           -- ${PGK_COMPUTE_SANITIZER} --tool ${tool} --kernel-name-exclude kns=cusparse --error-exitcode 1
              ${T} -gen communities:n=2000 ${PGK_DEVICE_TYPES} -mat_ordering_rabbitpp_backend gpu -mat_ordering_rabbitpp_batch 300 -mat_ordering_rabbitpp_view)
endforeach()
