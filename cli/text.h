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

// Code points in valid UTF-8 (each invalid byte counts one).
size_t display_width(std::string_view s);

// An argument that may be "-": then all of stdin, without its trailing newlines (long JSON that a
// shell would mangle).
std::string argument_or_stdin(const std::string& arg);

}  // namespace xs::cli
