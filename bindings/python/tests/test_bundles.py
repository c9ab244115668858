"""Portable bundles and the HTML view through the Store (docs/bundles.md, docs/html-view.md):
sessions written through the binding, exported, imported into other stores with the same bytes,
and every status the binding maps (exists, corrupt, invalid, not found)."""

from __future__ import annotations

import asyncio
import base64
import ctypes
import hashlib
import json
import os
import pathlib
from typing import Any, Callable, Dict, Iterator, Tuple

import pytest

import xsession
from xsession import BundleAction, Compression, aio
from xsession._lib import ExportOptionsC, HtmlOptionsC, ImportBundleOptionsC
from conftest import round_trip

USER = {"role": "user", "content": "hi"}
REPLY = {"role": "assistant", "content": [{"type": "text", "text": "hello"}]}
FIXED = dict(clock_start_ms=1767225600000, clock_step_ms=1000, id_seed=7)
PARENT, CHILD = "aaaa1111", "bbbb2222"
PIXELS = bytes(range(256)) * 4  # an image large enough to move to the blob store (docs/format.md)
IMAGE_BLOCK = {"type": "image", "data": base64.b64encode(PIXELS).decode(), "mimeType": "image/png"}
IMAGE = {"role": "user", "content": [IMAGE_BLOCK]}
BLOB = hashlib.sha256(PIXELS).hexdigest()
KEY = "agent:main"


def tree(root: pathlib.Path) -> Dict[str, bytes]:
    """Every file under root by relative path, with its bytes."""
    out: Dict[str, bytes] = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = pathlib.Path(d, n)
            out[str(p.relative_to(root))] = p.read_bytes()
    return out


def sessions_of(root: pathlib.Path) -> Dict[str, bytes]:
    """The session files (not the empty lock files a writer leaves beside them)."""
    return {k: v for k, v in tree(root).items() if k.startswith("sessions" + os.sep) and k.endswith(".jsonl")}


Source = Tuple[xsession.Store, Dict[str, str]]


@pytest.fixture
def source(tmp_path: pathlib.Path) -> Iterator[Source]:
    """A store with PARENT (user, assistant) in /p and CHILD forked from it (an image, which
    goes to the blob store), KEY's record naming CHILD; yields the store and each id's path."""
    with xsession.Store(tmp_path / "src") as st:
        with st.create("/p", session_id=PARENT, no_defer=True, **FIXED) as a:
            a.append_message(USER)
            a.append_message(REPLY)
            with a.fork(session_id=CHILD, **FIXED) as b:
                b.append_message(IMAGE)
                paths = {PARENT: a.info().path, CHILD: b.info().path}
        st.keys_put(KEY, {"sessionId": CHILD, "updatedAt": 1})
        yield st, paths


@pytest.fixture
def bundle(tmp_path: pathlib.Path, source: Source) -> pathlib.Path:
    """The bundle of CHILD and its lineage (PARENT), made from source."""
    path = tmp_path / "b.xsb"
    source[0].export(CHILD, path)
    return path


def test_option_structs_mirror_the_header() -> None:
    p = ctypes.sizeof(ctypes.c_void_p)
    assert (ctypes.sizeof(ExportOptionsC), ctypes.sizeof(HtmlOptionsC)) == (8, 8)
    fields = [getattr(ImportBundleOptionsC, f).offset for f in ("version", "flags", "cwd_map", "cwd_map_len")]
    assert fields == [0, 4, 8, 8 + p] and ctypes.sizeof(ImportBundleOptionsC) == 8 + 2 * p


def test_export_carries_the_lineage(tmp_path: pathlib.Path, source: Source) -> None:
    st, paths = source
    bundle = tmp_path / "b.xsb"
    report = round_trip(st.export(CHILD, bundle))
    assert report.path == str(bundle) and report.bytes == bundle.stat().st_size
    assert report.compression is Compression.ZSTD
    assert [(s.id, s.lineage, s.parent_in_bundle) for s in report.sessions] == [
        (CHILD, False, True),
        (PARENT, True, False),
    ]
    child, parent = report.sessions
    assert child.path == paths[CHILD] and child.cwd == "/p" and child.bytes == os.path.getsize(paths[CHILD])
    assert child.parent_session is not None and PARENT in child.parent_session and parent.parent_session is None
    assert [(b.hash, b.bytes) for b in report.blobs] == [(BLOB, len(PIXELS))]
    assert (report.missing_blobs, report.keys) == ((), (KEY,))
    both = round_trip(st.export([PARENT, pathlib.Path(paths[CHILD])], bundle, gzip=True))
    assert both.compression is Compression.GZIP and bundle.read_bytes()[:2] == b"\x1f\x8b"
    assert [(s.id, s.lineage) for s in both.sessions] == [(PARENT, False), (CHILD, False)]
    assert (both.keys, len(both.blobs)) == ((KEY,), 1)
    alone = round_trip(st.export([CHILD], bundle, lineage=False))
    assert [(s.id, s.lineage, s.parent_in_bundle) for s in alone.sessions] == [(CHILD, False, False)]
    parent_only = round_trip(st.export(PARENT, bundle))
    assert (parent_only.blobs, parent_only.keys) == ((), ())  # the image and the key are CHILD's


