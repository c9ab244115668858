"""The C API from Python ctypes, the way a non-C++ agent would use it: hand-declared argtypes and
restype for every function used, ctypes.Structure mirrors of the option structs (checked against
the LP64 layout the C tests assert), exact JSON bytes and status codes. Standard library only.

Usage: python3 ctypes_test.py <path to libxsession.so.0>
"""
import ctypes
import os
import shutil
import sys
import tempfile
import threading
import unittest
from ctypes import (POINTER, Structure, byref, c_char, c_char_p, c_int, c_int32, c_int64, c_size_t, c_uint32,
                    c_uint64, c_void_p, create_string_buffer, sizeof)

LIB_PATH = None
lib = None

# --- constants from xsession.h -------------------------------------------------------------------
XS_OK, XS_ERROR, XS_ENOMEM, XS_EINVAL, XS_EMISUSE, XS_ENOTFOUND, XS_EEXISTS, XS_EBUFS = 0, -1, -2, -3, -4, -5, -6, -7
XS_ECORRUPT, XS_EIO, XS_ELOCKED, XS_EVERSION, XS_ENOSPC, XS_EREADONLY = -8, -9, -10, -11, -12, -13
XS_ECONFLICT, XS_ELIMIT, XS_ENOHEADER, XS_EPOISONED, XS_EAMBIGUOUS, XS_EINTERNAL = -14, -15, -16, -17, -18, -99
XS_HASH_BUFSIZE = 65
XS_LIST_OPTIONS_VERSION = 1
XS_LIST_FULL = 0x1
XS_ID_BUFSIZE = 65
XS_UNSET = -1
XS_STORE_OPTIONS_VERSION = 1
XS_STORE_IN_MEMORY = 0x1
XS_SESSION_OPTIONS_VERSION = 1
XS_SESSION_READ_ONLY, XS_SESSION_CREATE, XS_SESSION_NO_DEFER, XS_SESSION_SYNC, XS_SESSION_FIXED_CLOCK = 1, 2, 4, 8, 16
XS_COMPACTION_VERSION = 1
XS_CUSTOM_MESSAGE_VERSION = 1
XS_SESSION_INIT_ENTRY_VERSION = 1

T0_MS = 1771237230000  # 2026-02-16T10:20:30.000Z


# --- struct mirrors ------------------------------------------------------------------------------
class StoreOptions(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32)]


class SessionOptions(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("flags", c_uint32),
        ("max_line_bytes", c_uint64),
        ("max_depth", c_uint32),
        ("reserved", c_uint32),
        ("clock_start_ms", c_int64),
        ("clock_step_ms", c_int64),
        ("id_seed", c_uint64),
        ("cwd", c_char_p),
        ("session_id", c_char_p),
        ("title", c_char_p),
        ("parent_session", c_char_p),
    ]


class Compaction(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("from_extension", c_int32),
        ("summary", c_char_p),
        ("summary_len", c_size_t),
        ("short_summary", c_char_p),
        ("short_summary_len", c_size_t),
        ("first_kept_entry_id", c_char_p),
        ("tokens_before", c_int64),
        ("details_json", c_char_p),
        ("details_len", c_size_t),
        ("preserve_data_json", c_char_p),
        ("preserve_data_len", c_size_t),
    ]


class CustomMessage(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("display", c_int32),
        ("custom_type", c_char_p),
        ("content_json", c_char_p),
        ("content_len", c_size_t),
        ("details_json", c_char_p),
        ("details_len", c_size_t),
        ("attribution", c_char_p),
    ]


class SessionInitEntry(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("reserved", c_uint32),
        ("system_prompt", c_char_p),
        ("system_prompt_len", c_size_t),
        ("task", c_char_p),
        ("task_len", c_size_t),
        ("tools_json", c_char_p),
        ("tools_len", c_size_t),
        ("output_schema_json", c_char_p),
        ("output_schema_len", c_size_t),
    ]


class ListOptions(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("limit", c_uint64), ("cwd", c_char_p)]


