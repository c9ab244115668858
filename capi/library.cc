// Library-level calls: version, status names, option-struct initialisers.
#include <cstddef>

#include "handles.h"

static_assert(
    XS_OK == static_cast<int>(xs::Code::kOk) && XS_ERROR == static_cast<int>(xs::Code::kError) &&
        XS_ENOMEM == static_cast<int>(xs::Code::kNoMem) && XS_EINVAL == static_cast<int>(xs::Code::kInvalid) &&
        XS_EMISUSE == static_cast<int>(xs::Code::kMisuse) && XS_ENOTFOUND == static_cast<int>(xs::Code::kNotFound) &&
        XS_EEXISTS == static_cast<int>(xs::Code::kExists) && XS_EBUFS == static_cast<int>(xs::Code::kBufs) &&
        XS_ECORRUPT == static_cast<int>(xs::Code::kCorrupt) && XS_EIO == static_cast<int>(xs::Code::kIo) &&
        XS_ELOCKED == static_cast<int>(xs::Code::kLocked) && XS_EVERSION == static_cast<int>(xs::Code::kVersion) &&
        XS_ENOSPC == static_cast<int>(xs::Code::kNoSpace) && XS_EREADONLY == static_cast<int>(xs::Code::kReadOnly) &&
        XS_ECONFLICT == static_cast<int>(xs::Code::kConflict) && XS_ELIMIT == static_cast<int>(xs::Code::kLimit) &&
        XS_ENOHEADER == static_cast<int>(xs::Code::kNoHeader) &&
        XS_EPOISONED == static_cast<int>(xs::Code::kPoisoned) &&
        XS_EAMBIGUOUS == static_cast<int>(xs::Code::kAmbiguous) &&
        XS_EDIALECT == static_cast<int>(xs::Code::kDialect) && XS_EINTERNAL == static_cast<int>(xs::Code::kInternal),
    "xs_status codes and xs::Code must agree");

extern "C" {

void xs_version(int* major, int* minor, int* patch) {
  if (major) *major = XS_VERSION_MAJOR;
  if (minor) *minor = XS_VERSION_MINOR;
  if (patch) *patch = XS_VERSION_PATCH;
}

const char* xs_status_str(xs_status code) {
  switch (code) {
    case XS_OK: return "XS_OK: success";
    case XS_ERROR: return "XS_ERROR: error";
    case XS_ENOMEM: return "XS_ENOMEM: out of memory";
    case XS_EINVAL: return "XS_EINVAL: invalid argument";
    case XS_EMISUSE: return "XS_EMISUSE: API misuse";
    case XS_ENOTFOUND: return "XS_ENOTFOUND: not found";
    case XS_EEXISTS: return "XS_EEXISTS: already exists";
    case XS_EBUFS: return "XS_EBUFS: output buffer too small";
    case XS_ECORRUPT: return "XS_ECORRUPT: corrupt data";
    case XS_EIO: return "XS_EIO: I/O error";
    case XS_ELOCKED: return "XS_ELOCKED: locked by another writer";
    case XS_EVERSION: return "XS_EVERSION: unsupported version";
    case XS_ENOSPC: return "XS_ENOSPC: no space left";
    case XS_EREADONLY: return "XS_EREADONLY: session is read-only";
    case XS_ECONFLICT: return "XS_ECONFLICT: changed by another process";
    case XS_ELIMIT: return "XS_ELIMIT: limit exceeded";
    case XS_ENOHEADER: return "XS_ENOHEADER: no session header";
    case XS_EPOISONED: return "XS_EPOISONED: an earlier write failed";
    case XS_EAMBIGUOUS: return "XS_EAMBIGUOUS: ambiguous session id";
    case XS_EDIALECT: return "XS_EDIALECT: no form in the session's dialect";
    case XS_EINTERNAL: return "XS_EINTERNAL: internal error";
    default: return "unknown status";
  }
}

xs_status xs_store_options_init(xs_store_options* opts, uint32_t version) {
  if (!opts) return XS_EINVAL;
  if (version < 1 || version > XS_STORE_OPTIONS_VERSION) return XS_EVERSION;
  // An older caller's struct ends before the fields of later versions: write only what it has.
  std::memset(opts, 0,
              version == 1   ? offsetof(xs_store_options, keys_path)
              : version == 2 ? offsetof(xs_store_options, reset_policy)
              : version == 3 ? offsetof(xs_store_options, storage)
                             : sizeof *opts);
  opts->version = version;
  return XS_OK;
}

xs_status xs_session_options_init(xs_session_options* opts, uint32_t version) {
  if (!opts) return XS_EINVAL;
  if (version != 1 && version != XS_SESSION_OPTIONS_VERSION) return XS_EVERSION;
  // A version 1 caller's struct ends before key: write only what it has.
  std::memset(opts, 0, version == 1 ? offsetof(xs_session_options, key) : sizeof *opts);
  opts->version = version;
  return XS_OK;
}

xs_status xs_list_options_init(xs_list_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_LIST_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_list_options{};
  o->version = version;
  return XS_OK;
}

xs_status xs_compaction_init(xs_compaction* c, uint32_t version) {
  if (!c) return XS_EINVAL;
  if (version != XS_COMPACTION_VERSION) return XS_EVERSION;
  *c = xs_compaction{};
  c->version = version;
  c->from_extension = XS_UNSET;
  return XS_OK;
}

xs_status xs_custom_message_init(xs_custom_message* m, uint32_t version) {
  if (!m) return XS_EINVAL;
  if (version != XS_CUSTOM_MESSAGE_VERSION) return XS_EVERSION;
  *m = xs_custom_message{};
  m->version = version;
  m->display = 1;
  return XS_OK;
}

xs_status xs_session_init_entry_init(xs_session_init_entry* si, uint32_t version) {
  if (!si) return XS_EINVAL;
  if (version != XS_SESSION_INIT_ENTRY_VERSION) return XS_EVERSION;
  *si = xs_session_init_entry{};
  si->version = version;
  return XS_OK;
}

}  // extern "C"