def test_import_into_an_empty_store_then_again(tmp_path: pathlib.Path, source: Source, bundle: pathlib.Path) -> None:
    st = source[0]
    with xsession.Store(tmp_path / "dst") as dst:
        dry = round_trip(dst.import_bundle(bundle, dry_run=True))
        assert dry.dry_run and [s.action for s in dry.sessions] == [BundleAction.IMPORTED] * 2
        assert sessions_of(tmp_path / "dst") == {}  # a dry run writes nothing
        report = round_trip(dst.import_bundle(str(bundle)))
        assert not report.dry_run and report.bundle == str(bundle) and report.source_root == str(tmp_path / "src")
        assert [(s.id, s.new_id, s.old_cwd, s.action) for s in report.sessions] == [
            (CHILD, None, None, "imported"),
            (PARENT, None, None, "imported"),
        ]
        assert [(b.hash, b.action) for b in report.blobs] == [(BLOB, BundleAction.IMPORTED)]
        assert [(k.key, k.action) for k in report.keys] == [(KEY, BundleAction.IMPORTED)]
        copied = sessions_of(tmp_path / "dst")
        assert copied == sessions_of(tmp_path / "src") and len(copied) == 2  # byte for byte
        assert {os.path.relpath(s.path, tmp_path / "dst") for s in report.sessions} == set(copied)
        assert dst.blob_get(BLOB) == PIXELS and dst.keys_get(KEY).to_json() == st.keys_get(KEY).to_json()
        again = round_trip(dst.import_bundle(bundle))
        assert [s.action for s in again.sessions] == [BundleAction.PRESENT] * 2
        assert [b.action for b in again.blobs] == [k.action for k in again.keys] == [BundleAction.PRESENT]
        assert sessions_of(tmp_path / "dst") == copied
        with dst.open(CHILD, read_only=True) as s:
            messages = s.build_context().messages
            assert [m.role for m in messages] == ["user", "assistant", "user"]
            assert messages[2].content == [IMAGE_BLOCK]  # the blob resolves in the other store


def test_a_cwd_map_moves_the_sessions(tmp_path: pathlib.Path, source: Source) -> None:
    st, _ = source
    bundle = tmp_path / "b.xsb"
    st.export(PARENT, bundle)
    with xsession.Store(tmp_path / "dst") as dst:
        report = round_trip(dst.import_bundle(bundle, cwd_map=[("/elsewhere", "/x"), ("/p", "/q/r")]))
        (s,) = report.sessions
        assert (s.cwd, s.old_cwd, s.action) == ("/q/r", "/p", BundleAction.IMPORTED)
        assert os.path.dirname(s.path) == dst.session_dir("/q/r")
        with dst.open(PARENT, read_only=True) as opened:
            header = json.loads(opened.header().raw)
        assert (header["cwd"], header["originalCwd"]) == ("/q/r", "/p")
    with xsession.Store(tmp_path / "dst2") as dst2:
        (mapped,) = dst2.import_bundle(bundle, cwd_map={b"/p": pathlib.Path("/m")}).sessions
        assert (mapped.cwd, mapped.old_cwd) == ("/m", "/p")
        with pytest.raises(xsession.InvalidArgumentError) as e:
            dst2.import_bundle(bundle, cwd_map={"/p": "relative"})
        assert e.value.code == -3


def test_a_clash_is_refused_then_renamed(tmp_path: pathlib.Path, bundle: pathlib.Path) -> None:
    with xsession.Store(tmp_path / "dst") as dst:
        with dst.create("/p", session_id=PARENT, no_defer=True, **FIXED) as other:
            other.append_message({"role": "user", "content": "other bytes"})
            other_path = other.info().path
        dst.keys_put(KEY, {"sessionId": PARENT})
        before = tree(tmp_path / "dst")
        with pytest.raises(xsession.ExistsError) as e:
            dst.import_bundle(bundle)
        assert e.value.code == -6 and f"session {PARENT} is already in the store with other content" in e.value.message
        assert tree(tmp_path / "dst") == before
        report = round_trip(dst.import_bundle(bundle, rename=True))
        actions = {s.id: (s.action, s.new_id) for s in report.sessions}
        assert actions[CHILD] == (BundleAction.IMPORTED, None)
        assert [(k.key, k.action) for k in report.keys] == [(KEY, BundleAction.KEPT)]  # another record
        assert dst.keys_get(KEY).session_id == PARENT
        action, new_id = actions[PARENT]
        assert action is BundleAction.RENAMED and new_id is not None and new_id != PARENT
        assert pathlib.Path(other_path).read_bytes() == before[os.path.relpath(other_path, tmp_path / "dst")]
        with dst.open(new_id, read_only=True) as renamed:
            assert [m.role for m in renamed.build_context().messages] == ["user", "assistant"]
        again = dst.import_bundle(bundle, rename=True)
        assert [s.action for s in again.sessions] == [BundleAction.PRESENT] * 2


