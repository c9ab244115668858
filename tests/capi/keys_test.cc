// The keyed session store through the C API (xs_keys_*; docs/keyed-store.md): the document's exact
// bytes, the update callback (its view of the record, cancelling, removing, refusing calls back
// into its own handle), the document path of store options version 2, and bad input.
#include <cstring>
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

class Keys : public CapiTest {
 protected:
  std::string Get(const char* key, xs_status* st = nullptr) {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_keys_get(store_, key, b, c, n); }, st);
  }
  std::string List(const char* prefix) {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_keys_list(store_, prefix, b, c, n); });
  }
  xs_status Put(const char* key, const std::string& json) { return xs_keys_put(store_, key, json.data(), json.size()); }
  xs_status Patch(const char* key, const std::string& json) {
    return xs_keys_patch(store_, key, json.data(), json.size());
  }
  std::string Doc() { return xstest::ReadFile(root_.path() + "/sessions.json"); }
};

TEST_F(Keys, PutPatchGetListDeleteAndTheDocumentsBytes) {
  ASSERT_EQ(Put("agent:main:main", R"({"sessionId":"s1","updatedAt":1767225600000})"), XS_OK);
  ASSERT_EQ(Put("cron:nightly", R"({"sessionId":"s2","n":1.50})"), XS_OK);
  ASSERT_EQ(Patch("agent:main:main", R"({"title":"T","updatedAt":1767225601000})"), XS_OK);
  EXPECT_EQ(Doc(),
            "{\n  \"agent:main:main\": {\n    \"sessionId\": \"s1\",\n    \"updatedAt\": 1767225601000,\n"
            "    \"title\": \"T\"\n  },\n  \"cron:nightly\": {\n    \"sessionId\": \"s2\",\n    \"n\": 1.50\n  }\n}\n");
  EXPECT_EQ(Get("agent:main:main"), R"({"sessionId":"s1","updatedAt":1767225601000,"title":"T"})");
  EXPECT_EQ(List("cron:"), R"([{"key":"cron:nightly","record":{"sessionId":"s2","n":1.50}}])");
  EXPECT_EQ(List(nullptr), R"([{"key":"agent:main:main","record":{"sessionId":"s1","updatedAt":1767225601000,)"
                           R"("title":"T"}},{"key":"cron:nightly","record":{"sessionId":"s2","n":1.50}}])");
  ASSERT_EQ(xs_keys_delete(store_, "cron:nightly"), XS_OK);
  EXPECT_EQ(xs_keys_delete(store_, "cron:nightly"), XS_ENOTFOUND);
  xs_status st = XS_OK;
  Get("cron:nightly", &st);
  EXPECT_EQ(st, XS_ENOTFOUND);
}

struct UpdateProbe {
  xs_store* store = nullptr;
  std::string seen = "<not called>";
  const char* result = nullptr;  // NULL: remove
  xs_status answer = XS_OK;
  xs_status reentry = XS_OK;
  int calls = 0;
};

xs_status probe_update(void* user, const char* current, size_t len, const char** out, size_t* out_len) {
  auto* p = static_cast<UpdateProbe*>(user);
  ++p->calls;
  p->seen = current ? std::string(current, len) : "<none>";
  if (*out != current || *out_len != len) return XS_EINTERNAL;  // the documented entry state
  char buf[64];
  size_t n = 0;
  p->reentry = xs_keys_get(p->store, "k", buf, sizeof buf, &n);  // would wait forever on the lock
  *out = p->result;
  *out_len = p->result ? std::strlen(p->result) : 0;
  return p->answer;
}

TEST_F(Keys, UpdateSeesTheRecordAndDecides) {
  UpdateProbe p;
  p.store = store_;
  p.result = R"({"sessionId":"a","n":1})";
  ASSERT_EQ(xs_keys_update(store_, "k", probe_update, &p), XS_OK) << xs_store_errmsg(store_);
  EXPECT_EQ(p.seen, "<none>");
  EXPECT_EQ(p.reentry, XS_EMISUSE);
  EXPECT_EQ(Get("k"), R"({"sessionId":"a","n":1})");

  p.result = R"({"sessionId":"a","n":2})";
  p.answer = XS_ECONFLICT;  // the caller's own reason to stop
  std::string before = Doc();
  EXPECT_EQ(xs_keys_update(store_, "k", probe_update, &p), XS_ECONFLICT);
  EXPECT_EQ(p.seen, R"({"sessionId":"a","n":1})");
  EXPECT_EQ(Doc(), before);

  p.answer = XS_OK;
  p.result = R"({"n":3})";  // not a record: no sessionId
  EXPECT_EQ(xs_keys_update(store_, "k", probe_update, &p), XS_EINVAL);
  EXPECT_EQ(Doc(), before);

  p.result = nullptr;
  ASSERT_EQ(xs_keys_update(store_, "k", probe_update, &p), XS_OK);
  EXPECT_EQ(Doc(), "{}\n");
  EXPECT_EQ(p.calls, 4);
  EXPECT_EQ(xs_keys_update(store_, "k", nullptr, &p), XS_EINVAL);
}

