// Between xs_storage (xsession_storage.h, the table of functions a host fills) and the engine's
// file-system seam (core/storage/fs.h): a table becomes an Fs (host_storage.cc), and an Fs of
// ours becomes a table (storage_tables.cc). docs/storage.md says what each function promises.
#pragma once

#include <memory>

#include "storage/fs.h"
#include "util/status.h"
#include "xsession_storage.h"

namespace xs::capi {

// The table the host filled, checked: a version this library knows (1 or 2) and every function
// but release (and version 2's write_if) present. Invalid (naming what is missing) or kVersion
// otherwise.
Status check_storage(const xs_storage& table);

// The host's table, copied: as many fields as its version has (a version 1 table is shorter than
// ours), the later ones NULL. Destroying it calls the host's release(), unless disarm() was
// called first (xs_store_open failed: the caller keeps what the table's user pointer owns).
class HostTable {
 public:
  explicit HostTable(const xs_storage& table);
  ~HostTable() {
    if (armed_ && table_.release) table_.release(table_.user);
  }
  HostTable(const HostTable&) = delete;
  HostTable& operator=(const HostTable&) = delete;
  void disarm() { armed_ = false; }
  const xs_storage& fns() const { return table_; }

 private:
  xs_storage table_;
  bool armed_ = true;
};

// An Fs that calls the host's table; every file and lock it hands out keeps the table alive.
std::shared_ptr<storage::Fs> make_host_fs(std::shared_ptr<HostTable> table);

// The message the running storage function left with xs_storage_error (consumed), or empty.
std::string take_storage_message();
// Sets it: the built-in tables report the engine's own message this way.
void set_storage_message(std::string message);

}  // namespace xs::capi
