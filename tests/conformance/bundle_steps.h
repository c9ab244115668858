// The bundle steps of a conformance case (tests/conformance/README.md, "Bundles"): xs_export and
// xs_import_bundle between the case's stores, through bundle files in a directory of the replay on
// the local disk (a bundle is a local file whatever the store's storage), and a bundle damaged on
// purpose. A round trip needs an empty target: CaseStores holds every store a case names.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "c_storage.h"
#include "case_json.h"
#include "xsession.h"

// One store of a case, in a directory of its own.
struct CaseStore {
  std::string root;
  xs_store* store = nullptr;
  bool on_table = false;  // XS_CONFORMANCE_STORAGE named a storage: the store is on `table`
  xs_storage table{};
  c_storage_counts counts{};  // the table's user pointer when the storage is "c": kept in place
};

// The case's own store ("main") and each one a use_store step names: opened on first use in a
// fresh empty directory, all with the same store options and on the same storage
// (XS_CONFORMANCE_STORAGE), so that what one store exports another imports as a host would.
class CaseStores {
 public:
  // `options` without a storage (each store gets a table of its own); what it points to (a reset
  // policy) must outlive this.
  explicit CaseStores(const xs_store_options& options);
  ~CaseStores();  // frees the stores, then removes their directories and the bundle directory
  CaseStores(const CaseStores&) = delete;
  CaseStores& operator=(const CaseStores&) = delete;

  CaseStore& get(const std::string& name);  // opened on first use
  const std::string& bundles();             // the bundle directory, made on first use

 private:
  void open(CaseStore& s);

  xs_store_options options_;
  std::string storage_;  // XS_CONFORMANCE_STORAGE
  std::map<std::string, std::unique_ptr<CaseStore>> stores_;
  std::string bundles_;
};

// Runs `op` if it is a bundle step on the `current` store and returns true; false for any other op.
bool run_bundle_step(CaseStores& stores, const CaseStore& current, std::string_view op, case_json::element s,
                     xs_status expect);