// A's callback updates B, whose callback calls A: A's lock is held further up this thread, so the
// call is refused, not left waiting for ever.
struct Nested {
  xs_store* a;
  xs_store* b;
  xs_status inner = XS_OK;
};

xs_status inner_update(void* user, const char*, size_t, const char** out, size_t* out_len) {
  auto* n = static_cast<Nested*>(user);
  char buf[64];
  size_t len = 0;
  n->inner = xs_keys_get(n->a, "k", buf, sizeof buf, &len);
  *out = R"({"sessionId":"b"})";
  *out_len = std::strlen(*out);
  return XS_OK;
}

xs_status outer_update(void* user, const char*, size_t, const char** out, size_t* out_len) {
  auto* n = static_cast<Nested*>(user);
  xs_status rc = xs_keys_update(n->b, "k", inner_update, n);
  *out = R"({"sessionId":"a"})";
  *out_len = std::strlen(*out);
  return rc;
}

TEST_F(Keys, ACallbackInACallbackCannotCallTheOuterStore) {
  xstest::TempDir other;
  xs_store* b = xs_store_new();
  ASSERT_EQ(xs_store_open(b, other.path().c_str(), nullptr), XS_OK);
  Nested n{store_, b};
  EXPECT_EQ(xs_keys_update(store_, "k", outer_update, &n), XS_OK) << xs_store_errmsg(store_);
  EXPECT_EQ(n.inner, XS_EMISUSE);
  EXPECT_EQ(Get("k"), R"({"sessionId":"a"})");
  xs_store_free(b);
}

TEST_F(Keys, BadInputGetsAStatusAndLeavesTheDocument) {
  ASSERT_EQ(Put("k", R"({"sessionId":"s"})"), XS_OK);
  std::string before = Doc();
  EXPECT_EQ(Put("a/b", R"({"sessionId":"s"})"), XS_EINVAL);
  EXPECT_EQ(Put("k", R"({"sessionId":"s","updatedAt":"yesterday"})"), XS_EINVAL);
  EXPECT_NE(std::string(xs_store_errmsg(store_)).find("updatedAt"), std::string::npos);
  EXPECT_EQ(Put("k", "{\"sessionId\":\"s\""), XS_EINVAL);
  EXPECT_EQ(xs_keys_put(store_, nullptr, "{}", 2), XS_EINVAL);
  EXPECT_EQ(xs_keys_put(store_, "k", nullptr, 0), XS_EINVAL);
  EXPECT_EQ(xs_keys_patch(store_, "k", nullptr, 0), XS_EINVAL);
  EXPECT_EQ(xs_keys_delete(store_, nullptr), XS_EINVAL);
  xs_status bad = XS_OK;
  Get("a/b", &bad);
  EXPECT_EQ(bad, XS_EINVAL);
  EXPECT_EQ(Doc(), before);
  xstest::WriteFile(root_.path() + "/sessions.json", "{\"k\":");
  xs_status st = XS_OK;
  Get("k", &st);
  EXPECT_EQ(st, XS_ECORRUPT);
  EXPECT_EQ(Put("k", R"({"sessionId":"s"})"), XS_ECORRUPT);
  EXPECT_NE(std::string(xs_store_errmsg(store_)).find("sessions.json.corrupt-"), std::string::npos);
  EXPECT_EQ(Put("k", R"({"sessionId":"s"})"), XS_OK);
}

TEST(KeysOptions, VersionTwoNamesTheDocumentAndVersionOneStillOpens) {
  xstest::TempDir dir;
  std::string doc = dir.path() + "/elsewhere/keys.json";
  xs_store_options o;
  ASSERT_EQ(xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.keys_path, nullptr);
  o.keys_path = doc.c_str();
  xs_store* st = xs_store_new();
  ASSERT_EQ(xs_store_open(st, dir.path().c_str(), &o), XS_OK);
  ASSERT_EQ(xs_keys_put(st, "k", R"({"sessionId":"s"})", 17), XS_OK) << xs_store_errmsg(st);
  EXPECT_EQ(xstest::ReadFile(doc), "{\n  \"k\": {\n    \"sessionId\": \"s\"\n  }\n}\n");
  xs_store_free(st);

  struct {
    uint32_t version, flags;
  } v1;  // what a program built against version 1 passes: no keys_path behind it
  ASSERT_EQ(xs_store_options_init(reinterpret_cast<xs_store_options*>(&v1), 1), XS_OK);
  EXPECT_EQ(v1.version, 1u);
  st = xs_store_new();
  ASSERT_EQ(xs_store_open(st, dir.path().c_str(), reinterpret_cast<xs_store_options*>(&v1)), XS_OK);
  ASSERT_EQ(xs_keys_put(st, "k", R"({"sessionId":"s"})", 17), XS_OK);
  EXPECT_EQ(xstest::ReadFile(dir.path() + "/sessions.json"), "{\n  \"k\": {\n    \"sessionId\": \"s\"\n  }\n}\n");
  xs_store_free(st);
}

}  // namespace
