// Which dialect a loaded file is written in (docs/dialects.md#detection): the last line that
// carries a mark of one dialect, else the header, else nothing (the caller's default applies).
#pragma once

#include <optional>
#include <vector>

#include "format/dialect.h"
#include "json/member_scanner.h"
#include "model/session_data.h"

namespace xs::model {

std::optional<format::Dialect> detect_dialect(const SessionData& data);

// Whether an entry of type `t` can carry a mark (only those are parsed: never a message).
bool may_carry_mark(format::EntryType t);
// The dialect whose form an entry of type `t` with these members is in, when only one agent writes
// that form. Detection reads it from a file; a session refuses to append a mark of the other
// dialect, so what a reopen detects is always what the session wrote in.
std::optional<format::Dialect> mark_of(format::EntryType t, const std::vector<json::Member>& members);

}  // namespace xs::model
