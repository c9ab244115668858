// Library-level calls (xs_version, xs_status_str), the option-struct initialisers, and the exact
// layout of every option struct on this LP64 platform: the Rust, Go, Swift and Node bindings
// mirror these structs by hand, and their own tests compare against the numbers asserted here.
#include <cstddef>
#include <set>
#include <string>

#include "capi_test_util.h"

namespace {

// --- layout (LP64: 8-byte pointers and size_t) --------------------------------------------------

static_assert(sizeof(void*) == 8 && sizeof(size_t) == 8, "these numbers are for LP64 platforms");
static_assert(sizeof(xs_status) == 4, "xs_status is int32_t");

static_assert(sizeof(xs_store_options) == 32,
              "xs_store_options size (version 4; version 1 ends at keys_path, 2 at reset_policy, 3 at storage)");
static_assert(offsetof(xs_store_options, version) == 0, "");
static_assert(offsetof(xs_store_options, flags) == 4, "");
static_assert(offsetof(xs_store_options, keys_path) == 8, "");
static_assert(offsetof(xs_store_options, reset_policy) == 16, "");
static_assert(offsetof(xs_store_options, storage) == 24, "");

static_assert(sizeof(xs_reset_policy) == 24, "xs_reset_policy size");
static_assert(offsetof(xs_reset_policy, version) == 0, "");
static_assert(offsetof(xs_reset_policy, daily_hour) == 4, "");
static_assert(offsetof(xs_reset_policy, idle_minutes) == 8, "");
static_assert(offsetof(xs_reset_policy, time_zone) == 16, "");

static_assert(sizeof(xs_session_options) == 88, "xs_session_options size (version 2; version 1 ends at key)");
static_assert(offsetof(xs_session_options, version) == 0, "");
static_assert(offsetof(xs_session_options, flags) == 4, "");
static_assert(offsetof(xs_session_options, max_line_bytes) == 8, "");
static_assert(offsetof(xs_session_options, max_depth) == 16, "");
static_assert(offsetof(xs_session_options, dialect) == 20, "");
static_assert(offsetof(xs_session_options, clock_start_ms) == 24, "");
static_assert(offsetof(xs_session_options, clock_step_ms) == 32, "");
static_assert(offsetof(xs_session_options, id_seed) == 40, "");
static_assert(offsetof(xs_session_options, cwd) == 48, "");
static_assert(offsetof(xs_session_options, session_id) == 56, "");
static_assert(offsetof(xs_session_options, title) == 64, "");
static_assert(offsetof(xs_session_options, parent_session) == 72, "");
static_assert(offsetof(xs_session_options, key) == 80, "");

static_assert(sizeof(xs_compaction) == 88, "xs_compaction size");
static_assert(offsetof(xs_compaction, version) == 0, "");
static_assert(offsetof(xs_compaction, from_extension) == 4, "");
static_assert(offsetof(xs_compaction, summary) == 8, "");
static_assert(offsetof(xs_compaction, summary_len) == 16, "");
static_assert(offsetof(xs_compaction, short_summary) == 24, "");
static_assert(offsetof(xs_compaction, short_summary_len) == 32, "");
static_assert(offsetof(xs_compaction, first_kept_entry_id) == 40, "");
static_assert(offsetof(xs_compaction, tokens_before) == 48, "");
static_assert(offsetof(xs_compaction, details_json) == 56, "");
static_assert(offsetof(xs_compaction, details_len) == 64, "");
static_assert(offsetof(xs_compaction, preserve_data_json) == 72, "");
static_assert(offsetof(xs_compaction, preserve_data_len) == 80, "");

static_assert(sizeof(xs_custom_message) == 56, "xs_custom_message size");
static_assert(offsetof(xs_custom_message, version) == 0, "");
static_assert(offsetof(xs_custom_message, display) == 4, "");
static_assert(offsetof(xs_custom_message, custom_type) == 8, "");
static_assert(offsetof(xs_custom_message, content_json) == 16, "");
static_assert(offsetof(xs_custom_message, content_len) == 24, "");
static_assert(offsetof(xs_custom_message, details_json) == 32, "");
static_assert(offsetof(xs_custom_message, details_len) == 40, "");
static_assert(offsetof(xs_custom_message, attribution) == 48, "");

static_assert(sizeof(xs_session_init_entry) == 72, "xs_session_init_entry size");
static_assert(offsetof(xs_session_init_entry, version) == 0, "");
static_assert(offsetof(xs_session_init_entry, reserved) == 4, "");
static_assert(offsetof(xs_session_init_entry, system_prompt) == 8, "");
static_assert(offsetof(xs_session_init_entry, system_prompt_len) == 16, "");
static_assert(offsetof(xs_session_init_entry, task) == 24, "");
static_assert(offsetof(xs_session_init_entry, task_len) == 32, "");
static_assert(offsetof(xs_session_init_entry, tools_json) == 40, "");
static_assert(offsetof(xs_session_init_entry, tools_len) == 48, "");
static_assert(offsetof(xs_session_init_entry, output_schema_json) == 56, "");
static_assert(offsetof(xs_session_init_entry, output_schema_len) == 64, "");

static_assert(sizeof(xs_list_options) == 24, "xs_list_options size");
static_assert(offsetof(xs_list_options, version) == 0, "");
static_assert(offsetof(xs_list_options, flags) == 4, "");
static_assert(offsetof(xs_list_options, limit) == 8, "");
static_assert(offsetof(xs_list_options, cwd) == 16, "");

// The same numbers at run time, so a failing mirror check in a binding can point at a test name.
TEST(Layout, StoreOptions) {
  EXPECT_EQ(sizeof(xs_store_options), 32u);
  EXPECT_EQ(alignof(xs_store_options), 8u);
  EXPECT_EQ(offsetof(xs_store_options, reset_policy), 16u);
  EXPECT_EQ(offsetof(xs_store_options, storage), 24u);
}

TEST(Layout, ResetPolicy) {
  EXPECT_EQ(sizeof(xs_reset_policy), 24u);
  EXPECT_EQ(alignof(xs_reset_policy), 8u);
  EXPECT_EQ(offsetof(xs_reset_policy, idle_minutes), 8u);
  EXPECT_EQ(offsetof(xs_reset_policy, time_zone), 16u);
}

TEST(Layout, SessionOptions) {
  EXPECT_EQ(sizeof(xs_session_options), 88u);
  EXPECT_EQ(alignof(xs_session_options), 8u);
  EXPECT_EQ(offsetof(xs_session_options, max_line_bytes), 8u);
  EXPECT_EQ(offsetof(xs_session_options, id_seed), 40u);
  EXPECT_EQ(offsetof(xs_session_options, parent_session), 72u);
}

TEST(Layout, Compaction) {
  EXPECT_EQ(sizeof(xs_compaction), 88u);
  EXPECT_EQ(alignof(xs_compaction), 8u);
  EXPECT_EQ(offsetof(xs_compaction, tokens_before), 48u);
  EXPECT_EQ(offsetof(xs_compaction, preserve_data_len), 80u);
}

TEST(Layout, CustomMessage) {
  EXPECT_EQ(sizeof(xs_custom_message), 56u);
  EXPECT_EQ(alignof(xs_custom_message), 8u);
  EXPECT_EQ(offsetof(xs_custom_message, attribution), 48u);
}

TEST(Layout, SessionInit) {
  EXPECT_EQ(sizeof(xs_session_init_entry), 72u);
  EXPECT_EQ(alignof(xs_session_init_entry), 8u);
  EXPECT_EQ(offsetof(xs_session_init_entry, output_schema_len), 64u);
}

TEST(Layout, ListOptions) {
  EXPECT_EQ(sizeof(xs_list_options), 24u);
  EXPECT_EQ(alignof(xs_list_options), 8u);
  EXPECT_EQ(offsetof(xs_list_options, limit), 8u);
  EXPECT_EQ(offsetof(xs_list_options, cwd), 16u);
}

TEST(Layout, Constants) {
  EXPECT_EQ(XS_HASH_BUFSIZE, 65);  // SHA-256 hex + NUL
  EXPECT_EQ(XS_LIST_FULL, 0x1u);
  EXPECT_EQ(XS_ID_BUFSIZE, 65);  // 64 chars + NUL
  EXPECT_EQ(XS_UNSET, -1);
  EXPECT_EQ(XS_STORE_IN_MEMORY, 0x1u);
  EXPECT_EQ(XS_SESSION_READ_ONLY, 0x1u);
  EXPECT_EQ(XS_SESSION_CREATE, 0x2u);
  EXPECT_EQ(XS_SESSION_NO_DEFER, 0x4u);
  EXPECT_EQ(XS_SESSION_SYNC, 0x8u);
  EXPECT_EQ(XS_SESSION_FIXED_CLOCK, 0x10u);
}

// --- xs_version / xs_status_str ---------------------------------------------------------------

TEST(Library, VersionMatchesHeader) {
  int major = -1, minor = -1, patch = -1;
  xs_version(&major, &minor, &patch);
  EXPECT_EQ(major, XS_VERSION_MAJOR);
  EXPECT_EQ(minor, XS_VERSION_MINOR);
  EXPECT_EQ(patch, XS_VERSION_PATCH);
  EXPECT_EQ(major, 0);
  EXPECT_EQ(minor, 2);
  EXPECT_EQ(patch, 0);
}

TEST(Library, VersionAcceptsNullOutputs) {
  int minor = -1;
  xs_version(nullptr, &minor, nullptr);
  EXPECT_EQ(minor, XS_VERSION_MINOR);
  xs_version(nullptr, nullptr, nullptr);  // must not crash
}

struct NamedCode {
  xs_status code;
  const char* name;
};

const NamedCode kCodes[] = {
    {XS_OK, "XS_OK"},
    {XS_ERROR, "XS_ERROR"},
    {XS_ENOMEM, "XS_ENOMEM"},
    {XS_EINVAL, "XS_EINVAL"},
    {XS_EMISUSE, "XS_EMISUSE"},
    {XS_ENOTFOUND, "XS_ENOTFOUND"},
    {XS_EEXISTS, "XS_EEXISTS"},
    {XS_EBUFS, "XS_EBUFS"},
    {XS_ECORRUPT, "XS_ECORRUPT"},
    {XS_EIO, "XS_EIO"},
    {XS_ELOCKED, "XS_ELOCKED"},
    {XS_EVERSION, "XS_EVERSION"},
    {XS_ENOSPC, "XS_ENOSPC"},
    {XS_EREADONLY, "XS_EREADONLY"},
    {XS_ECONFLICT, "XS_ECONFLICT"},
    {XS_ELIMIT, "XS_ELIMIT"},
    {XS_ENOHEADER, "XS_ENOHEADER"},
    {XS_EPOISONED, "XS_EPOISONED"},
    {XS_EAMBIGUOUS, "XS_EAMBIGUOUS"},
    {XS_EDIALECT, "XS_EDIALECT"},
    {XS_EINTERNAL, "XS_EINTERNAL"},
};

TEST(Library, StatusCodesNeverRenumbered) {
  EXPECT_EQ(XS_OK, 0);
  EXPECT_EQ(XS_ERROR, -1);
  EXPECT_EQ(XS_ENOMEM, -2);
  EXPECT_EQ(XS_EINVAL, -3);
  EXPECT_EQ(XS_EMISUSE, -4);
  EXPECT_EQ(XS_ENOTFOUND, -5);
  EXPECT_EQ(XS_EEXISTS, -6);
  EXPECT_EQ(XS_EBUFS, -7);
  EXPECT_EQ(XS_ECORRUPT, -8);
  EXPECT_EQ(XS_EIO, -9);
  EXPECT_EQ(XS_ELOCKED, -10);
  EXPECT_EQ(XS_EVERSION, -11);
  EXPECT_EQ(XS_ENOSPC, -12);
  EXPECT_EQ(XS_EREADONLY, -13);
  EXPECT_EQ(XS_ECONFLICT, -14);
  EXPECT_EQ(XS_ELIMIT, -15);
  EXPECT_EQ(XS_ENOHEADER, -16);
  EXPECT_EQ(XS_EPOISONED, -17);
  EXPECT_EQ(XS_EAMBIGUOUS, -18);
  EXPECT_EQ(XS_EDIALECT, -19);
  EXPECT_EQ(XS_EINTERNAL, -99);
}

TEST(Library, StatusStrNamesEveryCode) {
  std::set<std::string> seen;
  for (const NamedCode& c : kCodes) {
    const char* s = xs_status_str(c.code);
    ASSERT_NE(s, nullptr) << c.name;
    std::string text(s);
    // "<NAME>: <english>", as the header's example "XS_ENOTFOUND: not found".
    std::string prefix = std::string(c.name) + ": ";
    EXPECT_EQ(text.compare(0, prefix.size(), prefix), 0) << text;
    EXPECT_GT(text.size(), prefix.size()) << text;
    EXPECT_TRUE(seen.insert(text).second) << "two codes share the text " << text;
    EXPECT_EQ(xs_status_str(c.code), s) << "the text is static";
  }
  EXPECT_STREQ(xs_status_str(XS_ENOTFOUND), "XS_ENOTFOUND: not found");
}

TEST(Library, StatusStrUnknownCodes) {
  for (xs_status code : {1, 7, -20, -98, -100, -1000, INT32_MIN, INT32_MAX}) {
    const char* s = xs_status_str(code);
    ASSERT_NE(s, nullptr);
    EXPECT_STREQ(s, "unknown status") << code;
  }
}

// --- option initialisers ----------------------------------------------------------------------

TEST(OptionsInit, StoreOptions) {
  xs_store_options o;
  std::memset(&o, 0xAB, sizeof o);
  ASSERT_EQ(xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.version, static_cast<uint32_t>(XS_STORE_OPTIONS_VERSION));
  EXPECT_EQ(o.flags, 0u);
  EXPECT_EQ(o.keys_path, nullptr);
  EXPECT_EQ(o.reset_policy, nullptr);
  EXPECT_EQ(xs_store_options_init(nullptr, XS_STORE_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_store_options_init(&o, 0), XS_EVERSION);
  EXPECT_EQ(xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION + 1), XS_EVERSION);
}

TEST(OptionsInit, SessionOptionsDefaults) {
  xs_session_options o;
  std::memset(&o, 0xAB, sizeof o);
  ASSERT_EQ(xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.version, static_cast<uint32_t>(XS_SESSION_OPTIONS_VERSION));
  EXPECT_EQ(o.flags, 0u);
  EXPECT_EQ(o.max_line_bytes, 0u);  // 0 = the default (64 MiB)
  EXPECT_EQ(o.max_depth, 0u);       // 0 = the default (256)
  EXPECT_EQ(o.dialect, static_cast<uint32_t>(XS_DIALECT_AUTO));
  EXPECT_EQ(o.clock_start_ms, 0);
  EXPECT_EQ(o.clock_step_ms, 0);
  EXPECT_EQ(o.id_seed, 0u);  // random ids
  EXPECT_EQ(o.cwd, nullptr);
  EXPECT_EQ(o.session_id, nullptr);
  EXPECT_EQ(o.title, nullptr);
  EXPECT_EQ(o.parent_session, nullptr);
  EXPECT_EQ(o.key, nullptr);
}

TEST(OptionsInit, SessionOptionsVersionOneWritesOnlyItsFields) {
  xs_session_options o;
  std::memset(&o, 0xAB, sizeof o);
  ASSERT_EQ(xs_session_options_init(&o, 1), XS_OK);
  EXPECT_EQ(o.version, 1u);
  EXPECT_EQ(o.parent_session, nullptr);
  const unsigned char* key_bytes = reinterpret_cast<const unsigned char*>(&o.key);
  for (size_t i = 0; i < sizeof o.key; ++i) EXPECT_EQ(key_bytes[i], 0xAB) << "byte " << i << " of key was written";
}

TEST(OptionsInit, SessionOptionsErrors) {
  xs_session_options o;
  EXPECT_EQ(xs_session_options_init(nullptr, XS_SESSION_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_session_options_init(&o, 0), XS_EVERSION);
  EXPECT_EQ(xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION + 1), XS_EVERSION);
}

TEST(OptionsInit, CompactionDefaults) {
  xs_compaction c;
  std::memset(&c, 0xAB, sizeof c);
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  EXPECT_EQ(c.version, static_cast<uint32_t>(XS_COMPACTION_VERSION));
  EXPECT_EQ(c.from_extension, XS_UNSET);  // "XS_UNSET (default)"
  EXPECT_EQ(c.summary, nullptr);
  EXPECT_EQ(c.summary_len, 0u);
  EXPECT_EQ(c.short_summary, nullptr);
  EXPECT_EQ(c.short_summary_len, 0u);
  EXPECT_EQ(c.first_kept_entry_id, nullptr);
  EXPECT_EQ(c.tokens_before, 0);
  EXPECT_EQ(c.details_json, nullptr);
  EXPECT_EQ(c.details_len, 0u);
  EXPECT_EQ(c.preserve_data_json, nullptr);
  EXPECT_EQ(c.preserve_data_len, 0u);
  EXPECT_EQ(xs_compaction_init(nullptr, XS_COMPACTION_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_compaction_init(&c, 0), XS_EVERSION);
  EXPECT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION + 1), XS_EVERSION);
}

