# Sanitizer builds (technique T8 of docs/guarantees.md#t8; figures in tests/RELIABILITY.md; run by scripts/test-sanitizers).
#
#   XS_SANITIZE=""                   no sanitizer (default)
#   XS_SANITIZE="address,undefined"  ASan + LSan + UBSan: the whole suite (build-asan)
#   XS_SANITIZE="thread"             TSan: the concurrency tests (build-tsan)
#
# Included from the top-level CMakeLists.txt before any target is defined, so the flags reach
# every target (engine, C API, CLI, tests, and anything else configured in the same tree).
# UBSan halts on the first finding (-fno-sanitize-recover=all) so a report fails the test, and
# frame pointers are kept so every report has a full stack. Sanitizer builds should also set
# XS_BUILD_BENCH/EXAMPLES/NODE/RUST/GO/SWIFT=OFF: they compile only what they run
# (CMakePresets.json "asan"/"tsan" do).
set(XS_SANITIZE "" CACHE STRING "Sanitizers: empty, \"address,undefined\" or \"thread\"")
set_property(CACHE XS_SANITIZE PROPERTY STRINGS "" "address,undefined" "address" "undefined" "thread")

if(XS_SANITIZE)
  string(REPLACE "," ";" _xs_san_list "${XS_SANITIZE}")
  foreach(_xs_san IN LISTS _xs_san_list)
    if(NOT _xs_san MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "XS_SANITIZE: unknown sanitizer '${_xs_san}' (address, undefined, thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _xs_san_list AND "address" IN_LIST _xs_san_list)
    message(FATAL_ERROR "XS_SANITIZE: thread and address cannot be combined (use two build trees)")
  endif()

  set(_xs_san_flags -fsanitize=${XS_SANITIZE} -fno-omit-frame-pointer -fno-optimize-sibling-calls)
  if("undefined" IN_LIST _xs_san_list)
    list(APPEND _xs_san_flags -fno-sanitize-recover=all)
  endif()
  add_compile_options(${_xs_san_flags})
  # -fsanitize=... also at link time: pulls in the runtime for executables and shared libraries
  # (libxsession.so links with --no-undefined, so it must name its runtime itself).
  add_link_options(-fsanitize=${XS_SANITIZE})
  # libstdc++'s own checks (bounds of operator[], front() on empty, …) come cheap in these builds.
  add_compile_definitions(_GLIBCXX_ASSERTIONS)
  message(STATUS "xsession: sanitizers ${XS_SANITIZE}")
endif()
