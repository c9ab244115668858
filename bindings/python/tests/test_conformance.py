"""Every tests/conformance/cases/*.json replayed through the Python API (replay.py, steps.py)."""

from __future__ import annotations

import json
import pathlib

import pytest

from conftest import CASES
from replay import Runner

FILES = sorted(CASES.glob("*.json"))


def test_the_cases_are_there() -> None:
    # A wrong directory must not pass as "no cases".
    assert len(FILES) >= 110, f"found {len(FILES)} cases in {CASES}"


@pytest.mark.parametrize("case", FILES, ids=[f.stem for f in FILES])
def test_case(case: pathlib.Path, tmp_path: pathlib.Path) -> None:
    doc = json.loads(case.read_text("utf-8"))
    assert doc.get("description") and isinstance(doc.get("steps"), list), f"{case} lacks description or steps"
    root = tmp_path / "root"
    root.mkdir()
    Runner(doc, str(root)).run()
