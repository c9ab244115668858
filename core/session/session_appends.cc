// The append family: the generic xs_append (a whole entry as JSON) and one typed call per entry
// type. Each builds the entry's line in its dialect's key order (omp's, or pi's:
// docs/dialects.md#what-the-pi-dialect-writes) from validated, minified caller JSON, then hands it
// to Session::commit.
#include <vector>

#include "format/envelope.h"
#include "json/document_edit.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "model/dialect_detect.h"
#include "session/session.h"

namespace xs::session {

using model::Entry;
using model::kNone;

namespace {

using format::EntryType;
using json::Kind;

constexpr std::string_view kMessageKey = "\"message\":";

Status check_text(std::string_view s, const char* what) {
  if (!json::is_valid_utf8(s)) return Status::Invalid(std::string(what) + " is not valid UTF-8");
  return Status::Ok();
}

// What a known entry type must carry, so an entry we write is one the readers understand.
struct FieldRule {
  EntryType type;
  std::string_view key;
  bool required;
  std::initializer_list<Kind> kinds;
};

const FieldRule kRules[] = {
    {EntryType::kMessage, "message", true, {Kind::kObject}},
    {EntryType::kThinkingLevelChange, "thinkingLevel", false, {Kind::kString, Kind::kNull}},
    {EntryType::kModelChange, "model", false, {Kind::kString}},
    {EntryType::kModelChange, "role", false, {Kind::kString}},
    {EntryType::kCompaction, "summary", true, {Kind::kString}},
    {EntryType::kCompaction, "firstKeptEntryId", true, {Kind::kString}},
    {EntryType::kCompaction, "tokensBefore", true, {Kind::kNumber}},
    {EntryType::kBranchSummary, "fromId", true, {Kind::kString}},
    {EntryType::kBranchSummary, "summary", true, {Kind::kString}},
    {EntryType::kCustom, "customType", true, {Kind::kString}},
    {EntryType::kCustomMessage, "customType", true, {Kind::kString}},
    {EntryType::kCustomMessage, "content", true, {Kind::kString, Kind::kArray}},
    {EntryType::kLabel, "targetId", true, {Kind::kString}},
    {EntryType::kLabel, "label", false, {Kind::kString, Kind::kNull}},
    {EntryType::kTtsrInjection, "injectedRules", true, {Kind::kArray}},
    {EntryType::kModeChange, "mode", true, {Kind::kString}},
};

Status check_shape(EntryType type, std::string_view type_name, const std::vector<json::Member>& m) {
  for (const FieldRule& r : kRules) {
    if (r.type != type) continue;
    const json::Member* f = json::find_member(m, r.key);
    if (!f) {
      if (r.required) return Status::Invalid(std::string(type_name) + " entry needs \"" + std::string(r.key) + "\"");
      continue;
    }
    bool ok = false;
    for (Kind k : r.kinds) ok = ok || f->kind == k;
    if (!ok)
      return Status::Invalid("\"" + std::string(r.key) + "\" of a " + std::string(type_name) +
                             " entry has the wrong type");
  }
  if (type == EntryType::kModelChange && !json::find_member(m, "model") &&
      !(json::find_member(m, "provider") && json::find_member(m, "modelId"))) {
    return Status::Invalid("model_change entry needs \"model\" (or pi's \"provider\" and \"modelId\")");
  }
  return Status::Ok();
}

std::string decode_key(std::string_view key_token) {
  std::string s;
  json::decode_string_token(key_token, s);
  return s;
}

Status array_of_strings(std::string_view json_array, const char* what) {
  std::vector<json::Member> items;
  bool is_object = true;
  XS_RETURN_IF_ERROR(json::scan_members(json_array, json::internal_limits(), &items, &is_object));
  for (const json::Member& it : items) {
    if (it.kind != Kind::kString) return Status::Invalid(std::string(what) + " must be an array of strings");
  }
  return Status::Ok();
}

}  // namespace

Status Session::prepare_value(std::string_view text, std::string* out, Kind* kind, const char* what) {
  Status st = value_input_.prepare(text, out, kind);
  return st.ok() ? st : Status(st.code(), std::string(what) + ": " + st.message());
}

Result<std::string> Session::new_entry_id(std::optional<std::string_view> requested) {
  if (requested) {
    if (!format::is_valid_new_id(*requested)) {
      return Status::Invalid("entry id must be 1-64 characters of [A-Za-z0-9_-]");
    }
    if (tree_.find(*requested) != kNone) {
      return Status::Exists("entry id " + std::string(*requested) + " is already in the session");
    }
    return std::string(*requested);
  }
  return ids_.entry_id([this](std::string_view c) { return tree_.find(c) != kNone; });
}

Status Session::append_typed(EntryType type, const format::Payload& payload, std::string* id_out, Entry facts) {
  XS_RETURN_IF_ERROR(check_writable());
  auto id = new_entry_id(std::nullopt);
  if (!id.ok()) return id.status();
  std::string type_token;
  json::append_quoted(type_token, format::entry_type_name(type));
  std::string ts = next_timestamp_token();
  uint32_t leaf = tree_.leaf();
  format::Envelope env{type_token, *id,
                       leaf == kNone ? std::nullopt : std::optional<std::string_view>(data_.entries[leaf].id), ts,
                       format::envelope_after_payload(type)};
  size_t payload_at = 0;
  std::string line = format::build_entry_line(env, payload, &payload_at);
  facts.type = type;
  facts.id = *id;
  facts.timestamp = std::string_view(ts).substr(1, ts.size() - 2);  // our timestamps need no escapes
  if (type == EntryType::kMessage) facts.message_offset += static_cast<uint32_t>(payload_at);
  return commit(std::move(line), facts, id_out);
}

Status Session::append_entry(std::string_view entry_json, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_writable());
  std::string text;
  Kind kind;
  XS_RETURN_IF_ERROR(entry_input_.prepare(entry_json, &text, &kind));
  if (kind != Kind::kObject) return Status::Invalid("an entry must be a JSON object");
  // Validated and minified by prepare (within the session's limits): the members are split on
  // simdjson's structural index rather than validated a second time. The split reads kPadding
  // bytes past the object; the spans below point into `text`, which is not changed again.
  size_t object_size = text.size();
  text.append(json::kPadding, '\0');
  auto split = json::split_minified_object(std::string_view(text.data(), object_size));
  if (!split.ok()) return split.status();
  const std::vector<json::Member>& m = *split;

