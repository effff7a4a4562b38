# cmake --install: the library, the public header, a CMake package (find_package(petscgpukit))
# and a pkg-config file (pkg-config --cflags --libs petscgpukit).
include(CMakePackageConfigHelpers)
set_target_properties(petscgpukit PROPERTIES PUBLIC_HEADER ${CMAKE_SOURCE_DIR}/include/petscgpukit.h)
install(TARGETS petscgpukit EXPORT petscgpukitTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The imported PETSc target is recreated by the package config from the same pkg-config file.
install(EXPORT petscgpukitTargets NAMESPACE petscgpukit:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/petscgpukit)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/petscgpukitConfig.cmake.in
  ${CMAKE_BINARY_DIR}/petscgpukitConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/petscgpukit)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/petscgpukitConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/petscgpukitConfig.cmake ${CMAKE_BINARY_DIR}/petscgpukitConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/petscgpukit)
configure_file(${CMAKE_SOURCE_DIR}/cmake/petscgpukit.pc.in ${CMAKE_BINARY_DIR}/petscgpukit.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/petscgpukit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
