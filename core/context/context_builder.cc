#include "context/context_builder.h"

#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "format/clock.h"
#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::context {

namespace {

using format::EntryType;
using json::Kind;
using json::Member;
using model::Entry;

constexpr std::string_view kEmptyContext =
    R"({"leafId":null,"messages":[],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})";
constexpr std::string_view kEmptyPiContext =
    R"({"leafId":null,"messages":[],"thinkingLevel":"off","model":null,"models":{},"injectedTtsrRules":[],"mode":"none"})";

bool present(const Member* m) { return m != nullptr; }
bool non_null(const Member* m) { return m && m->kind != Kind::kNull; }

void append_time(std::string& out, std::string_view iso) {
  if (auto ms = format::parse_iso_ms(iso)) {
    out += std::to_string(*ms);
  } else {
    out += "null";  // Date.parse gave NaN; JSON.stringify writes null
  }
}

void append_member(std::string& out, std::string_view key, const Member* m) {
  if (!m) return;  // undefined properties vanish from JSON.stringify's output
  out += ",\"";
  out += key;
  out += "\":";
  out += m->value;
}

// State folded along the path (§6 step 4); later entries override earlier ones. Settings that a
// later entry replaces whole (thinking level, mode, service tier, MCP tools) only remember where
// their last entry is, and only that entry is parsed; models are kept as the entry that last set
// each role. A long session parses a handful of lines instead of every state change on its path.
struct State {
  struct Model {
    std::string role;
    const Entry* from_message = nullptr;  // an assistant message's provider/model, or:
    std::string value;                    // "provider/id" of a model change
  };
  std::vector<Model> models;  // first-set order
  std::vector<std::string> rules;
  std::unordered_set<std::string> rule_set;
  const Entry* thinking = nullptr;
  const Entry* mode = nullptr;
  const Entry* service_tier = nullptr;
  const Entry* mcp_tools = nullptr;
  const Entry* default_model = nullptr;  // what last set the default model (pi's one model)
  size_t compaction = SIZE_MAX;          // position on the path of the last compaction