xs_status = c_int32
Store = c_void_p
Session = c_void_p
OUT = [c_char_p, c_size_t, POINTER(c_size_t)]  # (buf, cap, out_len); buf passed as bytes buffer or None


def declare(library):
    def fn(name, restype, *argtypes):
        f = getattr(library, name)
        f.restype = restype
        f.argtypes = list(argtypes)

    fn("xs_version", None, POINTER(c_int), POINTER(c_int), POINTER(c_int))
    fn("xs_status_str", c_char_p, xs_status)
    fn("xs_store_options_init", xs_status, POINTER(StoreOptions), c_uint32)
    fn("xs_session_options_init", xs_status, POINTER(SessionOptions), c_uint32)
    fn("xs_compaction_init", xs_status, POINTER(Compaction), c_uint32)
    fn("xs_custom_message_init", xs_status, POINTER(CustomMessage), c_uint32)
    fn("xs_session_init_entry_init", xs_status, POINTER(SessionInitEntry), c_uint32)
    fn("xs_store_new", Store)
    fn("xs_store_open", xs_status, Store, c_char_p, POINTER(StoreOptions))
    fn("xs_store_free", None, Store)
    fn("xs_store_errcode", xs_status, Store)
    fn("xs_store_errmsg", c_char_p, Store)
    fn("xs_store_session_dir", xs_status, Store, c_char_p, *OUT)
    fn("xs_blob_put", xs_status, Store, c_void_p, c_size_t, c_char_p)
    fn("xs_blob_get", xs_status, Store, c_char_p, *OUT)
    fn("xs_list_options_init", xs_status, POINTER(ListOptions), c_uint32)
    fn("xs_store_list", xs_status, Store, POINTER(ListOptions), *OUT)
    fn("xs_store_resolve", xs_status, Store, c_char_p, c_char_p, *OUT)
    fn("xs_session_create", xs_status, Store, c_char_p, POINTER(SessionOptions), POINTER(Session))
    fn("xs_session_open", xs_status, Store, c_char_p, POINTER(SessionOptions), POINTER(Session))
    fn("xs_session_close", None, Session)
    fn("xs_session_errcode", xs_status, Session)
    fn("xs_session_errmsg", c_char_p, Session)
    fn("xs_session_flush", xs_status, Session)
    fn("xs_session_persist", xs_status, Session)
    fn("xs_append", xs_status, Session, c_char_p, c_size_t, c_char_p)
    fn("xs_append_message", xs_status, Session, c_char_p, c_size_t, c_char_p)
    fn("xs_append_thinking_level", xs_status, Session, c_char_p, c_char_p)
    fn("xs_append_model_change", xs_status, Session, c_char_p, c_char_p, c_char_p)
    fn("xs_append_compaction", xs_status, Session, POINTER(Compaction), c_char_p)
    fn("xs_append_custom", xs_status, Session, c_char_p, c_char_p, c_size_t, c_char_p)
    fn("xs_append_custom_message", xs_status, Session, POINTER(CustomMessage), c_char_p)
    fn("xs_append_label", xs_status, Session, c_char_p, c_char_p, c_char_p)
    fn("xs_append_session_init", xs_status, Session, POINTER(SessionInitEntry), c_char_p)
    fn("xs_session_branch_with_summary", xs_status, Session, c_char_p, c_char_p, c_size_t, c_char_p, c_size_t,
       c_int32, c_char_p)
    fn("xs_session_set_leaf", xs_status, Session, c_char_p)
    fn("xs_session_set_title", xs_status, Session, c_char_p, c_size_t)
    fn("xs_build_context", xs_status, Session, c_char_p, *OUT)
    fn("xs_session_header", xs_status, Session, *OUT)
    fn("xs_session_entries", xs_status, Session, c_uint32, *OUT)
    fn("xs_session_entry", xs_status, Session, c_char_p, c_uint32, *OUT)
    fn("xs_session_leaf", xs_status, Session, *OUT)
    fn("xs_session_labels", xs_status, Session, *OUT)
    fn("xs_session_info", xs_status, Session, *OUT)
    fn("xs_session_usage", xs_status, Session, *OUT)