  // Everything is checked before an id or a timestamp is taken, so a refused entry leaves no trace.
  const json::Member* type_m = json::find_member(m, "type");
  if (!type_m || type_m->kind != Kind::kString) return Status::Invalid("entry has no string \"type\"");
  std::string type_name = json::string_value(type_m).value_or("");
  if (type_name == "session") return Status::Invalid("a session header cannot be appended as an entry");
  if (json::find_member(m, "parentId")) {
    return Status::Invalid("parentId is set by the session (the current leaf); branch to choose it");
  }
  EntryType type = format::entry_type_from_name(type_name);
  XS_RETURN_IF_ERROR(check_shape(type, type_name, m));
  // A form only the other agent reads (docs/dialects.md#detection): that agent's reader would
  // drop or misread it here, and the file would read as the other dialect's when opened again.
  if (auto mark = model::mark_of(type, m); mark && *mark != dialect_) {
    const char* writer = *mark == format::Dialect::kPi ? "pi" : "oh-my-pi";
    return check_dialect(*mark, "a " + type_name + " entry as " + writer + " writes it");
  }
  const json::Member* ts_m = json::find_member(m, "timestamp");
  if (ts_m && ts_m->kind != Kind::kString) return Status::Invalid("entry timestamp must be a string");
  const json::Member* id_m = json::find_member(m, "id");
  if (id_m && id_m->kind != Kind::kString) return Status::Invalid("entry id must be a string");

