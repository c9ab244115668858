// Plain-text helpers for human output: ages, sizes, one-line previews. Stable forms only, since
// scripts and the CLI tests read this output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace xs::cli {

// Milliseconds since the epoch; $XS_NOW_MS, when set, fixes it (the CLI tests rely on it).
int64_t now_ms();

// "just now", "42s ago", "5m ago", "3h ago", "6d ago", then the date "2026-01-05".
std::string relative_time(int64_t ms, int64_t now);

// Like `ls -h`: "512B", "1.2K", "34M", "1.1G" (powers of 1024).
std::string human_size(uint64_t bytes);

// Whitespace runs (newlines included) become one space, control characters are dropped, and the
// text is cut to max_chars code points with "…".
std::string one_line(std::string_view text, size_t max_chars);

// "1 blob", "2 blobs": n and the noun, with an "s" unless n is 1.
std::string counted(uint64_t n, std::string_view noun);

// "1 entry", "40 entries".
std::string entries_text(int64_t n);

// Code points in valid UTF-8 (each invalid byte counts one).
size_t display_width(std::string_view s);

// "30d", "12h", "45m", "90s": a duration in milliseconds; CLI::ValidationError naming `option`
// otherwise.
int64_t parse_age(const std::string& text, const std::string& option);

// A moment given as an age ("7d": that long before now_ms()) or a UTC date ("2026-11-01", its
// midnight; "2026-11-01T14:30:00Z"), in milliseconds since the epoch; CLI::ValidationError naming
// `option` otherwise.
int64_t parse_moment(const std::string& text, const std::string& option);

// An argument that may be "-": then all of stdin, without its trailing newlines (long JSON that a
// shell would mangle).
std::string argument_or_stdin(const std::string& arg);

}  // namespace xs::cli