class XsError(Exception):
    def __init__(self, code, message):
        super().__init__("%s: %s" % (lib.xs_status_str(code).decode(), message))
        self.code = code


def check(s, rc):
    if rc != XS_OK:
        raise XsError(rc, lib.xs_session_errmsg(s).decode())


def read(s, fn, *args):
    """Size query, then fill; loops on XS_EBUFS (another thread may have grown the result)."""
    need = c_size_t(0)
    rc = fn(s, *args, None, 0, byref(need))
    for _ in range(10):
        if rc == XS_OK:
            return b"" if need.value == 0 else buf.raw[:need.value]
        if rc != XS_EBUFS:
            raise XsError(rc, lib.xs_session_errmsg(s).decode())
        buf = create_string_buffer(need.value)
        rc = fn(s, *args, buf, need.value, byref(need))
        if rc == XS_OK:
            return buf.raw[:need.value]
    raise AssertionError("the result kept growing")


def iso(tick):
    ms = T0_MS + tick * 1000
    import datetime
    d = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


USER1 = b'{"role":"user","content":"list the files","timestamp":1}'
ASSISTANT1 = (b'{"role":"assistant","content":[{"type":"text","text":"a.c b.c"}],"provider":"anthropic",'
              b'"model":"claude-x","timestamp":2}')
USER2 = b'{"role":"user","content":"delete them","timestamp":3}'
USER3 = b'{"role":"user","content":"count them instead","timestamp":4}'


def context(leaf, messages, models=b'{"default":"anthropic/claude-x"}'):
    return (b'{"leafId":"' + leaf + b'","messages":[' + b",".join(messages) + b'],"thinkingLevel":"off","models":' +
            models + b',"injectedTtsrRules":[],"mode":"none"}')


class Base(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="xs-ctypes-")
        self.store = lib.xs_store_new()
        self.assertTrue(self.store)
        rc = lib.xs_store_open(self.store, self.dir.encode(), None)
        self.assertEqual(rc, XS_OK, lib.xs_store_errmsg(self.store))
        self.sessions = []

    def tearDown(self):
        for s in self.sessions:
            lib.xs_session_close(s)
        lib.xs_store_free(self.store)
        shutil.rmtree(self.dir)

    def options(self, flags=0, session_id=None):
        o = SessionOptions()
        self.assertEqual(lib.xs_session_options_init(byref(o), XS_SESSION_OPTIONS_VERSION), XS_OK)
        o.flags = flags | XS_SESSION_FIXED_CLOCK
        o.clock_start_ms = T0_MS
        o.clock_step_ms = 1000
        o.id_seed = 5
        o.session_id = session_id
        return o

    def create(self, flags=0, session_id=None, cwd=b"/work/agent"):
        o = self.options(flags, session_id)
        s = Session()
        rc = lib.xs_session_create(self.store, cwd, byref(o), byref(s))
        self.assertEqual(rc, XS_OK, lib.xs_store_errmsg(self.store))
        self.assertTrue(s.value)
        self.sessions.append(s)
        return s

    def message(self, s, json):
        out = create_string_buffer(XS_ID_BUFSIZE)
        check(s, lib.xs_append_message(s, json, len(json), out))
        self.assertEqual(len(out.value), 8)
        return out.value


