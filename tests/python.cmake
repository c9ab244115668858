# The Python the tests run under (XS_TEST_PYTHON): the first interpreter that can import what the
# Python-driven tests use — jsonschema (the C API's outputs checked against capi/schema) and pytest
# (the Python binding's suite). CMake's FindPython may pick a pyenv or venv Python without them,
# while scripts/setup-deps installs Debian's python3-jsonschema and python3-pytest for
# /usr/bin/python3; probing both keeps either set-up working. Included once, before the tests and
# the bindings are added.
include_guard(GLOBAL)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(xs_python_candidates "${Python3_EXECUTABLE}")
find_program(XS_SYSTEM_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(XS_SYSTEM_PYTHON3)
  list(APPEND xs_python_candidates "${XS_SYSTEM_PYTHON3}")
endif()

if(NOT XS_TEST_PYTHON)
  foreach(candidate IN LISTS xs_python_candidates)
    execute_process(COMMAND "${candidate}" -c "import jsonschema, pytest"
                    RESULT_VARIABLE import_failed OUTPUT_QUIET ERROR_QUIET)
    if(import_failed EQUAL 0)
      set(XS_TEST_PYTHON "${candidate}" CACHE FILEPATH "Python that runs the Python-driven tests")
      break()
    endif()
  endforeach()
endif()
if(NOT XS_TEST_PYTHON)
  message(FATAL_ERROR "No Python here imports jsonschema and pytest (tried: ${xs_python_candidates}). "
                      "Run scripts/setup-deps, or: apt-get install python3-jsonschema python3-pytest")
endif()
