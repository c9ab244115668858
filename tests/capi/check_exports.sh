#!/bin/sh
# Fails when the shared library exports any symbol outside the xs_ prefix (the version script and
# hidden visibility must keep RapidJSON, simdjson and the engine's C++ symbols local).
# Usage: check_exports.sh path/to/libxsession.so
set -eu
lib="$1"
# Defined symbols of real kinds (functions, data); the version node XS_0 is an 'A' entry.
all=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVWiu]$/ {print $3}' | sed 's/@.*//')
if [ -z "$all" ]; then
  echo "no exported symbols found in $lib" >&2
  exit 1
fi
leaked=$(printf '%s\n' "$all" | grep -v '^xs_' || true)
if [ -n "$leaked" ]; then
  echo "symbols outside xs_* exported by $lib:" >&2
  printf '%s\n' "$leaked" >&2
  exit 1
fi
for required in xs_session_open xs_append xs_build_context xs_status_str; do
  printf '%s\n' "$all" | grep -qx "$required" || { echo "$required is not exported" >&2; exit 1; }
done
echo "$(printf '%s\n' "$all" | wc -l) symbols exported, all xs_*"
