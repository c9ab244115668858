"""Helpers for writing conformance cases in Python (see gen_cases.py).

Expected bytes are spelled out by the case author from the specs; these helpers only remove the
noise of escaping JSON inside JSON. `J` builds a line the way JSON.stringify writes an object
(insertion order, minified, non-ASCII kept, the same escapes), so key order is exactly as written.
"""
import json
from datetime import datetime, timezone

CLOCK_START_MS = 1767225600000  # 2026-01-01T00:00:00.000Z
STEP_MS = 1000


def J(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def ms(tick):
    """Epoch ms of the fixed clock's tick number `tick` (0 = the start)."""
    return CLOCK_START_MS + tick * STEP_MS


def ts(tick):
    t = datetime.fromtimestamp(ms(tick) / 1000, tz=timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms(tick) % 1000)


def opts(seed, **more):
    o = {"clock_start_ms": CLOCK_START_MS, "clock_step_ms": STEP_MS, "id_seed": seed}
    o.update(more)
    return o


class Ids:
    """The engine's id sequence for a seed (splitmix64), re-implemented independently."""
    M = (1 << 64) - 1

    def __init__(self, seed):
        self.state = seed

    def _next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.M
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.M
        return z ^ (z >> 31)

    def entry(self):
        return "%08x" % (self._next() >> 32)

    def session(self):
        return "%016x" % self._next()


def header(sid, tick, cwd, title=None, parent=None):
    h = {"type": "session", "version": 3, "id": sid, "timestamp": ts(tick), "cwd": cwd}
    if title is not None:
        h["title"] = title
    if parent is not None:
        h["parentSession"] = parent
    return J(h)


def entry(type_, id_, parent, tick_or_ts, **payload):
    """An entry line with the envelope first: type, id, parentId, timestamp, payload
    (docs/format.md#entries)."""
    stamp = ts(tick_or_ts) if isinstance(tick_or_ts, int) else tick_or_ts
    e = {"type": type_, "id": id_, "parentId": parent, "timestamp": stamp}
    e.update(payload)
    return J(e)


def entry_after(type_, id_, parent, tick_or_ts, **payload):
    """custom / custom_message: the payload comes before id, parentId and timestamp."""
    stamp = ts(tick_or_ts) if isinstance(tick_or_ts, int) else tick_or_ts
    e = {"type": type_}
    e.update(payload)
    e.update({"id": id_, "parentId": parent, "timestamp": stamp})
    return J(e)


def ctx(leaf, messages, thinking='"off"', models=None, rules=(), mode='"none"', extra="", model=False):
    """The exact context text. `messages` are raw JSON texts, spliced as the engine splices.
    `model`: pi's member in a pi-dialect session (None = null, or {"provider", "modelId"});
    False leaves it out, as the omp dialect does (docs/dialects.md#the-context-in-the-pi-dialect)."""
    models = models or {}
    leaf_tok = "null" if leaf is None else J(leaf)
    pi_model = "" if model is False else ',"model":%s' % J(model)
    return ('{"leafId":%s,"messages":[%s],"thinkingLevel":%s%s,"models":%s,"injectedTtsrRules":%s,"mode":%s%s}'
            % (leaf_tok, ",".join(messages), thinking, pi_model, J(models), J(list(rules)), mode, extra))


def file_bytes(lines):
    return "".join(l + "\n" for l in lines)