class Layout(unittest.TestCase):
    """The mirrors above agree with the C layout (the numbers the C tests assert)."""

    def test_sizes(self):
        self.assertEqual(sizeof(ListOptions), 24)
        self.assertEqual(ListOptions.cwd.offset, 16)
        self.assertEqual(sizeof(StoreOptions), 8)
        self.assertEqual(sizeof(SessionOptions), 80)
        self.assertEqual(sizeof(Compaction), 88)
        self.assertEqual(sizeof(CustomMessage), 56)
        self.assertEqual(sizeof(SessionInitEntry), 72)

    def test_offsets(self):
        self.assertEqual(SessionOptions.max_line_bytes.offset, 8)
        self.assertEqual(SessionOptions.max_depth.offset, 16)
        self.assertEqual(SessionOptions.clock_start_ms.offset, 24)
        self.assertEqual(SessionOptions.id_seed.offset, 40)
        self.assertEqual(SessionOptions.cwd.offset, 48)
        self.assertEqual(SessionOptions.parent_session.offset, 72)
        self.assertEqual(Compaction.tokens_before.offset, 48)
        self.assertEqual(Compaction.preserve_data_len.offset, 80)
        self.assertEqual(CustomMessage.attribution.offset, 48)
        self.assertEqual(SessionInitEntry.output_schema_len.offset, 64)

    def test_init_functions_fill_the_mirrors(self):
        c = Compaction()
        ctypes.memset(byref(c), 0xAB, sizeof(c))
        self.assertEqual(lib.xs_compaction_init(byref(c), XS_COMPACTION_VERSION), XS_OK)
        self.assertEqual((c.version, c.from_extension, c.summary, c.tokens_before), (1, XS_UNSET, None, 0))
        m = CustomMessage()
        self.assertEqual(lib.xs_custom_message_init(byref(m), XS_CUSTOM_MESSAGE_VERSION), XS_OK)
        self.assertEqual((m.version, m.display, m.attribution), (1, 1, None))
        si = SessionInitEntry()
        self.assertEqual(lib.xs_session_init_entry_init(byref(si), 2), XS_EVERSION)
        self.assertEqual(lib.xs_session_init_entry_init(None, XS_SESSION_INIT_ENTRY_VERSION), XS_EINVAL)
        so = StoreOptions()
        self.assertEqual(lib.xs_store_options_init(byref(so), 0), XS_EVERSION)
        o = SessionOptions()
        ctypes.memset(byref(o), 0xAB, sizeof(o))
        self.assertEqual(lib.xs_session_options_init(byref(o), XS_SESSION_OPTIONS_VERSION), XS_OK)
        self.assertEqual((o.version, o.flags, o.max_line_bytes, o.max_depth, o.reserved, o.id_seed, o.cwd),
                         (1, 0, 0, 0, 0, 0, None))


class Library(unittest.TestCase):
    def test_version(self):
        v = [c_int(-1), c_int(-1), c_int(-1)]
        lib.xs_version(byref(v[0]), byref(v[1]), byref(v[2]))
        self.assertEqual([x.value for x in v], [0, 2, 0])
        lib.xs_version(None, None, None)

    def test_status_str(self):
        self.assertEqual(lib.xs_status_str(XS_ENOTFOUND), b"XS_ENOTFOUND: not found")
        self.assertEqual(lib.xs_status_str(424242), b"unknown status")
        for name in ("XS_OK", "XS_EINVAL", "XS_EBUFS", "XS_ELOCKED", "XS_EREADONLY", "XS_ELIMIT", "XS_EINTERNAL"):
            self.assertTrue(lib.xs_status_str(globals()[name]).startswith(name.encode() + b": "))


