# PETSc programs of ours, run with options; output and exit code checked by check_run.sh.
set(T $<TARGET_FILE:test_package>)
pgk_test(petsc.package.view LABELS petsc ARGS --expect "petscgpukit 0\\.1\\.0 \\(commit" --expect "lap3d7" -- ${T})
pgk_test(petsc.package.help LABELS petsc ARGS --expect "-petscgpukit_view" -- ${T} -help)
pgk_test(petsc.package.log_view LABELS petsc ARGS --expect "PgkGenerate" --expect "PgkMatGetCSR"
         -- $<TARGET_FILE:test_csr_access> -log_view)
pgk_test(petsc.package.mpi LABELS petsc NP 2 ARGS --expect "petscgpukit 0\\.1\\.0" -- ${T})

# CSR view on host matrices: host memory, no transfers, counts equal to the reference.
set(T $<TARGET_FILE:test_csr_access>)
set(OK --expect "all checks passed" --reject "ctog=[1-9]" --reject "gtoc=[1-9]")
# On the device the program checks the listed transfers itself (two CSR checks read their counts).
set(DEVOK --expect "all checks passed" --expect "transfers during access: ctog=0\\.? gtoc=2\\.? as listed")
pgk_test(petsc.csr.host LABELS petsc ARGS ${OK} --expect "memtype host" -- ${T} -expect_memtype host)
pgk_test(petsc.csr.host_elast LABELS petsc ARGS ${OK} -- ${T} -gen elast3d:n=5 -expect_memtype host)
pgk_test(petsc.csr.host_sparse_rows LABELS petsc ARGS ${OK} --expect "empty rows 80" -- ${T} -sparse_rows)
pgk_test(petsc.csr.host_mpi LABELS petsc NP 2 ARGS ${OK} -- ${T} -gen lap3d27:n=7 -expect_memtype host)
pgk_test(petsc.csr.host_sparse_rows_mpi LABELS petsc NP 2 ARGS ${OK} -- ${T} -sparse_rows)
# Types derived from AIJ keep its arrays: the same view, counts and no transfers.
pgk_test(petsc.csr.host_derived_type LABELS petsc ARGS ${OK} --expect "memtype host" -- ${T} -mat_type aijperm -expect_memtype host)
pgk_test(petsc.csr.host_derived_type_mpi LABELS petsc NP 2 ARGS ${OK} -- ${T} -gen lap3d27:n=7 -mat_type aijsell)
pgk_test(petsc.csr.device_policy_on_host_type LABELS petsc ARGS --fail --expect "device CSR requested for the host matrix type seqaij"
         -- ${T} -policy device)
# Bad input: clear PETSc errors, never a crash.
pgk_test(petsc.badinput.nan LABELS petsc ARGS --fail --expect "1 NaN or Inf entries" -- ${T} -case nan)
pgk_test(petsc.badinput.nan_mpi LABELS petsc NP 2 ARGS --fail --expect "1 NaN or Inf entries" -- ${T} -case nan)
pgk_test(petsc.badinput.missing_diag LABELS petsc ARGS --fail --expect "1 rows have no stored diagonal entry" -- ${T} -case missing_diag)
pgk_test(petsc.badinput.unassembled LABELS petsc ARGS --fail --expect "requires an assembled matrix" -- ${T} -case unassembled)
pgk_test(petsc.badinput.nonsquare LABELS petsc ARGS --fail --expect "requires a square matrix. got 100 x 102" -- ${T} -case nonsquare)
pgk_test(petsc.badinput.wrong_type LABELS petsc ARGS --fail --expect "needs MATAIJ or MATAIJCUSPARSE" -- ${T} -mat_type baij)

# Matrix Market and PETSc binary I/O.
set(T $<TARGET_FILE:test_matrix_io>)
pgk_test(petsc.io.mm_symmetric LABELS petsc ARGS --expect "rows 5 cols 5 nnz 15" --expect "symmetric yes" -- ${T} -f ${PGK_DATA}/sym5_real.mtx -expect_rows 5)
pgk_test(petsc.io.mm_general LABELS petsc ARGS --expect "symmetric no" -- ${T} -f ${PGK_DATA}/general5_real.mtx)
pgk_test(petsc.io.mm_pattern LABELS petsc ARGS --expect "rows" -- ${T} -f ${PGK_DATA}/pattern6_symmetric.mtx)
pgk_test(petsc.io.mm_mpi LABELS petsc NP 2 ARGS --expect "rows 5 cols 5 nnz 15" --expect "binary round trip: equal"
         -- ${T} -f ${PGK_DATA}/sym5_real.mtx -roundtrip ${CMAKE_CURRENT_BINARY_DIR}/sym5_np2.bin)
