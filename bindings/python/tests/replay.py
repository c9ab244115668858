"""Replays one conformance case (tests/conformance/README.md) through the Python API, the way
tests/conformance/conformance_runner.cc does through the C API: exact bytes, exact statuses, and
every JSON output decoded through its typed value and re-encoded (conftest.round_trip)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from typing import Any, Callable, Dict, List, Optional, Tuple

import xsession
from xsession import Dialect, ResetPolicy, XsError
from xsession.errors import STATUS_CODES


Step = Dict[str, Any]


class Mismatch(AssertionError):
    pass


def text_of(v: Any) -> str:
    """A text argument: a string, or an array of parts (strings and {"repeat", "times"})."""
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "".join(p if isinstance(p, str) else p["repeat"] * p["times"] for p in v)
    raise Mismatch(f"bad text argument {v!r}")


DIALECTS = {"auto": Dialect.AUTO, "omp": Dialect.OMP, "pi": Dialect.PI}
FLAGS = ("read_only", "create", "no_defer", "sync")
MTIMES = re.compile(r'("mtime(?:Ms)?":)-?[0-9]+')
# A store's root by name (README "Bundles": placeholders).
ROOT_OF = re.compile(r"\{root:([^}]*)\}")


class Runner:
    def __init__(self, doc: Dict[str, Any], root: str) -> None:
        self.doc = doc
        self.opts: Step = doc.get("options", {})
        # The case's stores by name ("main": the case's own, at root) and the current one: a case
        # that carries a bundle between stores names more (use_store; README "Bundles").
        self.stores: Dict[str, Tuple[xsession.Store, str]] = {}
        self.made_dirs: List[str] = []  # the other stores' directories and the bundle directory
        self._bundles: Optional[str] = None
        self.store, self.root = self.store_named("main", root)
        self.s: Optional[xsession.Session] = None
        self.closed: Optional[xsession.Session] = None
        self.path = ""

    # --- the case's stores and its bundle directory ----------------------------------------
    def store_named(self, name: str, root: Optional[str] = None) -> Tuple[xsession.Store, str]:
        """The store `name`, opened with the case's store options on first use: at root, or in a
        fresh empty directory of its own."""
        if name not in self.stores:
            if root is None:
                root = tempfile.mkdtemp(prefix="xs-conformance-")
                self.made_dirs.append(root)
            policy = self.doc.get("store_reset_policy")
            store = xsession.Store(
                root,
                dialect=Dialect.PI if self.doc.get("store_dialect") == "pi" else Dialect.AUTO,
                reset_policy=self.policy(policy) if policy is not None else None,
            )
            self.stores[name] = (store, root)
        return self.stores[name]

    def use_store(self, name: str) -> None:
        self.close_current()
        self.store, self.root = self.store_named(name)

    @property
    def bundles(self) -> str:
        """The case's bundle directory: on the local disk, outside every store root."""
        if self._bundles is None:
            self._bundles = tempfile.mkdtemp(prefix="xs-conformance-bundles-")
            self.made_dirs.append(self._bundles)
        return self._bundles

    def placed(self, text: str) -> str:
        """text with {bundles}, {root:NAME} and {root} replaced (README "Bundles": placeholders)."""
        if "{bundles}" in text:
            text = text.replace("{bundles}", self.bundles)
        text = ROOT_OF.sub(lambda m: self.store_named(m.group(1))[1], text)
        if "{root:" in text:
            raise Mismatch(f"unclosed {{root: in {text}")
        return text.replace("{root}", self.root)

    # --- plumbing ----------------------------------------------------------------------
    def policy(self, p: Step) -> ResetPolicy:
        dh = p.get("daily_hour", -1)
        return ResetPolicy(daily_hour=None if dh == -1 else dh, idle_minutes=p.get("idle_minutes", 0),
                           time_zone=p.get("time_zone"))  # fmt: skip

    def options(self, st: Step) -> Dict[str, Any]:
        o = self.opts
        kw: Dict[str, Any] = {}
        d = st.get("dialect", o.get("dialect"))
        if d is not None:
            kw["dialect"] = DIALECTS[d]
        if o.get("cwd") is not None:
            kw["cwd"] = o["cwd"]
        if "key" in st:
            kw["key"] = st["key"]
        if "clock_start_ms" in o:
            kw["clock_start_ms"], kw["clock_step_ms"] = o["clock_start_ms"], o.get("clock_step_ms", 0)
        for name in ("id_seed", "max_line_bytes", "max_depth"):
            if name in o:
                kw[name] = o[name]
        for f in st.get("flags", o.get("flags", [])):
            if f not in FLAGS:
                raise Mismatch(f"unknown flag {f}")
            kw[f] = True
        return kw

    @property
    def session(self) -> xsession.Session:
        # A closed session stays current, as the C runner's NULL: calls on it give XS_EMISUSE.
        return self.s if self.s is not None else self.closed or xsession.Session(0)

    def close_current(self) -> None:
        if self.s is not None:
            self.s.close()
            self.closed, self.s = self.s, None

    def adopt(self, fresh: xsession.Session) -> None:
        self.close_current()
        self.s = fresh
        self.path = fresh.info().path

    def rel(self, p: str) -> str:
        return p[len(self.root) + 1 :] if p.startswith(self.root + "/") else p

    def rooted(self, st: Step, key: str) -> str:
        return text_of(st[key]).replace("{root}", self.root)

    def lines_or_raw(self, st: Step) -> str:
        if "raw" in st:
            return text_of(st["raw"])
        return "".join(text_of(line) + "\n" for line in st["lines"])

    def same_fields(self, what: str, got: Dict[str, Any], want: Dict[str, Any]) -> None:
        for k, w in want.items():
            if k not in got:
                raise Mismatch(f"{what} has no field {k!r}: {got}")
            if got[k] != w or type(got[k]) is bool and type(w) is not bool:
                raise Mismatch(f"{what} field {k!r} is {got[k]!r}, want {w!r}")

    def expect_text(self, got: str, want: str) -> None:
        if got != want:
            raise Mismatch(f"got\n{got}\nwant\n{want}")

    # --- the replay --------------------------------------------------------------------
    def run(self) -> None:
        doc, inp = self.doc, os.path.join(self.root, "input.jsonl")
        if "input" in doc:
            write(inp, ("\n".join(doc["input"]) + "\n").encode())
        elif "input_raw" in doc:
            write(inp, text_of(doc["input_raw"]).encode())
        elif "input_hex" in doc:
            write(inp, bytes.fromhex(doc["input_hex"]))
        try:
            for i, st in enumerate(doc["steps"]):
                op = st["op"]
                expect = STATUS_CODES[st.get("expect", "XS_OK")]
                try:
                    self.step(op, st, expect)
                except Mismatch as e:
                    raise Mismatch(f"step {i} ({op}): {e}") from None
        finally:
            if self.s is not None:
                self.s.close()
            for store, _ in self.stores.values():
                store.close()
            for d in self.made_dirs:
                shutil.rmtree(d)

    def step(self, op: str, st: Step, expect: int) -> None:
        if op in ("create", "open"):
            self.close_current()
        fn = OPS.get(op)
        if fn is None:
            raise Mismatch(f"unknown op {op}")
        try:
            result = fn(self, st)
        except XsError as e:
            if e.code != expect:
                raise Mismatch(f"status {e.code} ({e}), want {expect}") from None
            prefix = self.placed(st.get("message_prefix", ""))
            if not e.message.startswith(prefix):
                raise Mismatch(f"message {e.message!r}, want it to start {prefix!r}")
            if op == "session_for_key":
                pass  # nothing is returned on an error
            return
        if expect != 0:
            raise Mismatch(f"status XS_OK, want {expect}")
        if result is not None:
            result(self, st)


