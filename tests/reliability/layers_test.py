#!/usr/bin/env python3
"""core/ is a graph of layers without cycles, and every include follows it.

core/CMakeLists.txt declares each layer (a folder of core/) with the layers it uses:
    xs_layer(views USES model blobs SOURCES ...)
A file of a layer may include headers of its own layer and of every layer below it (the layers
its USES reach, directly or through others), never one above or beside it: that is what keeps a
change to the context builder from forcing one in session/, and the next folder from closing a
cycle. This check fails on a folder of core/ that is not a declared layer, a USES naming no layer,
a cycle among the declarations, and an include against them (with the file, line and the layers
that file may use).

usage: layers_test.py SOURCE_DIR
       layers_test.py --self-test    (the check fails on each kind of breach, in a scratch tree)
"""
import contextlib
import io
import pathlib
import re
import sys
import tempfile

LAYER = re.compile(r"xs_layer\(\s*(\w+)((?:\s+[^()]*?)?)\)", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([\w]+)/[^"]+"', re.M)


def declared_layers(cmake_text):
    layers = {}
    for name, body in LAYER.findall(cmake_text):
        words = body.split()
        uses = []
        if "USES" in words:
            i = words.index("USES") + 1
            while i < len(words) and words[i] not in ("SOURCES",):
                uses.append(words[i])
                i += 1
        layers[name] = uses
    return layers


def below(layers, name, trail=()):
    """Every layer `name` reaches through USES; raises on a cycle."""
    if name in trail:
        raise ValueError("a cycle among the layers: " + " -> ".join(trail + (name,)))
    reach = set()
    for used in layers[name]:
        reach.add(used)
        reach |= below(layers, used, trail + (name,))
    return reach


def main(source_dir):
    root = pathlib.Path(source_dir)
    core = root / "core"
    layers = declared_layers((core / "CMakeLists.txt").read_text())
    problems = []
    if not layers:
        problems.append("core/CMakeLists.txt declares no xs_layer(...)")
    for name, uses in sorted(layers.items()):
        for used in uses:
            if used not in layers:
                problems.append(f"layer {name} uses {used}, which is not a declared layer")
    if problems:
        print("\n".join(problems))
        return 1
    try:
        allowed = {name: below(layers, name) | {name} for name in layers}
    except ValueError as cycle:
        print(cycle)
        return 1
    checked = 0
    for folder in sorted(p for p in core.iterdir() if p.is_dir()):
        if folder.name not in layers:
            problems.append(f"core/{folder.name}/ is not a layer of core/CMakeLists.txt (declare it with xs_layer)")
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".h", ".cc", ".cpp"):
                continue
            text = path.read_text(errors="replace")
            for m in INCLUDE.finditer(text):
                target = m.group(1)
                if target not in layers:
                    continue  # not a folder of core/ (a system or third-party header)
                checked += 1
                if target not in allowed[folder.name]:
                    line = text.count("\n", 0, m.start()) + 1
                    may = ", ".join(sorted(allowed[folder.name]))
                    problems.append(f"{path.relative_to(root)}:{line}: includes {target}/, above or beside "
                                    f"layer {folder.name} (which may use: {may})")
    if problems:
        print("\n".join(problems))
        return 1
    print(f"{len(layers)} layers without a cycle; {checked} includes of core/ follow them")
    return 0


def self_test():
    """Each breach in a scratch core/ makes main() fail with its message; the clean tree passes."""
    cmake = "xs_layer(util SOURCES u.cc)\nxs_layer(model USES util SOURCES\n  m.cc)\nxs_layer(top USES model SOURCES t.cc)\n"
    cases = [
        ("clean", cmake, {}, 0, "3 layers without a cycle; 2 includes"),
        ("upward include", cmake, {"model/m.h": '#include "top/t.h"\n'}, 1,
         'core/model/m.h:1: includes top/, above or beside layer model (which may use: model, util)'),
        ("undeclared folder", cmake, {"extra/x.h": ""}, 1, "core/extra/ is not a layer"),
        ("cycle", cmake.replace("util SOURCES u.cc", "util USES top SOURCES u.cc"), {}, 1, "a cycle among the layers"),
        ("unknown use", cmake.replace("USES model", "USES modle"), {}, 1, "uses modle, which is not a declared layer"),
    ]
    failures = 0
    for name, text, extra, want_rc, want_text in cases:
        with tempfile.TemporaryDirectory() as tmp:
            core = pathlib.Path(tmp) / "core"
            files = {"util/u.h": "", "model/m.cc": '#include "util/u.h"\n#include <string>\n',
                     "top/t.cc": '#include "model/m.h"\n'}
            files.update(extra)
            for rel, body in files.items():
                (core / rel).parent.mkdir(parents=True, exist_ok=True)
                (core / rel).write_text(body)
            (core / "CMakeLists.txt").write_text(text)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = main(tmp)
            if rc != want_rc or want_text not in out.getvalue():
                print(f"self-test {name}: exit {rc}, printed {out.getvalue()!r}; wanted {want_rc} and {want_text!r}")
                failures += 1
    print(f"self-test: {len(cases) - failures} of {len(cases)} cases as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else main(sys.argv[1]))
