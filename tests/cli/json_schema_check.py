"""The part of JSON Schema (2020-12) that docs/schemas/ uses, checked without a package: type,
const, enum, properties, required, additionalProperties false, items, minimum, oneOf. A keyword
outside that set is an error, so a schema never silently checks less than it says."""

KNOWN = {"$schema", "$id", "title", "description", "type", "const", "enum", "properties", "required",
         "additionalProperties", "items", "minimum", "oneOf"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def problems(value, schema, where="$"):
    """Why `value` does not match `schema`: a list of messages, empty when it does."""
    unknown = set(schema) - KNOWN
    if unknown:
        return ["%s: schema keywords this checker does not know: %s" % (where, sorted(unknown))]
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not problems(value, s, where)]
        return [] if len(matching) == 1 else ["%s: matches %d of oneOf's schemas" % (where, len(matching))]
    out = []
    types = schema.get("type")
    if types is not None and not any(_is(value, t) for t in ([types] if isinstance(types, str) else types)):
        return ["%s: %r is not %s" % (where, value, types)]
    if "const" in schema and value != schema["const"]:
        out.append("%s: %r is not %r" % (where, value, schema["const"]))
    if "enum" in schema and value not in schema["enum"]:
        out.append("%s: %r is not one of %r" % (where, value, schema["enum"]))
    if "minimum" in schema and _is(value, "number") and value < schema["minimum"]:
        out.append("%s: %r < %r" % (where, value, schema["minimum"]))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out += ["%s: no member %s" % (where, k) for k in schema.get("required", []) if k not in value]
        if schema.get("additionalProperties") is False:
            out += ["%s: member %s is not in the schema" % (where, k) for k in value if k not in props]
        for k, v in value.items():
            if k in props:
                out += problems(v, props[k], where + "." + k)
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            out += problems(v, schema["items"], "%s[%d]" % (where, i))
    return out
