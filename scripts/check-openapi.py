#!/usr/bin/env python3
"""Checks the issuing API's OpenAPI document, and real answers against it.

  check-openapi.py document OPENAPI.json
      The document is valid OpenAPI 3.1 (openapi-spec-validator).
  check-openapi.py answers OPENAPI.json EXCHANGES.jsonl [--every-operation]
      Every recorded /api/v1 exchange (JSON Lines of method, path, status, contentType, headers, body or bodyBase64,
      test: what the server tests record) is one the document describes: its path and method, its status, its content
      type, the headers it says are required, and a JSON body matching the answer's schema. With --every-operation,
      each operation the document describes must have been answered at least once.
Exits 1 with a line per kind of mismatch (and the tests that met it) when anything does not match.
"""
import json
import re
import sys

from jsonschema import Draft202012Validator, FormatChecker
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
DOCUMENT_URI = "urn:passmint:openapi"


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def check_document(path):
    validate(load(path))
    print(f"check-openapi: {path} is valid OpenAPI 3.1")


def pointer(*parts):
    return "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in parts)


class Document:
    def __init__(self, document):
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(DOCUMENT_URI, resource)
        # Literal segments before parameters: /a/{x}/b is tried after /a/list/b would be.
        self.paths = sorted(
            ((self.pattern(path), path) for path in document.get("paths", {})), key=lambda entry: entry[1].count("{"))

    @staticmethod
    def pattern(path):
        parts = re.split(r"(\{[^}]+\})", path)
        return re.compile("^" + "".join("[^/]+" if part.startswith("{") else re.escape(part) for part in parts) + "$")

    def resolve(self, value):
        while isinstance(value, dict) and "$ref" in value:
            node = self.document
            for part in value["$ref"].lstrip("#/").split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            value = node
        return value

    def operations(self):
        for path, item in self.document.get("paths", {}).items():
            for method in METHODS:
                if method in item:
                    yield method.upper(), path

    def template(self, path):
        for pattern, template in self.paths:
            if pattern.match(path):
                return template
        return None

    def schema_validator(self, *location):
        schema = {"$ref": DOCUMENT_URI + "#/" + pointer(*location)}
        return Draft202012Validator(schema, registry=self.registry, format_checker=FormatChecker())


def body_text(exchange):
    if "body" in exchange:
        return exchange["body"]
    return None if exchange.get("bodyBase64") else ""


def problems(document, exchange):
    """What does not match in one exchange (empty when it matches), and the operation it is."""
    method, path, status = exchange["method"], exchange["path"], str(exchange["status"])
    template = document.template(path)
    if template is None:
        return [f"{method} {path}: no path of the document matches"], None
    item = document.document["paths"][template]
    described = method.lower() if method.lower() in item or method != "HEAD" else "get"
    if described not in item:
        return [f"{method} {template}: the document describes no {method} here"], None
    operation = (described.upper(), template)
    answers = item[described].get("responses", {})
    if status not in answers:
        return [f"{method} {template} answered {status}, a status the document does not give it"], operation
    answer = document.resolve(answers[status])
    found = []
    headers = exchange.get("headers", {})
    for name, header in (answer.get("headers") or {}).items():
        if document.resolve(header).get("required") and name.lower() not in headers:
            found.append(f"{method} {template} {status}: no {name} header")
    content = answer.get("content")
    media = (exchange.get("contentType") or "").split(";")[0].strip().lower()
    text = body_text(exchange)
    if not content:
        if text != "" and method != "HEAD":
            found.append(f"{method} {template} {status}: a body ({media or 'no content type'}) where the document gives none")
        return found, operation
    if media not in content:
        found.append(f"{method} {template} {status}: content type {media or '(none)'}, the document gives {', '.join(content)}")
        return found, operation
    if method == "HEAD":
        return found, operation
    if media == "application/json" or media.endswith("+json"):
        try:
            value = json.loads(text or "")
        except (TypeError, ValueError):
            return found + [f"{method} {template} {status}: the body is not JSON"], operation
        location = ("paths", template, described, "responses", status, "content", media, "schema")
        if "$ref" in answers[status]:
            location = tuple(answers[status]["$ref"].lstrip("#/").split("/")) + ("content", media, "schema")
        for error in document.schema_validator(*location).iter_errors(value):
            at = "/".join(str(part) for part in error.absolute_path) or "(the body)"
            found.append(f"{method} {template} {status}: at {at}: {error.message[:300]}")
    elif media == "application/jsonl":
        for number, line in enumerate((text or "").splitlines(), 1):
            try:
                if line.strip():
                    json.loads(line)
            except ValueError:
                found.append(f"{method} {template} {status}: line {number} of the JSON Lines is not JSON")
    return found, operation


def check_answers(document_path, exchanges_path, every_operation):
    document = Document(load(document_path))
    mismatches = {}
    answered = set()
    count = 0
    with open(exchanges_path, encoding="utf-8") as file:
        for line in file:
            if not line.strip():
                continue
            exchange = json.loads(line)
            count += 1
            found, operation = problems(document, exchange)
            if operation:
                answered.add(operation)
            for problem in found:
                mismatches.setdefault(problem, []).append(exchange.get("test", "?"))
    for operation in sorted(set(document.operations()) - answered) if every_operation else []:
        mismatches.setdefault(f"{operation[0]} {operation[1]}: never answered", [])
    for problem, tests in sorted(mismatches.items()):
        named = sorted(set(tests))
        more = f" (+{len(named) - 3} more)" if len(named) > 3 else ""
        suffix = f" [{len(tests)}x; {', '.join(named[:3])}{more}]" if tests else ""
        print(f"check-openapi: {problem}{suffix}", file=sys.stderr)
    if mismatches:
        print(f"check-openapi: {len(mismatches)} kinds of mismatch in {count} answers ({exchanges_path})", file=sys.stderr)
        return 1
    print(f"check-openapi: {count} answers of {len(answered)} operations match {document_path}")
    return 0


def main(arguments):
    if len(arguments) == 2 and arguments[0] == "document":
        check_document(arguments[1])
        return 0
    if len(arguments) in (3, 4) and arguments[0] == "answers" and arguments[3:] in ([], ["--every-operation"]):
        return check_answers(arguments[1], arguments[2], bool(arguments[3:]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
