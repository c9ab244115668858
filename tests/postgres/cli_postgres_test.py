"""`xs --store postgresql://…`: every command on a store in PostgreSQL does what it does on the disk,
and `xs copy` moves a store into the database and back byte for byte.

Arguments: the xs binary, examples/make_store.py. The server: XS_TEST_POSTGRES_CONNINFO_FILE
(tests/postgres.cmake). Each run uses roots of its own in the shared database.
"""
import filecmp
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

XS, MAKE_STORE = (os.path.abspath(a) for a in sys.argv[1:3])
REPO = os.path.dirname(os.path.dirname(MAKE_STORE))
sys.path.insert(0, os.path.join(REPO, "tests", "conformance", "tools"))
import import_cases as fx  # noqa: E402  (the small Claude project of the conformance cases)
NOW_MS = "1773000000000"


def database_url():
    """The tests' server as a postgresql:// URL (libpq's conninfo of key=value words → a URI)."""
    with open(os.environ["XS_TEST_POSTGRES_CONNINFO_FILE"]) as f:
        words = dict(w.split("=", 1) for w in shlex.split(f.read()))
    return "postgresql:///%s?host=%s&port=%s&user=%s" % (words["dbname"], words["host"], words["port"], words["user"])


def same_tree(a, b, a_root=None, b_root=None):
    """Whether the files under a and under b have the same names and bytes (lock files are no
    data), and the names that differ. Records name their session files by absolute path: a_root
    in a's files and b_root in b's count as the same."""
    def files(top, root):
        out = {}
        for d, _, names in os.walk(top):
            for n in names:
                if not n.endswith(".lock"):
                    with open(os.path.join(d, n), "rb") as f:
                        data = f.read()
                    out[os.path.relpath(os.path.join(d, n), top)] = data.replace(root.encode(), b"<root>") if root else data
        return out
    fa, fb = files(a, a_root), files(b, b_root)
    return fa == fb, sorted(n for n in set(fa) | set(fb) if fa.get(n) != fb.get(n))


