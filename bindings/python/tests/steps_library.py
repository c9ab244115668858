"""The conformance operations of the session library, retention and import
(tests/conformance/README.md: "Compaction planning" to "Import"), registered on replay.OPS."""

from __future__ import annotations

import json
import os
from typing import Any, Dict

import xsession
from xsession import CompactionSettings

from conftest import round_trip
from replay import MTIMES, Check, Mismatch, Runner, Step, op, text_of
from steps import text_check


# --- the session library ----------------------------------------------------------------------
def settings(st: Step) -> CompactionSettings:
    s = st.get("settings") or {}
    return CompactionSettings(**s)


def _decision(got: bool) -> Check:
    def check(r: Runner, st: Step) -> None:
        if got != st["result"]:
            raise Mismatch(f"decision {got}, want {st['result']}")

    return check


@op("compaction_plan")
def _compaction_plan(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.session.compaction_plan(st.get("leaf"), settings(st))).raw, "plan")


@op("check_should_compact")
def _should_compact(r: Runner, st: Step) -> Check:
    return _decision(xsession.should_compact(settings(st), st["context_tokens"]))


@op("check_should_flush_memory")
def _should_flush(r: Runner, st: Step) -> Check:
    return _decision(xsession.should_flush_memory(
        settings(st), st["context_tokens"], st["compaction_count"], st["last_flush_compaction_count"]))  # fmt: skip


@op("keys_claim_memory_flush")
def _claim(r: Runner, st: Step) -> Check:
    return _decision(r.store.keys_claim_memory_flush(st["key"], settings(st), st["context_tokens"], st["now_ms"]))


@op("check_resume")
def _check_resume(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.session.resume_check(st.get("leaf"))).raw)


@op("check_stats")
def _check_stats(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.session.stats()).raw)


@op("keys_fix_stats")
def _fix_stats(r: Runner, st: Step) -> Check:
    report = round_trip(r.store.keys_fix_stats(st.get("prefix")))
    return (lambda r, st: r.expect_text(report.raw, r.rooted(st, "json"))) if "json" in st else None


@op("check_store_files")
def _check_store_files(r: Runner, st: Step) -> Check:
    got = sorted(os.listdir(r.root))
    if got != st["files"]:
        raise Mismatch(f"store files {got}, want {st['files']}")
    return None


def _listed(r: Runner, report: Dict[str, Any], st: Step, key: str) -> None:
    got, want = report[key], st[key]
    if len(got) != len(want):
        raise Mismatch(f"{len(got)} {key}, want {len(want)}: {report}")
    for g, w in zip(got, want):
        g["path"] = r.rel(g["path"])
        r.same_fields(key, g, w)


def _retention(r: Runner, st: Step, archive: bool) -> Check:
    kw = dict(now_ms=st.get("now_ms", 0), dry_run=st.get("dry_run", False))
    older = st.get("older_than_ms")
    result = r.store.archive(older, **kw) if archive else r.store.prune(older, **kw)
    round_trip(result)

    def check(r: Runner, st: Step) -> None:
        report = json.loads(result.raw)
        if report["dryRun"] is not st.get("dry_run", False):
            raise Mismatch(f"dryRun {report['dryRun']}")
        for key in ("archived", "skipped") if archive else ("pruned",):
            _listed(r, report, st, key)

    return check


op("archive")(lambda r, st: _retention(r, st, True))
op("prune")(lambda r, st: _retention(r, st, False))


@op("check_path_exists")
def _check_path_exists(r: Runner, st: Step) -> Check:
    if os.path.exists(os.path.join(r.root, st["path"])) != st["exists"]:
        raise Mismatch(f"{st['path']} exists: want {st['exists']}")
    return None


# --- import -----------------------------------------------------------------------------------
def _import_kw(st: Step) -> Dict[str, Any]:
    return {k: st[k] for k in ("lock_wait_ms", "now_ms") if k in st}


@op("import")
def _import(r: Runner, st: Step) -> Check:
    report = r.store.import_store(
        st["kind"], os.path.join(r.root, st["path"]), dry_run=st.get("dry_run", False),
        target_cwd=st.get("target_cwd"), fallback_cwd=st.get("fallback_cwd"), **_import_kw(st))  # fmt: skip
    round_trip(report)
    return lambda r, st: r.expect_text(report.raw, r.rooted(st, "json"))


@op("foreign_list")
def _foreign_list(r: Runner, st: Step) -> Check:
    listing = round_trip(r.store.foreign_list(st["kind"], os.path.join(r.root, st["path"])))
    got = MTIMES.sub(r"\g<1>0", listing.raw)
    return lambda r, st: r.expect_text(got, r.rooted(st, "json"))


@op("check_raw_file")
def _check_raw_file(r: Runner, st: Step) -> Check:
    with open(os.path.join(r.root, st["path"]), "rb") as f:
        if f.read() != text_of(st["raw"]).encode():
            raise Mismatch(f"{st['path']} differs")
    return None