  Entry facts;
  facts.type = type;
  std::string role, provider, model, target, label;
  const json::Member* message_m = type == EntryType::kMessage ? json::find_member(m, "message") : nullptr;
  if (message_m) {
    std::vector<json::Member> inner;
    if (message_m->kind == Kind::kObject) {
      auto members = json::split_minified_object(message_m->value);  // the rest of `text` pads it
      if (!members.ok()) return members.status();
      inner = std::move(*members);
    }
    const json::Member* role_m = json::find_member(inner, "role");
    if (!role_m || role_m->kind != Kind::kString) return Status::Invalid("a message needs a string \"role\"");
    role = json::string_value(role_m).value_or("");
    provider = json::string_value(json::find_member(inner, "provider")).value_or("");
    model = json::string_value(json::find_member(inner, "model")).value_or("");
    facts.role = role;
    facts.provider = provider;
    facts.model = model;
    facts.message_length = static_cast<uint32_t>(message_m->value.size());
  }
  if (type == EntryType::kLabel) {
    target = json::string_value(json::find_member(m, "targetId")).value_or("");
    if (tree_.find(target) == kNone) return Status::NotFound("entry " + target + " not found");
    label = json::string_value(json::find_member(m, "label")).value_or("");
    facts.target_id = target;
    facts.label = label;
    facts.label_set = !label.empty();
  }
  std::string wanted = json::string_value(id_m).value_or("");
  auto id = new_entry_id(id_m ? std::optional<std::string_view>(wanted) : std::nullopt);
  if (!id.ok()) return id.status();
  facts.id = *id;

  std::string ts_token = ts_m ? std::string(ts_m->value) : next_timestamp_token();
  std::string ts = ts_m ? json::string_value(ts_m).value_or("") : ts_token.substr(1, ts_token.size() - 2);
  facts.timestamp = ts;

  // The caller's other members, in their order and bytes (the text is already minified).
  format::Payload payload;
  payload.reserve(object_size);  // the members are the object's bytes less its braces
  for (const json::Member& x : m) {
    if (&x == type_m || &x == ts_m || &x == id_m) continue;
    std::string key = decode_key(x.key);
    if (key == "type" || key == "id" || key == "timestamp") continue;  // duplicates of those keys
    size_t at = payload.member(std::string_view(x.key.data(), x.value.data() + x.value.size() - x.key.data()));
    if (&x == message_m) facts.message_offset = static_cast<uint32_t>(at + (x.value.data() - x.key.data()));
  }

  uint32_t leaf = tree_.leaf();
  format::Envelope env{type_m->value, *id,
                       leaf == kNone ? std::nullopt : std::optional<std::string_view>(data_.entries[leaf].id), ts_token,
                       format::envelope_after_payload(type)};
  size_t payload_at = 0;
  std::string line = format::build_entry_line(env, payload, &payload_at);
  if (message_m) facts.message_offset += static_cast<uint32_t>(payload_at);
  return commit(std::move(line), facts, id_out);
}

Status Session::append_message(std::string_view message_json, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_writable());
  std::string msg;
  Kind kind;
  json::LineFacts mf;
  Status st = value_input_.prepare(message_json, &msg, &kind, &mf);
  if (!st.ok()) return Status(st.code(), "message: " + st.message());
  if (kind != Kind::kObject) return Status::Invalid("a message must be a JSON object");
  if (!mf.role.is_string()) return Status::Invalid("a message needs a string \"role\"");
  // Copy the facts now: they point into the parser, which the next parse reuses.
  std::string role(mf.role.str), provider(mf.provider.is_string() ? mf.provider.str : "");
  std::string model(mf.model.is_string() ? mf.model.str : "");
  format::Payload p;
  p.raw("message", msg);
  Entry facts;
  facts.role = role;
  facts.provider = provider;
  facts.model = model;
  facts.message_offset = static_cast<uint32_t>(kMessageKey.size());
  facts.message_length = static_cast<uint32_t>(msg.size());
  return append_typed(EntryType::kMessage, p, id_out, facts);
}

Status Session::append_thinking_level(std::optional<std::string_view> level, std::string* id_out) {
  format::Payload p;
  if (level) {
    XS_RETURN_IF_ERROR(check_text(*level, "thinking level"));
    p.text("thinkingLevel", *level);
  } else {
    p.null("thinkingLevel");
  }
  return append_typed(EntryType::kThinkingLevelChange, p, id_out);
}

Status Session::append_model_change(std::string_view model, std::optional<std::string_view> role, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_text(model, "model"));
  if (model.empty()) return Status::Invalid("model must not be empty");
  format::Payload p;
  if (dialect_ == format::Dialect::kPi) {
    if (role) return check_dialect(format::Dialect::kOmp, "a model role");
    // pi's {provider, modelId}; a model id may hold '/' itself ("openrouter/anthropic/claude").
    size_t slash = model.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == model.size()) {
      return Status::Invalid("in the pi dialect a model is \"provider/modelId\", both non-empty");
    }
    p.text("provider", model.substr(0, slash));
    p.text("modelId", model.substr(slash + 1));
    return append_typed(EntryType::kModelChange, p, id_out);
  }
  p.text("model", model);
  if (role) {
    XS_RETURN_IF_ERROR(check_text(*role, "role"));
    p.text("role", *role);
  }
  return append_typed(EntryType::kModelChange, p, id_out);
}