class Scenario(Base):
    """The dlopen_test.c scenario: messages, a branch, a label, the context, close."""

    def test_agent_session(self):
        s = self.create(session_id=b"py-1")
        u1 = self.message(s, USER1)
        a1 = self.message(s, ASSISTANT1)
        u2 = self.message(s, USER2)
        check(s, lib.xs_session_set_leaf(s, a1))
        u3 = self.message(s, USER3)
        l1 = create_string_buffer(XS_ID_BUFSIZE)
        check(s, lib.xs_append_label(s, u1, b"start", l1))
        l1 = l1.value

        # The size query, one byte short (buffer untouched), then the exact fill.
        expected = context(l1, [USER1, ASSISTANT1, USER3])
        need = c_size_t(0)
        self.assertEqual(lib.xs_build_context(s, None, None, 0, byref(need)), XS_EBUFS)
        self.assertEqual(need.value, len(expected))
        short = create_string_buffer(b"#" * (need.value - 1), need.value - 1)
        self.assertEqual(lib.xs_build_context(s, None, short, need.value - 1, byref(need)), XS_EBUFS)
        self.assertEqual(short.raw, b"#" * (len(expected) - 1))
        exact = create_string_buffer(b"#" * (need.value + 1), need.value + 1)
        self.assertEqual(lib.xs_build_context(s, None, exact, need.value, byref(need)), XS_OK)
        self.assertEqual(exact.raw[:need.value], expected)
        self.assertEqual(exact.raw[need.value:], b"#")
        self.assertEqual(lib.xs_session_errmsg(s), b"")

        self.assertEqual(read(s, lib.xs_session_leaf), l1)
        self.assertEqual(read(s, lib.xs_session_labels),
                         b'[{"targetId":"' + u1 + b'","label":"start","timestamp":"' + iso(5).encode() + b'"}]')
        self.assertEqual(read(s, lib.xs_build_context, u2), context(u2, [USER1, ASSISTANT1, USER2]))

        info = read(s, lib.xs_session_info).decode()
        path = self.dir + "/sessions/--work-agent--/2026-02-16T10-20-30-000Z_py-1.jsonl"
        self.assertIn('"path":"%s"' % path, info)
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        self.assertEqual(lines[-1], b"")
        self.assertEqual(lines[0], b'{"type":"session","version":3,"id":"py-1","timestamp":"' + iso(0).encode() +
                         b'","cwd":"/work/agent"}')
        self.assertEqual(lines[1], b'{"type":"message","id":"' + u1 + b'","parentId":null,"timestamp":"' +
                         iso(1).encode() + b'","message":' + USER1 + b"}")
        self.assertEqual(lines[4], b'{"type":"message","id":"' + u3 + b'","parentId":"' + a1 + b'","timestamp":"' +
                         iso(4).encode() + b'","message":' + USER3 + b"}")
        self.assertEqual(len(lines), 7)

        # Reopen: same entries, leaf at the last entry in file order.
        entries = read(s, lib.xs_session_entries, 0)
        lib.xs_session_close(s)
        self.sessions.remove(s)
        r = Session()
        o = self.options(XS_SESSION_READ_ONLY)
        self.assertEqual(lib.xs_session_open(self.store, path.encode(), byref(o), byref(r)), XS_OK)
        self.sessions.append(r)
        self.assertEqual(read(r, lib.xs_session_entries, 0), entries)
        self.assertEqual(read(r, lib.xs_session_leaf), l1)
        out = create_string_buffer(XS_ID_BUFSIZE)
        self.assertEqual(lib.xs_append_message(r, USER1, len(USER1), out), XS_EREADONLY)
        self.assertEqual(lib.xs_session_errcode(r), XS_EREADONLY)
        self.assertNotEqual(lib.xs_session_errmsg(r), b"")

    def test_typed_appends(self):
        s = self.create(XS_SESSION_NO_DEFER)
        u1 = self.message(s, USER1)
        out = create_string_buffer(XS_ID_BUFSIZE)
        c = Compaction()
        self.assertEqual(lib.xs_compaction_init(byref(c), XS_COMPACTION_VERSION), XS_OK)
        summary = "résumé".encode()
        c.summary, c.summary_len = summary, len(summary)
        c.first_kept_entry_id = u1
        c.tokens_before = 77
        details = b'{ "files" : [ ] }'
        c.details_json, c.details_len = details, len(details)
        c.from_extension = 0
        check(s, lib.xs_append_compaction(s, byref(c), out))
        self.assertEqual(read(s, lib.xs_session_entry, out.value, 0),
                         b'{"type":"compaction","id":"' + out.value + b'","parentId":"' + u1 + b'","timestamp":"' +
                         iso(2).encode() + b'","summary":"' + summary + b'","firstKeptEntryId":"' + u1 +
                         b'","tokensBefore":77,"details":{"files":[]},"fromExtension":false}')
        cid = out.value
        m = CustomMessage()
        self.assertEqual(lib.xs_custom_message_init(byref(m), XS_CUSTOM_MESSAGE_VERSION), XS_OK)
        m.custom_type = b"note"
        m.content_json, m.content_len = b'"fyi"', 5
        check(s, lib.xs_append_custom_message(s, byref(m), out))
        self.assertEqual(read(s, lib.xs_session_entry, out.value, 0),
                         b'{"type":"custom_message","customType":"note","content":"fyi","display":true,'
                         b'"attribution":"agent","id":"' + out.value + b'","parentId":"' + cid + b'","timestamp":"' +
                         iso(3).encode() + b'"}')
        si = SessionInitEntry()
        self.assertEqual(lib.xs_session_init_entry_init(byref(si), XS_SESSION_INIT_ENTRY_VERSION), XS_OK)
        si.system_prompt, si.system_prompt_len = b"sys", 3
        si.task, si.task_len = b"t", 1
        si.tools_json, si.tools_len = b'["read"]', 8
        check(s, lib.xs_append_session_init(s, byref(si), out))
        self.assertIn(b'"systemPrompt":"sys","task":"t","tools":["read"]}', read(s, lib.xs_session_entry, out.value, 0))
        check(s, lib.xs_append_thinking_level(s, None, out))
        self.assertTrue(read(s, lib.xs_session_entry, out.value, 0).endswith(b'"thinkingLevel":null}'))
        check(s, lib.xs_append_model_change(s, b"openai/gpt-5", b"smol", out))
        self.assertTrue(read(s, lib.xs_session_entry, out.value, 0).endswith(b'"model":"openai/gpt-5","role":"smol"}'))
        check(s, lib.xs_session_branch_with_summary(s, None, b"restart", 7, None, 0, XS_UNSET, out))
        self.assertEqual(read(s, lib.xs_build_context, None),
                         b'{"leafId":"' + out.value + b'","messages":[{"role":"branchSummary","summary":"restart",'
                         b'"fromId":"root","timestamp":' + str(T0_MS + 7000).encode() +
                         b'}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"}')


