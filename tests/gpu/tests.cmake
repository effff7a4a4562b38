# Device tests: each device primitive against its src/ reference on the shared corpus
# (tests/support/corpus.hpp), as GoogleTest programs, one per component folder. ctest gets one
# entry per TEST / TEST_P instance (each loops the corpus); without a usable device every one
# is reported as skipped with the reason, and with PGK_REQUIRE_GPU=1 as failed.
if(NOT PGK_ENABLE_CUDA)
  return()
endif()
if(NOT GTest_FOUND)
  # Never silently absent: on a GPU machine this fails, elsewhere it is skipped.
  pgk_test(gpu.gtest_missing LABELS gpu ARGS --gpu --expect "never matches: GoogleTest is missing"
           -- ${CMAKE_COMMAND} -E echo "GoogleTest not found: the device tests (tests/gpu) were not built")
  return()
endif()

# pgk_gpu_tests(<name> <sources...>): a device test program and its ctest entries.
function(pgk_gpu_tests name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE pgk_gpu_test_support pgk_kernels pgk_host CUDA::cudart)
  target_compile_options(${name} PRIVATE -Wall -Wextra)
  # NO_PRETTY_VALUES: the parameter instances are named (".../default"), not numbered.
  # CMake >= 3.25 marks GoogleTest's skips itself (SKIP_REGULAR_EXPRESSION "[  SKIPPED ]"), and
  # a second value of the property breaks the generated script of newer CMake versions.
  set(skip "")
  if(CMAKE_VERSION VERSION_LESS 3.25)
    set(skip SKIP_REGULAR_EXPRESSION "  SKIPPED ")
  endif()
  gtest_discover_tests(${name} TEST_PREFIX "gpu." DISCOVERY_TIMEOUT 60 NO_PRETTY_VALUES
                       PROPERTIES LABELS gpu TIMEOUT 600 ${skip})
endfunction()

pgk_gpu_tests(pgk_gpu_common_tests gpu/common/csr_check.cpp gpu/common/symmetrize_pattern.cpp)
pgk_gpu_tests(pgk_gpu_batchrcm_tests gpu/batchrcm/rcm.cpp)
pgk_gpu_tests(pgk_gpu_trilf_tests gpu/trilf/pc.cpp gpu/trilf/pc_errors.cpp gpu/trilf/block.cpp gpu/trilf/scan_lu.cpp)
pgk_gpu_tests(pgk_gpu_rabbitpp_tests gpu/rabbitpp/rabbitpp.cpp)
pgk_gpu_tests(pgk_gpu_carpcg_tests gpu/carpcg/carpcg.cpp)
# aijcompound: the packed layouts and their SpMV (layouts.cpp); the device compound CSR
# operations, detection and COO assembly (ops.cpp).
pgk_gpu_tests(pgk_gpu_aijcompound_tests gpu/aijcompound/layouts.cpp)
pgk_gpu_tests(pgk_gpu_aijcompound_ops_tests gpu/aijcompound/ops.cpp)

