# `cmake --install` and `cpack -G DEB`: the validator, the plugin host and the CPU probe of
# emulated x86 platforms, the plugin ABI header,
# the op table, the documents, and the CMake package EltwiseConformance (imported targets and
# eltwise_add_conformance_tests, cmake/EltwiseConformanceFunctions.cmake). Included from the top
# level after every target exists. The installed tree is relocatable: the package finds its files
# from its own location, and eltwise-validate finds eltwise-backend-host and eltwise-cpu-probe
# beside itself.
include(CMakePackageConfigHelpers)

set(ELTWISE_INSTALL_DOCDIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/eltwise-conformance)
set(ELTWISE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/EltwiseConformance)

install(TARGETS eltwise-validate eltwise-backend-host eltwise-cpu-probe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES plugins/eltwise_backend.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES core/op_table.json DESTINATION ${ELTWISE_INSTALL_DATADIR})
install(FILES docs/SEMANTICS.md backends/PROTOCOL.md docs/CONTRIBUTING.md
        DESTINATION ${ELTWISE_INSTALL_DOCDIR})
# The adapters (manifests, scripts, profiles, expectations, READMEs) and the Python kit; the
# plugins of the adapters whose libraries are Debian packages. `list --backends` of the installed
# validator shows which of them find their library, and how to install the others.
install(DIRECTORY backends/adapters/ DESTINATION ${ELTWISE_INSTALL_DATADIR}/adapters
        FILES_MATCHING PATTERN "adapter.json" PATTERN "*.py" PATTERN "*.mjs" PATTERN "*.toml"
        PATTERN "expected.txt" PATTERN "README.md" PATTERN "package*.json"
        PATTERN "node_modules" EXCLUDE PATTERN "__pycache__" EXCLUDE)
# The kits, at the same relative place as in the source tree (the Node adapter's package.json
# names ../../kit/node); op_table.json: the Python kit's own copy (equal to core's: test
# docs.op_table), and for the Node kit, whose op_table.json is a symlink, the file it points to.
install(DIRECTORY backends/kit/python/eltwise_adapter_kit
        DESTINATION ${ELTWISE_INSTALL_DATADIR}/kit/python
        FILES_MATCHING PATTERN "*.py" PATTERN "op_table.json" PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY backends/kit/node/ DESTINATION ${ELTWISE_INSTALL_DATADIR}/kit/node
        FILES_MATCHING PATTERN "*.mjs" PATTERN "package*.json" PATTERN "README.md"
        PATTERN "node_modules" EXCLUDE PATTERN "tests" EXCLUDE)
install(FILES core/op_table.json DESTINATION ${ELTWISE_INSTALL_DATADIR}/kit/node)
foreach(plugin eltwise_onednn_plugin eltwise_xnnpack_plugin)
    if(TARGET ${plugin})
        install(TARGETS ${plugin} LIBRARY DESTINATION ${ELTWISE_INSTALL_PLUGINDIR})
    endif()
endforeach()

configure_package_config_file(cmake/EltwiseConformanceConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/EltwiseConformanceConfig.cmake
    INSTALL_DESTINATION ${ELTWISE_INSTALL_CMAKEDIR}
    PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR ELTWISE_INSTALL_DATADIR)
# 0.x: a minor version may change the command line the tests are made of.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/EltwiseConformanceConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/EltwiseConformanceConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/EltwiseConformanceConfigVersion.cmake
              cmake/EltwiseConformanceFunctions.cmake
        DESTINATION ${ELTWISE_INSTALL_CMAKEDIR})

# The Debian package of the same tree (cpack -G DEB in a build directory).
set(CPACK_PACKAGE_NAME eltwise-conformance)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "eltwise conformance")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Conformance suite for element-wise Mul/Div (ONNX, OpenVINO): validator and plugin host")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "eltwise conformance maintainers <eltwise-conformance@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# dpkg-shlibdeps derives Depends from what the two binaries link (libprotobuf, libonnx_proto,
# libpugixml, libgomp, libstdc++, ...).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The `onnx` case source reads ONNX's node tests; without them it has no cases.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS libonnx-testdata)
include(CPack)
