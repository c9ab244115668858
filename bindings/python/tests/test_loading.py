"""How the library is found, and close() reporting a write failure (in child processes: each
needs its own environment or resource limits)."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "xsession"


def run(code: str, env: dict[str, str], cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True)


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("XSESSION_LIBRARY", "PYTHONPATH")}
    env.update(extra, PYTHONDONTWRITEBYTECODE="1")
    return env


def test_an_explicit_library_that_fails_is_an_import_error(tmp_path: pathlib.Path) -> None:
    env = clean_env(XSESSION_LIBRARY=str(tmp_path / "nope.so"), PYTHONPATH=str(PACKAGE.parent))
    out = run("import xsession", env, tmp_path)
    assert out.returncode != 0 and "XSESSION_LIBRARY" in out.stderr and "nope.so" in out.stderr


def test_a_library_in_the_package_directory_is_found(tmp_path: pathlib.Path) -> None:
    copy = tmp_path / "pkg" / "xsession"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.environ["XSESSION_LIBRARY"], copy / "libxsession.so.0")
    env = clean_env(PYTHONPATH=str(copy.parent))
    out = run("import xsession, xsession._lib as l; print(l.LIB._name); print(xsession.version())", env, tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == str(copy / "libxsession.so.0")


def close_after_a_write_failure(tmp_path: pathlib.Path, handle: str, steps: str) -> list[str]:
    """Runs steps in a child (sys.argv[1] is a store root; RLIMIT_FSIZE applies from where they
    set it, with SIGXFSZ ignored), then closes `handle` twice: the lines printed, the close's
    error as "close <class> <code> <message>"."""
    code = f"""
import resource, signal, sys, xsession
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
{steps}
try:
    {handle}.close()
except xsession.XsError as e:
    print("close", type(e).__name__, e.code, e.message)
print("closed", {handle}.closed)
{handle}.close()
print("again")
"""
    env = clean_env(XSESSION_LIBRARY=os.environ["XSESSION_LIBRARY"], PYTHONPATH=str(PACKAGE.parent))
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "st")], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_close_raises_the_final_flush_error(tmp_path: pathlib.Path) -> None:
    # A file size limit makes an append fail (XS_ENOSPC); the session is poisoned, and close()
    # reports it (XS_EPOISONED) while still releasing the handle.
    steps = """
s = xsession.Store(sys.argv[1]).create("/p", no_defer=True)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
try:
    s.append_message({"role": "user", "content": "x" * 10000})
except xsession.NoSpaceError as e:
    print("append", e.code)
"""
    lines = close_after_a_write_failure(tmp_path, "s", steps)
    assert lines[0] == "append -12" and lines[1].startswith("close PoisonedError -17 ")
    assert lines[2:] == ["closed True", "again"]


def test_history_close_raises_the_writer_error(tmp_path: pathlib.Path) -> None:
    # Past a file size limit the background writer's commit fails; close() flushes first, so it
    # raises that error with its text and still frees the handle.
    steps = """
h = xsession.Store(sys.argv[1]).open_history()
h.add("seed", None, 1)
h.flush()
resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
h.add("x" * 500000, None, 2)
"""
    lines = close_after_a_write_failure(tmp_path, "h", steps)
    assert lines[0].startswith("close IOFailureError -9 history writer: ")
    assert lines[1:] == ["closed True", "again"]
