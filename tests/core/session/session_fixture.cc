#include "session_fixture.h"

#include <utility>

#include "format/clock.h"

namespace xs::session::fixture {
namespace {

const std::string kCwd = "/home/u/proj";

}  // namespace

std::string iso(int sec) { return format::iso_from_ms(kT0 + sec * 1000LL); }
std::string ms(int sec) { return std::to_string(kT0 + sec * 1000LL); }

SessionOptions options(bool defer) {
  SessionOptions o;
  o.clock = format::Clock::Fixed(kT0, 1000);
  o.id_seed = kSeed;
  o.cwd = kCwd;
  o.session_id = "sess1";
  o.defer_until_assistant = defer;
  return o;
}

std::string header_line(const std::string& extra) {
  return R"({"type":"session","version":3,"id":"sess1","timestamp":")" + iso(0) + R"(","cwd":"/home/u/proj")" + extra + "}";
}

std::string val(const Result<std::string>& r) {
  return r.ok() ? r.value() : "<error " + std::to_string(static_cast<int>(r.status().code())) + ": " + r.status().message() + ">";
}

void SessionTest::SetUp() {
  if (GetParam() == "posix") {
    tmp_ = std::make_unique<test::TempDir>();
    base_ = storage::make_posix_fs();
    root_ = tmp_->path();
  } else {
    base_ = storage::make_memory_fs();
    root_ = "/home/u/.xcsh/agent";
  }
  fs_ = std::make_shared<storage::FaultyFs>(base_);
  dir_ = root_ + "/sessions/--home-u-proj--";
  path_ = dir_ + "/" + kFileName;
  ids_ = test::seeded_entry_ids(kSeed, 64);
}

std::unique_ptr<Session> SessionTest::create(SessionOptions o) {
  auto r = Session::create(fs_, dir_, std::move(o));
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : nullptr;
}

Result<std::unique_ptr<Session>> SessionTest::open(SessionOptions o, const std::string& path) {
  return Session::open(fs_, path.empty() ? path_ : path, std::move(o));
}

SessionOptions SessionTest::read_only() {
  SessionOptions o = options();
  o.read_only = true;
  return o;
}

std::string SessionTest::content(const std::string& path) { return test::get_file(*base_, path.empty() ? path_ : path); }

bool SessionTest::exists(const std::string& path) { return base_->stat(path.empty() ? path_ : path).ok(); }

std::vector<std::string> SessionTest::names() { return test::fs_list(*base_, dir_); }

uint64_t SessionTest::ino() {
  auto st = base_->stat(path_);
  return st.ok() ? st->ino : 0;
}

void SessionTest::put(const std::string& bytes) { test::put_file(*base_, path_, bytes); }

void SessionTest::foreign_replace(const std::string& bytes) {
  test::put_file(*base_, dir_ + "/foreign.tmp", bytes);
  ASSERT_TRUE(base_->rename(dir_ + "/foreign.tmp", path_).ok());
}

std::string SessionTest::line(const std::string& type, const std::string& id, const std::string& parent, int sec,
                              const std::string& payload) {
  std::string env = R"("id":")" + id + R"(","parentId":)" + (parent.empty() ? "null" : "\"" + parent + "\"") +
                    R"(,"timestamp":")" + iso(sec) + "\"";
  bool after = type == "custom" || type == "custom_message";
  std::string out = R"({"type":")" + type + "\",";
  if (after) {
    out += payload.empty() ? env : payload + "," + env;
  } else {
    out += payload.empty() ? env : env + "," + payload;
  }
  return out + "}";
}

// Every TEST_P(SessionTest, ...) of every session_*_test.cc file, on both file systems.
INSTANTIATE_TEST_SUITE_P(Both, SessionTest, ::testing::Values("memory", "posix"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace xs::session::fixture
