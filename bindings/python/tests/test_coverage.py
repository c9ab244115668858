"""Every function xsession.h declares is called by the package (outside the prototype table)."""

from __future__ import annotations

import re

from conftest import REPO


def test_every_header_function_is_wrapped() -> None:
    header = (REPO / "capi" / "include" / "xsession.h").read_text()
    names = re.findall(r"(?m)^XS_API [^(;]*?\b(xs_\w+)\(", header)
    assert len(names) >= 80, f"found only {len(names)} XS_API functions"
    package = REPO / "bindings" / "python" / "xsession"
    sources = "".join(p.read_text() for p in package.glob("*.py") if p.name != "_lib.py")
    prototypes = (package / "_lib.py").read_text()
    for name in names:
        assert f'"{name}"' in prototypes, f"{name} has no prototype in _lib.py"
        assert f"LIB.{name}" in sources, f"{name} is not wrapped"