def write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


Check = Optional[Callable[[Runner, Step], None]]
OPS: Dict[str, Callable[[Runner, Step], Check]] = {}


def op(name: str) -> Callable[[Callable[[Runner, Step], Check]], Callable[[Runner, Step], Check]]:
    def reg(fn: Callable[[Runner, Step], Check]) -> Callable[[Runner, Step], Check]:
        OPS[name] = fn
        return fn

    return reg


def opt_text(st: Step, key: str) -> Optional[str]:
    return text_of(st[key]) if key in st else None


def appended(new_id: str) -> Check:
    def check(r: Runner, st: Step) -> None:
        if "expect_id" in st and new_id != st["expect_id"]:
            raise Mismatch(f"id {new_id!r}, want {st['expect_id']!r}")

    return check


def register_appends() -> None:
    A: Dict[str, Callable[[Runner, Step], str]] = {
        "append": lambda r, s: r.session.append(text_of(s["entry"])),
        "append_message": lambda r, s: r.session.append_message(text_of(s["message"])),
        "append_thinking_level": lambda r, s: r.session.append_thinking_level(s.get("level")),
        "append_model_change": lambda r, s: r.session.append_model_change(s["model"], s.get("role")),
        "append_compaction": lambda r, s: r.session.append_compaction(
            text_of(s["summary"]), s["first_kept_entry_id"], s["tokens_before"],
            short_summary=opt_text(s, "short_summary"), details=opt_text(s, "details"),
            preserve_data=opt_text(s, "preserve_data"), from_extension=s.get("from_extension")),
        "append_custom": lambda r, s: r.session.append_custom(s["custom_type"], opt_text(s, "data")),
        "append_custom_message": lambda r, s: r.session.append_custom_message(
            s["custom_type"], text_of(s["content"]), display=s.get("display", True),
            details=opt_text(s, "details"), attribution=s.get("attribution")),
        "append_label": lambda r, s: r.session.append_label(s["target_id"], s.get("label")),
        "append_ttsr_injection": lambda r, s: r.session.append_ttsr_injection(text_of(s["rules"])),
        "append_session_init": lambda r, s: r.session.append_session_init(
            text_of(s["system_prompt"]), text_of(s["task"]), text_of(s["tools"]), opt_text(s, "output_schema")),
        "append_mode_change": lambda r, s: r.session.append_mode_change(s["mode"], opt_text(s, "data")),
        "append_session_info": lambda r, s: r.session.append_session_info(text_of(s["name"])),
        "branch_with_summary": lambda r, s: r.session.branch_with_summary(
            s.get("from_id"), text_of(s["summary"]), details=opt_text(s, "details"),
            from_extension=s.get("from_extension")),
    }  # fmt: skip
    for name, fn in A.items():
        OPS[name] = lambda r, s, fn=fn: appended(fn(r, s))  # type: ignore[misc]


register_appends()
import steps  # noqa: E402,F401  (registers the other operations)
import steps_index  # noqa: E402,F401  (the session index's and search's operations)
import steps_bundles  # noqa: E402,F401  (the bundles' operations and use_store)

