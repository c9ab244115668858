// New session files made from existing ones, each written at once and atomically, and returned open
// for writing: a fork, a branch copied out of a session, a copy of another file for another
// working directory. Built on the public Session (its data, tree and Session::create_from).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "session/session.h"

namespace xs::session {

// Every entry of `from`, under a new id, with parentSession = from's id and its title kept (as
// oh-my-pi's fork); the file goes beside from's. `options` configures the new handle (and may
// choose its id: kInvalid for one that is not 1-64 characters of [A-Za-z0-9_-]).
Result<std::unique_ptr<Session>> fork_session(const Session& from, SessionOptions options);

// The path from the root to `leaf` (from's leaf when nullopt) without its label entries, then
// fresh label entries for the labels of entries on that path; parentSession = from's file path.
// An entry whose parent was a dropped label is re-parented to the entry before it, so the new
// file's context is the path's. kNotFound for an unknown leaf or a session without one.
Result<std::unique_ptr<Session>> create_branched(const Session& from, std::optional<std::string_view> leaf,
                                                 SessionOptions options);

// A copy of the session file `source` (migrated in memory) for working directory options.cwd, in
// `dir`; parentSession = the source's id, its title kept. The source's errors are reported with
// "cannot fork <source>".
Result<std::unique_ptr<Session>> fork_from(std::shared_ptr<storage::Fs> fs, const std::string& source,
                                           const std::string& dir, SessionOptions options);

}  // namespace xs::session
