# The shared C++ runtime for every target, linked by its file. CMake links a target holding CUDA
# objects with the CUDA compiler's implicit link directories too, those of nvcc's host GCC, ahead
# of g++'s own. On the GPU node that GCC lives in /opt/gcc, and the first of its directories
# (lib/gcc/x86_64-linux-gnu/13) holds libstdc++.a but no libstdc++.so: the driver's -lstdc++ took
# the archive, and libpetscgpukit.so carried and exported a static runtime (no NEEDED
# libstdc++.so.6). Loaded by petsc4py, where libstdc++.so.6 (a dependency of libpetsc) is outside
# the global symbol scope, the plugin ran on that second, partly initialised copy: the first
# number written to a std::ostringstream (the tuner's description of its winner) crashed.
# libstdc++.so.6 on the link line ahead of the driver's -lstdc++ leaves nothing for the archive to
# add, whatever the search path. tests/CMakeLists.txt's unit.plugin.shared_cxx_runtime checks it.
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
  message(STATUS "petscgpukit: C++ runtime ${PGK_SHARED_CXX_RUNTIME}")
  link_libraries("${PGK_SHARED_CXX_RUNTIME}")
endif()
