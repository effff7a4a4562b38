# Mat aijcompound on the device (issue 10): every operation with device vectors against the AIJ
# original (relative 1e-13; the device operations equal AIJ's exactly after MatConvert back), no
# transfers once the layout is chosen, the tuner and its cache file, COO assembly with device values.
set(T $<TARGET_FILE:test_aijcompound_device>)
set(DOK --gpu --expect "all checks passed" --expect "vectors of C: seqcuda" --expect "steady-state transfers: ctog=0 gtoc=0")
set(CACHE_DIR ${CMAKE_CURRENT_BINARY_DIR}/aijcompound_cache)
file(MAKE_DIRECTORY ${CACHE_DIR})
set(GEN_ELAST vec3d27:n=6)
set(GEN_QUAT quatsurf:n=24)
set(GEN_CPLX helmholtz2dc:n=40)
foreach(case elast@${GEN_ELAST} quaternion@${GEN_QUAT} complex@${GEN_CPLX}) # specs contain ':'
  string(REPLACE "@" ";" case ${case})
  list(GET case 0 name)
  list(GET case 1 gen)
  # A fresh cache file per test: the first matrix is tuned, the second takes the cached winner.
  pgk_test(gpu.aijcompound.device.${name} LABELS "gpu;petsc" ARGS ${DOK} --expect "first matrix: .* \\(tuned\\), GB/s measured" --expect "second matrix: .* \\(cache\\)"
           --expect "MatMultTransposeAdd +relative" --expect "MatConvert back to AIJ +\\|\\|B - A\\|\\|_F = 0"
           -- ${T} -gen ${gen} -fresh_cache -mat_aijcompound_tune_cache ${CACHE_DIR}/${name}.txt -coo -mat_view ::ascii_info ${PGK_GPU_OPTS})
endforeach()
# The view names the device layout, where it came from, and that the columns (a narrow band) are
# 16-bit offsets (the gpu test of kernels/aijcompound/layouts.hpp covers the 32-bit fallback).
pgk_test(gpu.aijcompound.device.view LABELS "gpu;petsc" ARGS ${DOK} --expect "device layout (CSR|ELL|SI-16|SI-32)(\\+SYM)?-(AoS|SoA) (static|dynamic|group[0-9]+) [0-9]+x[0-9]+ \\((tuned|cache)\\), [0-9.]+ MB, columns as 16-bit offsets"
         -- ${T} -gen ${GEN_ELAST} -mat_view ::ascii_info -mat_aijcompound_tune_cache ${CACHE_DIR}/view.txt ${PGK_GPU_OPTS})
# A damaged cache file is ignored with a warning and rewritten: the second matrix then hits it.
pgk_test(gpu.aijcompound.device.corrupt_cache LABELS "gpu;petsc" ARGS ${DOK} --expect "WARNING: aijcompound: tuning cache .* ignored \\(line 2 is malformed"
         --expect "second matrix: .* \\(cache\\)" -- ${T} -gen ${GEN_ELAST} -corrupt_cache -mat_aijcompound_tune_cache ${CACHE_DIR}/corrupt.txt ${PGK_GPU_OPTS})
# Forced variants (no search) for every outer x inner layout and schedule kind, and tuning off.
foreach(forced "ell;soa;static" "si16;aos;dynamic" "si32;soa;group" "csr;aos;group" "csr;soa;static")
  list(GET forced 0 o)
  list(GET forced 1 i)
  list(GET forced 2 s)
  pgk_test(gpu.aijcompound.device.forced_${o}_${i}_${s} LABELS "gpu;petsc" ARGS ${DOK} --expect "first matrix: .* \\(forced\\)"
           -- ${T} -gen ${GEN_QUAT} -mat_aijcompound_outer ${o} -mat_aijcompound_inner ${i} -mat_aijcompound_schedule ${s} -mat_aijcompound_tune_cache none -coo ${PGK_GPU_OPTS})
