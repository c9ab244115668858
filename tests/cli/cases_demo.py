"""scripts/demo: the build's output goes to a log and one line of progress stands for it, so the
tour of `xs` is what one reads; a failed build shows the end of its log and the build's status.

Each test runs the real scripts/demo in a scratch copy of the repository's layout whose
scripts/build is a stand-in (it prints as much as a real build and exits as told), with the
real examples/ and the xs under test as build/bin/xs.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from xs_cli_common import NOW_MS, REPO, XS

BUILD_STAND_IN = """#!/bin/sh
i=1
while [ $i -le 300 ]; do echo "[$i/300] Building CXX object core/file_$i.cc.o"; i=$((i + 1)); done
echo "warning: this went to stderr" >&2
exit "${STAND_IN_STATUS:-0}"
"""


class XsDemoTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xs-cli-demo-")
        os.makedirs(os.path.join(self.tmp, "scripts"))
        shutil.copy(os.path.join(REPO, "scripts", "demo"), os.path.join(self.tmp, "scripts", "demo"))
        build = os.path.join(self.tmp, "scripts", "build")
        with open(build, "w") as f:
            f.write(BUILD_STAND_IN)
        os.chmod(build, 0o755)
        os.symlink(os.path.join(REPO, "examples"), os.path.join(self.tmp, "examples"))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def demo(self, status=0):
        env = dict(os.environ, XS_NOW_MS=NOW_MS, STAND_IN_STATUS=str(status))
        env.pop("NO_COLOR", None)
        return subprocess.run([os.path.join(self.tmp, "scripts", "demo")], capture_output=True, text=True, env=env)

    def log(self):
        with open(os.path.join(self.tmp, "build", "demo-build.log")) as f:
            return f.read()

    def test_the_build_is_one_line_and_the_tour_follows(self):
        os.makedirs(os.path.join(self.tmp, "build", "bin"))
        os.symlink(XS, os.path.join(self.tmp, "build", "bin", "xs"))
        p = self.demo()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stderr, "")
        first, rest = p.stdout.split("\n", 1)
        self.assertRegex(first, r"^building xsession \(log: build/demo-build\.log\)… done in \d+ s$")
        self.assertNotIn("Building CXX", p.stdout)
        self.assertTrue(rest.startswith("\n$ xs ls --all --check\n"
                                        "ID                MODIFIED    SIZE   MSGS   FLAGS  TITLE\n"), rest[:200])
        self.assertEqual(re.findall(r"^\$ xs .*", rest, re.M), [
            "$ xs ls --all --check", "$ xs tree 5e55a0c1d2e3f401", "$ xs context c0mpac7ed0000001",
            "$ xs show 70rn000000000001", "$ xs verify", "$ xs repair 70rn000000000001", "$ xs verify", "$ xs migrate",
            "$ xs blobs verify"])
        self.assertIn("(exit status 1: problems found)\n", rest)
        log = self.log()
        self.assertIn("[300/300] Building CXX object core/file_300.cc.o\n", log)
        self.assertIn("warning: this went to stderr\n", log)

    def test_a_failed_build_shows_the_end_of_its_log(self):
        # No build/ yet, as on a fresh clone: the demo makes it for the log.
        p = self.demo(status=3)
        self.assertEqual(p.returncode, 3)
        lines = p.stdout.splitlines()
        self.assertRegex(lines[0], r"^building xsession \(log: build/demo-build\.log\)… failed after \d+ s "
                                   r"\(exit status 3\); the end of build/demo-build\.log:$")
        self.assertEqual(lines[1:], self.log().splitlines()[-40:])
        self.assertEqual(lines[-2:], ["[300/300] Building CXX object core/file_300.cc.o",
                                      "warning: this went to stderr"])
        self.assertNotIn("$ xs", p.stdout)
