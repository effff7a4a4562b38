# The examples/python scripts (issue 13), run with the petsc4py that scripts/bootstrap built
# against PETSC_DIR (skipped with the reason where there is none): label python on the CPU,
# "gpu;python" with the device matrix and vector types (skipped without a CUDA device).
set(PY_RUN ${CMAKE_CURRENT_SOURCE_DIR}/python/run_python.sh ${Python3_EXECUTABLE} ${PETSC_DIR} ${PGK_CHECK})
set(PY_EXAMPLES ${PROJECT_SOURCE_DIR}/examples/python)
foreach(example ordering trilf carpcg aijcompound)
  add_test(NAME python.${example} COMMAND ${PY_RUN} --expect "${example}.py: all checks passed" -- ${PY_EXAMPLES}/${example}.py ${PGK_LIB})
  add_test(NAME gpu.python.${example} COMMAND ${PY_RUN} --gpu --expect "${example}.py: all checks passed"
           -- ${PY_EXAMPLES}/${example}.py ${PGK_LIB} ${PGK_DEVICE_TYPES})
  set_tests_properties(python.${example} PROPERTIES LABELS python)
  set_tests_properties(gpu.python.${example} PROPERTIES LABELS "gpu;python")
  set_tests_properties(python.${example} gpu.python.${example} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "${PGK_TEST_ENV}")
endforeach()
# examples/python/pictures.py (issue 13): spy plots before/after batchrcm and trilf's residual
# history saved by PETSc's image viewer from petsc4py, each picture opened and checked
# (tests/petsc/pictures.cmake); skipped, with the reason, where there is no petsc4py.
pgk_picture_test(python.pictures LABELS "python;pictures" FILES before after conv RUNNER ${PY_RUN}
                 ARGS --expect "pictures.py: all checks passed" -- ${PY_EXAMPLES}/pictures.py ${PGK_LIB})
# run_python.sh's choice of petsc4py build and interpreter (a bundle carries builds for several
# CPythons), on fake prefixes and interpreters: no PETSc, no petsc4py needed.
add_test(NAME unit.python.choice COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/python/check_choice.sh)
set_tests_properties(unit.python.choice PROPERTIES LABELS "unit;python")
# The README's Python quick start, as written (issue 13: "the README's Python snippet runs").
add_test(NAME python.readme_snippet COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/python/readme_snippet.sh ${PROJECT_SOURCE_DIR}/README.md ${PGK_LIB}
         ${PY_RUN} --expect "^batchrcm \\[.*\\] trilf\\+cg iterations [0-9]+$" --)
set_tests_properties(python.readme_snippet PROPERTIES LABELS python SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PGK_TEST_ENV}")
