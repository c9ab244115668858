"""The JSON Schemas of capi/schema, loaded for the `jsonschema` package: every file in one registry
so their relative $refs ("entry.schema.json", "common.schema.json#/$defs/count") resolve offline,
and the table of capi/schema/README.md (C API function -> schema file).

Works with jsonschema 4.18+ (the `referencing` registry) and with older releases such as Debian
12's 4.10 (a RefResolver whose store holds the same files)."""
import json
import os
import re

from jsonschema import Draft202012Validator

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SCHEMA_DIR = os.path.join(REPO, "capi", "schema")

try:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError:  # jsonschema < 4.18
    Registry = None


def load(schema_dir=SCHEMA_DIR):
    """{file name: schema} for every *.schema.json of schema_dir; each file's $id must be its name."""
    schemas = {}
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                schemas[name] = json.load(f)
            if schemas[name].get("$id") != name:
                raise ValueError("%s: $id is %r, not its file name" % (name, schemas[name].get("$id")))
    return schemas


def validator(name, schemas):
    """A Draft202012Validator for schemas[name] whose $refs resolve among `schemas`."""
    if Registry is not None:
        registry = Registry().with_resources(
            (n, Resource.from_contents(s, default_specification=DRAFT202012)) for n, s in schemas.items())
        return Draft202012Validator(schemas[name], registry=registry)
    from jsonschema import RefResolver
    return Draft202012Validator(schemas[name], resolver=RefResolver(name, schemas[name], store=dict(schemas)))


def schema_errors(schemas):
    """["name: why"] for every file that is not itself a valid draft 2020-12 schema."""
    out = []
    for name, schema in schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
        except Exception as e:  # jsonschema.SchemaError; message says where
            out.append("%s: %s" % (name, getattr(e, "message", e)))
    return out


def referrers(schemas):
    """{file: sorted names of the schemas whose $refs name it}."""
    out = {}

    def walk(name, node):
        if isinstance(node, dict):
            target = node.get("$ref")
            if isinstance(target, str) and target.split("#")[0] not in ("", name):
                out.setdefault(target.split("#")[0], set()).add(name)
            for v in node.values():
                walk(name, v)
        elif isinstance(node, list):
            for v in node:
                walk(name, v)
    for name, schema in schemas.items():
        walk(name, schema)
    return {k: sorted(v) for k, v in out.items()}


def table(schema_dir=SCHEMA_DIR):
    """{C API function: schema file} from the rows "| `xs_...` | [file](file) ... |" of README.md."""
    rows = {}
    with open(os.path.join(schema_dir, "README.md"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\| `(xs_\w+)` \| \[([\w.-]+\.schema\.json)\]", line)
            if m:
                if m.group(1) in rows:
                    raise ValueError("README.md: two rows for %s" % m.group(1))
                rows[m.group(1)] = m.group(2)
    return rows


def problems(value, check):
    """Why `value` does not match: a list of "at <path>: <message>", empty when it does. `check` is
    a validator from validator()."""
    out = []
    for e in sorted(check.iter_errors(value), key=lambda e: list(map(str, e.absolute_path))):
        path = "$" + "".join("[%d]" % p if isinstance(p, int) else ".%s" % p for p in e.absolute_path)
        out.append("at %s: %s" % (path, e.message))
    return out
