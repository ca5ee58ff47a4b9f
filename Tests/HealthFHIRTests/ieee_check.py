"""Validates every data point of an IEEE 1752.1 output folder with jsonschema against the published schemas
(ieee1752-schemas/ beside this file): the whole point against data-point-1.0 (IEEE's header), the body against
the schema its header names. Prints {"counts": {schema: n}, "errors": [...], "error_count": n} as JSON.

Usage: ieee_check.py <folder>. $refs are resolved in the fixture folder by their last path component (the
schemas refer to each other by w3id.org and opensource.ieee.org URLs and by relative names)."""
import json
import os
import re
import sys

import jsonschema
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT7

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ieee1752-schemas")
FILES = {}
for name in os.listdir(SCHEMAS):
    if name.endswith(".json"):
        with open(os.path.join(SCHEMAS, name), encoding="utf-8") as handle:
            FILES[name] = json.load(handle)


def find(uri):
    base = uri.split("#")[0].rsplit("/", 1)[-1]
    candidates = [base]
    versioned = re.match(r"(.*)-(\d+)\.(\d+|x)\.json$", base)
    if versioned:  # a 1.0 asked for where 1.x is kept, or the other way round
        candidates += [f"{versioned[1]}-{versioned[2]}.x.json", f"{versioned[1]}-{versioned[2]}.0.json"]
    elif base.endswith(".json"):  # an unversioned w3id name: header.json → header-1.0.json
        candidates += [base[:-5] + "-1.0.json", base[:-5] + "-1.x.json"]
    for candidate in candidates:
        if candidate in FILES:
            return FILES[candidate]
    raise NoSuchResource(ref=uri)


REGISTRY = Registry(retrieve=lambda uri: Resource.from_contents(find(uri), default_specification=DRAFT7))


def validator(schema):
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    return cls(schema, registry=REGISTRY, format_checker=cls.FORMAT_CHECKER)


def main():
    folder = sys.argv[1]
    point_validator = validator(FILES["data-point-1.0.json"])
    body_validators = {}
    counts, errors = {}, []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".ndjson"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                where = f"{name}:{number}"
                point = json.loads(line)
                problems = [e.message for e in point_validator.iter_errors(point)]
                schema_id = point.get("header", {}).get("schema_id", {})
                key = "schema-{namespace}_{name}_{version}.json".format(
                    namespace=schema_id.get("namespace"), name=schema_id.get("name"),
                    version=str(schema_id.get("version")).replace(".", "-"))
                if key not in FILES:
                    problems.append(f"no published schema {key}")
                else:
                    if key not in body_validators:
                        body_validators[key] = validator(FILES[key])
                    problems += [e.message for e in body_validators[key].iter_errors(point.get("body"))]
                if name != schema_id.get("name", "") + ".ndjson":
                    problems.append(f"a {schema_id.get('name')} point in {name}")
                if problems:
                    errors.append(f"{where}: {'; '.join(problems)[:400]}")
                else:
                    counts[schema_id["name"]] = counts.get(schema_id["name"], 0) + 1
    print(json.dumps({"counts": counts, "errors": errors[:20], "error_count": len(errors)}))


main()