  Model& model_slot(std::string_view role) {
    for (Model& m : models) {
      if (m.role == role) return m;
    }
    models.push_back({std::string(role), nullptr, {}});
    return models.back();
  }
};

void fold(const Entry& e, size_t pos, State& st) {
  switch (e.type) {
    case EntryType::kMessage:
      if (e.is_assistant() && !e.provider.empty() && !e.model.empty()) {
        State::Model& m = st.model_slot("default");
        m.from_message = &e;
        m.value.clear();
        st.default_model = &e;
      }
      return;
    case EntryType::kThinkingLevelChange: st.thinking = &e; return;
    case EntryType::kModelChange: {
      auto m = json::members_of(e.line);
      std::optional<std::string> model = json::string_value(json::find_member(m, "model"));
      if (!model || model->empty()) {
        // pi's form: {provider, modelId}
        auto provider = json::string_value(json::find_member(m, "provider"));
        auto id = json::string_value(json::find_member(m, "modelId"));
        if (provider && id) model = *provider + "/" + *id;
      }
      if (model && !model->empty()) {
        std::string role = json::string_value(json::find_member(m, "role")).value_or("default");
        if (role == "default") st.default_model = &e;
        State::Model& slot = st.model_slot(role);
        slot.from_message = nullptr;
        slot.value = std::move(*model);
      }
      return;
    }
    case EntryType::kCompaction: st.compaction = pos; return;
    case EntryType::kTtsrInjection: {
      auto m = json::members_of(e.line);
      const Member* rules = json::find_member(m, "injectedRules");
      if (!rules || rules->kind != Kind::kArray) return;
      std::vector<Member> items;
      bool is_object = true;
      if (!json::scan_members(rules->value, json::internal_limits(), &items, &is_object).ok()) return;
      for (const Member& item : items) {
        auto name = json::string_value(&item);
        if (name && st.rule_set.insert(*name).second) st.rules.push_back(*name);
      }
      return;
    }
    case EntryType::kModeChange: st.mode = &e; return;
    case EntryType::kServiceTierChange: st.service_tier = &e; return;
    case EntryType::kMcpToolSelection: st.mcp_tools = &e; return;
    default: return;
  }
}

// pi's "model" (docs/dialects.md#the-context-in-the-pi-dialect): {provider, modelId} of what
// last set the default model on the path, or null.
void append_pi_model(std::string& out, const Entry* setter) {
  out += ",\"model\":";
  if (!setter) {
    out += "null";
    return;
  }
  std::string provider, model_id;
  if (setter->type == EntryType::kMessage) {
    provider = setter->provider;
    model_id = setter->model;
  } else {
    auto m = json::members_of(setter->line);
    const Member* p = json::find_member(m, "provider");
    const Member* id = json::find_member(m, "modelId");
    if (!json::find_member(m, "model") && p && id) {  // pi's own form: its values as stored
      out += "{\"provider\":";
      out += p->value;
      out += ",\"modelId\":";
      out += id->value;
      out += '}';
      return;
    }
    std::string both = json::string_value(json::find_member(m, "model")).value_or("");
    size_t slash = both.find('/');  // omp's "provider/id": the id may hold '/' itself
    provider = both.substr(0, slash);
    model_id = slash == std::string::npos ? std::string() : both.substr(slash + 1);
  }
  out += "{\"provider\":";
  json::append_quoted(out, provider);
  out += ",\"modelId\":";
  json::append_quoted(out, model_id);
  out += '}';
}

// The context's closing members, from the folded state.
void append_state(std::string& out, const State& st, bool pi_model) {
  out += ",\"thinkingLevel\":";
  if (st.thinking) {
    auto m = json::members_of(st.thinking->line);
    const Member* level = json::find_member(m, "thinkingLevel");
    out += non_null(level) ? level->value : std::string_view("\"off\"");
  } else {
    out += "\"off\"";
  }
  if (pi_model) append_pi_model(out, st.default_model);
  out += ",\"models\":{";
  for (size_t i = 0; i < st.models.size(); ++i) {
    const State::Model& m = st.models[i];
    if (i) out += ',';
    json::append_quoted(out, m.role);
    out += ':';
    if (m.from_message) {
      json::append_quoted(out, std::string(m.from_message->provider) + "/" + std::string(m.from_message->model));
    } else {
      json::append_quoted(out, m.value);
    }
  }
  out += "},\"injectedTtsrRules\":[";
  for (size_t i = 0; i < st.rules.size(); ++i) {
    if (i) out += ',';
    json::append_quoted(out, st.rules[i]);
  }
  out += "],\"mode\":";
  if (st.mode) {
    auto m = json::members_of(st.mode->line);
    const Member* mode = json::find_member(m, "mode");
    out += present(mode) ? mode->value : std::string_view("\"none\"");
    append_member(out, "modeData", json::find_member(m, "data"));
  } else {
    out += "\"none\"";
  }
  if (st.service_tier) {
    auto m = json::members_of(st.service_tier->line);
    const Member* tier = json::find_member(m, "serviceTier");
    if (non_null(tier)) append_member(out, "serviceTier", tier);
  }
  if (st.mcp_tools) {
    auto m = json::members_of(st.mcp_tools->line);
    const Member* names = json::find_member(m, "selectedToolNames");
    out += ",\"selectedMCPToolNames\":";
    out += present(names) ? names->value : std::string_view("[]");
    out += ",\"hasPersistedMCPToolSelection\":true";
  }
  out += '}';
}

class Emitter {
 public:
  Emitter(std::string& out, const BlobResolver& resolve) : out_(out), resolve_(resolve) {}

  void entry(const Entry& e) {
    switch (e.type) {
      case EntryType::kMessage:
        if (!e.message_length) return;
        // Only lines flagged at load hold refs; all others are copied without a parse.
        if (e.has_blob_ref() && resolve_) {
          raw(resolve_(e.message()));
        } else {
          raw(e.message());
        }
        return;
      case EntryType::kCustomMessage: {
        auto m = json::members_of(e.line);
        start();
        out_ += "{\"role\":\"custom\"";
        for (std::string_view key : {"customType", "content", "display", "details", "attribution"}) {
          const Member* member = json::find_member(m, key);
          if (key == "content" && member && e.has_blob_ref() && resolve_) {
            out_ += ",\"content\":" + resolve_(member->value);
            continue;
          }
          append_member(out_, key, member);
        }
        out_ += ",\"timestamp\":";
        append_time(out_, e.timestamp);
        out_ += '}';
        return;
      }
      case EntryType::kBranchSummary: {
        auto m = json::members_of(e.line);
        const Member* summary = json::find_member(m, "summary");
        if (!json::is_truthy(summary)) return;  // an empty summary is skipped (pi)
        start();
        out_ += "{\"role\":\"branchSummary\",\"summary\":";
        out_ += summary->value;
        append_member(out_, "fromId", json::find_member(m, "fromId"));
        out_ += ",\"timestamp\":";
        append_time(out_, e.timestamp);
        out_ += '}';
        return;
      }
      default: return;  // custom, label, state changes, session_init, unknown types: not messages
    }
  }

