# Shared test code (tests/support/): the graph corpus, comparisons and random vectors
# (pgk_test_support, host only), and for the device tests the device probe, the GpuTest fixture,
# device CSR upload and their one main (pgk_gpu_test_support). Needs GoogleTest.
add_library(pgk_test_support STATIC
  ${CMAKE_CURRENT_LIST_DIR}/corpus.cpp ${CMAKE_CURRENT_LIST_DIR}/corpus_graphs.cpp ${CMAKE_CURRENT_LIST_DIR}/compare.cpp)
target_link_libraries(pgk_test_support PUBLIC pgk_host GTest::gtest)
target_compile_options(pgk_test_support PRIVATE -Wall -Wextra)
if(PGK_ENABLE_CUDA)
  # gpu_main.cpp holds main(): a program linking this library gets it from the archive.
  add_library(pgk_gpu_test_support STATIC ${CMAKE_CURRENT_LIST_DIR}/device.cpp ${CMAKE_CURRENT_LIST_DIR}/gpu_main.cpp)
  target_link_libraries(pgk_gpu_test_support PUBLIC pgk_test_support pgk_kernels CUDA::cudart)
  target_compile_options(pgk_gpu_test_support PRIVATE -Wall -Wextra)
endif()
