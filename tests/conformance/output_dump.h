// The outputs a replay receives, kept for the schema check: with XS_CONFORMANCE_OUTPUTS=<dir> set,
// every JSON text a step gets from the C API is also written to <dir>/<case>.<step>.<function>.json
// (a second output of the same function in one step: <case>.<step>-2.<function>.json, and so on).
// tests/conformance/tools/validate_outputs.py validates each file against the schema
// capi/schema/README.md maps the function to. Without the variable nothing is written.
#pragma once

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "case_json.h"

namespace output_dump {

struct Place {
  std::string case_name;
  size_t step = 0;
  std::map<std::string, int> calls;  // function -> outputs written in this step
};

inline Place& place() {
  static Place p;
  return p;
}

// Called before each step: names the files the step's outputs go to.
inline void begin_step(const std::string& case_name, size_t step) {
  Place& p = place();
  p.case_name = case_name;
  p.step = step;
  p.calls.clear();
}

inline void write(const char* function, const std::string& json) {
  const char* dir = std::getenv("XS_CONFORMANCE_OUTPUTS");
  if (!dir || !*dir) return;
  Place& p = place();
  int n = ++p.calls[function];
  std::string step = std::to_string(p.step) + (n > 1 ? "-" + std::to_string(n) : "");
  std::string path = std::string(dir) + "/" + p.case_name + "." + step + "." + function + ".json";
  std::ofstream out(path, std::ios::binary);
  out << json;
  if (!out) ADD_FAILURE() << "cannot write " << path;
}

}  // namespace output_dump

// read_text for a function whose output is JSON: the same call, and the output dumped (see above).
template <class F>
inline xs_status read_json(const char* function, F&& call, std::string* out) {
  xs_status rc = case_json::read_text(call, out);
  if (rc == XS_OK) output_dump::write(function, *out);
  return rc;
}