TEST(OptionsInit, CustomMessageDefaults) {
  xs_custom_message m;
  std::memset(&m, 0xAB, sizeof m);
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  EXPECT_EQ(m.version, static_cast<uint32_t>(XS_CUSTOM_MESSAGE_VERSION));
  EXPECT_EQ(m.display, 1);  // "0 or 1 (default 1)"
  EXPECT_EQ(m.custom_type, nullptr);
  EXPECT_EQ(m.content_json, nullptr);
  EXPECT_EQ(m.content_len, 0u);
  EXPECT_EQ(m.details_json, nullptr);
  EXPECT_EQ(m.details_len, 0u);
  EXPECT_EQ(m.attribution, nullptr);
  EXPECT_EQ(xs_custom_message_init(nullptr, XS_CUSTOM_MESSAGE_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_custom_message_init(&m, 0), XS_EVERSION);
  EXPECT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION + 1), XS_EVERSION);
}

TEST(OptionsInit, SessionInitDefaults) {
  xs_session_init_entry si;
  std::memset(&si, 0xAB, sizeof si);
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  EXPECT_EQ(si.version, static_cast<uint32_t>(XS_SESSION_INIT_ENTRY_VERSION));
  EXPECT_EQ(si.reserved, 0u);
  EXPECT_EQ(si.system_prompt, nullptr);
  EXPECT_EQ(si.system_prompt_len, 0u);
  EXPECT_EQ(si.task, nullptr);
  EXPECT_EQ(si.task_len, 0u);
  EXPECT_EQ(si.tools_json, nullptr);
  EXPECT_EQ(si.tools_len, 0u);
  EXPECT_EQ(si.output_schema_json, nullptr);
  EXPECT_EQ(si.output_schema_len, 0u);
  EXPECT_EQ(xs_session_init_entry_init(nullptr, XS_SESSION_INIT_ENTRY_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_session_init_entry_init(&si, 0), XS_EVERSION);
  EXPECT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION + 1), XS_EVERSION);
}

