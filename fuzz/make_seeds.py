#!/usr/bin/env python3
"""Builds the seed corpora of the fuzz targets into OUT/<fuzzer>/ (one file per seed, named by
its SHA-1), from:
  - tests/conformance/cases/*.json: the session files they start from (input, input_raw,
    input_hex, write_file), the files they expect (check_file), the entries and messages they
    append (each line of those files too);
  - --corpus DIR (CMake passes ../shared/corpus/ beside the checkout: real sessions of pi and
    other agents, not part of this repository; skipped when missing), examples/store/ (v1, v2, branched,
    compacted, torn, blob-referencing sessions): whole files up to 64 KiB, larger ones cut to
    their first 64 KiB at a line end, and their lines (each up to 16 KiB);
  - fuzz/seeds/<fuzzer>/: small hand-written seeds, copied as they are.
Nothing large is committed: the corpora are generated into the build tree. Deterministic."""
import argparse
import glob
import hashlib
import json
import os
import random
import shutil
import struct
import sys

CAP = 64 * 1024
LINE_CAP = 16 * 1024
MAX_LINES_PER_FILE = 40


def text(v):
    """A conformance text argument: a string, or an array of parts (strings, {repeat, times})."""
    if v is None:
        return None
    if isinstance(v, str):
        return v
    out = []
    for p in v:
        out.append(p if isinstance(p, str) else p["repeat"] * p["times"])
    return "".join(out)


def case_file_bytes(case_or_step, prefix=""):
    d = case_or_step
    if prefix + "input_hex" in d or "raw_hex" in d:
        return bytes.fromhex(d.get(prefix + "input_hex") or d.get("raw_hex"))
    for k in (prefix + "input_raw", "raw"):
        if k in d and d[k] is not None:
            return text(d[k]).encode("utf-8", "surrogatepass")
    for k in (prefix + "input", "lines"):
        if k in d and isinstance(d[k], list):
            return ("".join(text(x) + "\n" for x in d[k])).encode("utf-8", "surrogatepass")
    return None


def capped(b):
    if len(b) <= CAP:
        return b
    cut = b.rfind(b"\n", 0, CAP)
    return b[: cut + 1] if cut > 0 else b[:CAP]


def lines_of(b):
    out = [l for l in b.split(b"\n") if 0 < len(l) <= LINE_CAP]
    return out[:MAX_LINES_PER_FILE]


class Seeds:
    def __init__(self, out):
        self.out = out
        self.count = {}

    def add(self, fuzzer, data):
        if data is None:
            return
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        if fuzzer != "loader" and len(data) > LINE_CAP:
            return
        data = capped(data)
        d = os.path.join(self.out, fuzzer)
        os.makedirs(d, exist_ok=True)
        p = os.path.join(d, hashlib.sha1(data).hexdigest())
        if not os.path.exists(p):
            with open(p, "wb") as f:
                f.write(data)
            self.count[fuzzer] = self.count.get(fuzzer, 0) + 1


# --- sequence fuzzer encoding (fuzz_sequence.cc) -------------------------------------------------
def s8(b):
    b = b[:255]
    return bytes([len(b)]) + b