pgk_test(petsc.io.mm_complex_refused LABELS petsc ARGS --fail --expect "complex Matrix Market data needs complex scalars" -- ${T} -f ${PGK_DATA}/complex4_hermitian.mtx)
pgk_test(petsc.io.missing_file LABELS petsc ARGS --fail --expect "cannot open Matrix Market file" -- ${T} -f ${PGK_DATA}/no_such_file.mtx)
file(GLOB PGK_BAD_MTX CONFIGURE_DEPENDS ${PGK_DATA}/bad_*.mtx)
foreach(bad ${PGK_BAD_MTX})
  get_filename_component(stem ${bad} NAME_WE)
  get_filename_component(base ${bad} NAME)
  string(REPLACE "." "\\." base_re "${base}")
  pgk_test(petsc.io.${stem} LABELS petsc ARGS --fail --expect "${base_re}:[0-9]+: " -- ${T} -f ${bad})
endforeach()
pgk_test(petsc.io.roundtrip_elast LABELS petsc ARGS --expect "binary round trip: equal" -- ${T} -gen elast3d:n=6 -roundtrip ${CMAKE_CURRENT_BINARY_DIR}/elast.bin)
pgk_test(petsc.io.roundtrip_mpi LABELS petsc NP 2 ARGS --expect "binary round trip: equal" -- ${T} -gen powerlaw:n=2000 -roundtrip ${CMAKE_CURRENT_BINARY_DIR}/pl_np2.bin)
pgk_test(petsc.io.bad_spec LABELS petsc ARGS --fail --expect "unknown" -- ${T} -gen nosuchkind:n=3)

# Generators, distributed == sequential.
set(T $<TARGET_FILE:test_generators_petsc>)
pgk_test(petsc.generators LABELS petsc ARGS --expect "specifications checked" -- ${T})
pgk_test(petsc.generators_mpi LABELS petsc NP 2 ARGS --expect "specifications checked" -- ${T})

# ---- gpu --------------------------------------------------------------------------------------
set(T $<TARGET_FILE:test_csr_access>)
pgk_test(gpu.csr.device_no_transfer LABELS "gpu;petsc" ARGS --gpu ${DEVOK} --expect "memtype device"
         -- ${T} ${PGK_DEVICE_TYPES} -expect_memtype device -log_view)
pgk_test(gpu.csr.device_elast LABELS "gpu;petsc" ARGS --gpu ${DEVOK} -- ${T} -gen elast3d:n=8 ${PGK_DEVICE_TYPES} -expect_memtype device)
# Compressed rows: the full row pointer is uploaded once (pass 0); later views transfer nothing.
pgk_test(gpu.csr.device_sparse_rows LABELS "gpu;petsc" ARGS --gpu --expect "all checks passed" --expect "pass 1 memtype device transfers during access: ctog=0\\.? gtoc=2\\.? as listed"
         -- ${T} -sparse_rows ${PGK_DEVICE_TYPES} -expect_memtype device)
pgk_test(gpu.csr.host_policy_on_device LABELS "gpu;petsc" ARGS --gpu --expect "all checks passed" --expect "memtype host"
         -- ${T} ${PGK_DEVICE_TYPES} -policy host -expect_memtype host)
pgk_test(gpu.csr.device_mpi LABELS "gpu;petsc" NP 2 ARGS --gpu ${DEVOK} --expect "memtype device"
         -- ${T} -gen lap3d7:n=12 ${PGK_DEVICE_TYPES} -expect_memtype device)
pgk_test(gpu.badinput.nan_device LABELS "gpu;petsc" ARGS --gpu --fail --expect "1 NaN or Inf entries" -- ${T} -case nan ${PGK_DEVICE_TYPES})
pgk_test(gpu.badinput.missing_diag_device LABELS "gpu;petsc" ARGS --gpu --fail --expect "1 rows have no stored diagonal entry" -- ${T} -case missing_diag ${PGK_DEVICE_TYPES})
pgk_test(gpu.package.view LABELS "gpu;petsc" ARGS --gpu --expect "device: NVIDIA" -- $<TARGET_FILE:test_package> ${PGK_GPU_OPTS})

# PETSc programs on the device under compute-sanitizer (memcheck, racecheck); skipped with the
# reason where it is missing. The kernels' own sanitizer runs are in tests/gpu/tests.cmake.
if(PGK_ENABLE_CUDA)
  foreach(tool memcheck racecheck)
    # cuSPARSE's own SpMV kernel (PETSc's MatMult, before our code runs) draws racecheck warnings
    # (write-write hazards inside csrmv_v3_kernel); vendor kernels are excluded so that the
    # check covers petscgpukit's kernels.
    pgk_test(gpu.sanitizer.${tool}.csr LABELS "gpu;petsc" ARGS --gpu ${PGK_NEEDS_SANITIZER} --expect "all checks passed" --expect "(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)"
             -- ${PGK_COMPUTE_SANITIZER} --tool ${tool} --kernel-name-exclude kns=cusparse --error-exitcode 1 ${T} -gen lap3d7:n=12 ${PGK_DEVICE_TYPES} -expect_memtype device)
    pgk_test(gpu.sanitizer.${tool}.csr_sparse LABELS "gpu;petsc" ARGS --gpu ${PGK_NEEDS_SANITIZER} --expect "all checks passed" --expect "(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)"
             -- ${PGK_COMPUTE_SANITIZER} --tool ${tool} --kernel-name-exclude kns=cusparse --error-exitcode 1 ${T} -sparse_rows ${PGK_DEVICE_TYPES} -expect_memtype device)
  endforeach()
