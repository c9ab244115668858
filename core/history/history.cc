// The prompt history's lifecycle and its writer thread (history.h).
#include "history/history.h"

#include "json/json_string.h"

namespace xs::history {
namespace {

int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

Status check_text(std::string_view text, const char* what) {
  if (text.find('\0') != std::string_view::npos) return Status::Invalid(std::string(what) + " contains a NUL byte");
  if (!json::is_valid_utf8(text)) return Status::Invalid(std::string(what) + " is not valid UTF-8");
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<History>> History::open(std::shared_ptr<storage::Fs> fs, std::string path,
                                               const HistoryOptions& options) {
  if (path.empty()) return Status::Invalid("the history path is empty");
  std::unique_ptr<History> h(new History(std::move(path), options));
  OpenSettings settings{options.busy_timeout, options.sync_full};
  XS_RETURN_IF_ERROR(open_database(*fs, h->path_, settings, &h->write_db_, &h->damaged_));
  XS_RETURN_IF_ERROR(h->read_db_.open(h->path_, false, options.busy_timeout));
  Result<Stmt> insert = h->write_db_.prepare("INSERT INTO history(prompt, created_at, cwd) VALUES (?1, ?2, ?3)");
  if (!insert.ok()) return insert.status();
  h->insert_ = std::move(*insert);
  XS_RETURN_IF_ERROR(h->seed_last_prompt());
  h->writer_ = std::thread([p = h.get()] { p->writer_loop(); });
  return h;
}

History::~History() { close(); }

// The last prompt in the file, whoever wrote it: an agent restarted in the same cwd does not
// record the prompt it is handed again.
Status History::seed_last_prompt() {
  return read([&]() -> Status {
    Result<Stmt> s = read_db_.prepare("SELECT prompt, cwd FROM history ORDER BY id DESC LIMIT 1");
    if (!s.ok()) return s.status();
    int rc = s->step();
    if (rc == SQLITE_DONE) return Status::Ok();
    if (rc != SQLITE_ROW) return read_db_.error(rc, "read the last prompt");
    last_prompt_.assign(s->text(0));
    if (!s->is_null(1)) last_cwd_.emplace(s->text(1));
    have_last_ = true;
    return Status::Ok();
  });
}

Status History::add(std::string_view prompt, std::optional<std::string_view> cwd, int64_t time_ms) {
  if (prompt.empty()) return Status::Invalid("the prompt is empty");
  if (prompt.size() > options_.max_prompt_bytes) {
    return Status::Limit("the prompt has " + std::to_string(prompt.size()) + " bytes; the limit is " +
                         std::to_string(options_.max_prompt_bytes));
  }
  XS_RETURN_IF_ERROR(check_text(prompt, "the prompt"));
  if (cwd && cwd->empty()) cwd.reset();
  if (cwd && cwd->size() > kMaxCwdBytes) return Status::Limit("the cwd is longer than 64 KiB");
  if (cwd) XS_RETURN_IF_ERROR(check_text(*cwd, "the cwd"));
  if (time_ms < 0) return Status::Invalid("time_ms is negative");
  if (time_ms == 0) time_ms = now_ms();

  std::unique_lock<std::mutex> lock(mu_);
  if (closed_) return Status(Code::kMisuse, "the history is closed");
  if (!error_.ok()) return error_;
  if (have_last_ && last_prompt_ == prompt && last_cwd_ == cwd) return Status::Ok();
  // Only a writer stalled on the disk lets the queue grow this far: wait rather than grow without
  // bound (or drop prompts).
  done_cv_.wait(lock, [&] { return queued_bytes_ < kMaxQueuedBytes || !error_.ok(); });
  if (!error_.ok()) return error_;
  last_prompt_.assign(prompt);
  last_cwd_ = cwd ? std::optional<std::string>(std::string(*cwd)) : std::nullopt;
  have_last_ = true;
  bool was_idle = queue_.empty();
  queue_.push_back(Item{last_prompt_, last_cwd_, time_ms});
  queued_bytes_ += prompt.size();
  ++enqueued_;
  if (was_idle) work_cv_.notify_one();
  return Status::Ok();
}

Status History::flush() {
  std::unique_lock<std::mutex> lock(mu_);
  uint64_t target = enqueued_;
  done_cv_.wait(lock, [&] { return written_ >= target || !error_.ok(); });
  return error_;
}

Status History::close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return error_;
    closed_ = true;
    stop_ = true;
  }
  work_cv_.notify_one();
  if (writer_.joinable()) writer_.join();  // the writer drains the queue before it stops
  insert_ = Stmt();
  write_db_.close();
  {
    std::lock_guard<std::mutex> lock(read_mu_);
    read_stmts_.clear();
    read_db_.close();
  }
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

void History::writer_loop() {
  std::vector<Item> batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left
      size_t bytes = 0;
      while (!queue_.empty() && batch.size() < kMaxBatchPrompts && (batch.empty() || bytes < kMaxBatchBytes)) {
        bytes += queue_.front().prompt.size();
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      queued_bytes_ -= bytes;
    }
    done_cv_.notify_all();  // adds waiting for room
    Status st;
    {
      std::lock_guard<std::mutex> lock(mu_);
      st = error_;
    }
    // After a failure nothing more is written: the caller learns of it at its next add or flush
    // and reopens; prompts queued behind it are counted as finished so that flush returns.
    if (st.ok()) st = retry_busy(options_.busy_timeout, [&] { return write_batch(batch); });
    std::lock_guard<std::mutex> lock(mu_);
    if (!st.ok() && error_.ok()) error_ = st.With("history writer");
    written_ += batch.size();
    batch.clear();
    done_cv_.notify_all();
  }
}

Status History::write_batch(const std::vector<Item>& batch) {
  XS_RETURN_IF_ERROR(write_db_.exec("BEGIN IMMEDIATE"));
  Status st;
  for (const Item& item : batch) {
    insert_.bind(1, item.prompt);
    insert_.bind(2, item.time_ms);
    if (item.cwd) {
      insert_.bind(3, *item.cwd);
    } else {
      insert_.bind_null(3);
    }
    int rc = insert_.step();
    insert_.reset();
    if (rc != SQLITE_DONE) {
      st = write_db_.error(rc, "insert a prompt");
      break;
    }
  }
  if (st.ok()) st = write_db_.exec("COMMIT");
  if (!st.ok()) write_db_.exec("ROLLBACK");
  return st;
}

Result<Stmt*> History::read_stmt(const char* sql) {
  auto it = read_stmts_.find(sql);
  if (it != read_stmts_.end()) return &it->second;
  Result<Stmt> s = read_db_.prepare(sql);
  if (!s.ok()) return s.status();
  return &read_stmts_.emplace(sql, std::move(*s)).first->second;
}

}  // namespace xs::history
