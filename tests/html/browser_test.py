"""The HTML view in a real browser (docs/html-view.md#tested-in-a-browser), CTest html.browser.

    browser_test.py XS LIBXSESSION CORPUS_SESSION OUT_DIR

The pi corpus has no session with both branches and an image, so one is built from a corpus file
(CORPUS_SESSION, pi's large-session.jsonl) with the engine's own tools: the file is copied into a
fresh store and migrated (`xs migrate --write`), branched early with a summary (`xs branch
--summary`: the whole original conversation becomes the other branch), an image is put into the
blob store (xs_blob_put through ctypes) and a user message referencing it appended, then an
assistant reply and a tool result full of hostile content (`xs append --json`), and a label.
`xs export --html` writes the page; headless Chromium loads it and dumps the DOM it built, which
is parsed here: the message count and branch count must be those of the session file (counted
here from its lines), the hostile content must still be text (no element or attribute it could
have made, no DOM change its scripts would have made), and the browser's log must hold no console
message (every script error and CSP refusal logs one). A control page with a script proves that
this log and the DOM dump do show a script that runs. The screenshot is kept at
OUT_DIR/html-view.png for a person to look at.

Chromium is required: without it the test fails (CI installs it, scripts/setup-deps lists it)."""
import ctypes
import hashlib
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

XS, LIB, CORPUS, OUT = sys.argv[1:5]
PWNED = "data-xs-pwned"  # the attribute a hostile script would set on <html> if it ran
HOSTILE_TEXT = ("<script>document.documentElement.setAttribute('%s','script')</script> "
                "\"><img src=x onerror=\"document.documentElement.setAttribute('%s','img')\"> "
                "[click me](javascript:document.documentElement.setAttribute('%s','link'))" % (PWNED, PWNED, PWNED))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def xs(root, *args, stdin=None):
    p = subprocess.run([XS, "--root", root, *args], input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        fail("xs %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p.stdout


def png(width, height):
    """A PNG of a colour gradient with some noise (its base64 is far over the 1 KB inline limit)."""
    rows = b""
    for y in range(height):
        rows += b"\x00" + bytes(((x * 4) % 256 if c == 0 else (y * 4) % 256 if c == 1 else (x * y * 7919) % 256)
                                for x in range(width) for c in range(3))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def blob_put(root, data):
    """The image into the store's blob store, through the C API."""
    lib = ctypes.CDLL(LIB)
    lib.xs_store_new.restype = ctypes.c_void_p
    lib.xs_store_open.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    lib.xs_blob_put.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p]
    lib.xs_store_free.argtypes = [ctypes.c_void_p]
    st = lib.xs_store_new()
    try:
        if lib.xs_store_open(st, root.encode(), None) != 0:
            fail("xs_store_open failed")
        out = ctypes.create_string_buffer(65)
        if lib.xs_blob_put(st, data, len(data), out) != 0:
            fail("xs_blob_put failed")
        return out.value.decode()
    finally:
        lib.xs_store_free(st)


def build_session(root):
    """The branched session with an image; returns (session id, file path)."""
    name = os.path.basename(CORPUS)
    d = os.path.join(root, "sessions", "--corpus--")
    os.makedirs(d)
    with open(CORPUS, "rb") as f:
        first = json.loads(f.readline())
    sid = first["id"]
    path = os.path.join(d, "%s_%s.jsonl" % (first["timestamp"].replace(":", "-").replace(".", "-"), sid))
    shutil.copyfile(CORPUS, path)
    os.chmod(path, 0o600)
    xs(root, "migrate", "--write", path)
    with open(path) as f:
        entries = [json.loads(line) for line in f][1:]
    fork_at = next(e for e in entries[3:] if e["type"] == "message" and e["message"]["role"] == "assistant")
    xs(root, "branch", path, fork_at["id"], "--summary",
       "Tried the first approach (see the branch above); <b>abandoned</b> it. " + HOSTILE_TEXT)
    image = png(96, 64)
    digest = blob_put(root, image)
    if digest != hashlib.sha256(image).hexdigest():
        fail("the blob store named the image %s" % digest)
    user = {"type": "message", "message": {"role": "user", "content": [
        {"type": "text", "text": "Here is the screenshot. " + HOSTILE_TEXT},
        {"type": "image", "mimeType": "image/png", "data": "blob:sha256:" + digest}], "timestamp": 1763700000000}}
    user_id = xs(root, "append", path, "--json", "-", stdin=json.dumps(user)).strip()
    reply = {"type": "message", "message": {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "The user sent <script>alert('thinking')</script>."},
        {"type": "text", "text": "Let me look.\n\n```html\n<script>alert('code')</script>\n```\n\n" + HOSTILE_TEXT},
        {"type": "toolCall", "id": "call_1", "name": "bash",
         "arguments": {"command": "echo '<script>alert(1)</script>'", "href": "javascript:alert(2)"}}],
        "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "toolUse", "timestamp": 1763700001000}}
    xs(root, "append", path, "--json", "-", stdin=json.dumps(reply))
    result = {"type": "message", "message": {"role": "toolResult", "toolCallId": "call_1", "toolName": "bash",
                                             "content": [{"type": "text", "text": HOSTILE_TEXT}], "isError": False,
                                             "timestamp": 1763700002000}}
    xs(root, "append", path, "--json", "-", stdin=json.dumps(result))
    xs(root, "label", path, user_id, "screenshot <i>here</i>")
    with open(path) as f:
        text = f.read()
    if "blob:sha256:" + digest not in text:
        fail("the image is not a blob reference in the session file")
    return sid, path


def expected_counts(path):
    """Messages, branch points and branches of a session file, from its lines."""
    with open(path) as f:
        entries = [json.loads(line) for line in f][1:]
    ids = {e["id"] for e in entries}
    kids = {}
    for e in entries:
        parent = e.get("parentId") if e.get("parentId") in ids else None
        kids.setdefault(parent, []).append(e["id"])
    points = sum(1 for k in kids.values() if len(k) > 1)
    branches = sum(len(k) - 1 for k in kids.values() if len(k) > 1)
    return sum(1 for e in entries if e["type"] == "message"), points, branches


class Dom(html.parser.HTMLParser):
    """What the checks need from the dumped DOM."""

    def __init__(self):
        super().__init__()
        self.messages = self.branch_points = self.branches = self.scripts = self.images = 0
        self.handlers, self.script_urls, self.pwned, self.text = [], [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        self.messages += tag == "article" and "msg" in classes
        self.branch_points += tag == "div" and "branch-point" in classes
        self.branches += "branch" in classes
        self.scripts += tag == "script"
        self.images += tag == "img" and (a.get("src") or "").startswith("data:image/png;base64,")
        for k, v in attrs:
            if k.startswith("on"):
                self.handlers.append((tag, k))
            if k == PWNED:
                self.pwned.append(v)
            if k in ("href", "src") and v and v.strip().lower().startswith("javascript:"):
                self.script_urls.append((tag, v))

    def handle_data(self, data):
        self.text.append(data)


def chromium(page, *args):
    profile = tempfile.mkdtemp(prefix="xs-chromium-")
    # Under ASan this test runs with the sanitizer's runtime preloaded (scripts/test-sanitizers):
    # it is for this process's ctypes load of the library, never for the browser.
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
    try:
        return subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
                               "--enable-logging=stderr", "--v=0", *args, "file://" + page],
                              capture_output=True, text=True, timeout=240, env=env)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def console_lines(stderr):
    return [line for line in stderr.splitlines() if "CONSOLE" in line]