class Errors(Base):
    def test_null_handles(self):
        out = create_string_buffer(XS_ID_BUFSIZE)
        n = c_size_t(0)
        self.assertEqual(lib.xs_append_message(None, USER1, len(USER1), out), XS_EMISUSE)
        self.assertEqual(lib.xs_build_context(None, None, None, 0, byref(n)), XS_EMISUSE)
        self.assertEqual(lib.xs_session_errcode(None), XS_EMISUSE)
        self.assertIsNotNone(lib.xs_session_errmsg(None))
        self.assertEqual(lib.xs_store_errcode(None), XS_EMISUSE)
        s = Session(12345)
        self.assertEqual(lib.xs_session_create(None, b"/w", None, byref(s)), XS_EMISUSE)
        self.assertIsNone(s.value)
        lib.xs_session_close(None)
        lib.xs_store_free(None)

    def test_null_arguments(self):
        s = self.create()
        n = c_size_t(0)
        self.assertEqual(lib.xs_append_message(s, None, 0, None), XS_EINVAL)
        self.assertEqual(lib.xs_session_set_leaf(s, None), XS_OK)  # NULL: no leaf, not a missing argument
        self.assertEqual(read(s, lib.xs_session_leaf), b"")
        self.assertEqual(lib.xs_session_entries(s, 0, None, 0, None), XS_EINVAL)
        self.assertEqual(lib.xs_session_entries(s, 0, None, 10, byref(n)), XS_EINVAL)
        self.assertEqual(lib.xs_session_errcode(s), XS_EINVAL)
        self.assertNotEqual(lib.xs_session_errmsg(s), b"")

    def test_bad_input(self):
        s = self.create(XS_SESSION_NO_DEFER)
        u1 = self.message(s, USER1)
        path = read(s, lib.xs_session_info).decode().split('"path":"')[1].split('"')[0]
        with open(path, "rb") as f:
            before = f.read()
        out = create_string_buffer(XS_ID_BUFSIZE)
        cases = [
            (lib.xs_append_message, b'{"role":"user"', XS_EINVAL),
            (lib.xs_append_message, b'[{"role":"user"}]', XS_EINVAL),
            (lib.xs_append_message, b'{"content":"no role"}', XS_EINVAL),
            (lib.xs_append_message, b'{"role":"user","content":"\xff"}', XS_EINVAL),
            (lib.xs_append_message, b'{"role":"user","content":"a\x00b"}', XS_EINVAL),
            (lib.xs_append_message, b'{"role":"user","content":' + b"[" * 100000 + b"]" * 100000 + b"}", XS_ELIMIT),
            (lib.xs_append, b'{"id":"x"}', XS_EINVAL),
            (lib.xs_append, b'{"type":"message","message":"text"}', XS_EINVAL),
            (lib.xs_append, b'{"type":"x","id":"../up"}', XS_EINVAL),
            (lib.xs_append, b'{"type":"x","id":"' + u1 + b'"}', XS_EEXISTS),
            (lib.xs_append, b'{"type":"label","targetId":"nope"}', XS_ENOTFOUND),
        ]
        for fn, text, want in cases:
            with self.subTest(text=text[:60]):
                self.assertEqual(fn(s, text, len(text), out), want, lib.xs_session_errmsg(s))
                self.assertEqual(lib.xs_session_errcode(s), want)
                self.assertNotEqual(lib.xs_session_errmsg(s), b"")
        self.assertEqual(lib.xs_session_set_leaf(s, b"nope"), XS_ENOTFOUND)
        self.assertEqual(lib.xs_build_context(s, b"nope", None, 0, byref(c_size_t())), XS_ENOTFOUND)
        self.assertEqual(lib.xs_append_model_change(s, b"bad/\xff", None, out), XS_EINVAL)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertEqual(read(s, lib.xs_session_leaf), u1)
        # The surrogate escape is fine and kept byte for byte.
        lone = b'{"role":"user","content":"\\ud83d"}'
        sid = self.message(s, lone)
        self.assertTrue(read(s, lib.xs_session_entry, sid, 0).endswith(b'"message":' + lone + b"}"))

    def test_locked_and_missing(self):
        s = self.create(XS_SESSION_NO_DEFER)
        path = read(s, lib.xs_session_info).decode().split('"path":"')[1].split('"')[0].encode()
        other = Session()
        self.assertEqual(lib.xs_session_open(self.store, path, None, byref(other)), XS_ELOCKED)
        self.assertIsNone(other.value)
        self.assertEqual(lib.xs_store_errcode(self.store), XS_ELOCKED)
        ro = self.options(XS_SESSION_READ_ONLY)
        self.assertEqual(lib.xs_session_open(self.store, path, byref(ro), byref(other)), XS_OK)
        self.sessions.append(other)
        missing = Session()
        self.assertEqual(lib.xs_session_open(self.store, (self.dir + "/none.jsonl").encode(), byref(ro),
                                             byref(missing)), XS_ENOTFOUND)


