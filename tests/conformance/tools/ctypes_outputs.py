"""JSON outputs made through ctypes for the schema check (validate_outputs.py): those no
conformance case reaches, and those of real session files of other agents.

- xs_blob_list (plain and verified, with a stray file and a damaged blob), xs_blob_gc (a dry run
  and a real one), xs_session_verify of a file with every kind of problem it reports, and
  xs_session_repair without and with XS_REPAIR_QUARANTINE (lines moved, then nothing to move) and
  after the migration of a v1 file; each checked to be what these calls must return at all
  (status XS_OK, the problems and moves the files were built to have).
- xs_history_search, xs_history_recent and xs_history_info (of a fresh file, and of one opened
  over a damaged file, which reports it), on prompts with and without a cwd.
- xs_index_rebuild, xs_index_refresh, xs_index_verify, xs_index_list, xs_index_info and xs_search
  over the store's sessions and a copy of the corpus files (other agents' text in the index), and
  xs_index_info of an index opened over a damaged file.
- xs_export (the upkeep sessions: a blob referenced and missing) and xs_import_bundle (into another
  store with a cwd map, again: everything present, and a dry run with rename).
- xs_export_html of one session (the page, "index": null) and of two (a directory of pages and an
  index page).
- Every reading call on each *.jsonl of a corpus directory (pi's own files, ../shared/corpus/pi),
  opened read-only: files another agent wrote, whose members our schemas must allow.

Each output goes to <dir>/<source>.<n>.<function>.json, the names the conformance runner uses."""
import ctypes
import json
import os
import shutil
import sys
import tempfile
from ctypes import (POINTER, Structure, byref, c_char_p, c_int64, c_size_t, c_uint32, c_uint64, c_void_p,
                    create_string_buffer)

XS_OK, XS_EBUFS = 0, -7
XS_BLOB_LIST_VERIFY = 0x1
XS_GC_OPTIONS_VERSION, XS_GC_DRY_RUN = 1, 0x1
XS_REPAIR_QUARANTINE = 0x1
XS_HISTORY_OPTIONS_VERSION, XS_HISTORY_LITERAL = 1, 0x1
XS_INDEX_OPTIONS_VERSION, XS_SEARCH_OPTIONS_VERSION, XS_SEARCH_LITERAL = 1, 1, 0x1
XS_IMPORT_BUNDLE_OPTIONS_VERSION, XS_IMPORT_BUNDLE_RENAME, XS_IMPORT_BUNDLE_DRY_RUN = 1, 0x1, 0x2
XS_HTML_OPTIONS_VERSION = 1
HASH = "%064x" % 0xdead  # a blob referenced by a session and never stored
TS = "2026-02-16T10:20:30.000Z"


XS_SESSION_OPTIONS_V1, XS_SESSION_READ_ONLY = 1, 0x1
XS_READ_RESOLVE_BLOBS = 0x1
# The reading calls of a session that take only the handle.
READERS = ("xs_session_header", "xs_session_labels", "xs_session_diagnostics", "xs_session_info", "xs_session_usage",
           "xs_session_stats", "xs_session_verify")


class GcOptions(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("grace_ms", c_int64), ("now_ms", c_int64)]


class SessionOptionsV1(Structure):  # xs_session_options as of version 1 (a version 1 struct is still accepted)
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("max_line_bytes", c_uint64), ("max_depth", c_uint32),
                ("dialect", c_uint32), ("clock_start_ms", c_int64), ("clock_step_ms", c_int64), ("id_seed", c_uint64),
                ("cwd", c_char_p), ("session_id", c_char_p), ("title", c_char_p), ("parent_session", c_char_p)]


class HistoryOptions(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("path", c_char_p), ("busy_timeout_ms", c_uint32),
                ("max_prompt_bytes", c_uint32)]


class IndexOptions(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("path", c_char_p), ("busy_timeout_ms", c_uint32)]


class SearchOptions(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("cwd", c_char_p), ("role", c_char_p),
                ("since_ms", c_int64), ("session_id", c_char_p), ("limit", c_uint32)]


class ImportBundleOptions(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("cwd_map", POINTER(c_char_p)), ("cwd_map_len", c_size_t)]
class HtmlOptions(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32)]


