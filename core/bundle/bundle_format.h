// What a portable bundle holds and how its parts are named (docs/bundles.md#the-archive): a tar
// archive (zstd, or gzip on request) whose first member is manifest.json, then the sessions'
// files byte for byte ("sessions/<file name>", archives as ".jsonl.gz"), the blobs they reference
// ("blobs/<sha-256>") and the keyed-store records that point at them ("keys.json").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/status.h"

namespace xs::bundle {

constexpr int kFormatVersion = 1;
constexpr std::string_view kFormatName = "xsession-bundle";
constexpr std::string_view kManifestName = "manifest.json";
constexpr std::string_view kKeysName = "keys.json";

// Hard limits an import applies before it reads a byte of content (docs/bundles.md#limits): the
// manifest itself, the members it may list, what all members may hold together, and the part of
// that kept in memory (sessions are compared and rewritten whole; blobs stream to staging files).
constexpr uint64_t kMaxManifestBytes = 16ull << 20;
constexpr size_t kMaxMembers = 1000000;
constexpr uint64_t kMaxBundleBytes = 64ull << 30;
constexpr uint64_t kMaxSessionBytes = 4ull << 30;
constexpr uint64_t kMaxKeysBytes = 256ull << 20;

struct MemberInfo {
  std::string path;
  std::string sha256;  // 64 lowercase hex
  uint64_t size = 0;
};

struct SessionInfo {
  std::string id;
  std::string member;  // "sessions/<file name>"
  std::string cwd;
  bool archived = false;  // a ".jsonl.gz" as retention wrote it (docs/retention.md)
  std::optional<std::string> parent_session;
  bool lineage = false;  // carried because a named session descends from it
};

struct Manifest {
  int version = kFormatVersion;
  std::string source_root;
  std::vector<SessionInfo> sessions;
  std::vector<MemberInfo> members;  // in archive order, after manifest.json
};

// {"format","version","sourceRoot","sessions":[{"id","member","cwd","archived","parentSession",
// "lineage"}],"members":[{"path","sha256","size"}]} and a newline: the same manifest, the same bytes.
std::string manifest_json(const Manifest& m);

// A manifest as an import reads it: every member named once, each of a shape an import may
// place (is_safe_member), sizes within the limits above, every session's member present. kCorrupt
// with what is wrong; kVersion for a format version this library does not read.
Result<Manifest> parse_manifest(std::string_view text);

// A member name an import accepts: "keys.json", "blobs/<64 hex>", or "sessions/<name>" where the
// name is 1-200 characters of [A-Za-z0-9._-], does not start with '.', and ends ".jsonl" or
// ".jsonl.gz". Nothing absolute, no "..", no other directory.
bool is_safe_member(std::string_view name);
// "sessions/<file name>" for a session file, when the name is one is_safe_member accepts.
std::optional<std::string> session_member(std::string_view file_name);

// Ids a bundle carries: what the store writes for new sessions ([A-Za-z0-9_-], 1-64).
bool is_bundle_id(std::string_view id);

// The id a renamed session gets: derived from its old id and the SHA-256 of the bytes it would have
// been placed with under that id (after the cwd map), so an import repeated with the same options
// finds the copy it made before. A UUID (pi's ids) gets a UUID (version 8: derived, RFC 9562), any
// other id 16 lowercase hex characters.
std::string renamed_id(std::string_view old_id, std::string_view bytes_sha256);

// A session file name with its id replaced: "<stamp>_<old>.jsonl[.gz]" becomes
// "<stamp>_<new>.jsonl[.gz]"; any other name "<new>.jsonl[.gz]".
std::string renamed_file(std::string_view file_name, std::string_view old_id, std::string_view new_id);

// OLD=NEW pairs, applied to a cwd in order: the first OLD that is the cwd or one of its parent
// directories replaces that prefix. nullopt when none applies.
using CwdMap = std::vector<std::pair<std::string, std::string>>;
std::optional<std::string> map_cwd(const CwdMap& map, std::string_view cwd);
// kInvalid unless every path is absolute, has no "." or ".." component and no trailing '/'.
Status check_cwd_map(const CwdMap& map);

}  // namespace xs::bundle