endif()

# Installation: find_package(petscgpukit) and pkg-config consumers build and run.
pgk_test(petsc.install LABELS petsc ARGS --expect "petscgpukit 0\\.1\\.0" --expect "plugin path exists"
         -- ${CMAKE_CURRENT_SOURCE_DIR}/support/check_install.sh ${CMAKE_BINARY_DIR} ${PETSC_DIR} ${CMAKE_SOURCE_DIR})

# ---- valgrind: host paths clean under memcheck (PETSc's own suppressions) ---------------------
# PETSc programs: memory errors from valgrind (MPI and hwloc leak at start-up, outside our
# reach, so no leak check there) and PETSc objects left unfreed from -malloc_dump.
set(VG ${PGK_VALGRIND} -q --error-exitcode=${PGK_VALGRIND_ERROR_CODE} --suppressions=${PETSC_DIR}/share/petsc/suppressions/valgrind)
set(VGOK ${PGK_NEEDS_VALGRIND} --reject "bytes [A-Za-z]*\\(\\) line")
if(TARGET pgk_unit_tests)
  pgk_test(valgrind.unit LABELS "valgrind;unit" ARGS ${PGK_NEEDS_VALGRIND} --expect "PASSED"
           -- ${VG} --leak-check=full --errors-for-leak-kinds=definite $<TARGET_FILE:pgk_unit_tests> --gtest_filter=CsrCheck.*:Envelope.*:PermutePattern.*:MatrixMarket*:RcmSerial.*:RcmSymmetrize.*:RcmBatchPlan.*:RcmLevels.RepeatedRunsAreIdentical:RcmLevels.NonsymmetricInput*:RcmLevels.BadInput*:Stencils.*:Elast3d.*:SortedPatternIsSymmetric.*:RabbitppBatch.*)
endif()
pgk_test(valgrind.csr_access LABELS "valgrind;petsc" ARGS ${VGOK} --expect "all checks passed" -- ${VG} $<TARGET_FILE:test_csr_access> -sparse_rows -malloc_debug -malloc_dump)
pgk_test(valgrind.batchrcm_cpu LABELS "valgrind;petsc" ARGS ${VGOK} --expect "all checks passed"
         -- ${VG} $<TARGET_FILE:test_batchrcm> -gen disconnected:n=3000,parts=5 -mat_ordering_batchrcm_backend cpu -mat_ordering_batchrcm_min_parallel_nnz 0 -malloc_debug -malloc_dump)
pgk_test(valgrind.matrix_market_errors LABELS "valgrind;petsc" ARGS ${VGOK} --fail --expect "bad_too_many\\.mtx:[0-9]+: "
         -- ${VG} $<TARGET_FILE:test_matrix_io> -f ${PGK_DATA}/bad_too_many.mtx)
pgk_test(valgrind.reorder LABELS "valgrind;petsc" ARGS ${VGOK} --expect "Linear solve converged"
         -- ${VG} $<TARGET_FILE:tutorial_ex45> -dll_append ${PGK_LIB} -pc_type reorder -reorder_pc_type ilu -ksp_converged_reason -malloc_debug -malloc_dump)

# MatGetOrdering on SEQBAIJ / SEQSBAIJ: a permutation of the block rows, equal to the ordering of the
# AIJ matrix of the block pattern (SBAIJ: both triangles); PETSc's rcm as the control. A parallel
# BAIJ matrix is refused, as PETSc's orderings refuse it.
set(T $<TARGET_FILE:test_block_orderings>)
foreach(case batchrcm:1 batchrcm:3 rabbitpp:1 rabbitpp:3 rabbit:2 rcm:2)
  string(REPLACE ":" ";" case ${case})
  list(GET case 0 type)
  list(GET case 1 bs)
  pgk_test(petsc.order_blocks.${type}_bs${bs} LABELS petsc ARGS --expect "all checks passed" --expect "sbaij \\(seqsbaij block\\), bs ${bs}: ${type} ordered 240 block rows"
           -- ${T} -type ${type} -bs ${bs})
endforeach()
# Memcheck, and every PETSc allocation freed (-malloc_dump): SBAIJ's two-triangle graph is built by
# PETSc and must go back through MatRestoreRowIJ with the same flags.
pgk_test(valgrind.order_blocks LABELS "valgrind;petsc" ARGS ${VGOK} --expect "all checks passed" -- ${VG} ${T} -type batchrcm -bs 2 -nb 60 -malloc_debug -malloc_dump)
pgk_test(valgrind.carpcg_aijcompound LABELS "valgrind;petsc" ARGS ${VGOK} --expect "Linear solve converged"
         -- ${VG} $<TARGET_FILE:test_solve_generated> -gen elast3d:n=3 -mat_type aijcompound -ksp_type carpcg -ksp_converged_reason -malloc_debug -malloc_dump)
pgk_test(petsc.order_blocks.mpi_refused LABELS petsc NP 2 ARGS --fail --expect "no host CSR structure for the parallel matrix type mpibaij" -- ${T} -type rabbitpp)
