"""Parses every resource of a FHIR output folder with fhir.resources' R4B models (pydantic: unknown elements,
wrong types and bad primitives are errors), and prints {"counts": {type: n}, "errors": [...]} as JSON.

Usage: fhir_check.py <folder>. NDJSON files are read line by line; bundle.json as one Bundle (its entries'
resources are parsed as part of it)."""
import json
import os
import sys

from fhir.resources.R4B import get_fhir_model_class


def check(obj, where, counts, errors):
    try:
        model = get_fhir_model_class(obj["resourceType"])
        model.model_validate(obj)
        counts[obj["resourceType"]] = counts.get(obj["resourceType"], 0) + 1
        if obj["resourceType"] == "Bundle":
            for entry in obj.get("entry", []):
                kind = entry["resource"]["resourceType"]
                counts["entry:" + kind] = counts.get("entry:" + kind, 0) + 1
    except Exception as error:  # noqa: BLE001 - every failure is reported, with where it is
        errors.append(f"{where}: {str(error)[:400]}")


def main():
    folder = sys.argv[1]
    counts, errors = {}, []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".ndjson"):
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    check(json.loads(line), f"{name}:{number}", counts, errors)
        elif name == "bundle.json":
            with open(path, encoding="utf-8") as handle:
                check(json.load(handle), name, counts, errors)
    print(json.dumps({"counts": counts, "errors": errors[:20], "error_count": len(errors)}))


main()
