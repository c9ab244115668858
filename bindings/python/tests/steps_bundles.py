"""The conformance operations of bundles (tests/conformance/README.md: "Bundles"), registered on
replay.OPS, through Store.export and Store.import_bundle.

Reports are compared as tests/conformance/bundle_steps.cc does: each member the step lists equals
the report's as minified JSON (so null is null and false is false) after the placeholders of the
expected value are replaced; a listed list has as many items as the report's, a string item equal
to the report's, an object item's listed members equal to the item's."""

from __future__ import annotations

import json
import os
from typing import Any, List, Tuple

from conftest import round_trip
from replay import Check, Mismatch, Runner, Step, op


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _placed(r: Runner, value: Any) -> str:
    """An expected value's JSON text with the placeholders of its strings replaced."""

    def place(v: Any) -> Any:
        if isinstance(v, str):
            return r.placed(v)
        if isinstance(v, list):
            return [place(x) for x in v]
        if isinstance(v, dict):
            return {k: place(x) for k, x in v.items()}
        return v

    return _json(place(value))


def _same(what: str, have: str, want: str) -> None:
    if have != want:
        raise Mismatch(f"{what} is {have}, want {want}")


def _report_check(raw: str) -> Check:
    def check(r: Runner, st: Step) -> None:
        report = json.loads(raw)
        for member, want in st["report"].items():
            if member not in report:
                raise Mismatch(f"no member {member!r} in {raw}")
            have = report[member]
            if not isinstance(want, list):
                _same(member, _json(have), _placed(r, want))
                continue
            if not isinstance(have, list) or len(have) != len(want):
                raise Mismatch(f"{member} has {_json(have)}, want {len(want)} items")
            for i, (got, item) in enumerate(zip(have, want)):
                if not isinstance(item, dict):
                    _same(f"{member}[{i}]", _json(got), _placed(r, item))
                    continue
                for key, value in item.items():
                    _same(f"{member}[{i}].{key}", _json(got[key]) if key in got else "(none)", _placed(r, value))

    return check


@op("use_store")
def _use_store(r: Runner, st: Step) -> Check:
    r.use_store(st["store"])
    return None


@op("export_bundle")
def _export_bundle(r: Runner, st: Step) -> Check:
    report = r.store.export(
        st["sessions"], os.path.join(r.bundles, st["bundle"]),
        lineage=not st.get("no_lineage", False), gzip=st.get("gzip", False))  # fmt: skip
    return _report_check(round_trip(report).raw)


@op("import_bundle")
def _import_bundle(r: Runner, st: Step) -> Check:
    pairs: List[Tuple[str, str]] = [(old, new) for old, new in st.get("cwd_map", [])]
    report = r.store.import_bundle(
        os.path.join(r.bundles, st["bundle"]), cwd_map=pairs or None,
        rename=st.get("rename", False), dry_run=st.get("dry_run", False))  # fmt: skip
    return _report_check(round_trip(report).raw)


@op("damage_bundle")
def _damage_bundle(r: Runner, st: Step) -> Check:
    """The bundle cut to its first `truncate` bytes, then the byte at `flip` inverted, written to
    `to` (absent: in place)."""
    source = os.path.join(r.bundles, st["bundle"])
    with open(source, "rb") as f:
        data = bytearray(f.read())
    if "truncate" in st:
        if st["truncate"] >= len(data):
            raise Mismatch(f"the bundle ({len(data)} bytes) is not longer than the cut {st['truncate']}")
        del data[st["truncate"] :]
    if "flip" in st:
        if st["flip"] >= len(data):
            raise Mismatch(f"the bundle ({len(data)} bytes) is shorter than the flipped byte's offset {st['flip']}")
        data[st["flip"]] ^= 0xFF
    with open(os.path.join(r.bundles, st["to"]) if "to" in st else source, "wb") as f:
        f.write(data)
    return None
