// Threads: calls on one handle are serialised internally (a handle may be shared), distinct
// handles are independent, and the library has no global mutable state.
#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

// The loop a binding runs when another thread may change the handle between the size query and
// the fill: XS_EBUFS again means "grow and retry".
std::string FetchLoop(const xstest::Reader& read, xs_status* final_status) {
  std::string buf;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    size_t need = 0;
    xs_status st = read(buf.empty() ? nullptr : &buf[0], buf.size(), &need);
    if (st == XS_OK) {
      *final_status = XS_OK;
      return buf.substr(0, need);
    }
    if (st != XS_EBUFS) {
      *final_status = st;
      return std::string();
    }
    buf.assign(need, '\0');
  }
  *final_status = XS_ERROR;
  return std::string();
}

std::string UserMsg(int thread, int i) {
  return "{\"role\":\"user\",\"content\":\"t" + std::to_string(thread) + "-" + std::to_string(i) + "\"}";
}

using Threads = CapiTest;

TEST_F(Threads, TwoThreadsAppendToOneSharedHandle) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  constexpr int kPerThread = 300;
  std::vector<std::vector<std::string>> ids(2);
  std::atomic<int> failures{0};
  std::atomic<bool> writing{true};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        std::string m = UserMsg(t, i);
        char id[XS_ID_BUFSIZE];
        if (xs_append_message(s, m.data(), m.size(), id) != XS_OK) {
          ++failures;
          continue;
        }
        ids[t].push_back(id);
      }
    });
  }
  // A reader on the same handle meanwhile: every context it gets is whole.
  std::atomic<int> reads{0}, bad_reads{0};
  std::mutex bad_mu;
  std::string bad_example;
  std::thread reader([&] {
    do {
      xs_status st;
      std::string ctx = FetchLoop([&](char* b, size_t c, size_t* n) { return xs_build_context(s, nullptr, b, c, n); },
                                  &st);
      // Before the first append the leaf is none ({"leafId":null,...}).
      bool whole = st == XS_OK && ctx.compare(0, 10, "{\"leafId\":") == 0 && ctx.back() == '}' &&
                   xstest::Count(ctx, "\"thinkingLevel\":") == 1;
      if (!whole) {
        ++bad_reads;
        std::lock_guard<std::mutex> lock(bad_mu);
        bad_example = std::string(xs_status_str(st)) + ": " + ctx.substr(0, 200);
      }
      ++reads;
    } while (writing.load());
  });
  for (auto& th : threads) th.join();
  writing = false;
  reader.join();

  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(bad_reads.load(), 0) << bad_example;
  EXPECT_GT(reads.load(), 0);
  ASSERT_EQ(ids[0].size(), static_cast<size_t>(kPerThread));
  ASSERT_EQ(ids[1].size(), static_cast<size_t>(kPerThread));
  std::set<std::string> all(ids[0].begin(), ids[0].end());
  all.insert(ids[1].begin(), ids[1].end());
  EXPECT_EQ(all.size(), static_cast<size_t>(2 * kPerThread)) << "ids are unique";

  // The file: a header, then every append as one intact line, chained through parentId in
  // file order (appends are serialised, each a child of the previous leaf).
  auto lines = xstest::SplitLines(xstest::ReadFile(path));
  ASSERT_EQ(lines.size(), static_cast<size_t>(2 * kPerThread + 1));
  std::vector<int> next(2, 0);
  std::string prev;
  for (size_t k = 1; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    std::string id = xstest::JsonStr(l, "id");
    EXPECT_EQ(l.compare(0, 24, "{\"type\":\"message\",\"id\":\""), 0) << l;
    ASSERT_GE(l.size(), 2u);
    EXPECT_EQ(l.substr(l.size() - 2), "}}") << l;
    if (k == 1) {
      EXPECT_NE(l.find("\"parentId\":null"), std::string::npos) << l;
    } else {
      EXPECT_EQ(xstest::JsonStr(l, "parentId"), prev) << l;
    }
    // Each thread's messages appear in its own order, exactly once.
    std::string content = xstest::JsonStr(l, "content");
    ASSERT_GE(content.size(), 4u) << l;
    int t = content[1] - '0';
    ASSERT_TRUE(t == 0 || t == 1) << l;
    EXPECT_EQ(l, "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":" + (k == 1 ? "null" : "\"" + prev + "\"") +
                     ",\"timestamp\":\"" + xstest::Ts(static_cast<int>(k)) + "\",\"message\":" + UserMsg(t, next[t]) +
                     "}");
    EXPECT_EQ(id, ids[t][next[t]]);
    ++next[t];
    prev = id;
  }
  EXPECT_EQ(next[0], kPerThread);
  EXPECT_EQ(next[1], kPerThread);
  EXPECT_EQ(xstest::Leaf(s), prev);
  EXPECT_EQ(xstest::Count(xstest::PathEntries(s), "\"type\":\"message\""), static_cast<size_t>(2 * kPerThread));
}

