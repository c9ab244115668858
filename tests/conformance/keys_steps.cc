#include "keys_steps.h"

#include <optional>
#include <vector>

#include "output_dump.h"

using namespace case_json;

namespace {

// What a keys_update step's callback does and saw.
struct UpdatePlan {
  std::optional<std::string> result;  // nullopt: remove the record
  xs_status answer = XS_OK;
  std::string seen;
  bool saw_none = false;
};

xs_status planned_update(void* user, const char* current, size_t len, const char** out, size_t* out_len) {
  auto* plan = static_cast<UpdatePlan*>(user);
  plan->saw_none = current == nullptr;
  plan->seen.assign(current ? current : "", current ? len : 0);
  if (plan->answer != XS_OK) return plan->answer;
  *out = plan->result ? plan->result->c_str() : nullptr;
  *out_len = plan->result ? plan->result->size() : 0;
  return XS_OK;
}

}  // namespace

bool run_keys_step(xs_store* store, const std::string& root, std::string_view op, element s, xs_status expect) {
  const std::string doc = root + "/sessions.json";
  auto rc_check = [&](xs_status rc) { EXPECT_EQ(rc, expect) << xs_store_errmsg(store); };
  if (op == "keys_put") {
    std::string record = text(s, "record");
    rc_check(xs_keys_put(store, c_str(s, "key"), record.data(), record.size()));
  } else if (op == "keys_patch") {
    std::string patch = text(s, "patch");
    rc_check(xs_keys_patch(store, c_str(s, "key"), patch.data(), patch.size()));
  } else if (op == "keys_delete") {
    rc_check(xs_keys_delete(store, c_str(s, "key")));
  } else if (op == "keys_update") {
    UpdatePlan plan;
    if (has(s, "result") && !at(s, "result").is_null()) plan.result = text(s, "result");
    if (has(s, "cancel")) plan.answer = status_names().at(c_str(s, "cancel"));
    rc_check(xs_keys_update(store, c_str(s, "key"), planned_update, &plan));
    if (has(s, "expect_current")) {
      if (at(s, "expect_current").is_null()) {
        EXPECT_TRUE(plan.saw_none) << plan.seen;
      } else {
        EXPECT_FALSE(plan.saw_none);
        EXPECT_EQ(plan.seen, text(s, "expect_current"));
      }
    }
  } else if (op == "check_keys_get") {
    std::string got;
    const char* key = c_str(s, "key");
    xs_status rc = read_json(
        "xs_keys_get", [&](char* b, size_t c, size_t* n) { return xs_keys_get(store, key, b, c, n); }, &got);
    EXPECT_EQ(rc, expect) << xs_store_errmsg(store);
    if (rc == XS_OK) {
      EXPECT_EQ(got, text(s, "json"));
    }
  } else if (op == "check_keys_list") {
    std::string got;
    const char* prefix = str(s, "prefix");
    xs_status rc = read_json(
        "xs_keys_list", [&](char* b, size_t c, size_t* n) { return xs_keys_list(store, prefix, b, c, n); }, &got);
    EXPECT_EQ(rc, expect) << xs_store_errmsg(store);
    if (rc == XS_OK) {
      EXPECT_EQ(got, text(s, "json"));
    }
  } else if (op == "check_keys_file") {
    bool exists = false;
    std::string bytes = read_file(doc, &exists);
    if (has(s, "exists") && !flag(s, "exists")) {
      EXPECT_FALSE(exists) << bytes;
    } else {
      EXPECT_TRUE(exists);
      EXPECT_EQ(bytes, text(s, "raw"));
    }
  } else if (op == "check_keys_preserved") {
    std::vector<std::string> found;
    for (const std::string& n : names_in(root)) {
      if (n.rfind("sessions.json.corrupt-", 0) == 0) found.push_back(n);
    }
    EXPECT_EQ(found.size(), 1u);
    if (found.size() == 1) {
      EXPECT_EQ(read_file(root + "/" + found[0]), text(s, "raw"));
    }
  } else {
    return false;
  }
  return true;
}
