# What a binding does when its toolchain is missing or too old (included by each
# bindings/<lang>/CMakeLists.txt). A user's machine may lack any of them: the binding is left out
# with one line naming what to install, and the library, the CLI, the demo and the other bindings
# build and test as usual. CI sets XS_REQUIRE_BINDINGS=all, under which a missing toolchain (or a
# binding switched off with XS_BUILD_<LANG>=OFF) stops the configure instead, so a binding never
# disappears from CI without anyone noticing.
include_guard(GLOBAL)

set(XS_REQUIRE_BINDINGS "" CACHE STRING
    "Bindings that must be built: 'all', or a list such as 'node;rust' (CI: all)")

# Sets ${out} to TRUE when XS_REQUIRE_BINDINGS names `lang` (or says all).
function(xs_binding_required lang out)
  set(required FALSE)
  if(XS_REQUIRE_BINDINGS STREQUAL "all" OR lang IN_LIST XS_REQUIRE_BINDINGS)
    set(required TRUE)
  endif()
  set(${out} ${required} PARENT_SCOPE)
endfunction()

# Call, then return(), when the binding cannot be built: `why` says what is missing, `install` how
# to get it. One NOTICE line (stderr, no CMake backtrace) unless the binding is required.
function(xs_leave_out_binding lang why install)
  xs_binding_required(${lang} required)
  if(required)
    message(FATAL_ERROR "The ${lang} binding is required (XS_REQUIRE_BINDINGS=${XS_REQUIRE_BINDINGS}) "
                        "but ${why}: ${install}")
  endif()
  message(NOTICE "xsession: left out the ${lang} binding: ${why} (${install})")
endfunction()

# Call, then return(), when XS_BUILD_<LANG> is OFF: fine unless the binding is required.
function(xs_binding_switched_off lang)
  xs_binding_required(${lang} required)
  string(TOUPPER ${lang} upper)
  if(required)
    message(FATAL_ERROR "The ${lang} binding is required (XS_REQUIRE_BINDINGS=${XS_REQUIRE_BINDINGS}) "
                        "but XS_BUILD_${upper} is OFF")
  endif()
endfunction()
