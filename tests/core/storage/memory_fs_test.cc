// storage/memory_fs: what is specific to the in-memory file system (the contract itself is in
// fs_contract_test.cc).
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "storage/fs.h"
#include "test_util.h"

namespace xs::storage {
namespace {

TEST(MemoryFs, StartsWithOnlyTheRootDirectory) {
  auto fs = make_memory_fs();
  auto root = fs->stat("/");
  ASSERT_TRUE(root.ok());
  EXPECT_TRUE(root->is_dir);
  EXPECT_TRUE(test::fs_list(*fs, "/").empty());
  EXPECT_EQ(fs->create_new("/a/b").status().code(), Code::kNotFound);
  ASSERT_TRUE(fs->create_new("/top").ok());
  EXPECT_EQ(test::fs_list(*fs, "/"), std::vector<std::string>{"top"});
}

TEST(MemoryFs, InstancesAreIndependent) {
  auto a = make_memory_fs();
  auto b = make_memory_fs();
  test::put_file(*a, "/d/f", "in a");
  EXPECT_EQ(b->stat("/d/f").status().code(), Code::kNotFound);
  auto la = a->try_lock("/d.lock");
  auto lb = b->try_lock("/d.lock");
  EXPECT_TRUE(la.ok());
  EXPECT_TRUE(lb.ok());
}

TEST(MemoryFs, EveryNewFileGetsAFreshInode) {
  auto fs = make_memory_fs();
  test::put_file(*fs, "/d/a", "1");
  auto first = fs->stat("/d/a");
  test::put_file(*fs, "/d/a", "2");  // unlink + create
  auto second = fs->stat("/d/a");
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE(first->ino, second->ino);
}

TEST(MemoryFs, FileOutlivesUnlinkWhileOpen) {
  auto fs = make_memory_fs();
  test::put_file(*fs, "/d/a", "x");
  auto f = fs->open_append("/d/a");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE(fs->unlink("/d/a").ok());
  EXPECT_TRUE((*f)->append("y").ok());
  auto st = (*f)->stat();
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->size, 2u);
  EXPECT_EQ(fs->stat("/d/a").status().code(), Code::kNotFound);
}

TEST(MemoryFs, LockReleasedWhenTheHandleDies) {
  auto fs = make_memory_fs();
  ASSERT_TRUE(fs->make_dirs("/d").ok());
  {
    auto l = fs->try_lock("/d/x.lock");
    ASSERT_TRUE(l.ok());
    EXPECT_EQ(fs->try_lock("/d/x.lock").status().code(), Code::kLocked);
  }
  EXPECT_TRUE(fs->try_lock("/d/x.lock").ok());
}

TEST(MemoryFs, ConcurrentAppendsFromManyThreadsLoseNothing) {
  auto fs = make_memory_fs();
  test::put_file(*fs, "/d/log", "");
  const int threads = 4, per_thread = 500;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      auto f = fs->open_append("/d/log");
      ASSERT_TRUE(f.ok());
      std::string line = std::string(1, static_cast<char>('a' + t)) + "0123456789\n";
      for (int i = 0; i < per_thread; ++i) ASSERT_TRUE((*f)->append(line).ok());
    });
  }
  for (auto& w : workers) w.join();
  std::string all = test::get_file(*fs, "/d/log");
  ASSERT_EQ(all.size(), static_cast<size_t>(threads * per_thread * 12));
  // Each append is atomic: every 12-byte record is intact.
  for (size_t i = 0; i < all.size(); i += 12) {
    ASSERT_EQ(all.substr(i + 1, 11), "0123456789\n") << i;
  }
}

}  // namespace
}  // namespace xs::storage