def sequence_from(rng, texts):
    ops = bytearray()
    for _ in range(rng.randint(3, 24)):
        op = rng.choice([0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
        t = rng.choice(texts)[:200]
        if op in (0, 1, 2):
            ops += bytes([op]) + s8(t)
        elif op in (3, 7):
            ops += bytes([op, rng.randrange(256)])
        elif op in (4, 5, 12, 13, 15):
            ops += bytes([op, rng.randrange(256)]) + s8(t)
        elif op == 11:
            ops += bytes([op]) + s8(t) + bytes([rng.randrange(256), rng.randrange(256)])
        elif op == 14:
            ops += bytes([op]) + s8(t) + bytes([rng.randrange(2)])
        else:
            ops += bytes([op])
    return bytes(ops)


def blob_input(flags, blobs, json_text):
    b = bytes([flags, len(blobs)])
    for x in blobs:
        b += bytes([len(x[:255])]) + x[:255]
    return b + json_text.encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--source", required=True, help="repository root")
    ap.add_argument("--corpus", help="../shared/corpus (skipped when missing)")
    ap.add_argument("--stamp")
    a = ap.parse_args()

    if os.path.isdir(a.out):
        shutil.rmtree(a.out)
    seeds = Seeds(a.out)
    texts = [b"hi", b"", b"x" * 300, "caf\u00e9 \U0001F600".encode(), b"a\"b\\c\n\t", b"\xff\xfe", b"\\ud83d"]

    # Conformance cases.
    for path in sorted(glob.glob(os.path.join(a.source, "tests/conformance/cases/*.json"))):
        case = json.load(open(path, encoding="utf-8"))
        files = [case_file_bytes(case)]
        for step in case.get("steps", []):
            op = step.get("op")
            if op in ("write_file", "check_file", "append_to_file"):
                files.append(case_file_bytes(step))
            if op == "append" and "entry" in step:
                seeds.add("append", text(step["entry"]))
                texts.append(text(step["entry"]).encode("utf-8", "surrogatepass"))
            if op == "append_message" and "message" in step:
                m = text(step["message"])
                seeds.add("append", m)
                seeds.add("blob_resolver", blob_input(0, [], m))
                texts.append(m.encode("utf-8", "surrogatepass"))
            for k in ("data", "content", "details", "rules"):
                if isinstance(step.get(k), (str, list)) and op != "blob_put":
                    seeds.add("append", text(step[k]))
        for f in files:
            if not f:
                continue
            seeds.add("loader", f)
            for line in lines_of(f):
                seeds.add("append", line)
                if b"blob:sha256:" in line or b'"image' in line:
                    seeds.add("blob_resolver", b"\x00\x00" + line)

    # Real sessions and the example store.
    roots = [os.path.join(a.source, "examples/store/sessions"), os.path.join(a.source, "examples/sample")]
    if a.corpus and os.path.isdir(a.corpus):
        roots.append(a.corpus)
    for root in roots:
        for path in sorted(glob.glob(os.path.join(root, "**/*.jsonl"), recursive=True)):
            with open(path, "rb") as f:
                data = f.read(CAP + LINE_CAP)
            seeds.add("loader", data)
            for line in lines_of(data):
                seeds.add("append", line)
                try:
                    msg = json.loads(line).get("message")
                except (ValueError, AttributeError):
                    msg = None
                if isinstance(msg, dict):
                    m = json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
                    seeds.add("append", m)
                    if "image" in m:
                        seeds.add("blob_resolver", blob_input(0, [], m))

    # Sequences (fixed random seed) over the texts met above.
    rng = random.Random(8)
    for _ in range(48):
        seeds.add("sequence", sequence_from(rng, texts))

    # Blob references: image blocks and image URLs for present, damaged, missing blobs.
    img = '{"role":"user","content":[{"type":"text","text":"see"},{"type":"image","data":"@0","mimeType":"image/png"}]}'
    url = '{"role":"user","content":[{"type":"image_url","image_url":"@1"}]}'
    both = '{"type":"message","message":{"role":"toolResult","content":[{"type":"image","data":"@2","mimeType":"image/jpeg"},{"type":"image","data":"@0"}]},"image_url":"@1"}'
    blobs = [b"\x89PNG\r\n\x1a\n" + bytes(range(40)), b"data:image/png;base64,iVBORw0KGgo=", b"\xff\xd8\xff"]
    for flags in range(4):
        for j in (img, url, both):
            seeds.add("blob_resolver", blob_input(flags, blobs, j))

    # Hand-written seeds.
    for path in sorted(glob.glob(os.path.join(a.source, "fuzz/seeds/*/*"))):
        fuzzer = os.path.basename(os.path.dirname(path))
        if os.path.isfile(path) and not path.endswith(".md"):
            seeds.add(fuzzer, open(path, "rb").read())

    if a.stamp:
        with open(a.stamp, "w") as f:
            f.write(json.dumps(seeds.count, sort_keys=True) + "\n")
    print("fuzz seeds: " + ", ".join("%s %d" % kv for kv in sorted(seeds.count.items())))


if __name__ == "__main__":
    sys.exit(main())
