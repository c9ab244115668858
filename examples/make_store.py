#!/usr/bin/env python3
"""Builds the example store that `scripts/demo` and the CLI tests run `xs` over.

    examples/make_store.py OUT_DIR

Six sessions in the store layout (<root>/sessions/--<cwd>--/<time>_<id>.jsonl, <root>/blobs/):
a v1 and a v2 file to migrate, a branched session with labels, one with a compaction, one with a
torn last line, and one whose screenshot lives in the blob store. Every byte and every mtime is
fixed, so the output of `xs` over it is too (given XS_NOW_MS). The committed examples/store/ is
this script's output; a test checks that they agree.
"""
import base64
import hashlib
import json
import os
import sys
import zlib
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
PARSER = "/home/dev/projects/parser"
WEB = "/home/dev/projects/web"


def line(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def ms(iso):
    return int(datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp() * 1000)


def session_path(root, cwd, iso, sid):
    d = os.path.join(root, "sessions", "--" + cwd.strip("/").replace("/", "-") + "--")
    return os.path.join(d, iso.replace(":", "-").replace(".", "-") + "_" + sid + ".jsonl")


def write(root, cwd, iso, sid, text, mtime_iso):
    path = session_path(root, cwd, iso, sid)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(text.encode("utf-8"))
    t = ms(mtime_iso) / 1000
    os.utime(path, (t, t))


def tiny_png():
    """A 2x2 red PNG, built here so the store needs no binary file in the repository."""
    def chunk(kind, data):
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", (2).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00")
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def branched(root):
    # The sample session without its damaged line: two branches, a label, a branch summary.
    with open(os.path.join(HERE, "sample", "session.jsonl"), encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if '"id":"b0000003"' not in l]
    write(root, PARSER, "2026-03-02T09:00:00.000Z", "5e55a0c1d2e3f401", "\n".join(lines) + "\n",
          "2026-03-02T09:05:30.000Z")


def legacy_v1(root):
    with open(os.path.join(HERE, "sample", "legacy-v1.jsonl"), encoding="utf-8") as f:
        text = f.read()
    write(root, PARSER, "2025-11-20T14:00:00.000Z", "legacy-0001", text, "2025-11-20T14:30:01.000Z")


def legacy_v2(root):
    t = "2026-01-10T08:00:0{}.000Z".format
    entries = [
        {"type": "session", "version": 2, "id": "legacy-0002", "timestamp": t(0), "cwd": WEB},
        {"type": "message", "id": "c0000001", "parentId": None, "timestamp": t(1),
         "message": {"role": "user", "content": "Why is the build slow?", "timestamp": ms(t(1))}},
        {"type": "message", "id": "c0000002", "parentId": "c0000001", "timestamp": t(2),
         "message": {"role": "hookMessage", "customType": "timing", "content": "webpack: 41s",
                     "display": True, "timestamp": ms(t(2))}},
        {"type": "message", "id": "c0000003", "parentId": "c0000002", "timestamp": t(3),
         "message": {"role": "assistant", "content": [{"type": "text", "text": "Source maps are on in production."}],
                     "provider": "openai", "model": "gpt-4.1", "usage": {"input": 900, "output": 40},
                     "stopReason": "stop", "timestamp": ms(t(3))}},
    ]
    write(root, WEB, t(0), "legacy-0002", "".join(line(e) + "\n" for e in entries), t(3))


