#!/usr/bin/env python3
"""Every file-system call of the library goes through the seam (core/storage/fs.h).

The fault matrix, the power-loss simulation and the allocation-failure matrix inject their faults
at the seam: a call that bypassed it (a raw write(2), rename(2), fopen, std::ofstream...) would
never be failed or recorded, and the guarantees they prove would silently not cover it. This
static check (part of docs/guarantees.md#t4: calls that bypass the seam, found without an
LD_PRELOAD shim) fails
when a file of core/ or capi/ other than the seam's implementations names one. SQLite, which does
its own I/O for the prompt history and the session index, may be opened only from
core/sqlite/sqlite_db.cc (OWN_IO).

usage: seam_only_test.py SOURCE_DIR
"""
import pathlib
import re
import sys

# The seam's implementations: the real one and the test doubles.
ALLOWED = {
    "core/storage/posix_fs.cc",
    "core/storage/memory_fs.cc",
    "core/storage/faulty_fs.cc",
    "core/storage/crash_fs.cc",
}

# Libraries that do their own file I/O, by design outside the seam, and the one file each may
# open them from. SQLite (the prompt history, core/history/, and the session index, core/search/,
# through core/sqlite/) reads and writes its database itself:
# its durability is SQLite's (WAL, synchronous), not the seam's, and the fault and power-loss
# matrices do not cover it (docs/history.md#outside-the-seam). Anywhere else, such an open is a
# bypass like any other.
OWN_IO = {"core/sqlite/sqlite_db.cc"}
OWN_IO_CALL = re.compile(r"\bsqlite3_open(?:_v2|16)?\s*\(")

# A call of a POSIX/C file function (bare or ::-qualified, not a member call like fs.rename(...) or
# Session::open), or a C++ stream or filesystem type.
SYSCALL = re.compile(
    r"(?<![\w.>:])(?:::)?\b(open|openat|creat|write|pwrite|writev|fsync|fdatasync|sync_file_range|rename|"
    r"renameat2?|unlink|unlinkat|mkdir|mkdirat|rmdir|link|linkat|symlink|flock|fcntl|ftruncate|truncate|"
    r"fopen|freopen|fwrite|fputs|fprintf|remove|utimensat|futimens|opendir)\s*\(")
STREAM = re.compile(r"\b(std::)?(o|i)?fstream\b|\bstd::filesystem\b|\bFILE\s*\*")


def code_only(text):
    """The text with comments and string literals blanked (kept the same length, lines intact)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + " " * (min(j, n) - i - 1) + '"')
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


# Words after which a name is called, not declared ("return rename(...)").
CALL_AFTER = {"return", "else", "throw", "co_return", "co_await", "case", "do"}


def is_call(line, m):
    """A call, not the declaration or definition of a function of that name (Status rename(...))."""
    if m.group(0).lstrip().startswith("::"):
        return True
    before = line[:m.start()].rstrip()
    if not before or not re.search(r"[\w>&*]$", before):
        return True  # after an operator, '(' or ',', or at the start of a statement
    word = re.search(r"(\w+)$", before)
    return bool(word) and word.group(1) in CALL_AFTER


def main():
    root = pathlib.Path(sys.argv[1])
    files = sorted(p for d in ("core", "capi") for p in (root / d).rglob("*")
                   if p.suffix in (".cc", ".cpp", ".h", ".hpp"))
    problems, checked = [], 0
    for path in files:
        rel = path.relative_to(root).as_posix()
        if rel in ALLOWED:
            continue
        checked += 1
        code = code_only(path.read_text(encoding="utf-8"))
        for no, line in enumerate(code.split("\n"), 1):
            for m in SYSCALL.finditer(line):
                if is_call(line, m):
                    problems.append(f"{rel}:{no}: {m.group(0).strip()} bypasses the file-system seam")
            m = OWN_IO_CALL.search(line)
            if m and rel not in OWN_IO:
                problems.append(f"{rel}:{no}: {m.group(0).strip()} opens a database outside core/sqlite/sqlite_db.cc")
            m = STREAM.search(line)
            if m:
                problems.append(f"{rel}:{no}: {m.group(0).strip()} bypasses the file-system seam")
    if checked < 50:
        print(f"seam_only: only {checked} source files found under {root}: wrong directory?")
        return 1
    for p in problems:
        print(p)
    print(f"seam_only: {checked} files of core/ and capi/ checked, {len(problems)} calls bypassing the seam")
    print(f"{1 if not problems else 0} passed, {1 if problems else 0} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