Status Session::append_compaction(const CompactionArgs& a, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_text(a.summary, "summary"));
  XS_RETURN_IF_ERROR(check_text(a.first_kept_entry_id, "firstKeptEntryId"));
  if (a.short_summary) XS_RETURN_IF_ERROR(check_text(*a.short_summary, "shortSummary"));
  bool pi = dialect_ == format::Dialect::kPi;
  if (pi && a.short_summary) return check_dialect(format::Dialect::kOmp, "a compaction's shortSummary");
  if (pi && a.preserve_data_json) return check_dialect(format::Dialect::kOmp, "a compaction's preserveData");
  std::string details, preserve;
  Kind kind;
  if (a.details_json) XS_RETURN_IF_ERROR(prepare_value(*a.details_json, &details, &kind, "details"));
  if (a.preserve_data_json) XS_RETURN_IF_ERROR(prepare_value(*a.preserve_data_json, &preserve, &kind, "preserveData"));
  format::Payload p;
  p.text("summary", a.summary);
  if (a.short_summary) p.text("shortSummary", *a.short_summary);
  p.text("firstKeptEntryId", a.first_kept_entry_id);
  p.integer("tokensBefore", a.tokens_before);
  if (a.details_json) p.raw("details", details);
  if (a.from_extension) p.boolean(pi ? "fromHook" : "fromExtension", *a.from_extension);
  if (a.preserve_data_json) p.raw("preserveData", preserve);
  return append_typed(EntryType::kCompaction, p, id_out);
}

Status Session::append_custom(std::string_view custom_type, std::optional<std::string_view> data_json,
                              std::string* id_out) {
  XS_RETURN_IF_ERROR(check_text(custom_type, "customType"));
  std::string data;
  Kind kind;
  if (data_json) XS_RETURN_IF_ERROR(prepare_value(*data_json, &data, &kind, "data"));
  format::Payload p;
  p.text("customType", custom_type);
  if (data_json) p.raw("data", data);
  return append_typed(EntryType::kCustom, p, id_out);
}

Status Session::append_custom_message(const CustomMessageArgs& a, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_text(a.custom_type, "customType"));
  std::string content, details;
  Kind kind;
  XS_RETURN_IF_ERROR(prepare_value(a.content_json, &content, &kind, "content"));
  if (kind != Kind::kString && kind != Kind::kArray) {
    return Status::Invalid("content must be a JSON string or an array of content blocks");
  }
  if (a.details_json) XS_RETURN_IF_ERROR(prepare_value(*a.details_json, &details, &kind, "details"));
  bool pi = dialect_ == format::Dialect::kPi;
  if (pi && a.attribution) return check_dialect(format::Dialect::kOmp, "a custom message's attribution");
  std::string_view attribution = a.attribution.value_or("agent");  // omp's default
  XS_RETURN_IF_ERROR(check_text(attribution, "attribution"));
  format::Payload p;
  p.text("customType", a.custom_type);
  p.raw("content", content);
  p.boolean("display", a.display);
  if (a.details_json) p.raw("details", details);
  if (!pi) p.text("attribution", attribution);
  return append_typed(EntryType::kCustomMessage, p, id_out);
}

Status Session::append_label(std::string_view target_id, std::optional<std::string_view> label, std::string* id_out) {
  if (tree_.find(target_id) == kNone) return Status::NotFound("entry " + std::string(target_id) + " not found");
  format::Payload p;
  p.text("targetId", target_id);
  Entry facts;
  facts.target_id = target_id;
  if (label) {
    XS_RETURN_IF_ERROR(check_text(*label, "label"));
    p.text("label", *label);
    facts.label = *label;
    facts.label_set = !label->empty();
  }
  return append_typed(EntryType::kLabel, p, id_out, facts);
}

