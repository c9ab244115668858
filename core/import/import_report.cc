#include "import/import_report.h"

#include "json/json_string.h"

namespace xs::import {

namespace {

template <typename Field>
uint64_t sum(const std::vector<ImportedSession>& sessions, Field field) {
  uint64_t n = 0;
  for (const ImportedSession& s : sessions) n += s.*field;
  return n;
}

// ,"name":n and ,"name":"text" (text that is not UTF-8, as file names may be, with U+FFFD).
void append_count(std::string& out, const char* name, uint64_t n) {
  out += ",\"";
  out += name;
  out += "\":";
  out += std::to_string(n);
}
void append_text(std::string& out, const char* name, std::string_view text) {
  out += ",\"";
  out += name;
  out += "\":";
  json::append_quoted_lossy(out, text);
}

}  // namespace

uint64_t ImportReport::rows_read() const { return sum(sessions, &ImportedSession::rows_read); }
uint64_t ImportReport::imported() const { return sum(sessions, &ImportedSession::imported); }
uint64_t ImportReport::kept_as_custom() const { return sum(sessions, &ImportedSession::kept_as_custom); }
uint64_t ImportReport::already_imported() const { return sum(sessions, &ImportedSession::already_imported); }
uint64_t ImportReport::skipped_rows() const { return sum(sessions, &ImportedSession::skipped); }

std::string ImportReport::to_json() const {
  std::string out = "{\"source\":";
  json::append_quoted_lossy(out, source_kind);
  append_text(out, "root", source_root);
  out += dry_run ? ",\"dryRun\":true" : ",\"dryRun\":false";
  append_count(out, "rowsRead", rows_read());
  append_count(out, "imported", imported());
  append_count(out, "keptAsCustom", kept_as_custom());
  append_count(out, "alreadyImported", already_imported());
  append_count(out, "skipped", skipped_rows());
  out += ",\"sessions\":[";
  for (size_t i = 0; i < sessions.size(); ++i) {
    const ImportedSession& s = sessions[i];
    if (i) out += ',';
    out += "{\"sourceFile\":";
    json::append_quoted_lossy(out, s.source_file);
    append_text(out, "sessionId", s.session_id);
    append_text(out, "sessionFile", s.session_file);
    out += s.created ? ",\"created\":true" : ",\"created\":false";
    append_count(out, "rowsRead", s.rows_read);
    append_count(out, "imported", s.imported);
    append_count(out, "keptAsCustom", s.kept_as_custom);
    append_count(out, "alreadyImported", s.already_imported);
    append_count(out, "skipped", s.skipped);
    out += '}';
  }
  out += "],\"skippedRows\":[";
  for (size_t i = 0; i < skipped.size(); ++i) {
    if (i) out += ',';
    out += "{\"file\":";
    json::append_quoted_lossy(out, skipped[i].file);
    append_count(out, "line", skipped[i].line);
    append_text(out, "reason", skipped[i].reason);
    out += '}';
  }
  out += "],\"notes\":[";
  for (size_t i = 0; i < notes.size(); ++i) {
    if (i) out += ',';
    json::append_quoted_lossy(out, notes[i]);
  }
  out += "]}";
  return out;
}

}  // namespace xs::import
