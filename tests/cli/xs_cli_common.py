"""What the `xs` tests share: the binary and example store they run over, and how they run it.

cli_test.py passes XS_BINARY MAKE_STORE_SCRIPT COMMITTED_STORE_DIR on its command line; the
test modules read them from here.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

XS, MAKE_STORE, COMMITTED = (os.path.abspath(a) for a in sys.argv[1:4])
REPO = os.path.dirname(os.path.dirname(os.path.abspath(MAKE_STORE)))
NOW_MS = "1773000000000"  # 2026-03-08T20:00:00Z

# `xs ls --all` over the example store at NOW_MS.
LS_ALL = (
    "ID                MODIFIED    SIZE   FLAGS  TITLE\n"
    "1ma9e00000000001  1d ago      774B   -      Button colour\n"
    "70rn000000000001  2d ago      669B   -      Rename Token to Lexeme everywhere.\n"
    "c0mpac7ed0000001  3d ago      2.1K   -      Speed up the lexer\n"
    "5e55a0c1d2e3f401  6d ago      3.1K   -      Fix the tokenizer crash\n"
    "legacy-0002       2026-01-10  830B   M      Why is the build slow?\n"
    "legacy-0001       2025-11-20  1.1K   M      Summarise the build system.\n")


def make_store(root):
    """The example store (examples/make_store.py: fixed bytes and mtimes) at root."""
    subprocess.run([sys.executable, MAKE_STORE, root], check=True)


def write_session(root, sid, lines, cwd="/w"):
    """A session file of the given JSON lines (the header is added) under root; returns its path."""
    d = os.path.join(root, "sessions", "--%s--" % cwd.strip("/").replace("/", "-"))
    os.makedirs(d, exist_ok=True)
    header = '{"type":"session","version":3,"id":"%s","timestamp":"2026-03-01T00:00:00.000Z","cwd":"%s"}' % (sid, cwd)
    path = os.path.join(d, "2026-03-01T00-00-00-000Z_%s.jsonl" % sid)
    with open(path, "w") as f:
        f.write("\n".join([header] + lines) + "\n")
    return path


def xs_env(seed="7"):
    env = dict(os.environ, XS_NOW_MS=NOW_MS, XS_ID_SEED=seed)
    env.pop("NO_COLOR", None)
    env.pop("XS_TERMINAL_ID", None)
    env.pop("XS_HOME", None)
    return env


def in_terminal(command, env_extra=None):
    """Runs a shell command under a real pseudo-terminal (script(1)); its output, \\r\\n as \\n."""
    env = dict(os.environ, XS_NOW_MS=NOW_MS, TERM="xterm", **(env_extra or {}))
    env.pop("NO_COLOR", None)
    p = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True, env=env)
    return p.stdout.decode().replace("\r\n", "\n")


class StoreTest(unittest.TestCase):
    """Tests over one example store, rebuilt for the class (read-only commands)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="xs-cli-")
        cls.root = os.path.join(cls.tmp, "store")
        make_store(cls.root)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def xs(self, *args, code=0, root=None):
        """`xs --root ROOT ARGS...`: asserts the exit status, returns the finished process."""
        p = subprocess.run([XS, "--root", root or self.root, *args], capture_output=True, text=True, env=xs_env())
        self.assertEqual(p.returncode, code, f"xs {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        return p

    def bare(self, *args, code=0):
        """`xs ARGS...` with no --root added."""
        p = subprocess.run([XS, *args], capture_output=True, text=True, env=xs_env())
        self.assertEqual(p.returncode, code, f"xs {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        return p

    def out(self, *args):
        """stdout of a successful command with nothing on stderr, the root shown as <root>."""
        p = self.xs(*args)
        self.assertEqual(p.stderr, "", "no progress or noise when stderr is not a terminal")
        return p.stdout.replace(self.root, "<root>")
