"""The conformance operations of the session index and search (tests/conformance/README.md:
"Session index and search"), registered on replay.OPS, through Store.open_index and Index.

Each step opens the index at <root>/index.db, makes its one call and closes it. Outputs are
compared as tests/conformance/search_steps.cc does: each listed member equals the output's as
JSON (so 1 is not true and null is null), lists item by item in order, and a string naming a path
under the store root is compared relative to it. Scores are not compared."""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, List, Union

import xsession
from xsession import Role

from conftest import round_trip
from replay import Check, Mismatch, Runner, Step, op


def _open(r: Runner) -> xsession.Index:
    try:
        return r.store.open_index(path=os.path.join(r.root, "index.db"))
    except xsession.XsError as e:
        # Opening is not the step's call: its failure is never the status a step expects.
        raise Mismatch(f"open_index failed: {e}") from None


def _with_index(r: Runner, call: Callable[[xsession.Index], Any]) -> Any:
    with _open(r) as ix:
        return call(ix)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _output(r: Runner, value: Any) -> str:
    """An output value as JSON text, a string naming a path under the store root relative to it."""
    return _json(r.rel(value) if isinstance(value, str) else value)


def _same_items(r: Runner, what: str, got: List[Any], want: Any) -> None:
    if not isinstance(want, list):
        raise Mismatch(f"{what} is a list in the output, the step gives {_json(want)}")
    if len(got) != len(want):
        raise Mismatch(f"{len(got)} {what}, want {len(want)}: {json.dumps(got)}")
    for i, (g, w) in enumerate(zip(got, want)):
        if not isinstance(w, dict):
            if _output(r, g) != _json(w):
                raise Mismatch(f"{what}[{i}] is {_output(r, g)}, want {_json(w)}")
            continue
        for member, value in w.items():
            have = _output(r, g[member]) if member in g else "(none)"
            if have != _json(value):
                raise Mismatch(f"{what}[{i}].{member} is {have}, want {_json(value)}")


def _report_check(raw: str) -> Check:
    def check(r: Runner, st: Step) -> None:
        got = json.loads(raw)
        for member, value in st["report"].items():
            if member not in got:
                raise Mismatch(f"the report has no member {member!r}: {raw}")
            if isinstance(got[member], list):
                _same_items(r, member, got[member], value)
            elif _output(r, got[member]) != _json(value):
                raise Mismatch(f"report member {member!r} is {_output(r, got[member])}, want {_json(value)}")

    return check


@op("index_refresh")
def _index_refresh(r: Runner, st: Step) -> Check:
    return _report_check(round_trip(_with_index(r, lambda ix: ix.refresh())).raw)


@op("index_rebuild")
def _index_rebuild(r: Runner, st: Step) -> Check:
    return _report_check(round_trip(_with_index(r, lambda ix: ix.rebuild())).raw)


@op("index_verify")
def _index_verify(r: Runner, st: Step) -> Check:
    return _report_check(round_trip(_with_index(r, lambda ix: ix.verify())).raw)


def _items_check(raw: str, key: str) -> Check:
    return lambda r, st: _same_items(r, key, json.loads(raw), st[key])


@op("index_list")
def _index_list(r: Runner, st: Step) -> Check:
    listing = _with_index(r, lambda ix: ix.list(st.get("cwd"), limit=st.get("limit", 0)))
    return _items_check(round_trip(listing).raw, "sessions")


def _role(text: str) -> Union[Role, str]:
    # The typed Role for the five; another text goes to the library as it is, which refuses it.
    return Role(text) if text in {r.value for r in Role} else text


@op("search")
def _search(r: Runner, st: Step) -> Check:
    kw: Dict[str, Any] = {k: st[k] for k in ("cwd", "session_id", "since_ms", "limit", "literal") if k in st}
    if "role" in st:
        kw["role"] = _role(st["role"])
    hits = _with_index(r, lambda ix: ix.search(st["query"], **kw))
    return _items_check(round_trip(hits).raw, "hits")