Status Session::append_ttsr_injection(std::string_view rules_json, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_dialect(format::Dialect::kOmp, "a ttsr_injection entry (oh-my-pi only)"));
  std::string rules;
  Kind kind;
  XS_RETURN_IF_ERROR(prepare_value(rules_json, &rules, &kind, "injectedRules"));
  if (kind != Kind::kArray) return Status::Invalid("injectedRules must be an array of strings");
  XS_RETURN_IF_ERROR(array_of_strings(rules, "injectedRules"));
  format::Payload p;
  p.raw("injectedRules", rules);
  return append_typed(EntryType::kTtsrInjection, p, id_out);
}

Status Session::append_session_init(const SessionInitArgs& a, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_dialect(format::Dialect::kOmp, "a session_init entry (oh-my-pi only)"));
  XS_RETURN_IF_ERROR(check_text(a.system_prompt, "systemPrompt"));
  XS_RETURN_IF_ERROR(check_text(a.task, "task"));
  std::string tools, schema;
  Kind kind;
  XS_RETURN_IF_ERROR(prepare_value(a.tools_json, &tools, &kind, "tools"));
  if (kind != Kind::kArray) return Status::Invalid("tools must be an array of strings");
  XS_RETURN_IF_ERROR(array_of_strings(tools, "tools"));
  if (a.output_schema_json) XS_RETURN_IF_ERROR(prepare_value(*a.output_schema_json, &schema, &kind, "outputSchema"));
  format::Payload p;
  p.text("systemPrompt", a.system_prompt);
  p.text("task", a.task);
  p.raw("tools", tools);
  if (a.output_schema_json) p.raw("outputSchema", schema);
  return append_typed(EntryType::kSessionInit, p, id_out);
}

Status Session::append_mode_change(std::string_view mode, std::optional<std::string_view> data_json,
                                   std::string* id_out) {
  XS_RETURN_IF_ERROR(check_dialect(format::Dialect::kOmp, "a mode_change entry (oh-my-pi only)"));
  XS_RETURN_IF_ERROR(check_text(mode, "mode"));
  std::string data;
  Kind kind;
  if (data_json) XS_RETURN_IF_ERROR(prepare_value(*data_json, &data, &kind, "data"));
  format::Payload p;
  p.text("mode", mode);
  if (data_json) p.raw("data", data);
  return append_typed(EntryType::kModeChange, p, id_out);
}

Status Session::append_session_info(std::string_view name, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_writable());
  XS_RETURN_IF_ERROR(check_dialect(format::Dialect::kPi, "a session_info entry (pi only; omp's title: set_title)"));
  XS_RETURN_IF_ERROR(check_text(name, "name"));
  format::Payload p;
  p.text("name", json::js_trim(name));  // pi stores name.trim()
  return append_typed(EntryType::kSessionInfo, p, id_out);
}

Status Session::branch_with_summary(std::optional<std::string_view> from_id, std::string_view summary,
                                    std::optional<std::string_view> details_json, std::optional<bool> from_extension,
                                    std::string* id_out) {
  XS_RETURN_IF_ERROR(check_writable());
  uint32_t from = kNone;
  if (from_id) {
    from = tree_.find(*from_id);
    if (from == kNone) return Status::NotFound("entry " + std::string(*from_id) + " not found");
  }
  XS_RETURN_IF_ERROR(check_text(summary, "summary"));
  std::string details;
  Kind kind;
  if (details_json) XS_RETURN_IF_ERROR(prepare_value(*details_json, &details, &kind, "details"));
  format::Payload p;
  p.text("fromId", from_id ? *from_id : std::string_view("root"));
  p.text("summary", summary);
  if (details_json) p.raw("details", details);
  if (from_extension) p.boolean(dialect_ == format::Dialect::kPi ? "fromHook" : "fromExtension", *from_extension);
  // A failed append leaves the session as it was, also when it runs out of memory (throws).
  struct RestoreLeaf {
    model::Tree& tree;
    uint32_t before;
    bool done = false;
    ~RestoreLeaf() {
      if (!done) tree.set_leaf(before);
    }
  } restore{tree_, tree_.leaf()};
  tree_.set_leaf(from);
  Status st = append_typed(EntryType::kBranchSummary, p, id_out);
  restore.done = st.ok();
  return st;
}

}  // namespace xs::session