class Persistence(Base):
    def test_deferred_until_first_assistant(self):
        s = self.create()
        path = read(s, lib.xs_session_info).decode().split('"path":"')[1].split('"')[0]
        self.message(s, USER1)
        self.assertFalse(os.path.exists(path))
        self.message(s, ASSISTANT1)
        with open(path, "rb") as f:
            self.assertEqual(f.read().count(b"\n"), 3)

    def test_in_memory_store(self):
        st = lib.xs_store_new()
        so = StoreOptions()
        self.assertEqual(lib.xs_store_options_init(byref(so), XS_STORE_OPTIONS_VERSION), XS_OK)
        so.flags = XS_STORE_IN_MEMORY
        self.assertEqual(lib.xs_store_open(st, None, byref(so)), XS_OK)
        s = Session()
        o = self.options(XS_SESSION_NO_DEFER)
        self.assertEqual(lib.xs_session_create(st, b"/mem", byref(o), byref(s)), XS_OK)
        u1 = self.message(s, USER1)
        path = read(s, lib.xs_session_info).decode().split('"path":"')[1].split('"')[0]
        self.assertFalse(os.path.exists(path))
        self.assertEqual(read(s, lib.xs_build_context, None), context(u1, [USER1], b"{}"))
        lib.xs_session_close(s)
        lib.xs_store_free(st)


