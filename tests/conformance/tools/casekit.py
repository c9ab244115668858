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

    def uuid7(self, ms_):
        """A pi-dialect session id (docs/dialects.md#what-the-pi-dialect-writes): a UUIDv7 whose first
        48 bits are `ms_` (the header's timestamp), then version 7, the top 12 bits of one draw,
        variant 10, the top 62 bits of the next draw; lowercase 8-4-4-4-12."""
        rand_a = self._next() >> 52
        rand_b = self._next() >> 2
        v = (ms_ << 80) | (0x7 << 76) | (rand_a << 64) | (0b10 << 62) | rand_b
        h = "%032x" % v
        return "-".join([h[:8], h[8:12], h[12:16], h[16:20], h[20:]])


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


def file_name(tick, sid):
    """A new session's file name: the header's timestamp with ':' and '.' as '-', '_', the id."""
    return "%s_%s.jsonl" % (ts(tick).replace(":", "-").replace(".", "-"), sid)


# --- the pi dialect (docs/dialects.md) -----------------------------------------------------------

def pi_header(sid, tick, cwd, parent=None):
    """pi's header: type, version, id, timestamp, cwd, parentSession? (never a title)."""
    return header(sid, tick, cwd, parent=parent)


def pi_model_change(id_, parent, tick, provider, model_id):
    return entry("model_change", id_, parent, tick, provider=provider, modelId=model_id)


def _optional(payload, **maybe):
    payload.update({k: v for k, v in maybe.items() if v is not None})
    return payload


def pi_compaction(id_, parent, tick, summary, first_kept, tokens, details=None, from_hook=None):
    """summary, firstKeptEntryId, tokensBefore, details?, fromHook? (no shortSummary, preserveData)."""
    p = _optional({"summary": summary, "firstKeptEntryId": first_kept, "tokensBefore": tokens}, details=details,
                  fromHook=from_hook)
    return entry("compaction", id_, parent, tick, **p)


def pi_branch_summary(id_, parent, tick, from_id, summary, details=None, from_hook=None):
    p = _optional({"fromId": from_id, "summary": summary}, details=details, fromHook=from_hook)
    return entry("branch_summary", id_, parent, tick, **p)


def pi_custom_message(id_, parent, tick, custom_type, content, display=True, details=None):
    """customType, content, display, details?, then the envelope: no attribution."""
    p = _optional({"customType": custom_type, "content": content, "display": display}, details=details)
    return entry_after("custom_message", id_, parent, tick, **p)


def session_info(id_, parent, tick, name):
    return entry("session_info", id_, parent, tick, name=name)


# JavaScript's String.prototype.trim() strips WhiteSpace and LineTerminator code points (ECMA-262):
# TAB, VT, FF, SP, NBSP, ZWNBSP (U+FEFF), the Zs category, LF, CR, LS, PS. Not U+0085, not U+200B.
JS_SPACE = ("\t\u000b\u000c \u00a0\ufeff\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
            "\u2008\u2009\u200a\u202f\u205f\u3000\n\r\u2028\u2029")


def js_trim(s):
    return s.strip(JS_SPACE)


def pi_ctx(leaf, messages, thinking='"off"', model=None, models=None, rules=(), mode='"none"', extra=""):
    """The context of a pi-dialect session: the omp shape plus "model" after thinkingLevel
    (docs/dialects.md#the-context-in-the-pi-dialect)."""
    pi_model = None if model is None else {"provider": model[0], "modelId": model[1]}
    return ctx(leaf, messages, thinking, models, rules, mode, extra, model=pi_model)
