# The shared C++ runtime for every target, linked by its file. A toolchain whose g++ finds
# libstdc++.a but no libstdc++.so (the development link missing, as on the GPU nodes' image)
# otherwise links the runtime statically into libpetscgpukit.so, which then also exports it.
# Loaded by petsc4py, where libstdc++.so.6 (a dependency of libpetsc) is outside the global
# symbol scope, the plugin ran on that second, partly initialised copy: the first number written
# to a std::ostringstream (the tuner's description of its winner) crashed. libstdc++.so.6 on the
# link line ahead of the driver's -lstdc++ leaves nothing for a static runtime to add.
# tests/CMakeLists.txt's unit.plugin.shared_cxx_runtime checks the result.
set(PGK_SHARED_CXX_RUNTIME "")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so.6 OUTPUT_VARIABLE _pgk_runtime_so OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT IS_ABSOLUTE "${_pgk_runtime_so}" OR NOT EXISTS "${_pgk_runtime_so}")
    find_library(_pgk_runtime_so NAMES libstdc++.so.6)
  endif()
  if(NOT _pgk_runtime_so)
    message(FATAL_ERROR "petscgpukit: ${CMAKE_CXX_COMPILER} finds no libstdc++.so.6; a static C++ runtime inside "
                        "libpetscgpukit.so breaks it under petsc4py (cmake/cxx_runtime.cmake)")
  endif()
  get_filename_component(PGK_SHARED_CXX_RUNTIME "${_pgk_runtime_so}" REALPATH)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so OUTPUT_VARIABLE _pgk_dev_so OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT IS_ABSOLUTE "${_pgk_dev_so}" OR NOT EXISTS "${_pgk_dev_so}")
    message(STATUS "petscgpukit: ${CMAKE_CXX_COMPILER} finds no libstdc++.so, only the static runtime; the shared one is linked by its file")
  endif()
  message(STATUS "petscgpukit: C++ runtime ${PGK_SHARED_CXX_RUNTIME}")
  link_libraries("${PGK_SHARED_CXX_RUNTIME}")
endif()
