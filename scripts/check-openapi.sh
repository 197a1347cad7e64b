#!/usr/bin/env bash
# Runs scripts/check-openapi.py (the OpenAPI document, or recorded answers against it) with its PyPI packages
# (openapi-spec-validator, which brings jsonschema; rfc3339-validator for date-time formats) in a venv under .build,
# made when missing. Arguments: those of check-openapi.py.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.build/openapi-tools"
if ! "$venv/bin/python" -c 'import openapi_spec_validator, jsonschema, referencing, rfc3339_validator' 2>/dev/null; then
    echo "installing (pip, into $venv): openapi-spec-validator rfc3339-validator" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check openapi-spec-validator rfc3339-validator >&2
fi
exec "$venv/bin/python" "$root/scripts/check-openapi.py" "$@"
