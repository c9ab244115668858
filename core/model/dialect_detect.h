// Which dialect a loaded file is written in (docs/dialects.md#detection): the last line that
// carries a mark of one dialect, else the header, else nothing (the caller's default applies).
#pragma once

#include <optional>

#include "format/dialect.h"
#include "model/session_data.h"

namespace xs::model {

std::optional<format::Dialect> detect_dialect(const SessionData& data);

}  // namespace xs::model