  // The summary message of the compaction C; returns whether the kept range before C is
  // replaced by a provider payload (omp's openaiRemoteCompaction).
  bool compaction_summary(const Entry& c, const std::vector<Member>& m) {
    start();
    out_ += "{\"role\":\"compactionSummary\"";
    append_member(out_, "summary", json::find_member(m, "summary"));
    append_member(out_, "shortSummary", json::find_member(m, "shortSummary"));
    append_member(out_, "tokensBefore", json::find_member(m, "tokensBefore"));
    bool remote = false;
    if (auto payload = remote_payload(m)) {
      out_ += ",\"providerPayload\":";
      out_ += *payload;
      remote = true;
    }
    out_ += ",\"timestamp\":";
    append_time(out_, c.timestamp);
    out_ += '}';
    return remote;
  }

 private:
  void start() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  void raw(std::string_view bytes) {
    start();
    out_ += bytes;
  }

  // preserveData.openaiRemoteCompaction = {provider: non-empty string, replacementHistory: [...]}
  static std::optional<std::string> remote_payload(const std::vector<Member>& m) {
    const Member* preserve = json::find_member(m, "preserveData");
    if (!preserve || preserve->kind != Kind::kObject) return std::nullopt;
    auto pm = json::members_of(preserve->value);
    const Member* remote = json::find_member(pm, "openaiRemoteCompaction");
    if (!remote || remote->kind != Kind::kObject) return std::nullopt;
    auto rm = json::members_of(remote->value);
    const Member* provider = json::find_member(rm, "provider");
    const Member* history = json::find_member(rm, "replacementHistory");
    if (!provider || provider->kind != Kind::kString || provider->value.size() <= 2) return std::nullopt;
    if (!history || history->kind != Kind::kArray) return std::nullopt;
    std::string p = "{\"type\":\"openaiResponsesHistory\",\"provider\":";
    p += provider->value;
    p += ",\"items\":";
    p += history->value;
    p += '}';
    return p;
  }

  std::string& out_;
  const BlobResolver& resolve_;
  bool first_ = true;
};

}  // namespace

std::string build_context(const model::SessionData& data, const model::Tree& tree, uint32_t leaf,
                          const BlobResolver& resolve, bool pi_model) {
  if (leaf == model::kNone) return std::string(pi_model ? kEmptyPiContext : kEmptyContext);
  const std::vector<Entry>& entries = data.entries;
  std::vector<uint32_t> path = tree.path_to(leaf);

  State st;
  size_t bytes = 256;
  for (size_t p = 0; p < path.size(); ++p) {
    const Entry& e = entries[path[p]];
    fold(e, p, st);
    bytes += e.message_length + 1;
  }

  std::string out;
  out.reserve(bytes);
  out += "{\"leafId\":";
  json::append_quoted(out, entries[leaf].id);
  out += ",\"messages\":[";
  Emitter emit(out, resolve);
  size_t from = 0;
  if (st.compaction != SIZE_MAX) {
    const Entry& c = entries[path[st.compaction]];
    auto m = json::members_of(c.line);
    bool remote = emit.compaction_summary(c, m);
    from = st.compaction + 1;
    auto kept = json::string_value(json::find_member(m, "firstKeptEntryId"));
    if (!remote && kept) {
      // Keep from the first path entry with that id up to the compaction; a kept id that is not
      // on the path (another branch, or bogus) keeps nothing (docs/context.md#compaction).
      for (size_t p = 0; p < st.compaction; ++p) {
        if (entries[path[p]].id == *kept) {
          for (size_t q = p; q < st.compaction; ++q) emit.entry(entries[path[q]]);
          break;
        }
      }
    }
  }
  for (size_t p = from; p < path.size(); ++p) {
    if (p != st.compaction) emit.entry(entries[path[p]]);
  }
  out += ']';
  append_state(out, st, pi_model);
  return out;
}

}  // namespace xs::context
