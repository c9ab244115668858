"""A PEP 517 build backend with no requirements, so that ``pip install bindings/python`` works
offline: the package is pure Python, and a wheel is a zip file of it plus three metadata files.
It builds wheels (plain and editable) and source archives from the files beside it."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as _f:
    # One place for the name and version: pyproject.toml's [project] (tomllib is Python 3.11+).
    _project = _f.read()
NAME = re.search(r'(?m)^name = "([^"]+)"', _project).group(1)  # type: ignore[union-attr]
VERSION = re.search(r'(?m)^version = "([^"]+)"', _project).group(1)  # type: ignore[union-attr]
TAG = "py3-none-any"
DIST_INFO = f"{NAME}-{VERSION}.dist-info"


def _metadata() -> str:
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return (
        f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n"
        "Summary: Session storage for coding agents: Python binding of libxsession (ctypes)\n"
        "Requires-Python: >=3.10\nClassifier: Typing :: Typed\n"
        f"Description-Content-Type: text/markdown\n\n{readme}"
    )


def _package_files() -> List[str]:
    pkg = os.path.join(HERE, NAME)
    # A libxsession.so* copied into the package directory ships inside the wheel (found there first).
    names = sorted(n for n in os.listdir(pkg) if n.endswith(".py") or n == "py.typed" or n.startswith("libxsession"))
    return [f"{NAME}/{n}" for n in names]


def _wheel(directory: str, files: Dict[str, bytes]) -> str:
    files[f"{DIST_INFO}/METADATA"] = _metadata().encode()
    wheel_info = f"Wheel-Version: 1.0\nGenerator: {NAME}-build\nRoot-Is-Purelib: true\nTag: {TAG}\n"
    files[f"{DIST_INFO}/WHEEL"] = wheel_info.encode()
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{DIST_INFO}/RECORD,,")
    files[f"{DIST_INFO}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = f"{NAME}-{VERSION}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return wheel


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:  # fmt: skip
    files = {}
    for rel in _package_files():
        with open(os.path.join(HERE, rel), "rb") as f:
            files[rel] = f.read()
    return _wheel(wheel_directory, files)


def build_editable(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                   metadata_directory: Optional[str] = None) -> str:  # fmt: skip
    return _wheel(wheel_directory, {f"{NAME}.pth": (HERE + "\n").encode()})


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    base = f"{NAME}-{VERSION}"
    sdist = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, sdist), "w:gz") as t:
        for rel in ["pyproject.toml", "README.md", "build_backend.py"] + _package_files():
            t.add(os.path.join(HERE, rel), arcname=f"{base}/{rel}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return sdist


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


get_requires_for_build_editable = get_requires_for_build_sdist = get_requires_for_build_wheel
