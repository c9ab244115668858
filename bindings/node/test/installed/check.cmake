# node.pkgconfig_install: the addon as a user outside this repository builds it. Installs this
# build's library into a scratch prefix, configures bindings/node standalone (pkg-config
# finds the installed xsession.pc), builds it, and runs linkage.test.js with that addon.
# Arguments (-D): BUILD_DIR, SOURCE_DIR (bindings/node), WORK_DIR, NODE, GENERATOR.
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/prefix.cmake)

# The installed .pc names the prefix the build was configured with (/usr/local); pkg-config's
# standard relocation, --define-variable=prefix, points it at where this copy really is.
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR} -DBUILD_TESTING=OFF
    "-DPKG_CONFIG_ARGN=--define-variable=prefix=${prefix}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)

set(ENV{XSESSION_NODE_ADDON} ${WORK_DIR}/build/xsession.node)
set(ENV{XS_EXPECT_LIBDIR} ${lib_dir})
execute_process(COMMAND ${NODE} --test ${SOURCE_DIR}/test/installed/linkage.test.js RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "linkage.test.js failed against the installed library")
endif()
