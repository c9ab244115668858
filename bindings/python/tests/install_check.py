"""python.install: pip installs the package offline into a fresh venv and runs the agent loop
from an empty directory against the build's library.

    install_check.py PACKAGE_DIR WORK_DIR LIBRARY
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv


def main(package: str, work: str, library: str) -> None:
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # Build from a copy: setuptools writes build/ and *.egg-info beside the sources.
    src = os.path.join(work, "src")
    skip = shutil.ignore_patterns("__pycache__", "build", "*.egg-info", ".mypy_cache")
    shutil.copytree(package, src, ignore=skip)
    env_dir = os.path.join(work, "venv")
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    python = os.path.join(env_dir, "bin", "python")
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    pip = [python, "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation", src]
    subprocess.run(pip, check=True, env=env)
    # A plain (isolated) build needs nothing from an index either: the backend has no requirements.
    wheels = os.path.join(work, "wheels")
    subprocess.run([python, "-m", "pip", "wheel", "-q", "--no-index", "-w", wheels, src], check=True, env=env)
    if os.listdir(wheels) != ["xsession-0.2.0-py3-none-any.whl"]:
        sys.exit(f"pip wheel made {os.listdir(wheels)}")
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    env["XSESSION_LIBRARY"] = library
    loop = os.path.join(package, "examples", "agent_loop.py")
    out = subprocess.run([python, loop, os.path.join(work, "store")], cwd=empty, env=env, check=True,
                         capture_output=True, text=True)  # fmt: skip
    print(out.stdout, end="")
    where = subprocess.run([python, "-c", "import xsession, sys; print(xsession.__file__)"], cwd=empty, env=env,
                           check=True, capture_output=True, text=True).stdout  # fmt: skip
    if not where.startswith(env_dir):
        sys.exit(f"xsession was imported from {where.strip()}, not the venv")
    if not os.path.exists(os.path.join(os.path.dirname(where.strip()), "py.typed")):
        sys.exit("the installed package has no py.typed")
    expected = "user: Why does the build fail?\nbranchSummary: Tried the missing-include theory.\n"
    if not out.stdout.startswith(expected):
        sys.exit(f"the agent loop printed\n{out.stdout}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
