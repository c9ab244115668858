// A small Codex rollout written for the tests (docs/import-codex.md#how-rows-map): one turn with a
// developer message, a user message with an image, a model response (reasoning with encrypted
// content and a shell call) and its usage, the call's output, the count Codex repeats after it,
// the final answer and its usage, and the UI's events around them.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "../gateway/gateway_test_util.h"
#include "import/codex/importer.h"
#include "storage/fs.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::import::testing {

constexpr const char* kFixtureId = "0199a000-0000-7000-8000-000000000001";
constexpr const char* kFixtureRel = "2026/03/01/rollout-2026-03-01T10-00-00-0199a000-0000-7000-8000-000000000001.jsonl";

inline std::string token_count(int in, int cached, int out, int total, int last_in, int last_cached, int last_out,
                               int last_total) {
  auto usage = [](int i, int c, int o, int t) {
    return "{\"input_tokens\":" + std::to_string(i) + ",\"cached_input_tokens\":" + std::to_string(c) +
           ",\"output_tokens\":" + std::to_string(o) + ",\"reasoning_output_tokens\":0,\"total_tokens\":" +
           std::to_string(t) + "}";
  };
  return R"({"type":"token_count","info":{"total_token_usage":)" + usage(in, cached, out, total) +
         ",\"last_token_usage\":" + usage(last_in, last_cached, last_out, last_total) +
         ",\"model_context_window\":272000},\"rate_limits\":null}";
}

inline std::string row(const std::string& time, const std::string& type, const std::string& payload) {
  return "{\"timestamp\":\"2026-03-01T10:00:" + time + "Z\",\"type\":\"" + type + "\",\"payload\":" + payload + "}\n";
}

// 15 rows.
inline std::string fixture_rollout() {
  return row("00.000", "session_meta",
             R"({"id":"0199a000-0000-7000-8000-000000000001","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/home/u/proj","originator":"codex_cli_rs","cli_version":"0.50.0","model_provider":"openai","base_instructions":{"text":"You are Codex."}})") +
         row("00.001", "response_item",
             R"({"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions>workspace-write</permissions>"}]})") +
         row("01.000", "turn_context",
             R"({"cwd":"/home/u/proj","approval_policy":"on-request","model":"gpt-5-codex","effort":"high","summary":"auto"})") +
         row("01.000", "response_item",
             R"({"type":"message","role":"user","content":[{"type":"input_text","text":"List the files"},{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="}]})") +
         row("01.000", "event_msg", R"({"type":"user_message","message":"List the files","images":[]})") +
         row("02.000", "event_msg", R"({"type":"agent_reasoning","text":"Plan: run ls"})") +
         row("02.000", "response_item",
             R"({"type":"reasoning","summary":[{"type":"summary_text","text":"Plan: run ls"}],"content":null,"encrypted_content":"gAAAAB=="})") +
         row("03.000", "response_item",
             R"({"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"})") +
         row("03.000", "event_msg", token_count(1000, 200, 50, 1050, 1000, 200, 50, 1050)) +
         row("04.000", "response_item", R"({"type":"function_call_output","call_id":"call_1","output":"a.txt\nb.txt"})") +
         row("04.000", "event_msg", token_count(1000, 200, 50, 1050, 1000, 200, 50, 1050)) +
         row("05.000", "event_msg", R"({"type":"agent_message","message":"Two files: a.txt and b.txt."})") +
         row("05.000", "response_item",
             R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Two files: a.txt and b.txt."}]})") +
         row("05.000", "event_msg", token_count(2100, 1100, 60, 2160, 1100, 900, 10, 1110)) +
         row("06.000", "event_msg", R"({"type":"task_complete","last_agent_message":"Two files: a.txt and b.txt."})");
}

inline std::shared_ptr<store::Store> open_store(const std::string& root) {
  auto s = store::Store::open(root);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : nullptr;
}

// The context of the imported session `id`, without its leafId (entry ids are drawn at random).
inline std::string context_without_leaf(store::Store& store, const std::string& id) {
  auto s = store.open_session(id, {});
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return "";
  auto c = (*s)->context(std::nullopt);
  EXPECT_TRUE(c.ok());
  std::string text = c.ok() ? *c : "";
  size_t messages = text.find(",\"messages\":");
  return messages == std::string::npos ? text : "{" + text.substr(messages + 1);
}

}  // namespace xs::import::testing
