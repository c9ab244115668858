"""`xs` commands that change files: new, append, branch, label, fork, continue, migrate, repair, blobs."""
import base64
import json
import os
import stat
import shutil
import subprocess
import sys
import tempfile
import unittest

from json_schema_check import problems
from xs_cli_common import XS, make_store, xs_env

PARSER = "sessions/--home-dev-projects-parser--/"
WEB = "sessions/--home-dev-projects-web--/"


class XsWriteTest(unittest.TestCase):
    """Commands that change files, each on a store of its own."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xs-cli-w-")
        self.root = os.path.join(self.tmp, "store")
        make_store(self.root)
        self.seed = 100

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def xs(self, *args, code=0, stdin=None):
        self.seed += 1  # each command makes its own ids, as separate agent runs would
        p = subprocess.run([XS, "--root", self.root, *args], capture_output=True, text=True, env=xs_env(str(self.seed)),
                           input=stdin)
        self.assertEqual(p.returncode, code, f"xs {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        if code == 0:
            self.assertEqual(p.stderr, "")
        return p.stdout.replace(self.root, "<root>")

    def read(self, path):
        with open(path.replace("<root>", self.root), "rb") as f:
            return f.read()

    def torn_path(self):
        return os.path.join(self.root, "sessions", "--home-dev-projects-parser--",
                            "2026-03-06T16-00-00-000Z_70rn000000000001.jsonl")

    # --- new, append, branch, label, fork, continue ---------------------------------------------

    def test_a_session_written_from_the_command_line(self):
        sid, path = self.xs("new", "--cwd", "/w", "--title", "Demo").split()
        self.assertEqual(path, "<root>/sessions/--w--/2026-03-08T20-00-00-000Z_%s.jsonl" % sid)
        u = self.xs("append", sid, "--message", "user", "Hello there").strip()
        a = self.xs("append", sid, "--message", "assistant", "Hi!").strip()
        b = self.xs("branch", sid, u, "--summary", "Tried a greeting").strip()
        l = self.xs("label", sid, u, "start").strip()
        c = self.xs("append", sid, "--json", "-",
                    stdin='{"type":"custom","customType":"note","data":{"k":1}}\n').strip()
        t = '"timestamp":"2026-03-08T20:00:00.000Z"'
        self.assertEqual(self.read(path).decode(), "\n".join([
            '{"type":"session","version":3,"id":"%s",%s,"cwd":"/w","title":"Demo"}' % (sid, t),
            '{"type":"message","id":"%s","parentId":null,%s,"message":{"role":"user","content":"Hello there",'
            '"timestamp":1773000000000}}' % (u, t),
            '{"type":"message","id":"%s","parentId":"%s",%s,"message":{"role":"assistant","content":'
            '[{"type":"text","text":"Hi!"}],"timestamp":1773000000000}}' % (a, u, t),
            '{"type":"branch_summary","id":"%s","parentId":"%s",%s,"fromId":"%s","summary":"Tried a greeting"}'
            % (b, u, t, u),
            '{"type":"label","id":"%s","parentId":"%s",%s,"targetId":"%s","label":"start"}' % (l, b, t, u),
            '{"type":"custom","customType":"note","data":{"k":1},"id":"%s","parentId":"%s",%s}' % (c, l, t),
        ]) + "\n")
        self.assertEqual(self.xs("tree", sid), (
            "%s user: Hello there [start]\n"
            "├─ %s assistant: Hi!\n"
            "└─ %s branch summary: Tried a greeting\n"
            "   %s label %s: start\n"
            "   %s custom(note) ◀ leaf\n" % (u, a, b, l, u, c)))
        cleared = self.xs("label", sid, u, "--clear").strip()
        self.assertTrue(self.read(path).decode().endswith(
            '{"type":"label","id":"%s","parentId":"%s",%s,"targetId":"%s"}\n' % (cleared, c, t, u)))
        self.assertEqual(json.loads(self.xs("show", sid, "--json"))["labels"], [])

    def test_a_pi_session_written_from_the_command_line(self):
        # docs/dialects.md: pi's title is an entry, its ids UUIDv7; xs show names the dialect.
        sid, path = self.xs("new", "--cwd", "/w", "--title", " Demo ", "--dialect", "pi").split()
        self.assertRegex(sid, r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        u = self.xs("append", sid, "--message", "user", "Hello").strip()
        t = '"timestamp":"2026-03-08T20:00:00.000Z"'
        lines = self.read(path).decode().splitlines()
        self.assertEqual(lines[0], '{"type":"session","version":3,"id":"%s",%s,"cwd":"/w"}' % (sid, t))
        info = json.loads(lines[1])
        self.assertEqual(list(info), ["type", "id", "parentId", "timestamp", "name"])
        self.assertEqual((info["type"], info["name"]), ("session_info", "Demo"))
        self.assertEqual(json.loads(lines[2])["id"], u)
        shown = self.xs("show", sid)
        self.assertIn("title       Demo\nversion     3\ndialect     pi\n", shown)
        self.xs("new", "--cwd", "/w", "--dialect", "Pi", code=2)  # only "omp" or "pi"

    def test_keys(self):
        # docs/keyed-store.md: the document's bytes, ls/show/set/patch/delete, bad input.
        self.xs("keys", "set", "agent:main:main", '{"sessionId":"s1","title":"Fix the lexer"}')
        self.xs("keys", "patch", "cron:nightly", "-", stdin='{"sessionId":"s2","updatedAt":1773000000000}')
        self.xs("keys", "patch", "agent:main:main", '{"title":null,"cost":0.25}')
        with open(os.path.join(self.root, "sessions.json"), encoding="utf-8") as f:
            self.assertEqual(f.read(), '{\n  "agent:main:main": {\n    "sessionId": "s1",\n    "cost": 0.25\n  },\n'
                                       '  "cron:nightly": {\n    "sessionId": "s2",\n    "updatedAt": 1773000000000\n'
                                       '  }\n}\n')
        self.assertEqual(self.xs("keys", "show", "agent:main:main"), '{"sessionId":"s1","cost":0.25}\n')
        self.assertEqual(self.xs("keys", "--prefix", "cron:"), "cron:nightly  s2  just now\n1 key\n")
        self.assertEqual(json.loads(self.xs("keys", "ls", "--json")),
                         [{"key": "agent:main:main", "record": {"sessionId": "s1", "cost": 0.25}},
                          {"key": "cron:nightly", "record": {"sessionId": "s2", "updatedAt": 1773000000000}}])
        self.xs("keys", "delete", "cron:nightly")
        self.xs("keys", "delete", "cron:nightly", code=2)
        self.xs("keys", "set", "a/b", '{"sessionId":"s"}', code=2)
        self.xs("keys", "set", "k", '{"sessionId":7}', code=2)
        self.assertEqual(self.xs("keys"), "agent:main:main  s1\n1 key\n")

    def test_fork_whole_and_at_an_entry(self):
        whole = self.xs("fork", "5e55", "--json")
        info = json.loads(whole)
        self.assertEqual((info["entryCount"], info["leafId"]), (10, "b0000004"))
        self.assertTrue(info["path"].startswith("<root>/sessions/--home-dev-projects-parser--/"), info["path"])
        sid, path = self.xs("fork", "5e55", "--at", "a0000006").split()
        ids = [json.loads(l)["id"] for l in self.read(path).decode().splitlines()[1:]]
        self.assertEqual(ids[:6], ["a0000001", "a0000002", "a0000003", "a0000004", "a0000005", "a0000006"])
        self.assertEqual(json.loads(self.read(path).decode().splitlines()[0])["parentSession"],
                         self.torn_path().replace("70rn000000000001", "5e55a0c1d2e3f401")
                         .replace("2026-03-06T16-00-00-000Z", "2026-03-02T09-00-00-000Z"))

    def test_continue_picks_the_newest_session_of_the_directory(self):
        out = self.xs("continue", "--cwd", "/home/dev/projects/web")
        self.assertEqual(out, "1ma9e00000000001 <root>/sessions/--home-dev-projects-web--/"
                              "2026-03-07T11-00-00-000Z_1ma9e00000000001.jsonl\n")
        sid, path = self.xs("continue", "--cwd", "/nowhere/yet").split()
        self.assertEqual(path, "<root>/sessions/--nowhere-yet--/2026-03-08T20-00-00-000Z_%s.jsonl" % sid)
        self.assertTrue(os.path.exists(path.replace("<root>", self.root)), "a new session is written at once")

    def test_write_errors_are_one_line_and_status_2(self):
        p = subprocess.run([XS, "--root", self.root, "append", "5e55", "--message", "bot", "x"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("ROLE must be user or assistant", p.stderr)
        p = subprocess.run([XS, "--root", self.root, "label", "5e55", "zzz", "x"], capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr.count("\n")), (2, 1))
        self.assertTrue(p.stderr.startswith("xs: 5e55: label: "), p.stderr)
        p = subprocess.run([XS, "--root", self.root, "append", "5e55", "--json", "{not json"],
                           capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr.count("\n")), (2, 1))

    # --- migrate --------------------------------------------------------------------------------

    def test_migrate_is_a_dry_run_unless_asked_to_write(self):
        legacy = os.path.join(self.root, "sessions", "--home-dev-projects-parser--",
                              "2025-11-20T14-00-00-000Z_legacy-0001.jsonl")
        before = self.read(legacy)
        # Paths relative to the root; files already at version 3 are counted, not listed (-v lists them).
        self.assertEqual(self.xs("migrate", "legacy-0001", "5e55"), (
            PARSER + "2025-11-20T14-00-00-000Z_legacy-0001.jsonl: version 1 -> 3 (would rewrite)\n"
            "1 other file already at version 3 (-v lists them)\n"
            "1 to migrate (run again with --write)\n"))
        self.assertEqual(self.xs("migrate", "-v", "legacy-0001", "5e55"), (
            PARSER + "2025-11-20T14-00-00-000Z_legacy-0001.jsonl: version 1 -> 3 (would rewrite)\n" +
            PARSER + "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: version 3, nothing to do\n"
            "1 to migrate (run again with --write)\n"))
        self.assertEqual(self.read(legacy), before)
        self.assertEqual(self.xs("migrate", "--write"), (
            PARSER + "2025-11-20T14-00-00-000Z_legacy-0001.jsonl: version 1 -> 3, rewritten\n" +
            WEB + "2026-01-10T08-00-00-000Z_legacy-0002.jsonl: version 2 -> 3, rewritten\n"
            "4 other files already at version 3 (-v lists them)\n"
            "2 migrated, 0 failed\n"))
        self.assertEqual(self.xs("migrate"), "6 files already at version 3 (-v lists them)\n0 to migrate\n")
        self.assertEqual(self.xs("migrate", "5e55"), PARSER + "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: "
                                                              "version 3, nothing to do\n0 to migrate\n")
        after = self.read(legacy).decode().splitlines()
        self.assertEqual(after[0], '{"type":"session","id":"legacy-0001","timestamp":"2025-11-20T14:00:00.000Z",'
                                   '"cwd":"/home/dev/projects/parser","version":3}')
        self.assertEqual(len(after), len(before.decode().splitlines()))
        again = json.loads(self.xs("migrate", "--json"))
        self.assertEqual(len(again), 6)
        for r in again:
            self.assertEqual((r["fileVersion"], r["needsMigration"], r["migrated"]), (3, False, False), r)

    # --- repair ---------------------------------------------------------------------------------

    TORN = "<root>/" + PARSER + "2026-03-06T16-00-00-000Z_70rn000000000001.jsonl"
    STAMP = "2026-03-08T20-00-00-000Z"

    def quarantined_bytes(self, quarantine):
        """The bytes the quarantine records hold, each at its offset: what left the session."""
        removed = {}
        for line in self.read(quarantine).decode().splitlines():
            r = json.loads(line)
            data = r["text"].encode() if "text" in r else base64.b64decode(r["base64"])
            self.assertEqual(len(data), r["length"], r)
            removed[r["offset"]] = data + (b"\n" if r["newline"] else b"")
        return removed

    def test_repair_moves_a_torn_line_to_a_quarantine_file_and_the_store_verifies_clean(self):
        path = self.torn_path()
        before = self.read(path)
        quarantine = self.TORN + ".quarantine-" + self.STAMP + ".jsonl"
        self.assertEqual(self.xs("repair", "70rn"), (
            self.TORN + ": repaired\n"
            "backup: " + self.TORN + ".bak-20260308T200000Z\n"
            "quarantine: " + quarantine + " (1 line)\n"
            "done:\n"
            "  line 4 (byte 599): quarantined: incomplete_tail: last line has no newline (an interrupted or "
            "unfinished write): invalid JSON: A string is opened, but never closed.\n"))
        self.assertEqual(self.read(self.TORN + ".bak-20260308T200000Z"), before)
        self.assertEqual(self.read(path), before[:599], "the session is its first three lines, byte for byte")
        self.assertEqual(self.quarantined_bytes(quarantine), {599: before[599:]}, "every removed byte kept")
        # The whole store verifies clean now, ls --check flags nothing, and the quarantine file is
        # neither listed as a session nor matched by an id prefix.
        self.xs("verify", code=0)
        row = [l for l in self.xs("ls", "--all", "--check").splitlines() if l.startswith("70rn")]
        self.assertEqual(row[0].split()[5], "-", row)  # ID MODIFIED(2 words) SIZE MSGS FLAGS
        self.assertEqual(self.xs("repair", "70rn"), self.TORN + ": nothing to repair\n")
        self.assertFalse(os.path.exists(path + ".bak-20260308T200000Z-1"), "no backup when nothing is written")
        self.assertIn('"verify":{', self.xs("repair", "70rn", "--json"))

    def test_repair_quarantines_garbage_and_invalid_utf8_lines_and_keeps_the_rest(self):
        path = self.torn_path()
        lines = self.read(path)[:599].split(b"\n")  # header, two entries, ""
        damaged = lines[0] + b"\n" + lines[1] + b"\ngarbage\n\xff\xfe{\"a\"}\n" + lines[2] + b"\n"
        with open(path, "wb") as f:
            f.write(damaged)
        quarantine = self.TORN + ".quarantine-" + self.STAMP + ".jsonl"
        report = json.loads(self.xs("repair", "70rn", "--json"))
        self.assertEqual(report["repair"]["quarantine"], {"path": quarantine,
                                                          "lines": 2, "bytes": 16})
        self.assertEqual([(d["line"], d["offset"], d["code"]) for d in report["repair"]["done"]],
                         [(3, 317, "quarantined"), (4, 325, "quarantined")])
        self.assertEqual(report["verify"]["problems"], [])
        self.assertEqual(self.read(path), lines[0] + b"\n" + lines[1] + b"\n" + lines[2] + b"\n")
        self.assertEqual(self.quarantined_bytes(quarantine), {317: b"garbage\n", 325: b"\xff\xfe{\"a\"}\n"})

    def test_repair_keep_lines_only_writes_the_newline_a_torn_line_lacks(self):
        path = self.torn_path()
        before = self.read(path)
        self.assertEqual(self.xs("repair", "70rn", "--keep-lines"), (
            self.TORN + ": repaired\n"
            "backup: " + self.TORN + ".bak-20260308T200000Z\n"
            "done:\n"
            "  line 4 (byte 599): newline_written: wrote the newline the torn last line lacked; its bytes stay in "
            "the file as a skipped line\n"
            "left for a person (see xs verify):\n"
            "  line 4 (byte 599): invalid_json: invalid JSON: A string is opened, but never closed.\n"))
        self.assertEqual(self.read(self.TORN + ".bak-20260308T200000Z"), before)
        self.assertEqual(self.read(path), before + b"\n", "every byte kept; only the newline added")
        self.assertEqual(self.xs("repair", "70rn", "--keep-lines"), (
            self.TORN + ": nothing to repair\n"
            "left for a person (see xs verify):\n"
            "  line 4 (byte 599): invalid_json: invalid JSON: A string is opened, but never closed.\n"))
        self.assertFalse([n for n in os.listdir(os.path.dirname(path)) if ".quarantine-" in n])

    def test_repair_backup_has_the_originals_permissions(self):
        path = self.torn_path()
        for mode in (0o640, 0o604):
            os.chmod(path, mode)
            before = self.read(path)
            backup = self.xs("repair", "70rn").splitlines()[1].split(" ", 1)[1].replace("<root>", self.root)
            self.assertEqual(stat.S_IMODE(os.stat(backup).st_mode), mode, backup)
            self.assertEqual(self.read(backup), before)
            # The next repair needs something to fix: tear the last line again.
            with open(path, "ab") as f:
                f.write(b'{"type":"message","id":"torn')

    def test_repair_of_a_session_an_agent_has_open_changes_nothing(self):
        path = self.torn_path()
        before = self.read(path)
        # An agent holds the writer lock (flock on <file>.lock) while this runs.
        holder = subprocess.Popen([sys.executable, "-c",
                                   "import fcntl,sys; f=open(sys.argv[1],'a'); fcntl.flock(f, fcntl.LOCK_EX); "
                                   "print('locked', flush=True); sys.stdin.read()", path + ".lock"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            self.assertEqual(holder.stdout.readline(), "locked\n")
            self.xs("repair", "70rn", code=2)
        finally:
            holder.stdin.close()
            holder.wait()
            holder.stdout.close()
        self.assertEqual(self.read(path), before)
        self.assertEqual([n for n in os.listdir(os.path.dirname(path)) if ".bak-" in n], [])

    def test_repair_of_a_file_without_header_preserves_it(self):
        bad = os.path.join(self.tmp, "headless.jsonl")
        with open(bad, "w") as f:
            f.write("garbage\n")
        out = self.xs("repair", bad).replace(self.tmp, "<tmp>")
        self.assertEqual(out, (
            "<tmp>/headless.jsonl: replaced (no session header)\n"
            "backup: <tmp>/headless.jsonl.bak-20260308T200000Z\n"
            "done:\n"
            "  file: corrupt_file_preserved: the file had no session header; its bytes were kept as "
            "<tmp>/headless.jsonl.corrupt-2026-03-08T20-00-00-000Z\n"))
        for kept in (".bak-20260308T200000Z", ".corrupt-2026-03-08T20-00-00-000Z"):
            with open(bad + kept) as f:
                self.assertEqual(f.read(), "garbage\n")

    # --- blobs ----------------------------------------------------------------------------------

    BLOB = "68c41bb798155f8ad4c0280b6540e49f18457b263986fa6edbf58dc0821f3cb1"

    def put_blob(self, data, mtime_ms):
        import hashlib
        h = hashlib.sha256(data).hexdigest()
        path = os.path.join(self.root, "blobs", h)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (mtime_ms / 1000,) * 2)
        return h

    def test_blobs_ls_and_verify(self):
        self.assertEqual(self.xs("blobs", "ls"), self.BLOB + "  73B    1d ago\n1 blob, 73B\n")
        self.assertEqual(self.xs("blobs", "verify"), "1 blob: 1 ok, 0 damaged\n")
        with open(os.path.join(self.root, "blobs", self.BLOB), "r+b") as f:
            f.write(b"X")
        self.assertEqual(self.xs("blobs", "verify", code=1),
                         "damaged: blob %s does not match its hash\n1 blob: 0 ok, 1 damaged\n" % self.BLOB)
        listing = json.loads(self.xs("blobs", "ls", "--json"))
        self.assertEqual(listing["count"], 1)
        self.assertEqual(problems(listing, "blob-list.schema.json"), [])

    def test_blobs_gc_respects_references_and_the_grace_period(self):
        old = self.put_blob(b"unused and old", 1773000000000 - 7200 * 1000)
        young = self.put_blob(b"unused but young", 1773000000000 - 60 * 1000)
        self.assertEqual(self.xs("blobs", "gc", "--dry-run"), (
            "scanned 6 files: 1 blob in use\n"
            "would delete %s (14B)\n"
            "kept %s (unused, but younger than the grace period)\n"
            "would free 14B\n" % (old, young)))
        self.assertTrue(os.path.exists(os.path.join(self.root, "blobs", old)))
        self.assertEqual(self.xs("blobs", "gc"), (
            "scanned 6 files: 1 blob in use\n"
            "deleted %s (14B)\n"
            "kept %s (unused, but younger than the grace period)\n"
            "freed 14B\n" % (old, young)))
        self.assertFalse(os.path.exists(os.path.join(self.root, "blobs", old)))
        self.assertTrue(os.path.exists(os.path.join(self.root, "blobs", self.BLOB)), "referenced: kept")
        report = json.loads(self.xs("blobs", "gc", "--grace", "0", "--json"))
        self.assertEqual(problems(report, "gc-report.schema.json"), [])
        self.assertEqual([d["name"] for d in report["deleted"]], [young])
        self.assertEqual(self.xs("context", "1ma9", "--json").count("iVBORw0KGgo"), 1, "the image still resolves")