TEST_F(Threads, DistinctSessionsFromSeveralThreads) {
  constexpr int kThreads = 4;
  constexpr int kTurns = 50;
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::string& err = errors[t];
      // Sessions are created through the shared store (store calls are serialised).
      xs_session_options o = Opts(XS_SESSION_NO_DEFER);
      std::string sid = "thread-" + std::to_string(t);
      o.session_id = sid.c_str();
      xs_session* s = nullptr;
      std::string cwd = "/work/t" + std::to_string(t);
      if (xs_session_create(store_, cwd.c_str(), &o, &s) != XS_OK || !s) {
        err = "create failed";
        return;
      }
      std::string messages;
      std::string last;
      for (int i = 0; i < kTurns; ++i) {
        std::string u = UserMsg(t, i);
        std::string a = "{\"role\":\"assistant\",\"content\":[],\"provider\":\"p" + std::to_string(t) +
                        "\",\"model\":\"m\",\"n\":" + std::to_string(i) + "}";
        char id[XS_ID_BUFSIZE];
        if (xs_append_message(s, u.data(), u.size(), id) != XS_OK ||
            xs_append_message(s, a.data(), a.size(), id) != XS_OK) {
          err = std::string("append failed: ") + xs_session_errmsg(s);
          break;
        }
        messages += (i ? "," : "") + u + "," + a;
        last = id;
      }
      xs_status st;
      std::string ctx =
          FetchLoop([&](char* b, size_t c, size_t* n) { return xs_build_context(s, nullptr, b, c, n); }, &st);
      std::string want = "{\"leafId\":\"" + last + "\",\"messages\":[" + messages +
                         "],\"thinkingLevel\":\"off\",\"models\":{\"default\":\"p" + std::to_string(t) +
                         "/m\"},\"injectedTtsrRules\":[],\"mode\":\"none\"}";
      if (err.empty() && (st != XS_OK || ctx != want)) err = "context differs: " + ctx;
      std::string info = FetchLoop([&](char* b, size_t c, size_t* n) { return xs_session_info(s, b, c, n); }, &st);
      std::string path = xstest::JsonStr(info, "path");
      xs_session_close(s);
      // Reopen read-only through the shared store and compare.
      xs_session_options ro;
      xs_session_options_init(&ro, XS_SESSION_OPTIONS_VERSION);
      ro.flags = XS_SESSION_READ_ONLY;
      xs_session* r = nullptr;
      if (xs_session_open(store_, path.c_str(), &ro, &r) != XS_OK) {
        if (err.empty()) err = "reopen failed";
        return;
      }
      std::string again =
          FetchLoop([&](char* b, size_t c, size_t* n) { return xs_build_context(r, nullptr, b, c, n); }, &st);
      if (err.empty() && again != want) err = "reopened context differs";
      xs_session_close(r);
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t;
  for (int t = 0; t < kThreads; ++t) {
    std::vector<std::string> sessions;
    for (const std::string& f : xstest::ListDir(root_.path() + "/sessions/--work-t" + std::to_string(t) + "--")) {
      if (f.size() > 6 && f.compare(f.size() - 6, 6, ".jsonl") == 0) sessions.push_back(f);
    }
    EXPECT_EQ(sessions, std::vector<std::string>({xstest::FileName(xstest::Ts(0), "thread-" + std::to_string(t))}))
        << "thread " << t;
  }
}

TEST_F(Threads, SharedStoreOutputCacheIsNeverMixedUp) {
  // Several threads size-query and fill on one store with different arguments: a result cached
  // for one call must never be handed to another.
  constexpr int kThreads = 4;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::string cwd = "/project/" + std::string(static_cast<size_t>(t + 1), 'x');
      std::string want = root_.path() + "/sessions/--project-" + std::string(static_cast<size_t>(t + 1), 'x') + "--";
      for (int i = 0; i < 300; ++i) {
        xs_status st;
        std::string got = FetchLoop(
            [&](char* b, size_t c, size_t* n) { return xs_store_session_dir(store_, cwd.c_str(), b, c, n); }, &st);
        if (st != XS_OK || got != want) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(Threads, SharedSessionOutputCacheIsNeverMixedUp) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(Msg(s, UserMsg(9, i)));
  std::vector<std::string> want;
  for (const std::string& id : ids) want.push_back(xstest::Entry(s, id));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        xs_status st;
        std::string got = FetchLoop(
            [&](char* b, size_t c, size_t* n) { return xs_session_entry(s, ids[t].c_str(), 0, b, c, n); }, &st);
        if (st != XS_OK || got != want[t]) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ThreadsLibrary, VersionAndStatusStrFromManyThreads) {
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        int a = -1, b = -1, c = -1;
        xs_version(&a, &b, &c);
        if (a != XS_VERSION_MAJOR || b != XS_VERSION_MINOR || c != XS_VERSION_PATCH) ++wrong;
        if (std::string(xs_status_str(XS_ENOTFOUND)) != "XS_ENOTFOUND: not found") ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
