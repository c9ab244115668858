// The keyed session store: one JSON document (<root>/sessions.json unless the caller names another)
// mapping a caller's session key ("agent:<id>:main", "cron:<job>", "hook:<uuid>") to a record (the
// key's current sessionId, its file, times, title, cwd, token counters, cost, compaction counts,
// and any other fields a host keeps, verbatim and in order). What a gateway or a desktop app with
// tabs shares between its processes (docs/keyed-store.md).
//
// Every change is a read-modify-write under an exclusive lock on "<document>.lock" (Fs::lock: a
// kernel lock, gone with its holder, so there are no stale locks to time out), published by
// storage::atomic_replace (temp file, fsync, rename, directory fsync). Readers take no lock: a
// published document is always whole. A document that is not a JSON object is never written
// over: the first write that meets it moves it aside as "<document>.corrupt-<stamp>" and fails with
// kCorrupt, naming the copy; reads fail with kCorrupt and touch nothing.
//
// Thread-safety: a KeyStore holds no state that changes; any method may run on several threads
// (and processes) at once, the lock serialising the writers.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/atomic_file.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::store {

struct KeyRecord {
  std::string key;
  std::string record;  // minified JSON object, tokens as stored
};

class KeyStore {
 public:
  // How long a writer waits for another to let go of the lock before kLocked.
  static constexpr std::chrono::milliseconds kLockTimeout{10000};
  // The longest document read (a host may keep large fields, as openclaw's skillsSnapshot).
  static constexpr uint64_t kMaxDocumentBytes = 256ull << 20;

  KeyStore(std::shared_ptr<storage::Fs> fs, std::string path);
  ~KeyStore();

  const std::string& path() const { return path_; }

  // The record of `key` (kNotFound without one).
  Result<std::string> get(std::string_view key) const;
  // Every record whose key starts with `prefix`, in the document's order.
  Result<std::vector<KeyRecord>> list(std::string_view prefix) const;
  // The same as JSON: [{"key","record"}], each record as stored (xs_keys_list).
  Result<std::string> list_json(std::string_view prefix) const;

  // Replaces (or adds, at the end) the whole record of `key`.
  Status put(std::string_view key, std::string_view record_json) const;
  // Merges `patch_json` into the record (RFC 7386: null removes a field; a missing record starts
  // empty); fields keep their places, new ones go last.
  Status patch(std::string_view key, std::string_view patch_json) const;
  // kNotFound when there is no such record.
  Status remove(std::string_view key) const;
  // What the record becomes, decided under the lock from what it is (nullopt: none): a record,
  // nullopt to remove it, or an error that cancels the update (nothing is written; the error is
  // returned). The function runs once per call and must not call back into this store.
  using UpdateFn = std::function<Result<std::optional<std::string>>(std::optional<std::string_view> current)>;
  Status update(std::string_view key, const UpdateFn& fn) const;
  // Many keys in one read-modify-write under one lock, published once (an importer's thousand
  // keys are one rewrite of the document, not a thousand): fn(key, current) decides each key in
  // order as update()'s function does, seeing what the keys before it made. A key that is not a
  // key, whose function fails or whose record is refused is left as it was, with its status in
  // (*results)[i]; the others are written. The call itself fails, writing nothing, only when the
  // lock, the read or the publish does (then every key's status is that one).
  using KeyedUpdateFn =
      std::function<Result<std::optional<std::string>>(std::string_view key, std::optional<std::string_view> current)>;
  Status update_many(const std::vector<std::string>& keys, const KeyedUpdateFn& fn, std::vector<Status>* results) const;

  // A key: 1-256 bytes of printable UTF-8, no '/' or '\\' (hosts make file names of keys).
  static Status check_key(std::string_view key);
  // A record: a JSON object whose known fields have their types (docs/keyed-store.md#records).
  // On success *minified holds it minified.
  static Status check_record(std::string_view record_json, std::string* minified);

 private:
  struct Document;
  // The document as the file holds it now, parsed; with mu_ held. A file whose bytes are the ones
  // this store last read or wrote is not parsed again (the bytes are compared, so another writer's
  // change is always seen): a gateway's document of a thousand records changes in a fraction of
  // what parsing and laying it out again would cost (bench/key_store_bench.cc).
  Result<Document*> document(storage::Expected* seen) const;
  // A document that is not one: moved aside, and the kCorrupt status that says where.
  Status set_aside(const Status& why) const;
  Status publish(Document& doc, const storage::Expected& seen) const;

  std::shared_ptr<storage::Fs> fs_;
  std::string path_;
  mutable std::mutex mu_;                  // the cache, and one writer of this process at a time
  mutable std::unique_ptr<Document> doc_;  // what document() parsed or publish() wrote last
};

}  // namespace xs::store