class XsOnPostgres(unittest.TestCase):
    def setUp(self):
        self.url = database_url()
        self.tmp = tempfile.mkdtemp(prefix="xs-pgcli-")
        self.disk = os.path.join(self.tmp, "disk")
        subprocess.run([sys.executable, MAKE_STORE, self.disk], check=True)
        self.db_root = "/cli-%d-%s" % (os.getpid(), self.id().rsplit(".", 1)[1])

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def xs(self, *args, db=False, code=0, seed="7"):
        """`xs` on the database store (db) or the disk one; `code` None takes any exit status."""
        where = ["--store", self.url, "--root", self.db_root] if db else ["--root", self.disk]
        env = dict(os.environ, XS_NOW_MS=NOW_MS, XS_ID_SEED=seed, XS_HOME=os.path.join(self.tmp, "home"))
        env.pop("XS_TERMINAL_ID", None)
        p = subprocess.run([XS, *where, *args], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, p.returncode if code is None else code, "xs %s%s\nstdout: %s\nstderr: %s" % ("(db) " if db else "",
                                                                            " ".join(args), p.stdout, p.stderr))
        return p

    def both(self, *args, code=0, seed="7"):
        """The same command on the disk store and on the database store: the same output, once
        each store's root is written the same way."""
        disk = self.xs(*args, code=code, seed=seed)
        db = self.xs(*args, db=True, code=disk.returncode if code is None else code, seed=seed)
        self.assertEqual(db.stdout.replace(self.db_root, "<root>"), disk.stdout.replace(self.disk, "<root>"), args)
        self.assertEqual(db.stderr.replace(self.db_root, "<root>"), disk.stderr.replace(self.disk, "<root>"), args)
        return disk

    def test_a_store_copied_in_and_out_is_byte_for_byte_the_same(self):
        p = self.xs("copy", "--to", self.url, "--to-root", self.db_root, "--json")
        copied = json.loads(p.stdout)
        self.assertEqual(copied["files"], sum(len(n) for _, _, n in os.walk(self.disk)))
        back = os.path.join(self.tmp, "back")
        self.xs("copy", "--to", back, db=True)
        same, differ = same_tree(self.disk, back)
        self.assertTrue(same, differ)
        # A destination that holds a store is refused, in the database too.
        p = self.xs("copy", "--to", self.url, "--to-root", self.db_root, code=2)
        self.assertIn("already holds files", p.stderr)

    def test_every_command_does_on_the_database_what_it_does_on_the_disk(self):
        self.xs("copy", "--to", self.url, "--to-root", self.db_root)
        # Reading (the listing's MODIFIED column and "modified" come from file times, which a copy
        # does not keep: compared without them).
        for args in (["show", "5e55"], ["tree", "5e55"], ["context", "5e55"], ["context", "c0mp"],
                     ["verify"], ["verify", "-v", "--json"], ["migrate"], ["blobs", "verify"],
                     ["keys"], ["stats"], ["compact-plan", "5e55", "--window", "2000"], ["show", "70rn", "--json"]):
            code = 1 if args[0] == "verify" else 0
            self.both(*args, code=code)
        def blobs(out):
            listing = json.loads(out)
            for b in listing["blobs"]:
                del b["mtimeMs"]
            return listing
        self.assertEqual(blobs(self.xs("blobs", "ls", "--json", db=True).stdout),
                         blobs(self.xs("blobs", "ls", "--json").stdout))
        ids = lambda out: sorted(s["id"] for s in json.loads(out))  # newest first: by file times
        self.assertEqual(ids(self.xs("ls", "--all", "--json", db=True).stdout),
                         ids(self.xs("ls", "--all", "--json").stdout))
        # Writing, the same steps on both stores.
        self.both("new", "--cwd", "/w/app")
        self.both("append", "5e55", "--message", "user", "one more")
        self.both("label", "5e55", "1a2b3c4d", "checkpoint", code=2)  # no such entry: the same error
        self.both("fork", "5e55")
        self.both("continue", "--cwd", "/home/dev/projects/web")
        self.both("branch", "c0mp", "d0000002", "--summary", "tried another way")
        project = os.path.join(self.tmp, "claude", "-tmp-demo")
        os.makedirs(project)
        with open(os.path.join(project, fx.CLAUDE_FILE), "w") as f:
            f.write(fx.CLAUDE_ROWS)
        self.both("import", "claude", project, "--cwd", "/tmp/demo")
        self.both("migrate", "--write")
        self.both("repair", "70rn")
        self.both("keys", "set", "agent:main:main", '{"sessionId":"5e55a0c1d2e3f401","title":"main"}')
        self.both("keys", "show", "agent:main:main")
        self.both("reset", "agent:main:main", "--cwd", "/w/app", seed="8")  # not the id `new` took
        self.both("archive", "--older", "60d", "--dry-run")
        self.both("archive", "--older", "60d")
        self.both("prune", "--older", "0d", "--dry-run")
        # The disk's lock files are files the mark pass reads too; a database has none.
        def gc(out):
            report = json.loads(out)
            del report["filesScanned"]
            return report
        self.assertEqual(gc(self.xs("blobs", "gc", "--dry-run", "--json", db=True).stdout),
                         gc(self.xs("blobs", "gc", "--dry-run", "--json").stdout))
        # And the stores they left are the same files, byte for byte (the database's copied out).
        out = os.path.join(self.tmp, "out")
        self.xs("copy", "--to", out, db=True)
        same, differ = same_tree(self.disk, out, self.disk, self.db_root)
        self.assertTrue(same, differ)
        # The prompt history: SQLite's own file, in the store's root on the disk and in this
        # machine's $XS_HOME for a store in a database; the same prompts either way.
        self.both("history", "--add", "deploy the staging server", "--cwd", "/w")
        self.both("history", "staging")
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "home", "history.db")))
        # The session index: a SQLite file too, kept in the same place; the same hits either way.
        hits = json.loads(self.both("search", "lexer", "--json").stdout)
        self.assertEqual(sorted(h["entryId"] for h in hits), ["d0000001", "d0000005"])
        self.both("index", "verify")
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "home", "index.db")))

    def test_a_root_that_is_not_there_says_so(self):
        p = self.xs("ls", "--all", db=True, code=2)
        self.assertIn(self.db_root + ": the store root does not exist in --store's database", p.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