# compute-sanitizer (memcheck, racecheck) on the small corpus (--small) and the option sets the
# sanitizer runs always took (racecheck is slow): one entry per program and filter, so that each
# gets its own time limit.
set(PGK_SANITIZED
  "csr_check|pgk_gpu_common_tests|GpuCsrCheck.*"
  "symmetrize|pgk_gpu_common_tests|GpuSymmetrizePattern.*"
  "rcm_plan|pgk_gpu_batchrcm_tests|GpuBatchRcm.PlanMatchesReference"
  "rcm_from_roots|pgk_gpu_batchrcm_tests|GpuBatchRcm.FromRootsDefaults:GpuBatchRcm.FromRootsTinyBatches:GpuBatchRcm.FromRootsWalkerCut"
  "rcm_end_to_end|pgk_gpu_batchrcm_tests|GpuBatchRcm.EndToEnd"
  "rcm_large_scratch|pgk_gpu_batchrcm_tests|GpuBatchRcm.FromRootsLargeScratch"
  "rcm_levels|pgk_gpu_batchrcm_tests|GpuBatchRcm.LevelsMatchesReference"
  "rcm_errors|pgk_gpu_batchrcm_tests|GpuBatchRcmErrors.*"
  "trilf_weights_factor|pgk_gpu_trilf_tests|Kinds/GpuTrilfWeights.*:Options/GpuTrilfFactor.*/abs"
  "trilf_pipeline|pgk_gpu_trilf_tests|Sets/GpuTrilfPipeline.*/default:Sets/GpuTrilfPipeline.*/scaled:GpuTrilfPipelinePattern.*"
  # Not GpuTrilfGtsv: its applies are cuSPARSE's gtsv2 kernels, not ours to sanitize (as the
  # PETSc-program runs exclude cuSPARSE); its set-up is trilf_pipeline's.
  "trilf_errors|pgk_gpu_trilf_tests|Where/GpuTrilfErrors.*:GpuTrilfRefused.*:Matrices/GpuTrilfBlockViaDevice.*"
  "trilf_block|pgk_gpu_trilf_tests|Sets/GpuTrilfBlock.*/default:Sets/GpuTrilfBlock.*/uncharged_M12"
  "trilf_block_errors|pgk_gpu_trilf_tests|GpuTrilfBlockErrors.*"
  # The scan LU's tile scans (shared memory between warps) and its fallbacks, on 40k-50k rows.
  "trilf_scan_lu|pgk_gpu_trilf_tests|GpuTrilfScanLu.SplitsAndReplacementsAreTheReferences:GpuTrilfScanLu.OverflowIsReportedAtTheReferencesRow"
  # aijcompound's compound CSR operations (kernels/aijcompound/ops.hpp); --small drops the 700-row size.
  "aijcompound_ops|pgk_gpu_aijcompound_ops_tests|GpuAijCompoundOps.*"
  # rabbitpp: one K per graph within 24 rounds (tests/gpu/rabbitpp/rabbitpp.cpp, --small).
  "rabbitpp_graph|pgk_gpu_rabbitpp_tests|GpuRabbitpp.GraphMatchesReference:GpuRabbitppErrors.*"
  # The two dendrogram tests apart: together under racecheck they passed 600 s on an H100 with
  # the rest of the label running beside them.
  "rabbitpp_rounds|pgk_gpu_rabbitpp_tests|GpuRabbitpp.DendrogramMatchesMulticore"
  "rabbitpp_rounds_small_arena|pgk_gpu_rabbitpp_tests|GpuRabbitpp.DendrogramWithSmallArena"
  "rabbitpp_ordering|pgk_gpu_rabbitpp_tests|GpuRabbitpp.PermutationMatchesMulticore"
  "carpcg|pgk_gpu_carpcg_tests|GpuCarpcg.*"
  # aijcompound (--small: ~1700 launches per kind and test, every layout x schedule; racecheck
  # took 18 s and 9 s for these two on an H100): the products on two kinds and the padding skip,
  # then the values-only paths (repack, scale, unaligned x) and the errors.
  "aijcompound_mult|pgk_gpu_aijcompound_tests|Kinds/GpuAijCompoundMult.EveryLayoutAndScheduleMatchesTheReference/block3:Kinds/GpuAijCompoundMult.EveryLayoutAndScheduleMatchesTheReference/quaternion:Kinds/GpuAijCompoundMult.PaddingNeverTouchesX/quaternion"
  "aijcompound_values|pgk_gpu_aijcompound_tests|Kinds/GpuAijCompoundMult.RepackEqualsFreshUpload/complex:Kinds/GpuAijCompoundMult.ScaleEqualsReference/block3:Kinds/GpuAijCompoundMult.UnalignedX/block2:GpuAijCompoundErrors.BadInputsThrow")
# Declared whether or not compute-sanitizer is here: where it is missing, check_run.sh reports
# the test skipped with the reason (a failure under PGK_REQUIRE_GPU=1).
foreach(tool memcheck racecheck)
  foreach(item ${PGK_SANITIZED})
    string(REPLACE "|" ";" item "${item}")
    list(GET item 0 what)
    list(GET item 1 prog)
    list(GET item 2 filter)
    # racecheck is ~100x slower on rabbitpp's many small launches: its ordering and dendrogram
    # runs take the first 16 of the small corpus's 46 graphs (every kernel of the pipeline runs).
    # So does rcm_levels (a block scan a level, thousands of levels on the paths and meshes; with
    # memcheck beside it the whole corpus did not finish in 330 s on an H200).
    set(cap "")
    if(tool STREQUAL "racecheck" AND what MATCHES "^(rabbitpp_(ordering|rounds)|rcm_levels)")
      set(cap ${CMAKE_COMMAND} -E env PGK_TEST_MAX_ENTRIES=16)
    endif()
    pgk_test(gpu.sanitizer.${tool}.${what} LABELS gpu
             ARGS --gpu ${PGK_NEEDS_SANITIZER} --expect "\\[  PASSED  \\] [0-9]+ test" --reject "\\[  FAILED  \\]" --reject "\\[  SKIPPED \\]"
                  --expect "(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)"
             -- ${cap} ${PGK_COMPUTE_SANITIZER} --tool ${tool} --error-exitcode 1 $<TARGET_FILE:${prog}> --small
                "--gtest_filter=${filter}")
  endforeach()
endforeach()
