# node.npm_install: the package as a user gets it. Installs this build's library into a scratch
# prefix, packs bindings/node with `npm pack`, installs the tarball with `npm install --offline`
# into an empty project (npm runs node-gyp on binding.gyp, which finds the library with
# pkg-config), then runs npm_project.test.js there: require and import of 'xsession' by name.
# Nothing is downloaded: --offline, a scratch npm cache, and Node's own headers (--nodedir).
# Arguments (-D): BUILD_DIR, SOURCE_DIR (bindings/node), WORK_DIR, NODE, NPM, NODEDIR.
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/prefix.cmake)
file(MAKE_DIRECTORY ${WORK_DIR}/pack ${WORK_DIR}/project)

# npm's own settings for this run only: no user config, a scratch cache, no network.
set(ENV{npm_config_userconfig} ${WORK_DIR}/npmrc)
set(ENV{npm_config_cache} ${WORK_DIR}/npm-cache)
set(ENV{npm_config_offline} true)
set(ENV{npm_config_audit} false)
set(ENV{npm_config_fund} false)
set(ENV{npm_config_update_notifier} false)
set(ENV{npm_config_nodedir} ${NODEDIR})
# The installed .pc names the prefix the build was configured with; binding.gyp runs $PKG_CONFIG.
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
set(ENV{PKG_CONFIG} "pkg-config --define-variable=prefix=${prefix}")
unset(ENV{XSESSION_NODE_ADDON})

execute_process(COMMAND ${NPM} pack --pack-destination ${WORK_DIR}/pack WORKING_DIRECTORY ${SOURCE_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE tarball ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "npm pack failed (${rc}):\n${tarball}\n${err}")
endif()
file(GLOB tarballs ${WORK_DIR}/pack/xsession-*.tgz)
list(LENGTH tarballs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one xsession-<version>.tgz from npm pack, found: ${tarballs}")
endif()

file(WRITE ${WORK_DIR}/project/package.json "{\"name\": \"xs-user\", \"version\": \"1.0.0\", \"private\": true}\n")
run(${NPM} install --offline --foreground-scripts ${tarballs} WORKING_DIRECTORY ${WORK_DIR}/project)
file(COPY ${SOURCE_DIR}/test/installed/npm_project.test.js ${SOURCE_DIR}/test/installed/npm_project.mjs
     DESTINATION ${WORK_DIR}/project)

set(ENV{XS_EXPECT_LIBDIR} ${lib_dir})
execute_process(COMMAND ${NODE} --test ${WORK_DIR}/project/npm_project.test.js WORKING_DIRECTORY ${WORK_DIR}/project
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "npm_project.test.js failed in the project that installed the package")
endif()
