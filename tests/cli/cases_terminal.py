"""`xs` under a real pseudo-terminal (script(1)): colours, the progress bar and the ls legend
appear there only."""
import subprocess

from xs_cli_common import LS_ALL, XS, StoreTest, in_terminal


class XsTerminalTest(StoreTest):
    def test_tree_is_coloured_on_a_terminal(self):
        out = in_terminal("%s --root %s tree 5e55" % (XS, self.root))
        self.assertIn("\x1b[2ma0000001\x1b[0m model: anthropic/claude-sonnet-4-5\n", out)
        self.assertIn("\x1b[33m[diagnosis]\x1b[0m", out)
        self.assertIn("\x1b[32m◀ leaf\x1b[0m\n", out)
        plain = in_terminal("NO_COLOR=1 %s --root %s tree 5e55" % (XS, self.root))
        self.assertNotIn("\x1b[", plain)
        self.assertIn("◀ leaf\n", plain)

    def test_progress_bar_on_a_terminal_only(self):
        out = in_terminal("%s --root %s verify >/dev/null" % (XS, self.root))
        # The file name is cut to the terminal's width (script's terminal reports none: 80 columns).
        self.assertIn("\r\x1b[2Kverify [------------------------] 0/6 2025-11-20T14-00-00-000Z_legacy-0001.json…", out)
        self.assertIn("\r\x1b[2Kverify [####################----] 5/6 2026-03-07T11-00-00-000Z_1ma9e00000000001…", out)
        self.assertTrue(out.endswith("\r\x1b[2K"), repr(out[-80:]))  # erased before the results
        quiet = subprocess.run([XS, "--root", self.root, "verify"], capture_output=True, text=True)
        self.assertEqual(quiet.stderr, "")

    def test_ls_explains_its_flags_on_a_terminal(self):
        self.assertEqual(in_terminal("NO_COLOR=1 %s --root %s ls --all" % (XS, self.root)), LS_ALL + (
            "FLAGS: M needs migration (xs migrate), C a .corrupt-* copy was kept, A archived\n"))
        coloured = in_terminal("%s --root %s ls --all --check --limit 1" % (XS, self.root))
        self.assertTrue(coloured.endswith(
            "\x1b[2mFLAGS: M needs migration (xs migrate), C a .corrupt-* copy was kept, A archived, D problems (xs verify)"
            "\x1b[0m\n"), repr(coloured))
        # Piped, the table stands alone (scripts read it).
        self.assertEqual(self.out("ls", "--all"), LS_ALL)
