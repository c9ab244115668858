"""Hostile input: every refusal is an exception with the right code, and nothing changes."""

from __future__ import annotations

import pathlib
from typing import Iterator

import pytest

import xsession


@pytest.fixture
def session(store: xsession.Store) -> Iterator[xsession.Session]:
    s = store.create("/p", no_defer=True)
    s.append_message({"role": "user", "content": "seed"})
    yield s
    s.close()


@pytest.mark.parametrize(
    "text, error",
    [
        (b'{"role":"user","content":"a\x00b"}', xsession.InvalidArgumentError),  # a raw NUL byte
        (b'{"role":"user","content":"\xff\xfe"}', xsession.InvalidArgumentError),  # not UTF-8
        (b"[1,2]", xsession.InvalidArgumentError),
        (b'{"content":"no role"}', xsession.InvalidArgumentError),
        (b'{"role":"user"} trailing', xsession.InvalidArgumentError),
        (b"", xsession.InvalidArgumentError),
        (b"[" * 5000 + b"]" * 5000, xsession.XsError),
    ],
)
def test_bad_messages_are_refused_and_change_nothing(session: xsession.Session, text: bytes, error: type) -> None:
    before = session.entries().raw
    with pytest.raises(error) as e:
        session.append_message(text)
    assert e.value.code < 0 and e.value.message
    assert session.entries().raw == before


def test_depth_and_line_limits(store: xsession.Store) -> None:
    with store.create("/p", no_defer=True, max_depth=8, max_line_bytes=1000) as s:
        with pytest.raises(xsession.LimitError):
            s.append_message({"role": "user", "content": [[[[[[[[[["deep"]]]]]]]]]]})
        with pytest.raises(xsession.LimitError):
            s.append_message({"role": "user", "content": "x" * 5000})
        assert len(s.entries()) == 0


@pytest.mark.parametrize("bad", ["", "has space", "x" * 65, "nul\0inside", "slash/id"])
def test_bad_ids(session: xsession.Session, bad: str) -> None:
    with pytest.raises(xsession.XsError) as e:
        session.append({"type": "note", "id": bad}) if "\0" not in bad else session.set_leaf(bad)
    assert e.value.code in (-3, -5)


def test_nul_in_names_and_keys_is_refused(store: xsession.Store) -> None:
    with pytest.raises(xsession.InvalidArgumentError):
        store.keys_put("a\0b", {"sessionId": "s"})
    with pytest.raises(xsession.InvalidArgumentError):
        store.create("/p\0/q")
    with pytest.raises(xsession.InvalidArgumentError):
        store.keys_put("a/b", {"sessionId": "s"})
    with pytest.raises(xsession.InvalidArgumentError):
        store.keys_put("k", {"sessionId": 5})


def test_garbage_files_load_with_diagnostics(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    path = tmp_path / "g.jsonl"
    header = b'{"type":"session","version":3,"id":"abc","timestamp":"t","cwd":"/p"}\n'
    path.write_bytes(header + b"\xff\xfe\n\x00\x00\n" + b'{"type":"x","id":"1","parentId":null}\n' + b"[]\n")
    with store.open(path, read_only=True) as s:
        codes = [d.code for d in s.diagnostics()]
        assert codes == ["invalid_utf8", "nul_byte", "not_object"]
        entries = s.entries()
        assert [type(e).__name__ for e in entries] == ["GenericEntry"] and entries[0].timestamp == ""
    path.write_bytes(b"not a session\n")
    with pytest.raises(xsession.NoHeaderError):
        store.open(path, read_only=True)


def test_bad_hashes_and_kinds(store: xsession.Store, tmp_path: pathlib.Path) -> None:
    with pytest.raises(xsession.InvalidArgumentError):
        store.blob_get("not-a-hash")
    with pytest.raises(xsession.NotFoundError):
        store.blob_get("0" * 64)
    with pytest.raises(xsession.NotFoundError):
        store.foreign_list("claude", tmp_path / "nowhere")
    with pytest.raises(xsession.InvalidArgumentError):
        xsession.should_compact(xsession.CompactionSettings(context_window=0), 1)
    with pytest.raises(xsession.VersionError):
        xsession.should_compact(xsession.CompactionSettings(context_window=10, version=99), 1)