endforeach()
# +SYM (vec3d27 and quatsurf are symmetric): forced, found by the tuner, and by A's MAT_SYMMETRIC
# flag; MatDiagonalScale with l != r breaks the symmetry and the products leave +SYM (still checked
# against AIJ). On a matrix that is not symmetric (vec3d27 with one scalar of row 0 changed), a
# forced +SYM runs without it.
pgk_test(gpu.aijcompound.device.symmetric_forced LABELS "gpu;petsc" ARGS ${DOK} --expect "first matrix: SI-32\\+SYM-AoS static 256x8 \\(forced\\)"
         --expect "after the updates: SI-32-AoS static 256x8 \\(values no longer symmetric\\)"
         -- ${T} -gen ${GEN_ELAST} -mat_aijcompound_symmetric_layout -mat_aijcompound_outer si32sym -mat_aijcompound_inner aos -mat_aijcompound_schedule static -mat_aijcompound_tune_cache none ${PGK_GPU_OPTS})
pgk_test(gpu.aijcompound.device.symmetric_flag LABELS "gpu;petsc" ARGS ${DOK} --expect "first matrix: ELL\\+SYM-SoA group4 256x8 \\(forced\\)"
         --expect "after the updates: ELL-SoA group4 256x8 \\((values no longer symmetric|forced, not symmetric)\\)"
         -- ${T} -gen ${GEN_QUAT} -set_symmetric -mat_aijcompound_outer ellsym -mat_aijcompound_inner soa -mat_aijcompound_schedule group -mat_aijcompound_group 4 -mat_aijcompound_tune_cache none ${PGK_GPU_OPTS})
pgk_test(gpu.aijcompound.device.symmetric_tuned LABELS "gpu;petsc" ARGS ${DOK} --expect "first matrix: SI-32\\+SYM-.* \\(tuned\\)"
         -- ${T} -gen ${GEN_ELAST} -set_symmetric -mat_aijcompound_outer si32sym -mat_aijcompound_tune_cache none ${PGK_GPU_OPTS})
pgk_test(gpu.aijcompound.device.symmetric_refused LABELS "gpu;petsc" ARGS ${DOK} --expect "first matrix: CSR-AoS static 256x8 \\(forced, not symmetric\\)"
         -- ${T} -gen ${GEN_ELAST} -unsymmetrize -mat_aijcompound_symmetric_layout -mat_aijcompound_outer csrsym -mat_aijcompound_inner aos -mat_aijcompound_schedule static -mat_aijcompound_tune_cache none ${PGK_GPU_OPTS})
pgk_test(gpu.aijcompound.device.tune_none LABELS "gpu;petsc" ARGS ${DOK} --expect "first matrix: .* \\(default\\)" --expect "second matrix: .* \\(default\\)"
         -- ${T} -gen ${GEN_CPLX} -mat_aijcompound_tune none ${PGK_GPU_OPTS})
pgk_test(gpu.aijcompound.device.solve LABELS "gpu;petsc" ARGS ${DOK} --expect "same iteration count"
         -- ${T} -gen elast3d:n=10 -solve -ksp_type cg -pc_type pbjacobi -ksp_rtol 1e-8 -mat_aijcompound_tune_cache none ${PGK_GPU_OPTS})
# -log_view: the tuning event, once per search (no cache file): the first MatMult, the explicit
# MatAIJCompoundTune and the second matrix's first MatMult.
pgk_test(gpu.aijcompound.device.log_view LABELS "gpu;petsc" ARGS ${DOK} --expect "MatAIJCmpTune +3 "
         -- ${T} -gen ${GEN_ELAST} -mat_aijcompound_tune_cache none -log_view ${PGK_GPU_OPTS})
# The unmodified tutorial on the device: ex56 with -mat_type aijcompound (device vectors from
# MatCreateVecs) takes the iterations of aijcusparse with CG + jacobi.
set(EX56_J -ne 9 -alpha 1.e-3 -ksp_type cg -pc_type jacobi -ksp_rtol 1e-6 -ksp_converged_reason)
pgk_test(gpu.tutorial.ex56_aijcompound LABELS "gpu;tutorial" ARGS --gpu --expect "iterations within" --expect "type: seqcompoundaij" --expect "device layout"
         -- ${CMP56} 0 ${EX56} ${DLL} ${EX56_J} -mat_type aijcompound -mat_aijcompound_tune_cache none -ksp_view -mat_view ::ascii_info ${PGK_GPU_OPTS}
         --- ${EX56} ${DLL} ${EX56_J} -mat_type aijcusparse -vec_type cuda ${PGK_GPU_OPTS})