def test_a_truncated_bundle_is_corrupt_and_changes_nothing(tmp_path: pathlib.Path, bundle: pathlib.Path) -> None:
    data = bundle.read_bytes()
    bundle.write_bytes(data[: len(data) // 2])
    with xsession.Store(tmp_path / "dst") as dst:
        with dst.create("/p", session_id="cccc3333", no_defer=True, **FIXED) as s:
            s.append_message(USER)
        before = tree(tmp_path / "dst")
        with pytest.raises(xsession.CorruptError) as e:
            dst.import_bundle(bundle)
        assert e.value.code == -8 and e.value.message
        assert tree(tmp_path / "dst") == before


def test_export_html_of_one_session_and_of_two(tmp_path: pathlib.Path, source: Source) -> None:
    st, _ = source
    page = tmp_path / "page.html"
    one = round_trip(st.export_html(PARENT, page))
    text = page.read_bytes()
    assert text.startswith(b"<!DOCTYPE html>") and one.index is None
    (p,) = one.pages
    assert (p.path, p.session_id, p.entries, p.messages, p.bytes) == (str(page), PARENT, 2, 2, len(text))
    assert (p.branch_points, p.branches) == (0, 0)
    pages = tmp_path / "pages"
    two = round_trip(st.export_html([CHILD, "aaaa"], pages))
    assert sorted(os.listdir(pages)) == [f"{PARENT}.html", f"{CHILD}.html", "index.html"]
    assert [(q.session_id, q.path, q.messages) for q in two.pages] == [
        (CHILD, str(pages / f"{CHILD}.html"), 3),
        (PARENT, str(pages / f"{PARENT}.html"), 2),
    ]
    assert two.index is not None and two.index.path == str(pages / "index.html")
    assert two.index.bytes == (pages / "index.html").stat().st_size


def test_empty_and_bad_inputs_are_refused(tmp_path: pathlib.Path, source: Source) -> None:
    st, _ = source
    bundle = tmp_path / "b.xsb"
    calls: Tuple[Callable[[], Any], ...] = (
        lambda: st.export([], bundle),
        lambda: st.export([PARENT, ""], bundle),
        lambda: st.export(PARENT, ""),
        lambda: st.export(PARENT, bundle / "\0"),
        lambda: st.export_html([], tmp_path / "p.html"),
        lambda: st.export_html([""], tmp_path / "p.html"),
        lambda: st.export_html(PARENT, ""),
        lambda: st.export_html(PARENT, tmp_path),  # one session: a page, not a directory
        lambda: st.import_bundle(""),
    )
    for call in calls:
        with pytest.raises(xsession.InvalidArgumentError) as e:
            call()
        assert e.value.code == -3, e.value.message
    assert not bundle.exists()
    with pytest.raises(xsession.NotFoundError) as nf:
        st.export("nope", bundle)
    assert nf.value.message == 'no session matches "nope"'
    with pytest.raises(xsession.NotFoundError) as nf:
        st.import_bundle(bundle)
    assert nf.value.message == f"bundle {bundle} does not exist"
    with pytest.raises(xsession.NotFoundError):
        st.export_html("nope", tmp_path / "p.html")
    st.close()
    with pytest.raises(xsession.MisuseError):
        st.export(PARENT, bundle)


def test_async_forms(tmp_path: pathlib.Path, source: Source) -> None:
    source[0].close()
    bundle = tmp_path / "b.xsb"

    async def main() -> Tuple[xsession.BundleExportReport, xsession.BundleImportReport, xsession.HtmlReport]:
        async with aio.AsyncStore(tmp_path / "src") as st, aio.AsyncStore(tmp_path / "dst") as dst:
            exported = await st.export(CHILD, bundle, lineage=False)
            imported = await dst.import_bundle(bundle, cwd_map={"/p": "/a"})
            html = await dst.export_html(CHILD, tmp_path / "c.html")
            return exported, imported, html

    exported, imported, html = asyncio.run(main())
    assert [s.id for s in round_trip(exported).sessions] == [CHILD]
    assert [(s.cwd, s.old_cwd) for s in round_trip(imported).sessions] == [("/a", "/p")]
    assert round_trip(html).pages[0].messages == 3