def control(work):
    """A page whose script runs: the checks below must see it."""
    page = os.path.join(work, "control.html")
    with open(page, "w") as f:
        f.write("<!DOCTYPE html><html><body><script>console.log('xs-control');"
                "document.documentElement.setAttribute('%s','control')</script></body></html>" % PWNED)
    p = chromium(page, "--dump-dom")
    dom = Dom()
    dom.feed(p.stdout)
    if dom.pwned != ["control"] or not any("xs-control" in line for line in console_lines(p.stderr)):
        fail("the control page's script was not seen (DOM %r, console %r): the checks would miss a script"
             % (dom.pwned, console_lines(p.stderr)))


def main():
    if not shutil.which("chromium"):
        fail("chromium is not installed (Debian: apt-get install chromium; scripts/setup-deps installs it)")
    work = os.path.join(OUT, "html-view")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    root = os.path.join(work, "store")
    sid, path = build_session(root)
    page = os.path.join(work, "page.html")
    report = json.loads(xs(root, "export", "--html", sid, "-o", page, "--json"))
    messages, points, branches = expected_counts(path)
    got = report["pages"][0]
    if (got["messages"], got["branchPoints"], got["branches"]) != (messages, points, branches):
        fail("report %r, the file has %d messages, %d branch points, %d branches" % (got, messages, points, branches))
    if points < 1:
        fail("the session has no branch point")

    control(work)
    p = chromium(page, "--dump-dom")
    if p.returncode != 0 or "</html>" not in p.stdout:
        fail("chromium --dump-dom: exit %d, stderr %s" % (p.returncode, p.stderr[-2000:]))
    dom = Dom()
    dom.feed(p.stdout)
    checks = [
        ("messages", dom.messages, messages),
        ("branch points", dom.branch_points, points),
        ("branches", dom.branches, branches),
        ("script elements", dom.scripts, 0),
        ("inline images", dom.images, 1),
        ("event handler attributes", dom.handlers, []),
        ("javascript: URLs", dom.script_urls, []),
        ("marks of a hostile script that ran", dom.pwned, []),
        ("console messages (script errors, CSP refusals)", console_lines(p.stderr), []),
    ]
    text = "".join(dom.text)
    for needle in ("<script>document.documentElement.setAttribute", "onerror=\"document.documentElement",
                   "echo '<script>alert(1)</script>'", "javascript:alert(2)", "<script>alert('code')</script>"):
        checks.append(("%r shown as text" % needle, needle in text, True))
    bad = ["%s: got %r, want %r" % (what, got_v, want) for what, got_v, want in checks if got_v != want]

    shot = os.path.join(OUT, "html-view.png")
    if os.path.exists(shot):
        os.remove(shot)
    s = chromium(page, "--screenshot=" + shot, "--window-size=1280,2000")
    if not os.path.exists(shot):
        bad.append("no screenshot: exit %d, %s" % (s.returncode, s.stderr[-2000:]))
    else:
        with open(shot, "rb") as f:
            head = f.read(24)
        if head[:8] != b"\x89PNG\r\n\x1a\n" or struct.unpack(">II", head[16:24]) != (1280, 2000):
            bad.append("the screenshot is not a 1280x2000 PNG")
    if bad:
        fail("; ".join(bad))
    print("ok: %s: %d messages, %d branch points, %d branches, %d bytes; screenshot %s"
          % (page, messages, points, branches, got["bytes"], shot))


if __name__ == "__main__":
    main()
