"""`xs stats` (each key's stats from the keyed store only) and `xs verify --fix-stats` (recount the
sessions, repair the records that disagree): docs/session-stats.md."""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from xs_cli_common import XS, make_store, xs_env

SID = "5e55a0c1d2e3f401"


def recount(path):
    """docs/session-stats.md#counters, counted here from the file independently of the library."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines()[1:]:
            entries.append(json.loads(line))
    roles, tools, compactions = {}, 0, 0
    sums = {"inputTokens": 0, "outputTokens": 0, "cacheRead": 0, "cacheWrite": 0, "cost": 0}
    for e in entries:
        if e["type"] == "compaction":
            compactions += 1
        if e["type"] == "custom_message":
            roles["custom"] = roles.get("custom", 0) + 1
        if e["type"] != "message":
            continue
        m = e["message"]
        roles[m.get("role") or "unknown"] = roles.get(m.get("role") or "unknown", 0) + 1
        if m.get("role") != "assistant":
            continue
        u = m.get("usage") or {}
        for k, src in (("inputTokens", "input"), ("outputTokens", "output"), ("cacheRead", "cacheRead"),
                       ("cacheWrite", "cacheWrite")):
            sums[k] += u.get(src, 0)
        sums["cost"] += (u.get("cost") or {}).get("total", 0)
        tools += sum(1 for b in m.get("content", []) if isinstance(b, dict) and b.get("type") == "toolCall")
    by_id = {e["id"]: e for e in entries}
    context, at = 0, entries[-1]
    while at is not None:
        if at["type"] == "compaction":
            break
        m = at.get("message") or {}
        if at["type"] == "message" and m.get("role") == "assistant" and isinstance(m.get("usage"), dict) \
                and m.get("stopReason") not in ("aborted", "error"):
            u = m["usage"]
            context = u.get("totalTokens") or u.get("input", 0) + u.get("output", 0) + u.get("cacheRead", 0) + \
                u.get("cacheWrite", 0)
            break
        at = by_id.get(at.get("parentId"))
    total = sums["inputTokens"] + sums["outputTokens"] + sums["cacheRead"] + sums["cacheWrite"]
    return {"inputTokens": sums["inputTokens"], "outputTokens": sums["outputTokens"], "cacheRead": sums["cacheRead"],
            "cacheWrite": sums["cacheWrite"], "totalTokens": total, "contextTokens": context, "cost": sums["cost"],
            "compactionCount": compactions, "messageCounts": roles, "toolCalls": tools}


class XsStatsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xs-cli-s-")
        self.root = os.path.join(self.tmp, "store")
        make_store(self.root)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def xs(self, *args, code=0):
        p = subprocess.run([XS, "--root", self.root, *args], capture_output=True, text=True, env=xs_env())
        self.assertEqual(p.returncode, code, f"xs {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        return p

    def test_stats_reads_the_store_only_and_fix_stats_repairs(self):
        self.xs("keys", "set", "agent:a", J({"sessionId": SID, "title": "T", "inputTokens": 1,
                                             "messageCounts": {"user": 1}, "toolCalls": 0,
                                             "updatedAt": 1772990000000}))
        self.xs("keys", "set", "cron:x", J({"sessionId": "nosuch"}))
        table = ("KEY      SESSION           MSGS  TOOLS  TOKENS  CONTEXT  COST  COMPACT  UPDATED\n"
                 "agent:a  5e55a0c1d2e3f401     1      0       -        -     -        -  2h ago\n"
                 "cron:x   nosuch               -      -       -        -     -        -  -\n"
                 "2 keys\n")
        self.assertEqual(self.xs("stats").stdout, table)
        # No transcript is read: the same answer with every session file gone (a copy is kept).
        sessions, kept = os.path.join(self.root, "sessions"), os.path.join(self.tmp, "kept")
        shutil.move(sessions, kept)
        self.assertEqual(self.xs("stats").stdout, table)
        nulls = dict.fromkeys(["updatedAt", "inputTokens", "outputTokens", "cacheRead", "cacheWrite", "totalTokens",
                               "contextTokens", "cost", "compactionCount", "messageCounts", "toolCalls"])
        a = dict(nulls, updatedAt=1772990000000, inputTokens=1, messageCounts={"user": 1}, toolCalls=0)
        self.assertEqual(json.loads(self.xs("stats", "agent:", "--json").stdout),
                         [dict({"key": "agent:a", "sessionId": SID}, **a)])
        shutil.move(kept, sessions)

        path = glob.glob(os.path.join(sessions, "*", "*_%s.jsonl" % SID))[0]
        want = recount(path)
        before = {"inputTokens": 1, "messageCounts": {"user": 1}, "toolCalls": 0}
        changed = [k for k in want if before.get(k) != want[k]]
        line = "fixed agent:a (%s): %s\n" % (SID, ", ".join(
            "%s %s -> %s" % (k, J(before.get(k)), J(want[k])) for k in changed))
        self.assertEqual(self.xs("verify", "--fix-stats").stdout,
                         line + 'skipped cron:x: no session matches "nosuch"\n2 keys checked: 1 fixed, 1 skipped\n')
        record = json.loads(self.xs("keys", "show", "agent:a").stdout)
        self.assertEqual(record, dict({"sessionId": SID, "title": "T"}, **dict(want, updatedAt=1772990000000)))
        self.assertEqual(list(record)[:6], ["sessionId", "title", "inputTokens", "messageCounts", "toolCalls",
                                            "updatedAt"])  # fields kept in place, new ones last
        self.assertEqual(json.loads(self.xs("verify", "--fix-stats", "--key-prefix", "agent:", "--json").stdout),
                         {"checked": 1, "fixed": [], "skipped": []})
        msgs = sum(want["messageCounts"].values())
        row = self.xs("stats", "agent:").stdout.splitlines()[1].split()
        self.assertEqual(row[:8], ["agent:a", SID, str(msgs), str(want["toolCalls"]), str(want["totalTokens"]),
                                   str(want["contextTokens"]), J(want["cost"]), str(want["compactionCount"])])

    def test_bad_input(self):
        self.xs("verify", "--fix-stats", "some/path", code=2)
        with open(os.path.join(self.root, "sessions.json"), "w") as f:
            f.write('{"k":')
        damaged = "sessions.json is not a JSON document"
        self.assertIn(damaged, self.xs("stats", code=2).stderr)
        self.assertIn(damaged, self.xs("verify", "--fix-stats", code=2).stderr)
        with open(os.path.join(self.root, "sessions.json")) as f:
            self.assertEqual(f.read(), '{"k":')  # reported, never written over by a read or a repair


def J(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)
