"""`xs export` and `xs import-bundle` (docs/bundles.md) over a fresh copy of the example store per
test: exact output (plain and --json against the schemas), a round trip into an empty root with
the same bytes and `xs verify` clean, lineage, importing twice, an id clash refused then renamed,
--cwd-map, a dry run, and what is refused (a file that is not a bundle, an unknown session)."""
import hashlib
import json
import os
import shutil
import tempfile

from json_schema_check import problems
from xs_cli_common import StoreTest, make_store

WEB = "sessions/--home-dev-projects-web--/"
PARSER = "sessions/--home-dev-projects-parser--/"
BUTTON = WEB + "2026-03-07T11-00-00-000Z_1ma9e00000000001.jsonl"
LEGACY2 = WEB + "2026-01-10T08-00-00-000Z_legacy-0002.jsonl"
BLOB = "blobs/68c41bb798155f8ad4c0280b6540e49f18457b263986fa6edbf58dc0821f3cb1"


class XsBundleTest(StoreTest):
    def setUp(self):
        self.own = tempfile.mkdtemp(prefix="xs-cli-bundle-")
        self.store = os.path.join(self.own, "store")
        self.dst = os.path.join(self.own, "dst")
        self.bundle = os.path.join(self.own, "b.xsb")
        make_store(self.store)
        os.mkdir(self.dst)

    def tearDown(self):
        shutil.rmtree(self.own)

    def read(self, root, rel):
        with open(os.path.join(root, rel), "rb") as f:
            return f.read()

    def files(self, root):
        out = {}
        for d, _, names in os.walk(root):
            for n in names:
                p = os.path.join(d, n)
                out[os.path.relpath(p, root)] = self.read(root, p)
        return out

    def export(self, *args, code=0):
        return self.xs("export", *args, "-o", self.bundle, code=code, root=self.store)

    def imp(self, *args, code=0):
        return self.xs("import-bundle", self.bundle, *args, code=code, root=self.dst)

    def test_round_trip_into_an_empty_root(self):
        out = self.export("1ma9e00000000001", "legacy-0002")
        self.assertEqual(out.stderr, "")
        self.assertEqual(out.stdout,
                         "1ma9e00000000001  /home/dev/projects/web  %s\n"
                         "legacy-0002  /home/dev/projects/web  %s\n"
                         "exported 2 sessions, 1 blob, 0 key records to %s\n" % (BUTTON, LEGACY2, self.bundle))
        got = self.imp()
        self.assertEqual(got.stdout,
                         "imported 1ma9e00000000001 -> %s\nimported legacy-0002 -> %s\n"
                         "imported 2 sessions, 1 blob, 0 key records\n" % (BUTTON, LEGACY2))
        self.assertEqual(self.files(self.dst), {rel: self.read(self.store, rel) for rel in (BUTTON, LEGACY2, BLOB)})
        verify = self.xs("verify", code=0, root=self.dst)
        self.assertTrue(verify.stdout.endswith("2 files: 2 clean, 0 with problems, 0 unreadable\n"), verify.stdout)
        before = self.files(self.dst)
        again = self.imp()
        self.assertEqual(again.stdout, "already present 1ma9e00000000001\nalready present legacy-0002\n"
                                       "imported 0 sessions, 0 blobs, 0 key records; 3 already present\n")
        self.assertEqual(self.files(self.dst), before)

    def test_lineage_and_json_reports(self):
        fork = self.xs("fork", "5e55a0c1d2e3f401", root=self.store).stdout.split()[0]
        report = json.loads(self.export(fork, "--json").stdout)
        self.assertEqual(problems(report, "bundle-export-report.schema.json"), [])
        self.assertEqual([(s["id"], s["lineage"], s["parentInBundle"]) for s in report["sessions"]],
                         [(fork, False, True), ("5e55a0c1d2e3f401", True, False)])
        self.assertEqual(report["compression"], "zstd")
        self.assertEqual(report["bytes"], os.path.getsize(self.bundle))
        only = self.export(fork, "--no-lineage", "--gzip")
        self.assertEqual(only.stdout.splitlines()[-1], "exported 1 session, 0 blobs, 0 key records to " + self.bundle)
        with open(self.bundle, "rb") as f:
            self.assertEqual(f.read(2), b"\x1f\x8b")
        self.export(fork)
        done = json.loads(self.imp("--json").stdout)
        self.assertEqual(problems(done, "bundle-import-report.schema.json"), [])
        self.assertEqual([(s["id"], s["action"]) for s in done["sessions"]],
                         [(fork, "imported"), ("5e55a0c1d2e3f401", "imported")])

    def test_a_clash_is_refused_then_renamed_and_the_cwd_map(self):
        self.export("legacy-0002")
        os.makedirs(os.path.join(self.dst, WEB))
        theirs = b'{"type":"session","version":3,"id":"legacy-0002","timestamp":"2026-01-10T08:00:00.000Z",' \
                 b'"cwd":"/home/dev/projects/web"}\n'
        with open(os.path.join(self.dst, LEGACY2), "wb") as f:
            f.write(theirs)
        refused = self.imp(code=2)
        self.assertEqual(refused.stdout, "")
        self.assertEqual(refused.stderr,
                         "xs: %s: session legacy-0002 is already in the store with other content (%s); import with "
                         "rename to give the bundle's copy a new id\n" % (self.bundle, os.path.join(self.dst, LEGACY2)))
        # The new id (docs/bundles.md#renaming): SHA-256 of the rule's text, the old id and the
        # SHA-256 of the bytes it would have had under the old id; its first 16 hex digits.
        carried = hashlib.sha256(self.read(self.store, LEGACY2)).hexdigest()
        new_id = hashlib.sha256(("xsession-bundle rename\nlegacy-0002\n" + carried).encode()).hexdigest()[:16]
        dry = self.imp("--rename", "--dry-run")
        self.assertEqual(dry.stdout, "would rename legacy-0002 -> %s (%s)\n"
                                     "would import 1 session, 0 blobs, 0 key records\n"
                                     % (new_id, WEB + "2026-01-10T08-00-00-000Z_%s.jsonl" % new_id))
        renamed = self.imp("--rename")
        self.assertEqual(renamed.stdout, dry.stdout.replace("would rename", "renamed").replace("would import",
                                                                                               "imported"))
        self.assertEqual(self.read(self.dst, LEGACY2), theirs)
        # The cwd map, into a root of its own (here the bundle's id clashes whatever its cwd).
        os.mkdir(os.path.join(self.own, "other"))
        moved = self.xs("import-bundle", self.bundle, "--cwd-map", "/home/dev=/srv/me",
                        root=os.path.join(self.own, "other"))
        self.assertEqual(moved.stdout,
                         "imported legacy-0002 -> sessions/--srv-me-projects-web--/2026-01-10T08-00-00-000Z_legacy-0002"
                         ".jsonl (cwd was /home/dev/projects/web)\nimported 1 session, 0 blobs, 0 key records\n")
        header = self.read(os.path.join(self.own, "other"), "sessions/--srv-me-projects-web--/2026-01-10T08-00-00-000Z_legacy-0002.jsonl")
        self.assertTrue(header.startswith(b'{"type":"session","version":2,"id":"legacy-0002","timestamp":'
                                          b'"2026-01-10T08:00:00.000Z","cwd":"/srv/me/projects/web",'
                                          b'"originalCwd":"/home/dev/projects/web"}\n'), header[:200])

    def test_what_is_refused(self):
        with open(self.bundle, "w") as f:
            f.write("not a bundle\n")
        bad = self.imp(code=2)
        self.assertEqual(bad.stderr, "xs: %s: not a bundle, or a damaged one (Unrecognized archive format)\n"
                         % self.bundle)
        self.assertEqual(os.listdir(self.dst), [])
        self.assertEqual(self.imp("--cwd-map", "nothing", code=2).stderr,
                         "xs: --cwd-map takes OLD=NEW, not \"nothing\"\n")
        self.assertEqual(self.imp("--cwd-map", "rel=/x", code=2).stderr,
                         "xs: %s: cwd map path \"rel\" is not absolute\n" % self.bundle)
        unknown = self.export("nope", code=2)
        self.assertEqual(unknown.stderr, "xs: no session matches \"nope\"\n")
        self.assertFalse(os.path.exists(self.bundle.replace("b.xsb", "c.xsb")))
