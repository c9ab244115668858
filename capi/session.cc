// Session handles: close, errors, flush, navigation and the append family.
#include "handles.h"

using xs::Status;
using xs::capi::check_struct_version;
using xs::capi::guarded;
using xs::capi::null_arg;
using xs::capi::put_id;

namespace {

std::optional<std::string_view> opt_text(const char* p) {
  return p ? std::optional<std::string_view>(p) : std::nullopt;
}

std::optional<std::string_view> opt_span(const char* p, size_t len) {
  return p ? std::optional<std::string_view>(std::string_view(p, len)) : std::nullopt;
}

std::optional<bool> tri_state(int32_t v) { return v == XS_UNSET ? std::nullopt : std::optional<bool>(v != 0); }

Status check_tri_state(int32_t v, const char* name) {
  if (v != XS_UNSET && v != 0 && v != 1) return Status::Invalid(std::string(name) + " must be XS_UNSET, 0 or 1");
  return Status::Ok();
}

// Runs an append that reports the new id.
template <class F>
xs_status append(xs_session* s, char* id_out, F&& body) {
  return guarded(s, [&]() -> Status {
    std::string id;
    XS_RETURN_IF_ERROR(body(*s->impl, &id));
    put_id(id_out, id);
    return Status::Ok();
  });
}

}  // namespace

extern "C" {

void xs_session_close(xs_session* s) {
  if (!s) return;
  {
    std::lock_guard<std::mutex> lock(s->mu);
    try {
      s->impl->close();
    } catch (...) {
      // close is void: an error here has nowhere to go (xs_session_flush reports it first)
    }
  }
  delete s;
}

xs_status xs_session_errcode(const xs_session* s) { return s ? s->err.code : XS_EMISUSE; }

const char* xs_session_errmsg(const xs_session* s) { return s ? s->err.message.c_str() : "session handle is NULL"; }

xs_status xs_session_flush(xs_session* s) {
  return guarded(s, [&] { return s->impl->flush(); });
}

xs_status xs_session_persist(xs_session* s) {
  return guarded(s, [&] { return s->impl->persist(); });
}

xs_status xs_append(xs_session* s, const char* entry_json, size_t len, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!entry_json) return null_arg("entry_json");
    return x.append_entry({entry_json, len}, id);
  });
}

xs_status xs_append_message(xs_session* s, const char* message_json, size_t len, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!message_json) return null_arg("message_json");
    return x.append_message({message_json, len}, id);
  });
}

xs_status xs_append_thinking_level(xs_session* s, const char* level, char* id_out) {
  return append(s, id_out,
                [&](xs::session::Session& x, std::string* id) { return x.append_thinking_level(opt_text(level), id); });
}

xs_status xs_append_model_change(xs_session* s, const char* model, const char* role, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!model) return null_arg("model");
    return x.append_model_change(model, opt_text(role), id);
  });
}

xs_status xs_append_compaction(xs_session* s, const xs_compaction* c, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!c) return null_arg("compaction");
    XS_RETURN_IF_ERROR(check_struct_version(c->version, XS_COMPACTION_VERSION, "xs_compaction"));
    if (!c->summary) return null_arg("summary");
    if (!c->first_kept_entry_id) return null_arg("first_kept_entry_id");
    XS_RETURN_IF_ERROR(check_tri_state(c->from_extension, "from_extension"));
    xs::session::CompactionArgs a;
    a.summary = {c->summary, c->summary_len};
    a.short_summary = opt_span(c->short_summary, c->short_summary_len);
    a.first_kept_entry_id = c->first_kept_entry_id;
    a.tokens_before = c->tokens_before;
    a.details_json = opt_span(c->details_json, c->details_len);
    a.from_extension = tri_state(c->from_extension);
    a.preserve_data_json = opt_span(c->preserve_data_json, c->preserve_data_len);
    return x.append_compaction(a, id);
  });
}

