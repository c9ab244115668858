"""`xs reset KEY` (docs/reset-policies.md#xs-reset-key): a manual reset of a session key, its output,
the new file's header and the document's exact bytes, and bad keys."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from xs_cli_common import NOW_MS, XS, make_store, xs_env

MASK = (1 << 64) - 1


def session_id(seed):
    """The first session id of the engine's seeded sequence (splitmix64), as "%016x"."""
    z = (seed + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return "%016x" % (z ^ (z >> 31))


STAMP = "2026-03-08T20:00:00.000Z"  # XS_NOW_MS
FILE_STAMP = "2026-03-08T20-00-00-000Z"


class XsResetTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xs-cli-reset-")
        self.root = os.path.join(self.tmp, "store")
        make_store(self.root)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def xs(self, seed, *args, code=0):
        p = subprocess.run([XS, "--root", self.root, *args], capture_output=True, text=True, env=xs_env(str(seed)))
        self.assertEqual(p.returncode, code, f"xs {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        if code == 0:
            self.assertEqual(p.stderr, "")
        return p.stdout.replace(self.root, "<root>"), p.stderr.replace(self.root, "<root>")

    def document(self):
        with open(os.path.join(self.root, "sessions.json"), encoding="utf-8") as f:
            return f.read().replace(self.root, "<root>")

    def test_reset_starts_a_new_session_naming_the_old(self):
        self.xs(1, "keys", "set", "agent:main:main", '{"sessionId":"old","updatedAt":1,"cwd":"/w","title":"T"}')
        sid = session_id(101)
        path = "<root>/sessions/--w--/%s_%s.jsonl" % (FILE_STAMP, sid)
        out, _ = self.xs(101, "reset", "agent:main:main")
        self.assertEqual(out, "%s %s\n" % (sid, path))
        with open(path.replace("<root>", self.root), encoding="utf-8") as f:
            self.assertEqual(f.read(), json.dumps({"type": "session", "version": 3, "id": sid, "timestamp": STAMP,
                                                   "cwd": "/w", "parentSession": "old"}, separators=(",", ":")) + "\n")
        now = int(NOW_MS)
        self.assertEqual(self.document(), json.dumps(
            {"agent:main:main": {"sessionId": sid, "updatedAt": now, "cwd": "/w", "title": "T", "sessionFile": path,
                                 "createdAt": now, "previousSessionIds": ["old"],
                                 # The new session, written at once and bound to the key, writes its
                                 # (empty) stats (docs/session-stats.md#binding-a-session-to-a-key).
                                 "inputTokens": 0, "outputTokens": 0, "cacheRead": 0, "cacheWrite": 0,
                                 "totalTokens": 0, "contextTokens": 0, "cost": 0, "compactionCount": 0,
                                 "messageCounts": {}, "toolCalls": 0}}, indent=2) + "\n")
        info = json.loads(self.xs(102, "reset", "agent:main:main", "--json", "--cwd", "/elsewhere")[0])
        self.assertEqual(info["id"], session_id(102))
        self.assertEqual(info["path"], "<root>/sessions/--elsewhere--/%s_%s.jsonl" % (FILE_STAMP, session_id(102)))
        record = json.loads(self.xs(1, "keys", "show", "agent:main:main")[0])
        self.assertEqual(record["previousSessionIds"], ["old", sid])

    def test_a_key_without_a_record_and_bad_keys(self):
        out, _ = self.xs(103, "reset", "cron:nightly", "--cwd", "/c")
        self.assertEqual(out, "%s <root>/sessions/--c--/%s_%s.jsonl\n" % (session_id(103), FILE_STAMP,
                                                                        session_id(103)))
        before = self.document()
        _, err = self.xs(104, "reset", "a/b", code=2)
        self.assertEqual(err, "xs: a/b: a session key may not hold '/' or '\\'\n")
        self.xs(104, "reset", code=2)
        self.assertEqual(self.document(), before)


if __name__ == "__main__":
    unittest.main()