TEST(OptionsInit, ListOptionsDefaults) {
  xs_list_options o;
  std::memset(&o, 0xAB, sizeof o);
  ASSERT_EQ(xs_list_options_init(&o, XS_LIST_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.version, static_cast<uint32_t>(XS_LIST_OPTIONS_VERSION));
  EXPECT_EQ(o.flags, 0u);
  EXPECT_EQ(o.limit, 0u);  // 0 = all
  EXPECT_EQ(o.cwd, nullptr);  // every working directory
  EXPECT_EQ(xs_list_options_init(nullptr, XS_LIST_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_list_options_init(&o, 0), XS_EVERSION);
  EXPECT_EQ(xs_list_options_init(&o, XS_LIST_OPTIONS_VERSION + 1), XS_EVERSION);
}

// --- option structs as the library reads them -------------------------------------------------

using OptionsUse = xstest::CapiTest;

TEST_F(OptionsUse, StoreOptionsWrongVersionIsEversion) {
  xs_store* st = xs_store_new();
  ASSERT_NE(st, nullptr);
  xs_store_options o;
  ASSERT_EQ(xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION), XS_OK);
  o.version = 99;
  EXPECT_EQ(xs_store_open(st, root_.path().c_str(), &o), XS_EVERSION);
  EXPECT_EQ(xs_store_errcode(st), XS_EVERSION);
  EXPECT_STRNE(xs_store_errmsg(st), "");
  // Still not open: a correct open works afterwards.
  o.version = XS_STORE_OPTIONS_VERSION;
  EXPECT_EQ(xs_store_open(st, root_.path().c_str(), &o), XS_OK) << xs_store_errmsg(st);
  xs_store_free(st);
}

TEST_F(OptionsUse, SessionOptionsWrongVersionIsEversion) {
  xs_session_options o = Opts();
  o.version = XS_SESSION_OPTIONS_VERSION + 1;
  xs_session* s = nullptr;
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EVERSION);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_store_errcode(store_), XS_EVERSION);
  o.version = 0;
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EVERSION);
  EXPECT_EQ(s, nullptr);
}