xs_status xs_append_custom(xs_session* s, const char* custom_type, const char* data_json, size_t data_len,
                           char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!custom_type) return null_arg("custom_type");
    return x.append_custom(custom_type, opt_span(data_json, data_len), id);
  });
}

xs_status xs_append_custom_message(xs_session* s, const xs_custom_message* m, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!m) return null_arg("custom_message");
    XS_RETURN_IF_ERROR(check_struct_version(m->version, XS_CUSTOM_MESSAGE_VERSION, "xs_custom_message"));
    if (!m->custom_type) return null_arg("custom_type");
    if (!m->content_json) return null_arg("content_json");
    if (m->display != 0 && m->display != 1) return Status::Invalid("display must be 0 or 1");
    xs::session::CustomMessageArgs a;
    a.custom_type = m->custom_type;
    a.content_json = {m->content_json, m->content_len};
    a.display = m->display == 1;
    a.details_json = opt_span(m->details_json, m->details_len);
    a.attribution = opt_text(m->attribution);
    return x.append_custom_message(a, id);
  });
}

xs_status xs_append_label(xs_session* s, const char* target_id, const char* label, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!target_id) return null_arg("target_id");
    return x.append_label(target_id, opt_text(label), id);
  });
}

xs_status xs_append_ttsr_injection(xs_session* s, const char* rules_json, size_t len, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!rules_json) return null_arg("rules_json");
    return x.append_ttsr_injection({rules_json, len}, id);
  });
}

xs_status xs_append_session_init(xs_session* s, const xs_session_init_entry* si, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!si) return null_arg("session_init");
    XS_RETURN_IF_ERROR(check_struct_version(si->version, XS_SESSION_INIT_ENTRY_VERSION, "xs_session_init_entry"));
    if (si->reserved != 0) return Status::Invalid("xs_session_init_entry.reserved must be 0");
    if (!si->system_prompt) return null_arg("system_prompt");
    if (!si->task) return null_arg("task");
    if (!si->tools_json) return null_arg("tools_json");
    xs::session::SessionInitArgs a;
    a.system_prompt = {si->system_prompt, si->system_prompt_len};
    a.task = {si->task, si->task_len};
    a.tools_json = {si->tools_json, si->tools_len};
    a.output_schema_json = opt_span(si->output_schema_json, si->output_schema_len);
    return x.append_session_init(a, id);
  });
}

xs_status xs_append_mode_change(xs_session* s, const char* mode, const char* data_json, size_t data_len, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!mode) return null_arg("mode");
    return x.append_mode_change(mode, opt_span(data_json, data_len), id);
  });
}

xs_status xs_session_branch_with_summary(xs_session* s, const char* from_id, const char* summary, size_t summary_len,
                                         const char* details_json, size_t details_len, int32_t from_extension,
                                         char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!summary) return null_arg("summary");
    XS_RETURN_IF_ERROR(check_tri_state(from_extension, "from_extension"));
    return x.branch_with_summary(opt_text(from_id), {summary, summary_len}, opt_span(details_json, details_len),
                                 tri_state(from_extension), id);
  });
}

xs_status xs_session_set_leaf(xs_session* s, const char* id) {
  return guarded(s, [&] { return s->impl->set_leaf(opt_text(id)); });
}

xs_status xs_session_set_title(xs_session* s, const char* title, size_t title_len) {
  return guarded(s, [&] { return s->impl->set_title(opt_span(title, title_len)); });
}

xs_status xs_append_session_info(xs_session* s, const char* name, size_t name_len, char* id_out) {
  return append(s, id_out, [&](xs::session::Session& x, std::string* id) -> Status {
    if (!name) return null_arg("name");
    return x.append_session_info({name, name_len}, id);
  });
}

xs_status xs_session_dialect(xs_session* s, uint32_t* dialect) {
  return guarded(s, [&]() -> Status {
    if (!dialect) return null_arg("dialect");
    *dialect = s->impl->dialect() == xs::format::Dialect::kPi ? XS_DIALECT_PI : XS_DIALECT_OMP;
    return Status::Ok();
  });
}

}  // extern "C"
