# Pictures through PETSc's own viewers (issue 13): spy plots and convergence histories saved by
# PETSc's image draw (-draw_type image), each then opened and checked by
# tests/support/check_images.py (decoded completely; size; not blank). check_pictures.sh runs
# the program in a fresh folder under the build tree and names the files it finds there.
# Labels: petsc;pictures (mpi, gpu where they apply).
#
# The format is PETSc's default: PNG with libpng (scripts/bootstrap configures it), else GIF,
# JPEG, PPM, the first PETSc has. Pictures are saved without an extension in their name: PETSc
# 3.26 keeps the dot of "-draw_save a.png" and writes "a..png".
pgk_petsc_defined(PETSC_HAVE_LIBPNG _pgk_png)
pgk_petsc_defined(PETSC_HAVE_GIFLIB _pgk_gif)
pgk_petsc_defined(PETSC_HAVE_LIBJPEG _pgk_jpg)
if(_pgk_png)
  set(PGK_IMAGE_EXT png)
elseif(_pgk_gif)
  set(PGK_IMAGE_EXT gif)
elseif(_pgk_jpg)
  set(PGK_IMAGE_EXT jpg)
else()
  set(PGK_IMAGE_EXT ppm)
endif()
message(STATUS "petscgpukit: PETSc saves pictures as .${PGK_IMAGE_EXT}")

# check_images.py and check_pictures.sh themselves, on pictures of known content.
add_test(NAME unit.support.check_images COMMAND ${Python3_EXECUTABLE} ${PGK_SUPPORT}/check_check_images.py
                                                ${PGK_SUPPORT}/check_images.py ${PGK_SUPPORT}/check_pictures.sh)
set_tests_properties(unit.support.check_images PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "all cases as expected")

# pgk_picture_test(NAME LABELS <labels> FILES <stems> [RUNNER <runner...>] ARGS <check_run options> -- <command...>)
# RUNNER: what runs the command, default check_run.sh (tests/python/run_python.sh for petsc4py).
function(pgk_picture_test name)
  cmake_parse_arguments(T "" "" "LABELS;FILES;RUNNER;ARGS" ${ARGN})
  if(NOT T_RUNNER)
    set(T_RUNNER ${PGK_CHECK})
  endif()
  add_test(NAME ${name} COMMAND ${PGK_SUPPORT}/check_pictures.sh ${Python3_EXECUTABLE} ${CMAKE_BINARY_DIR}/tests/pictures/${name}
                                ${PGK_IMAGE_EXT} ${T_FILES} -- ${T_RUNNER} ${T_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "${PGK_TEST_ENV}")
endfunction()

# The tour (scripts/demo) at a small size: spy plots before/after batchrcm and rabbitpp, and the
# residual histories of jacobi and trilf, in the folder it names.
set(TOUR_PICS spy_batchrcm spy_rabbitpp convergence_aniso convergence_conv)
set(TOUR_SMALL -n 12 -aniso aniso3d:n=12,ax=0.0001,ay=0.01,az=1 -conv convdiff3d:n=12,peclet=100 -carp convdiff2d:n=16,peclet=100 -pictures_dir .
               -pictures_matrix rgg2d:n=1500,deg=8 -pictures_size 300)
set(TOUR_EXPECT --expect "pictures \\(PETSc's image viewer, ${PGK_IMAGE_EXT}\\): /" --expect "spy_batchrcm\\.${PGK_IMAGE_EXT} +rgg2d"
                --expect "KSP carpcg \\+ no PC .* CONVERGED_RTOL" --expect "KSP gmres \\+ bjacobi \\+ ILU\\(0\\) \\(PETSc baseline\\) .* CONVERGED_RTOL")
pgk_picture_test(pictures.tour LABELS "petsc;pictures" FILES ${TOUR_PICS} ARGS ${TOUR_EXPECT} -- $<TARGET_FILE:pgk-tour> -cpu ${TOUR_SMALL})
pgk_picture_test(gpu.pictures.tour LABELS "gpu;pictures" FILES ${TOUR_PICS}
                 ARGS --gpu ${TOUR_EXPECT} --expect "trilf \\(device\\)" -- $<TARGET_FILE:pgk-tour> ${TOUR_SMALL} ${PGK_GPU_OPTS})

# Any PETSc program with our types, by options only: PETSc's tutorials, unmodified.
set(DRAW -draw_type image -draw_save_single_file -nox_warning)
# Convergence history of PC trilf with PETSc's line-graph monitor.
pgk_picture_test(pictures.ksp_monitor_trilf LABELS "petsc;pictures" FILES conv ARGS --expect "Norm of error" --reject "Option left"
                 -- $<TARGET_FILE:tutorial_ex2> -dll_append ${PGK_LIB} -m 40 -n 40 -pc_type trilf -ksp_monitor draw::draw_lg ${DRAW} -draw_save conv)
# A spy plot of a Mat aijcompound (MatView converts it to AIJ for any viewer but ASCII info):
# the very picture AIJ gives for the same matrix.
set(SAME "\"$0\" \"$@\" -mat_type aijcompound -ksp_view -draw_save spy && \"$0\" \"$@\" -draw_save spy_aij && cmp spy.${PGK_IMAGE_EXT} spy_aij.${PGK_IMAGE_EXT} && echo the same picture as AIJ")
pgk_picture_test(pictures.mat_view_aijcompound LABELS "petsc;pictures" FILES spy spy_aij
                 ARGS --expect "type: seqcompoundaij" --expect "the same picture as AIJ" --reject "Option left"
                 -- sh -c ${SAME} $<TARGET_FILE:tutorial_ex56> -dll_append ${PGK_LIB} -ne 9 -alpha 1.e-3 -ksp_type cg -pc_type pbjacobi
                    -mat_view draw ${DRAW})
# The matrix PC reorder solves with, B = P A P^T in the batchrcm ordering: its inner KSP's option
# takes the prefix (reorder_), the draw options do not.
pgk_picture_test(pictures.reorder_mat_view LABELS "petsc;pictures" FILES permuted ARGS --expect "Norm of error" --reject "Option left"
                 -- $<TARGET_FILE:tutorial_ex2> -dll_append ${PGK_LIB} -m 40 -n 40 -pc_type reorder -reorder_pc_type ilu
                    -reorder_ksp_view_mat draw ${DRAW} -draw_save permuted)