// The field was `reserved` (must be 0) before dialects: 0 still means what it meant.
TEST_F(OptionsUse, SessionOptionsDialectOutOfRangeIsRefused) {
  xs_session_options o = Opts();
  o.dialect = XS_DIALECT_PI + 1;
  xs_session* s = nullptr;
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  EXPECT_NE(std::string(xs_store_errmsg(store_)).find("dialect"), std::string::npos);
}

TEST_F(OptionsUse, SessionOptionsLimitsOverTheirMaximum) {
  xs_session* s = nullptr;
  xs_session_options o = Opts();
  o.max_line_bytes = (1ull << 30) + 1;  // max 1 GiB
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  o = Opts();
  o.max_depth = 4097;  // max 4096
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  // The maxima themselves are accepted.
  o = Opts();
  o.max_line_bytes = 1ull << 30;
  o.max_depth = 4096;
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_OK) << xs_store_errmsg(store_);
  xs_session_close(s);
}

TEST_F(OptionsUse, NullOptionsMeanDefaults) {
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_create(store_, "/work/proj", nullptr, &s), XS_OK) << xs_store_errmsg(store_);
  std::string info = xstest::Info(s);
  EXPECT_NE(info.find("\"persisted\":false"), std::string::npos) << info;  // deferred by default
  EXPECT_NE(info.find("\"readOnly\":false"), std::string::npos) << info;
  std::string id = xstest::JsonStr(info, "id");
  EXPECT_EQ(id.size(), 16u) << "generated session ids are 16 hex chars: " << id;
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  xs_session_close(s);
}

