#!/usr/bin/env python3
"""Checks healthetl's CSV export with readers that share no code with it: Python's csv, sqlite3 and zipfile.

usage:
  check-csv-export.py csv --db health.sqlite --dir out/ --dialect standard|excel
      Every *.csv in out/ against its table: header = the table's columns, same row count, rows in id order
      (rollups.csv: by type, period from the shortest, start and statistic; baselines.csv: by metric and day),
      and every cell equal to the database value (numbers parsed as float/int, instants as the same moment,
      BLOBs as base64 or, for excel, empty; excel text may carry the formula guard ' or be left empty when
      longer than 32,767 characters). Also: CRLF line ends, UTF-8, BOM only in the excel flavour.
  check-csv-export.py xlsx book.xlsx
      Cell kinds per column of the first sheet (numeric, date, text, formula), for the LibreOffice test.

Prints JSON on stdout. In csv mode, exits 1 when a check fails (the failures are listed in "errors").
"""
import argparse, base64, csv, io, json, math, os, re, sqlite3, struct, sys, zipfile
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone

UTC_INSTANT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
SPREADSHEET_INSTANT = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$")
BOM = b"\xef\xbb\xbf"
EXCEL_CELL_LIMIT = 32767


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


def parse_offset(text):
    m = re.match(r"^([+-])(\d\d):?(\d\d)$", text or "")
    if not m:
        return None
    minutes = int(m.group(2)) * 60 + int(m.group(3))
    return timedelta(minutes=-minutes if m.group(1) == "-" else minutes)


def same_float(a, b):
    return struct.pack("<d", a) == struct.pack("<d", b)


def check_instant(cell, stored, offset, dialect, where, errors):
    utc = datetime.fromisoformat(stored)  # Python 3.11 reads the trailing Z and fractions
    if dialect == "standard":
        shown = datetime.fromisoformat(cell)
        if shown.tzinfo is None or shown != utc:
            errors.append(f"{where}: {cell!r} is not the instant {stored!r}")
        elif offset is not None and shown.utcoffset() != offset:
            errors.append(f"{where}: {cell!r} not in the row's offset {offset}")
        return
    if not SPREADSHEET_INSTANT.match(cell):
        errors.append(f"{where}: {cell!r} is not yyyy-mm-dd hh:mm:ss")
        return
    shift = datetime.fromisoformat(cell) - utc.replace(tzinfo=None)
    if offset is not None and shift != offset:
        errors.append(f"{where}: {cell!r} is {stored!r} shifted by {shift}, not by the row's offset {offset}")
    elif shift.total_seconds() % 60 != 0 or abs(shift) > timedelta(hours=14):
        errors.append(f"{where}: {cell!r} is not {stored!r} in any UTC offset")


def check_cell(cell, stored, dialect, where, errors, counts):
    if stored is None:
        if cell != "":
            errors.append(f"{where}: NULL written as {cell!r}")
    elif isinstance(stored, int):
        if cell != str(stored):
            errors.append(f"{where}: integer {stored} written as {cell!r}")
    elif isinstance(stored, float):
        if not math.isfinite(stored):
            ok = cell == ""
        else:
            ok = same_float(float(cell), stored) and not cell.endswith(".0")
            if "e" in cell and 1e-15 <= abs(stored) < 1e21:
                ok = False
        if not ok:
            errors.append(f"{where}: real {stored!r} written as {cell!r}")
        counts["reals"] += 1
    elif isinstance(stored, bytes):
        if dialect == "excel":
            if cell != "":
                errors.append(f"{where}: BLOB not left empty")
        elif base64.b64decode(cell, validate=True) != stored:
            errors.append(f"{where}: BLOB does not decode to the stored bytes")
        counts["blobs"] += 1
    elif cell == stored:
        pass  # text as stored; also instants of tables without an offset in the standard flavour
    elif UTC_INSTANT.match(stored):
        check_instant(cell, stored, counts["offset"], dialect, where, errors)
        counts["instants"] += 1
    elif dialect == "excel" and stored[:1] in ("=", "+", "-", "@", "\t", "\r") and cell == "'" + stored:
        counts["guarded"] += 1
    elif dialect == "excel" and cell == "" and utf16_length(stored) > EXCEL_CELL_LIMIT:
        counts["too_long"] += 1
    else:
        errors.append(f"{where}: text {stored[:80]!r} written as {cell[:80]!r}")


def check_line_ends(raw, name, errors):
    # Outside quoted fields every record ends in CRLF: no bare LF or CR.
    bare = re.sub(rb'"(?:[^"]|"")*"', b"", raw).replace(b"\r\n", b"")
    if b"\n" in bare or b"\r" in bare:
        errors.append(f"{name}: a line end other than CRLF outside quoted fields")
    if not raw.endswith(b"\r\n"):
        errors.append(f"{name}: does not end with CRLF")


# Tables written in an order of their own rather than by rowid (docs/csv.md).
ROW_ORDERS = {
    "rollups": "type, instr('hour day  week month', period), period, period_start, statistic",
    "baselines": "column_name, date",
}


