# swift.downstream: the Swift package used from outside the repository, against an installed
# libxsession. Installs the build into a prefix, writes a package that depends on
# bindings/swift by path into a directory outside the repository, builds it with SwiftPM
# (pkg-config finds the installed xsession.pc) and runs its agent loop, comparing the output.
# cmake -DXS_BUILD_DIR= -DXS_SWIFT_PACKAGE_DIR= -DXS_SWIFT= -DXS_WORK= -P run.cmake
foreach(v XS_BUILD_DIR XS_SWIFT_PACKAGE_DIR XS_SWIFT XS_WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run.cmake needs -D${v}=")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

# The prefix and the package are made afresh; SwiftPM's scratch directory stays between runs.
set(prefix ${XS_WORK}/prefix)
set(package ${XS_WORK}/package)
file(REMOVE_RECURSE ${prefix} ${package} ${XS_WORK}/store)
run("cmake --install" ${CMAKE_COMMAND} --install ${XS_BUILD_DIR} --prefix ${prefix})

# The installed xsession.pc names the prefix configured at build time (CMAKE_INSTALL_PREFIX),
# not the one given to --install: point it at this prefix, as a packager's DESTDIR staging would.
file(GLOB pcs ${prefix}/lib*/pkgconfig/xsession.pc ${prefix}/lib/*/pkgconfig/xsession.pc)
list(GET pcs 0 pc)
get_filename_component(pcdir ${pc} DIRECTORY)
get_filename_component(libdir ${pcdir} DIRECTORY)
file(READ ${pc} text)
string(REGEX REPLACE "(^|\n)prefix=[^\n]*" "\\1prefix=${prefix}" text "${text}")
string(REGEX REPLACE "(^|\n)libdir=[^\n]*" "\\1libdir=${libdir}" text "${text}")
file(WRITE ${pc} "${text}")

set(XS_SWIFT_PACKAGE_DIR ${XS_SWIFT_PACKAGE_DIR})
configure_file(${CMAKE_CURRENT_LIST_DIR}/Package.swift.in ${package}/Package.swift @ONLY)
file(COPY ${CMAKE_CURRENT_LIST_DIR}/Sources DESTINATION ${package})

get_filename_component(swift_bin ${XS_SWIFT} DIRECTORY)
set(env PATH=${swift_bin}:$ENV{PATH} PKG_CONFIG_PATH=${pcdir} LD_LIBRARY_PATH=${libdir})
run("swift build" ${CMAKE_COMMAND} -E env ${env} ${XS_SWIFT} build --package-path ${package}
    --scratch-path ${XS_WORK}/scratch)
run("swift build --show-bin-path" ${CMAKE_COMMAND} -E env ${env} ${XS_SWIFT} build --package-path ${package}
    --scratch-path ${XS_WORK}/scratch --show-bin-path)
string(STRIP "${output}" bin)
# The executable links the installed library (no rpath into the build tree): run it from there.
run("AgentLoop" ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} ${bin}/AgentLoop ${XS_WORK}/store)
set(expected "user: Why does the build fail?
branchSummary: Tried the header fix; it did not help.
entries: message message label branch_summary
branched from the question: true
persisted: true, entries: 4, dialect: omp
")
if(NOT output STREQUAL expected)
  message(FATAL_ERROR "AgentLoop printed\n${output}\nexpected\n${expected}")
endif()
run("ldd AgentLoop" ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} ldd ${bin}/AgentLoop)
if(NOT output MATCHES "libxsession[^\n]*=> ${libdir}/libxsession")
  message(FATAL_ERROR "AgentLoop did not load the installed libxsession:\n${output}")
endif()
message(STATUS "swift.downstream: the agent loop ran against ${libdir}")
