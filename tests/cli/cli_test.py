#!/usr/bin/env python3
"""`xs` over the example store: exact output of each command (plain and --json) and exit codes.

    cli_test.py XS_BINARY MAKE_STORE_SCRIPT COMMITTED_STORE_DIR

The store is rebuilt in a temporary directory by examples/make_store.py (fixed bytes and mtimes);
XS_NOW_MS fixes "now" for ages and XS_ID_SEED the ids a migration makes up. The cases live in
the cases_*.py modules beside this file (xs_cli_common.py reads the arguments above).
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cases_bundle import XsBundleTest  # noqa: E402,F401  (unittest finds the classes here)
from cases_check import XsCheckTest  # noqa: E402,F401
from cases_demo import XsDemoTest  # noqa: E402,F401
from cases_history import XsHistoryTest  # noqa: E402,F401
from cases_html import XsHtmlTest  # noqa: E402,F401
from cases_import import XsImportTest  # noqa: E402,F401
from cases_read import XsReadTest  # noqa: E402,F401
from cases_stats import XsStatsTest  # noqa: E402,F401
from cases_retention import XsRetentionTest  # noqa: E402,F401
from cases_search import XsSearchTest  # noqa: E402,F401
from cases_reset import XsResetTest  # noqa: E402,F401
from cases_terminal import XsTerminalTest  # noqa: E402,F401
from cases_write import XsWriteTest  # noqa: E402,F401

if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