class StoreCalls(Base):
    def store_read(self, fn, *args):
        need = c_size_t(0)
        rc = fn(self.store, *args, None, 0, byref(need))
        self.assertEqual(rc, XS_EBUFS, lib.xs_store_errmsg(self.store))
        buf = create_string_buffer(need.value)
        self.assertEqual(fn(self.store, *args, buf, need.value, byref(need)), XS_OK)
        return buf.raw[:need.value]

    def test_blobs(self):
        h = create_string_buffer(XS_HASH_BUFSIZE)
        data = bytes(range(256))
        self.assertEqual(lib.xs_blob_put(self.store, data, len(data), h), XS_OK)
        self.assertEqual(h.value, b"40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880")
        self.assertEqual(self.store_read(lib.xs_blob_get, h.value), data)
        n = c_size_t(0)
        self.assertEqual(lib.xs_blob_get(self.store, b"0" * 64, None, 0, byref(n)), XS_ENOTFOUND)
        self.assertEqual(lib.xs_blob_get(self.store, b"xyz", None, 0, byref(n)), XS_EINVAL)

    def test_list_and_resolve(self):
        s = self.create(XS_SESSION_NO_DEFER, session_id=b"py-list")
        self.message(s, USER1)
        path = read(s, lib.xs_session_info).decode().split('"path":"')[1].split('"')[0]
        lo = ListOptions()
        self.assertEqual(lib.xs_list_options_init(byref(lo), XS_LIST_OPTIONS_VERSION), XS_OK)
        lo.cwd = b"/work/agent"
        listed = self.store_read(lib.xs_store_list, byref(lo))
        self.assertTrue(listed.startswith(b'[{"path":"' + path.encode() + b'","id":"py-list","cwd":"/work/agent"'))
        self.assertIn(b'"firstMessage":"list the files"', listed)
        lo.cwd = b"/nowhere"
        n = c_size_t(0)
        self.assertEqual(lib.xs_store_list(self.store, byref(lo), None, 0, byref(n)), XS_EBUFS)
        self.assertEqual(n.value, 2)  # "[]"
        self.assertEqual(self.store_read(lib.xs_store_resolve, b"PY-L", None), path.encode())
        self.assertEqual(lib.xs_store_resolve(self.store, b"zz", None, None, 0, byref(n)), XS_ENOTFOUND)


class Threads(Base):
    def test_shared_handle(self):
        s = self.create(XS_SESSION_NO_DEFER)
        errors = []

        def work(t):
            out = create_string_buffer(XS_ID_BUFSIZE)
            for i in range(100):
                m = b'{"role":"user","content":"t%d-%d"}' % (t, i)
                rc = lib.xs_append_message(s, m, len(m), out)
                if rc != XS_OK:
                    errors.append(rc)

        threads = [threading.Thread(target=work, args=(t,)) for t in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        self.assertEqual(errors, [])
        entries = read(s, lib.xs_session_entries, 0)
        for t in range(2):
            for i in range(100):
                self.assertEqual(entries.count(b'"content":"t%d-%d"}' % (t, i)), 1)


def main():
    global LIB_PATH, lib
    if len(sys.argv) < 2:
        print("usage: ctypes_test.py <path to libxsession.so.0>", file=sys.stderr)
        return 2
    LIB_PATH = sys.argv.pop(1)
    lib = ctypes.CDLL(LIB_PATH)
    declare(lib)
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    return 0 if result.wasSuccessful() and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