def check_csv(args):
    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    errors, tables = [], {}
    for name in sorted(os.listdir(args.dir)):
        if not name.endswith(".csv"):
            continue
        table = name[:-4]
        raw = open(os.path.join(args.dir, name), "rb").read()
        if raw.startswith(BOM) != (args.dialect == "excel"):
            errors.append(f"{name}: byte order mark {'missing' if args.dialect == 'excel' else 'present'}")
        check_line_ends(raw, name, errors)
        text = raw[len(BOM):].decode("utf-8") if raw.startswith(BOM) else raw.decode("utf-8")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]
        if rows[0] != columns:
            errors.append(f"{name}: header {rows[0]} is not the table's columns {columns}")
            continue
        stored_rows = db.execute(f'SELECT * FROM "{table}" ORDER BY {ROW_ORDERS.get(table, "rowid")}').fetchall()
        if len(rows) - 1 != len(stored_rows):
            errors.append(f"{name}: {len(rows) - 1} rows, the table has {len(stored_rows)}")
        counts = {"reals": 0, "blobs": 0, "instants": 0, "guarded": 0, "too_long": 0, "offset": None}
        offset_index = columns.index("utc_offset") if "utc_offset" in columns else None
        for number, (row, stored) in enumerate(zip(rows[1:], stored_rows), start=2):
            if len(row) != len(columns):
                errors.append(f"{name}:{number}: {len(row)} fields, expected {len(columns)}")
                continue
            counts["offset"] = parse_offset(stored[offset_index]) if offset_index is not None else None
            for column, cell, value in zip(columns, row, stored):
                check_cell(cell, value, args.dialect, f"{name}:{number}:{column}", errors, counts)
        if "id" in columns:
            ids = [int(row[columns.index("id")]) for row in rows[1:]]
            if ids != sorted(ids):
                errors.append(f"{name}: rows not in id order")
        del counts["offset"]
        tables[table] = dict(rows=len(rows) - 1, **counts)
    print(json.dumps({"tables": tables, "errors": errors[:50], "error_count": len(errors)}, ensure_ascii=False))
    return 1 if errors else 0


def is_date_format(code):
    code = re.sub(r'"[^"]*"|\\.|\[[^\]]*\]', "", code or "").lower()
    return any(c in code for c in "ydhs")


def check_xlsx(args):
    ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
    book = zipfile.ZipFile(args.path)
    shared = []
    if "xl/sharedStrings.xml" in book.namelist():
        for item in ET.fromstring(book.read("xl/sharedStrings.xml")).findall("m:si", ns):
            shared.append("".join(t.text or "" for t in item.iter(f"{{{ns['m']}}}t")))
    styles = ET.fromstring(book.read("xl/styles.xml"))
    codes = {int(f.get("numFmtId")): f.get("formatCode") for f in styles.findall("m:numFmts/m:numFmt", ns)}
    formats = [int(xf.get("numFmtId")) for xf in styles.findall("m:cellXfs/m:xf", ns)]
    builtin_dates = set(range(14, 23)) | {45, 46, 47}
    sheet = ET.fromstring(book.read("xl/worksheets/sheet1.xml"))
    rows = sheet.findall(".//m:sheetData/m:row", ns)
    header, columns, first = [], {}, {}

    def column_of(reference):
        return re.match(r"[A-Z]+", reference).group(0)

    for index, row in enumerate(rows):
        for cell in row.findall("m:c", ns):
            kind, value = cell.get("t") or "n", cell.find("m:v", ns)
            text = value.text if value is not None else None
            if kind == "s" and text is not None:
                text = shared[int(text)]
            letter = column_of(cell.get("r"))
            if index == 0:
                header.append(text)
                columns[letter] = {"numeric": 0, "date": 0, "text": 0, "formula": 0}
                continue
            stats = columns.setdefault(letter, {"numeric": 0, "date": 0, "text": 0, "formula": 0})
            if cell.find("m:f", ns) is not None:
                stats["formula"] += 1
            elif kind == "n" and text is not None:
                number_format = formats[int(cell.get("s") or 0)]
                dated = number_format in builtin_dates or is_date_format(codes.get(number_format))
                stats["date" if dated else "numeric"] += 1
            elif text is not None:
                stats["text"] += 1
            if index == 1:
                first[letter] = text
    letters = sorted(columns, key=lambda c: (len(c), c))
    named = {header[i] if i < len(header) else letter: columns[letter] for i, letter in enumerate(letters)}
    sample = {header[i] if i < len(header) else letter: first.get(letter) for i, letter in enumerate(letters)}
    print(json.dumps({"rows": len(rows), "header": header, "columns": named, "first_row": sample}, ensure_ascii=False))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    csv_command = commands.add_parser("csv")
    csv_command.add_argument("--db", required=True)
    csv_command.add_argument("--dir", required=True)
    csv_command.add_argument("--dialect", choices=["standard", "excel"], required=True)
    xlsx_command = commands.add_parser("xlsx")
    xlsx_command.add_argument("path")
    args = parser.parse_args()
    csv.field_size_limit(sys.maxsize)  # FHIR resources and base64 ECG samples exceed the default 128 KiB
    return check_csv(args) if args.command == "csv" else check_xlsx(args)


if __name__ == "__main__":
    sys.exit(main())
