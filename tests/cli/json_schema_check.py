"""`xs ... --json` outputs checked against the C API's schemas (capi/schema) with the jsonschema
package: every schema file in one registry, so $refs between them resolve offline
(tests/conformance/tools/capi_schemas.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance", "tools"))
import capi_schemas  # noqa: E402

_SCHEMAS = capi_schemas.load()
_VALIDATORS = {}


def problems(value, schema_name):
    """Why `value` does not match capi/schema/<schema_name>: a list of messages, empty when it does."""
    if schema_name not in _VALIDATORS:
        _VALIDATORS[schema_name] = capi_schemas.validator(schema_name, _SCHEMAS)
    return capi_schemas.problems(value, _VALIDATORS[schema_name])
