#!/usr/bin/env python3
"""Every JSON output of the C API against its schema in capi/schema (CTest conformance.schema).

    validate_outputs.py --runner XS_CONFORMANCE --lib LIBXSESSION [--corpus DIR] [--schemas DIR]
    validate_outputs.py --self-test

Replays every conformance case with XS_CONFORMANCE_OUTPUTS set, so the runner writes each JSON
output to <tmp>/<case>.<step>.<function>.json; makes through ctypes the outputs the cases do not
reach, and those of every reading call on the session files of --corpus (ctypes_outputs.py); then
validates each file with jsonschema's Draft202012Validator against the schema
capi/schema/README.md maps its function to. Fails on: a schema file that is
not a valid schema, an output that does not match, an output of a function the table lacks, and
a function of the table that no output exercised. --self-test proves the check fails on doctored
outputs (a member of the wrong type, an unknown member of a report, a broken entry behind a $ref)
and passes their originals."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capi_schemas  # noqa: E402
import ctypes_outputs  # noqa: E402

NAME = re.compile(r"^(?P<case>.+)\.(?P<step>\d+(?:-\d+)?)\.(?P<function>xs_\w+)\.json$")


def check_dir(out_dir, schemas, rows):
    """(failures, {function: outputs checked}) for every file of out_dir."""
    failures, seen, checks = [], {}, {}
    for name in sorted(os.listdir(out_dir)):
        m = NAME.match(name)
        if not m:
            failures.append("%s: not <case>.<step>.<function>.json" % name)
            continue
        function = m.group("function")
        if function not in rows:
            failures.append("%s: %s has no schema in capi/schema/README.md" % (name, function))
            continue
        with open(os.path.join(out_dir, name), "rb") as f:
            raw = f.read()
        try:
            value = json.loads(raw)
        except ValueError as e:
            failures.append("%s: not JSON: %s" % (name, e))
            continue
        if rows[function] not in checks:
            checks[rows[function]] = capi_schemas.validator(rows[function], schemas)
        for p in capi_schemas.problems(value, checks[rows[function]]):
            failures.append("%s (%s): %s" % (name, rows[function], p))
        seen[function] = seen.get(function, 0) + 1
    return failures, seen


def driver_env(lib):
    """The environment of the ctypes driver. A library built with ASan (the sanitizer tree) needs
    its runtime loaded first, before the uninstrumented interpreter's, and LeakSanitizer off:
    CPython leaves its own allocations at exit by design (scripts/test-sanitizers does the same
    for capi.dlopen_python_ctypes)."""
    env = dict(os.environ)
    ldd = subprocess.run(["ldd", lib], stdout=subprocess.PIPE, universal_newlines=True).stdout
    asan = re.search(r"libasan\.so\S* => (\S+)", ldd)
    if asan:
        env["LD_PRELOAD"] = asan.group(1)
        env["ASAN_OPTIONS"] = ":".join(o for o in (env.get("ASAN_OPTIONS"), "detect_leaks=0") if o)
    return env


def coverage_failures(schemas, rows, seen):
    """A function of the table no output exercised, and a schema file that is neither in the table
    nor referenced by another (nothing would ever check it)."""
    out = ["%s: in the table, but no output exercised it" % f for f in sorted(set(rows) - set(seen))]
    by = capi_schemas.referrers(schemas)
    out += ["%s: neither in the table of README.md nor referenced by another schema" % name
            for name in sorted(set(schemas) - set(rows.values()) - set(by))]
    return out


def static_failures(schemas, rows):
    out = capi_schemas.schema_errors(schemas)
    out += ["README.md: %s maps to %s, which is not in capi/schema" % (f, s) for f, s in rows.items()
            if s not in schemas]
    return out


def run(args):
    schemas, rows = capi_schemas.load(args.schemas), capi_schemas.table(args.schemas)
    failures = static_failures(schemas, rows)
    with tempfile.TemporaryDirectory(prefix="xs-schema-") as tmp:
        out_dir, root = os.path.join(tmp, "outputs"), os.path.join(tmp, "store")
        os.mkdir(out_dir)
        env = dict(os.environ, XS_CONFORMANCE_OUTPUTS=out_dir)
        replay = subprocess.run([args.runner, "--gtest_brief=1"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, universal_newlines=True)
        if replay.returncode != 0:
            failures.append("the conformance runner failed:\n" + replay.stdout[-4000:])
        driver = subprocess.run([sys.executable, ctypes_outputs.__file__, args.lib, out_dir, root] +
                                ([args.corpus] if args.corpus else []),
                                env=driver_env(args.lib), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True)
        if driver.returncode != 0:
            failures.append("the ctypes driver failed:\n" + driver.stdout[-4000:])
        found, seen = check_dir(out_dir, schemas, rows)
        failures += found
    failures += coverage_failures(schemas, rows, seen)
    for function in sorted(seen):
        print("%-26s %4d outputs valid against %s" % (function, seen[function], rows[function]))
    by = capi_schemas.referrers(schemas)
    for name in sorted(set(schemas) - set(rows.values())):
        print("%-26s      no function of its own; referenced by %d schemas" % (name, len(by.get(name, []))))
    for f in failures:
        print("FAIL " + f)
    print("%d outputs of %d functions checked, %d failures" % (sum(seen.values()), len(seen), len(failures)))
    return 1 if failures else 0


# --- self-test: the check must fail on doctored outputs -------------------------------------------
USAGE = {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "premiumRequests": 0, "cost": 0.5,
         "assistantMessages": 1}
ENTRY = {"type": "message", "id": "a1b2c3d4", "parentId": None, "timestamp": "2026-02-16T10:20:30.000Z",
         "message": {"role": "user", "content": "hi", "someAgentsField": 1}}
NODE = {"id": "a1b2c3d4", "parentId": None, "depth": 0, "children": [], "entry": ENTRY}
DOCTORED = [
    ("xs_session_usage", USAGE, dict(USAGE, assistantMessages="1")),      # a count as a string
    ("xs_session_usage", USAGE, dict(USAGE, premium=0)),                   # a member our report lacks
    ("xs_session_tree", [NODE], [dict(NODE, entry={"type": "message"})]),  # an entry without an id, via $ref
    ("xs_session_entry", ENTRY, dict(ENTRY, id=7)),                        # an id that is not a string
]
INFO = {"id": "0123456789abcdef", "path": "/s/x.jsonl", "cwd": "/s", "timestamp": "2026-02-16T10:20:30.000Z",
        "title": None, "parentSession": None, "version": 3, "dialect": "omp", "entryCount": 1, "leafId": "a1b2c3d4",
        "persisted": True, "readOnly": False, "archived": False, "diagnostics": 0, "entryTypes": {"message": 1}}
DOCTORED += [("xs_session_info", INFO, dict(INFO, dialect="claude")),          # outside an enum
             ("xs_session_info", INFO, dict(INFO, entryTypes={"messages": 1}))]  # a type name we never write


def self_test(schema_dir):
    schemas, rows = capi_schemas.load(schema_dir), capi_schemas.table(schema_dir)
    failures = static_failures(schemas, rows)
    bad_schema = dict(schemas, **{"broken.schema.json": {"$id": "broken.schema.json", "type": "objekt"}})
    if not capi_schemas.schema_errors(bad_schema):
        failures.append("a schema with an unknown type was taken as valid")
    with tempfile.TemporaryDirectory(prefix="xs-schema-self-") as tmp:
        for i, (function, good, bad) in enumerate(DOCTORED):
            for kind, value in (("good", good), ("bad", bad)):
                d = os.path.join(tmp, "%d-%s" % (i, kind))
                os.mkdir(d)
                with open(os.path.join(d, "self.%d.%s.json" % (i, function)), "w") as f:
                    json.dump(value, f)
                found, seen = check_dir(d, schemas, rows)
                if kind == "good" and (found or seen != {function: 1}):
                    failures.append("%s: a valid output failed: %s" % (function, found))
                if kind == "bad" and not found:
                    failures.append("%s: a doctored output passed: %s" % (function, json.dumps(value)))
        d = os.path.join(tmp, "unknown")
        os.mkdir(d)
        with open(os.path.join(d, "self.0.xs_no_such_function.json"), "w") as f:
            f.write("{}")
        if not check_dir(d, schemas, rows)[0]:
            failures.append("an output of a function without a schema passed")
    all_seen = {f: 1 for f in rows}
    if coverage_failures(schemas, rows, all_seen):
        failures.append("coverage: %s" % coverage_failures(schemas, rows, all_seen))
    if not coverage_failures(schemas, rows, {f: 1 for f in rows if f != "xs_session_usage"}):
        failures.append("a function of the table that no output exercised passed")
    stray = dict(schemas, **{"stray.schema.json": {"$id": "stray.schema.json", "type": "object"}})
    if not coverage_failures(stray, rows, all_seen):
        failures.append("a schema file nothing uses passed")
    for f in failures:
        print("FAIL " + f)
    print("self-test: %d doctored outputs and 3 coverage checks, %d failures" % (len(DOCTORED) + 1, len(failures)))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runner", help="the xs_conformance executable")
    ap.add_argument("--lib", help="libxsession.so, for the outputs no case reaches")
    ap.add_argument("--corpus", help="a directory of another agent's *.jsonl sessions, read through every reader")
    ap.add_argument("--schemas", default=capi_schemas.SCHEMA_DIR)
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test(args.schemas)
    if not args.runner or not args.lib:
        ap.error("--runner and --lib are required")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
