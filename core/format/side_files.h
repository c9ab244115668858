// Names of the files a session keeps beside its own file, each holding bytes that left it:
//  - "<file>.corrupt-<stamp>": a file without a session header, kept whole before a writable open
//    starts a fresh session in its place;
//  - "<file>.quarantine-<stamp>.jsonl": the lines a quarantine repair moved out
//    (session/session_rewrites.cc).
// <stamp> is the UTC time as session file names write it ("2026-02-16T10-20-30-000Z"); a name
// that is taken gets "-1", "-2"... before the suffix (storage::write_new_file).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "format/clock.h"

namespace xs::format {

constexpr std::string_view kCorruptInfix = ".corrupt-";
constexpr std::string_view kQuarantineInfix = ".quarantine-";
constexpr std::string_view kQuarantineSuffix = ".jsonl";

// An ISO timestamp made safe for file names, as session files are.
inline std::string file_stamp(int64_t ms) {
  std::string s = iso_from_ms(ms);
  for (char& c : s) {
    if (c == ':' || c == '.') c = '-';
  }
  return s;
}

// Whether a file name is a quarantine file ("<name>.jsonl.quarantine-<stamp>[-N].jsonl"). It ends in
// ".jsonl" like a session, but holds no session: listings of session files must leave it out.
inline bool is_quarantine_file_name(std::string_view name) {
  size_t infix = name.rfind(kQuarantineInfix);
  return infix != std::string_view::npos && infix >= 6 && name.substr(infix - 6, 6) == ".jsonl" &&
         name.size() >= kQuarantineSuffix.size() &&
         name.substr(name.size() - kQuarantineSuffix.size()) == kQuarantineSuffix;
}

}  // namespace xs::format