TEST_F(OptionsUse, SessionOptionsHeaderFields) {
  xs_session_options o = Opts(XS_SESSION_NO_DEFER);
  o.session_id = "my-session_01";
  o.title = "A \"quoted\" title";
  o.parent_session = "0123456789abcdef";
  o.cwd = "/ignored/by/create";  // create takes cwd as an argument
  xs_session* s = Create(&o, "/work/proj");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(xstest::Header(s),
            xstest::HeaderLine("my-session_01", xstest::Ts(0), "/work/proj",
                               ",\"title\":\"A \\\"quoted\\\" title\",\"parentSession\":\"0123456789abcdef\""));
}

TEST_F(OptionsUse, MaxDepthIsConfigurable) {
  // The root is depth 1 and every value inside a container is one deeper (scalars included).
  // A message is a value inside the entry object, so a message of depth d makes a line of d + 1.
  xs_session_options o = Opts();
  o.max_depth = 5;
  xs_session* s = Create(&o);
  ASSERT_NE(s, nullptr);
  // line: entry(1) > message(2) > content array(3) > object(4) > 1(5)  -> depth 5: fits
  std::string ok = R"({"role":"user","content":[{"x":1}]})";
  // one level more -> depth 6: refused
  std::string deep = R"({"role":"user","content":[{"x":[1]}]})";
  XS_EXPECT_S(XS_OK, s, xs_append_message(s, ok.data(), ok.size(), nullptr));
  XS_EXPECT_S(XS_ELIMIT, s, xs_append_message(s, deep.data(), deep.size(), nullptr));
}

}  // namespace