def _declare(lib):
    lib.xs_store_new.restype = c_void_p
    lib.xs_store_open.argtypes = [c_void_p, c_char_p, c_void_p]
    lib.xs_store_free.argtypes = [c_void_p]
    lib.xs_store_errmsg.argtypes = [c_void_p]
    lib.xs_store_errmsg.restype = c_char_p
    lib.xs_session_errmsg.argtypes = [c_void_p]
    lib.xs_session_errmsg.restype = c_char_p
    lib.xs_blob_put.argtypes = [c_void_p, c_char_p, c_size_t, c_char_p]
    lib.xs_blob_list.argtypes = [c_void_p, c_uint32, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_gc_options_init.argtypes = [POINTER(GcOptions), c_uint32]
    lib.xs_blob_gc.argtypes = [c_void_p, POINTER(GcOptions), c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_session_open.argtypes = [c_void_p, c_char_p, c_void_p, POINTER(c_void_p)]
    lib.xs_session_close.argtypes = [c_void_p]
    lib.xs_session_verify.argtypes = [c_void_p, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_session_repair.argtypes = [c_void_p, c_uint32, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_session_options_init.argtypes = [POINTER(SessionOptionsV1), c_uint32]
    lib.xs_history_options_init.argtypes = [POINTER(HistoryOptions), c_uint32]
    lib.xs_index_options_init.argtypes = [POINTER(IndexOptions), c_uint32]
    lib.xs_index_open.argtypes = [c_void_p, c_void_p, POINTER(c_void_p)]
    lib.xs_index_close.argtypes = [c_void_p]
    lib.xs_index_close.restype = None
    lib.xs_index_errmsg.argtypes = [c_void_p]
    lib.xs_index_errmsg.restype = c_char_p
    for name in ("xs_index_rebuild", "xs_index_refresh", "xs_index_verify", "xs_index_info"):
        getattr(lib, name).argtypes = [c_void_p, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_index_list.argtypes = [c_void_p, c_char_p, c_uint32, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_search_options_init.argtypes = [POINTER(SearchOptions), c_uint32]
    lib.xs_search.argtypes = [c_void_p, c_char_p, c_void_p, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_history_open.argtypes = [c_void_p, c_void_p, POINTER(c_void_p)]
    lib.xs_history_close.argtypes = [c_void_p]
    lib.xs_history_errmsg.argtypes = [c_void_p]
    lib.xs_history_errmsg.restype = c_char_p
    lib.xs_history_add.argtypes = [c_void_p, c_char_p, c_size_t, c_char_p, c_int64]
    lib.xs_history_flush.argtypes = [c_void_p]
    lib.xs_history_search.argtypes = [c_void_p, c_char_p, c_char_p, c_uint32, c_uint32, c_char_p, c_size_t,
                                      POINTER(c_size_t)]
    lib.xs_history_recent.argtypes = [c_void_p, c_char_p, c_uint32, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_history_info.argtypes = [c_void_p, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_export.argtypes = [c_void_p, POINTER(c_char_p), c_size_t, c_char_p, c_void_p, c_char_p, c_size_t,
                              POINTER(c_size_t)]
    lib.xs_import_bundle_options_init.argtypes = [POINTER(ImportBundleOptions), c_uint32]
    lib.xs_import_bundle.argtypes = [c_void_p, c_char_p, c_void_p, c_char_p, c_size_t, POINTER(c_size_t)]
    lib.xs_html_options_init.argtypes = [POINTER(HtmlOptions), c_uint32]
    lib.xs_export_html.argtypes = [c_void_p, POINTER(c_char_p), c_size_t, c_char_p, c_void_p, c_char_p, c_size_t,
                                   POINTER(c_size_t)]
    for name in READERS:
        getattr(lib, name).argtypes = [c_void_p, c_char_p, c_size_t, POINTER(c_size_t)]
    for name in ("xs_build_context", "xs_session_resume_check"):
        getattr(lib, name).argtypes = [c_void_p, c_char_p, c_char_p, c_size_t, POINTER(c_size_t)]
    for name in ("xs_session_entries", "xs_session_tree"):
        getattr(lib, name).argtypes = [c_void_p, c_uint32, c_char_p, c_size_t, POINTER(c_size_t)]


class Driver:
    def __init__(self, lib_path, out_dir, root, corpus=None):
        self.lib = ctypes.CDLL(lib_path)
        _declare(self.lib)
        self.out_dir, self.root, self.corpus, self.n = out_dir, root, corpus, 0
        self.source = "upkeep"  # the <source> part of the output files' names

    def _json(self, function, call, errmsg):
        """Size query, then fill, as a binding reads; the output is dumped and returned decoded."""
        n = c_size_t(0)
        rc = call(None, 0, byref(n))
        if rc not in (XS_OK, XS_EBUFS):
            raise AssertionError("%s: status %d: %s" % (function, rc, errmsg()))
        buf = create_string_buffer(max(n.value, 1))
        rc = call(buf, n.value, byref(n))
        if rc != XS_OK:
            raise AssertionError("%s: status %d: %s" % (function, rc, errmsg()))
        text = buf.raw[:n.value]
        self.n += 1
        with open(os.path.join(self.out_dir, "%s.%d.%s.json" % (self.source, self.n, function)), "wb") as f:
            f.write(text)
        return json.loads(text)

    def blobs(self, st):
        lib = self.lib
        err = lambda: lib.xs_store_errmsg(st).decode()  # noqa: E731
        hash_out = create_string_buffer(65)
        assert lib.xs_blob_put(st, b"kept", 4, hash_out) == XS_OK, err()
        blob_dir = os.path.join(self.root, "blobs")
        with open(os.path.join(blob_dir, "stray.txt"), "wb") as f:
            f.write(b"not a blob")
        with open(os.path.join(blob_dir, "%064x" % 1), "wb") as f:  # content that does not match its name
            f.write(b"damaged")
        listing = self._json("xs_blob_list", lambda b, c, n: lib.xs_blob_list(st, 0, b, c, n), err)
        assert listing["count"] == 2 and len(listing["others"]) == 1, listing
        verified = self._json("xs_blob_list", lambda b, c, n: lib.xs_blob_list(st, XS_BLOB_LIST_VERIFY, b, c, n), err)
        assert [b["problem"] is None for b in verified["blobs"]].count(False) == 1, verified
        o = GcOptions()
        assert lib.xs_gc_options_init(byref(o), XS_GC_OPTIONS_VERSION) == XS_OK
        o.grace_ms, o.now_ms, o.flags = 0, 4102444800000, XS_GC_DRY_RUN  # 2100: every file is old enough
        dry = self._json("xs_blob_gc", lambda b, c, n: lib.xs_blob_gc(st, byref(o), b, c, n), err)
        assert dry["dryRun"] and dry["missing"] == [HASH] and dry["referenced"] == 0, dry
        o.flags = 0
        real = self._json("xs_blob_gc", lambda b, c, n: lib.xs_blob_gc(st, byref(o), b, c, n), err)
        assert len(real["deleted"]) == 2 and real["bytesFreed"] == 11, real

    def session_file(self, name, lines, tail=b""):
        path = os.path.join(self.root, "sessions", "--w--", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(b"".join(line + b"\n" for line in lines) + tail)
        return path

    def upkeep(self, st):
        lib = self.lib
        header = ('{"type":"session","version":3,"id":"up","timestamp":"%s","cwd":"/w"}' % TS).encode()
        entry = lambda i, p, extra="": ('{"type":"message","id":"%s","parentId":%s,"timestamp":"%s","message":'  # noqa
                                        '{"role":"user","content":[%s]}}' % (i, p, TS, extra)).encode()
        image = '{"type":"image","mimeType":"image/png","data":"blob:sha256:%s"}' % HASH
        path = self.session_file("up.jsonl", [header, entry("a1", "null"), b"not json", b"\x00",
                                              entry("b1", '"gone"', image)], tail=b'{"type":"mess')
        s = c_void_p()
        assert lib.xs_session_open(st, path.encode(), None, byref(s)) == XS_OK, lib.xs_store_errmsg(st)
        err = lambda: lib.xs_session_errmsg(s).decode()  # noqa: E731
        report = self._json("xs_session_verify", lambda b, c, n: lib.xs_session_verify(s, b, c, n), err)
        codes = [p["code"] for p in report["problems"]]
        assert {"invalid_json", "nul_byte", "orphan", "missing_blob", "incomplete_tail"} <= set(codes), report
        fixed = self._json("xs_session_repair", lambda b, c, n: lib.xs_session_repair(s, 0, b, c, n), err)
        assert [d["code"] for d in fixed["done"]] == ["newline_written"] and "quarantine" not in fixed, fixed
        moved = self._json("xs_session_repair",
                           lambda b, c, n: lib.xs_session_repair(s, XS_REPAIR_QUARANTINE, b, c, n), err)
        assert moved["quarantine"]["lines"] == 3 and moved["done"][0]["code"] == "quarantined", moved
        again = self._json("xs_session_repair",
                           lambda b, c, n: lib.xs_session_repair(s, XS_REPAIR_QUARANTINE, b, c, n), err)
        assert again["quarantine"] is None and again["done"] == [], again
        lib.xs_session_close(s)
        old = self.session_file("v1.jsonl", [b'{"type":"session","id":"v1","timestamp":"%s","cwd":"/w"}' % TS.encode(),
                                             b'{"type":"message","timestamp":"%s","message":{"role":"user",'
                                             b'"content":"hi"}}' % TS.encode()])
        s = c_void_p()
        assert lib.xs_session_open(st, old.encode(), None, byref(s)) == XS_OK, lib.xs_store_errmsg(st)
        migrated = self._json("xs_session_repair", lambda b, c, n: lib.xs_session_repair(s, 0, b, c, n), err)
        assert [d["code"] for d in migrated["done"]] == ["migrated"], migrated
        self._json("xs_session_verify", lambda b, c, n: lib.xs_session_verify(s, b, c, n), err)
        lib.xs_session_close(s)

    def history(self, st):
        lib = self.lib
        h = c_void_p()
        assert lib.xs_history_open(st, None, byref(h)) == XS_OK, lib.xs_store_errmsg(st)
        err = lambda: lib.xs_history_errmsg(h).decode()  # noqa: E731
        try:
            for i, (prompt, cwd) in enumerate([("fix the flaky \"login\" test", b"/w"), ("explain bm25 ranking", None),
                                               ("fix the build \u2014 again", b"/w")]):
                data = prompt.encode()
                assert lib.xs_history_add(h, data, len(data), cwd, 1771237230000 + i) == XS_OK, err()
            assert lib.xs_history_flush(h) == XS_OK, err()
            hits = self._json("xs_history_search",
                              lambda b, c, n: lib.xs_history_search(h, b"fix", None, 0, 0, b, c, n), err)
            assert [x["id"] for x in hits] and all("\u0002fix\u0003" in x["snippet"] for x in hits), hits
            self._json("xs_history_search",
                       lambda b, c, n: lib.xs_history_search(h, b'"login" te', b"/w", XS_HISTORY_LITERAL, 5, b, c, n),
                       err)
            recent = self._json("xs_history_recent", lambda b, c, n: lib.xs_history_recent(h, None, 0, b, c, n), err)
            assert [x["cwd"] for x in recent] == ["/w", None, "/w"], recent
            info = self._json("xs_history_info", lambda b, c, n: lib.xs_history_info(h, b, c, n), err)
            assert info["count"] == 3 and info["damaged"] is None, info
        finally:
            assert lib.xs_history_close(h) == XS_OK
        self.damaged_file_info(st, "history", HistoryOptions, XS_HISTORY_OPTIONS_VERSION)

    def damaged_file_info(self, st, kind, options_type, version):
        """xs_<kind>_info of a handle opened over a file that is not a database: it reports the copy
        it kept aside."""
        lib = self.lib
        call = lambda name: getattr(lib, "xs_%s_%s" % (kind, name))  # noqa: E731
        damaged = os.path.join(self.root, "damaged-%s.db" % kind)
        with open(damaged, "wb") as f:
            f.write(b"not a database at all")
        o = options_type()
        assert call("options_init")(byref(o), version) == XS_OK
        o.path = damaged.encode()
        h = c_void_p()
        assert call("open")(st, byref(o), byref(h)) == XS_OK, lib.xs_store_errmsg(st)
        try:
            info = self._json("xs_%s_info" % kind, lambda b, c, n: call("info")(h, b, c, n),
                              lambda: call("errmsg")(h).decode())
            assert info["damaged"]["path"].startswith(damaged + ".damaged-"), info
        finally:
            call("close")(h)

    def index(self, st):
        lib = self.lib
        for name in sorted(os.listdir(self.corpus)) if self.corpus else []:
            if name.endswith(".jsonl"):
                with open(os.path.join(self.corpus, name), "rb") as f:
                    lines = f.read()
                path = os.path.join(self.root, "sessions", "--corpus--", name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(lines)
        ix = c_void_p()
        assert lib.xs_index_open(st, None, byref(ix)) == XS_OK, lib.xs_store_errmsg(st)
        err = lambda: lib.xs_index_errmsg(ix).decode()  # noqa: E731
        try:
            built = self._json("xs_index_rebuild", lambda b, c, n: lib.xs_index_rebuild(ix, b, c, n), err)
            assert built["added"] >= 2 and built["entries"] > 0, built
            again = self._json("xs_index_refresh", lambda b, c, n: lib.xs_index_refresh(ix, b, c, n), err)
            assert again["unchanged"] == built["added"], again
            verified = self._json("xs_index_verify", lambda b, c, n: lib.xs_index_verify(ix, b, c, n), err)
            assert verified["ok"], verified
            listed = self._json("xs_index_list", lambda b, c, n: lib.xs_index_list(ix, None, 0, b, c, n), err)
            assert listed, listed
            self._json("xs_index_list", lambda b, c, n: lib.xs_index_list(ix, b"/w", 5, b, c, n), err)
            hits = self._json("xs_search", lambda b, c, n: lib.xs_search(ix, b"hi", None, b, c, n), err)
            assert any("\u0002hi\u0003" in x["snippet"] for x in hits), hits
            o = SearchOptions()
            assert lib.xs_search_options_init(byref(o), XS_SEARCH_OPTIONS_VERSION) == XS_OK
            o.flags, o.limit = XS_SEARCH_LITERAL, 50
            self._json("xs_search", lambda b, c, n: lib.xs_search(ix, b"the", byref(o), b, c, n), err)
            info = self._json("xs_index_info", lambda b, c, n: lib.xs_index_info(ix, b, c, n), err)
            assert info["sessions"] == built["added"] and info["damaged"] is None, info
        finally:
            lib.xs_index_close(ix)
        self.damaged_file_info(st, "index", IndexOptions, XS_INDEX_OPTIONS_VERSION)

    def bundles(self, st):
        lib = self.lib
        err = lambda: lib.xs_store_errmsg(st).decode()  # noqa: E731
        other = tempfile.mkdtemp(prefix="xs-bundle-")
        dst = lib.xs_store_new()
        try:
            out = os.path.join(other, "b.xsb").encode()
            ids = (c_char_p * 2)(b"up", b"v1")
            made = self._json("xs_export", lambda b, c, n: lib.xs_export(st, ids, 2, out, None, b, c, n), err)
            assert [x["id"] for x in made["sessions"]] == ["up", "v1"] and made["missingBlobs"] == [HASH], made
            assert lib.xs_store_open(dst, os.path.join(other, "store").encode(), None) == XS_OK
            derr = lambda: lib.xs_store_errmsg(dst).decode()  # noqa: E731
            o = ImportBundleOptions()
            assert lib.xs_import_bundle_options_init(byref(o), XS_IMPORT_BUNDLE_OPTIONS_VERSION) == XS_OK
            pairs = (c_char_p * 2)(b"/w", b"/home/w")
            o.cwd_map, o.cwd_map_len = pairs, 2
            done = self._json("xs_import_bundle", lambda b, c, n: lib.xs_import_bundle(dst, out, byref(o), b, c, n),
                              derr)
            assert [(x["action"], x["oldCwd"]) for x in done["sessions"]] == [("imported", "/w")] * 2, done
            again = self._json("xs_import_bundle", lambda b, c, n: lib.xs_import_bundle(dst, out, byref(o), b, c, n),
                               derr)
            assert [x["action"] for x in again["sessions"]] == ["present"] * 2, again
            o.flags, o.cwd_map_len = XS_IMPORT_BUNDLE_RENAME | XS_IMPORT_BUNDLE_DRY_RUN, 0
            dry = self._json("xs_import_bundle", lambda b, c, n: lib.xs_import_bundle(st, out, byref(o), b, c, n), err)
            assert dry["dryRun"] and [x["action"] for x in dry["sessions"]] == ["present"] * 2, dry
        finally:
            lib.xs_store_free(dst)
            shutil.rmtree(other)
    def html(self, st):
        lib = self.lib
        err = lambda: lib.xs_store_errmsg(st).decode()  # noqa: E731
        header = lambda i: ('{"type":"session","version":3,"id":"%s","timestamp":"%s","cwd":"/w"}' % (i, TS)).encode()  # noqa
        msg = ('{"type":"message","id":"m1","parentId":null,"timestamp":"%s","message":{"role":"user",'
               '"content":"<script>x</script>"}}' % TS).encode()
        self.session_file("html1.jsonl", [header("html1"), msg])
        self.session_file("html2.jsonl", [header("html2"), msg])
        out = os.path.join(self.root, "html-out")
        o = HtmlOptions()
        assert lib.xs_html_options_init(byref(o), XS_HTML_OPTIONS_VERSION) == XS_OK
        one = (c_char_p * 1)(b"html1")
        page = self._json("xs_export_html",
                          lambda b, c, n: lib.xs_export_html(st, one, 1, (out + ".html").encode(), byref(o), b, c, n),
                          err)
        assert page["index"] is None and page["pages"][0]["messages"] == 1, page
        two = (c_char_p * 2)(b"html1", b"html2")
        pages = self._json("xs_export_html", lambda b, c, n: lib.xs_export_html(st, two, 2, out.encode(), None, b, c, n),
                           err)
        assert [p["sessionId"] for p in pages["pages"]] == ["html1", "html2"], pages
        assert pages["index"]["path"] == os.path.join(out, "index.html"), pages

    def corpus_file(self, st, path):
        """Every reading call on another agent's file, opened read-only (nothing is written)."""
        lib = self.lib
        o = SessionOptionsV1()
        assert lib.xs_session_options_init(byref(o), XS_SESSION_OPTIONS_V1) == XS_OK
        o.flags = XS_SESSION_READ_ONLY
        s = c_void_p()
        assert lib.xs_session_open(st, path.encode(), byref(o), byref(s)) == XS_OK, lib.xs_store_errmsg(st)
        err = lambda: lib.xs_session_errmsg(s).decode()  # noqa: E731
        try:
            for name in READERS:
                self._json(name, lambda b, c, n: getattr(lib, name)(s, b, c, n), err)
            for flags in (0, XS_READ_RESOLVE_BLOBS):
                self._json("xs_session_entries", lambda b, c, n: lib.xs_session_entries(s, flags, b, c, n), err)
            self._json("xs_session_tree", lambda b, c, n: lib.xs_session_tree(s, 0, b, c, n), err)
            self._json("xs_build_context", lambda b, c, n: lib.xs_build_context(s, None, b, c, n), err)
            self._json("xs_session_resume_check", lambda b, c, n: lib.xs_session_resume_check(s, None, b, c, n), err)
        finally:
            lib.xs_session_close(s)

    def run(self):
        st = self.lib.xs_store_new()
        try:
            assert self.lib.xs_store_open(st, self.root.encode(), None) == XS_OK, self.lib.xs_store_errmsg(st)
            self.upkeep(st)  # first: the sessions hold the blob refs the collector marks
            self.blobs(st)
            self.history(st)
            self.index(st)
            self.bundles(st)
            self.html(st)
            names = sorted(n for n in os.listdir(self.corpus) if n.endswith(".jsonl")) if self.corpus else []
            if self.corpus and not names:
                raise AssertionError("no *.jsonl in " + self.corpus)
            for name in names:
                self.source = "corpus-" + name[:-len(".jsonl")]
                self.corpus_file(st, os.path.join(self.corpus, name))
        finally:
            self.lib.xs_store_free(st)
        return self.n


if __name__ == "__main__":  # ctypes_outputs.py LIB OUT_DIR STORE_ROOT [CORPUS_DIR], as validate_outputs.py runs it
    print("%d outputs" % Driver(*sys.argv[1:5]).run())
