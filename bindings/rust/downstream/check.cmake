# rust.downstream: the crate as a user outside this repository builds it. Installs this build's
# library into a scratch root (DESTDIR), writes a crate in a temporary directory that depends on
# `xsession` by path, and builds and runs it with pkg-config pointed at the installed
# xsession.pc (PKG_CONFIG_SYSROOT_DIR relocates the installed prefix into the scratch root).
# Arguments (-D): BUILD_DIR, SOURCE_DIR (bindings/rust), WORK_DIR, TARGET_DIR, CARGO, CARGO_ARGS
# (the offline source replacement, ;-separated), EXPECT (a line the program must print).
cmake_minimum_required(VERSION 3.25)

set(root ${WORK_DIR}/root)
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -E env DESTDIR=${root} ${CMAKE_COMMAND} --install ${BUILD_DIR}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
file(GLOB_RECURSE pc_files ${root}/xsession.pc)
list(LENGTH pc_files n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one installed xsession.pc under ${root}, found: ${pc_files}")
endif()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
get_filename_component(lib_dir ${pc_dir} DIRECTORY)

set(crate ${WORK_DIR}/crate)
file(WRITE ${crate}/Cargo.toml "[package]\nname = \"agent-loop\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n"
     "[dependencies]\nxsession = { path = \"${SOURCE_DIR}\" }\n\n[workspace]\n")
configure_file(${SOURCE_DIR}/downstream/main.rs ${crate}/src/main.rs COPYONLY)

# cargo's own messages go to stderr, which ctest shows on a failure.
execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pc_dir} PKG_CONFIG_SYSROOT_DIR=${root}
                        CARGO_TARGET_DIR=${TARGET_DIR} LD_LIBRARY_PATH=${lib_dir}
                        ${CARGO} run ${CARGO_ARGS} --quiet --manifest-path ${crate}/Cargo.toml
                OUTPUT_VARIABLE run_out COMMAND_ERROR_IS_FATAL ANY)
string(FIND "${run_out}" "${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the downstream program did not print '${EXPECT}':\n${run_out}")
endif()
if(EXISTS /proc/self/maps AND NOT run_out MATCHES "libxsession: ${lib_dir}/")
  message(FATAL_ERROR "the downstream program did not run with the library installed in ${lib_dir}:\n${run_out}")
endif()
message(STATUS "${run_out}")
file(REMOVE_RECURSE ${WORK_DIR})
