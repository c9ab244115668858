"""Shared test helpers: the round-trip check every typed output goes through."""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Iterator

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
CASES = pathlib.Path(os.environ.get("XS_CONFORMANCE_DIR", REPO / "tests" / "conformance" / "cases"))


def round_trip(value: Any, raw: Any = None) -> Any:
    """Asserts that value re-encodes to the JSON it was decoded from (order-insensitive), so a
    member the type drops, renames or mistypes fails; returns value."""
    from xsession._codec import same_json

    text = value.raw if raw is None else raw
    original = json.loads(text) if isinstance(text, str) else text
    again = value.to_json()
    assert same_json(again, original), f"typed round trip differs:\n{json.dumps(again)}\nvs\n{json.dumps(original)}"
    return value


@pytest.fixture
def store(tmp_path: pathlib.Path) -> Iterator[Any]:
    import xsession

    with xsession.Store(tmp_path / "store") as st:
        yield st