def compacted(root):
    t = "2026-03-05T10:{:02d}:00.000Z".format
    user = lambda i, text: {"type": "message", "id": "d%07d" % i, "parentId": "d%07d" % (i - 1) if i > 1 else None,
                            "timestamp": t(i), "message": {"role": "user", "content": text, "timestamp": ms(t(i))}}
    asst = lambda i, text: {"type": "message", "id": "d%07d" % i, "parentId": "d%07d" % (i - 1), "timestamp": t(i),
                            "message": {"role": "assistant", "content": [{"type": "text", "text": text}],
                                        "provider": "anthropic", "model": "claude-sonnet-4-5",
                                        "usage": {"input": 1200 * i, "output": 80, "cacheRead": 0, "cacheWrite": 0,
                                                  "cost": {"total": 0.002 * i}},
                                        "stopReason": "stop", "timestamp": ms(t(i))}}
    entries = [
        {"type": "session", "version": 3, "id": "c0mpac7ed0000001", "timestamp": t(0), "cwd": PARSER,
         "title": "Speed up the lexer"},
        user(1, "Profile the lexer on the big fixture."),
        asst(2, "Most time goes to re-scanning identifiers."),
        user(3, "Cache the identifier table."),
        asst(4, "Done: the table is built once per file."),
        {"type": "compaction", "id": "d0000005", "parentId": "d0000004", "timestamp": t(5),
         "summary": "Profiled the lexer; identifier re-scanning dominated; added a per-file identifier table.",
         "firstKeptEntryId": "d0000003", "tokensBefore": 48211},
        user(6, "Now run the benchmarks again."),
        asst(7, "Lexing is 3.1x faster on the big fixture."),
    ]
    write(root, PARSER, t(0), "c0mpac7ed0000001", "".join(line(e) + "\n" for e in entries), t(7))


def torn(root):
    t = "2026-03-06T16:00:0{}.000Z".format
    entries = [
        {"type": "session", "version": 3, "id": "70rn000000000001", "timestamp": t(0), "cwd": PARSER},
        {"type": "message", "id": "e0000001", "parentId": None, "timestamp": t(1),
         "message": {"role": "user", "content": "Rename Token to Lexeme everywhere.", "timestamp": ms(t(1))}},
        {"type": "message", "id": "e0000002", "parentId": "e0000001", "timestamp": t(2),
         "message": {"role": "assistant", "content": [{"type": "text", "text": "Renamed in 14 files."}],
                     "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "stop",
                     "timestamp": ms(t(2))}},
    ]
    text = "".join(line(e) + "\n" for e in entries)
    # The agent was killed in the middle of writing its next line: no newline, cut mid-string.
    text += line({"type": "message", "id": "e0000003", "parentId": "e0000002", "timestamp": t(3),
                  "message": {"role": "user", "content": "Now update the docs too."}})[:70]
    write(root, PARSER, t(0), "70rn000000000001", text, t(3))


def with_image(root):
    png = tiny_png()
    digest = hashlib.sha256(png).hexdigest()
    os.makedirs(os.path.join(root, "blobs"), exist_ok=True)
    blob = os.path.join(root, "blobs", digest)
    with open(blob, "wb") as f:
        f.write(png)
    t = "2026-03-07T11:00:0{}.000Z".format
    entries = [
        {"type": "session", "version": 3, "id": "1ma9e00000000001", "timestamp": t(0), "cwd": WEB,
         "title": "Button colour"},
        {"type": "message", "id": "f0000001", "parentId": None, "timestamp": t(1),
         "message": {"role": "user", "content": [
             {"type": "text", "text": "The button should be this red:"},
             {"type": "image", "data": "blob:sha256:" + digest, "mimeType": "image/png"}], "timestamp": ms(t(1))}},
        {"type": "message", "id": "f0000002", "parentId": "f0000001", "timestamp": t(2),
         "message": {"role": "assistant", "content": [{"type": "text", "text": "Set --button-bg to #ff0000."}],
                     "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "stop",
                     "timestamp": ms(t(2))}},
    ]
    write(root, WEB, t(0), "1ma9e00000000001", "".join(line(e) + "\n" for e in entries), t(2))
    # Blobs are content-addressed: their age only matters to the garbage collector.
    os.utime(blob, (ms(t(1)) / 1000,) * 2)
    return base64.b64encode(png).decode()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    for build in (branched, legacy_v1, legacy_v2, compacted, torn, with_image):
        build(root)


if __name__ == "__main__":
    main()
