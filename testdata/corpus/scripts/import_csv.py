#!/usr/bin/env python3
"""Bulk-import orders into Pelican from a CSV file.

Imports orders exported from a spreadsheet or a marketplace as CSV. Each CSV
row is one order line; rows with the same ``order_ref`` form one order. The
CSV importer validates every row first, prints errors with their CSV line
numbers, and only then imports the orders through the API in batches.

CSV columns (header row required, any order, extra columns ignored):
    order_ref, customer_email, sku, quantity, postcode, country

Usage:
    import_csv.py orders.csv --api https://pelican.internal --token-file ~/.pelican-token
    import_csv.py orders.csv --dry-run
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
import urllib.request
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

REQUIRED_COLUMNS = ("order_ref", "customer_email", "sku", "quantity", "postcode", "country")
BATCH_SIZE = 50


@dataclass
class Order:
    ref: str
    customer_email: str
    postcode: str
    country: str
    lines: list[dict] = field(default_factory=list)

    def to_payload(self) -> dict:
        return {
            "external_ref": self.ref,
            "customer": {"email": self.customer_email},
            "shipping_address": {"postcode": self.postcode, "country": self.country},
            "lines": self.lines,
        }


class RowError(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line


def parse_row(line_no: int, row: dict[str, str]) -> tuple[str, dict, dict]:
    """Validate one CSV row and return (order_ref, order fields, line item)."""
    for column in REQUIRED_COLUMNS:
        if not (row.get(column) or "").strip():
            raise RowError(line_no, f"missing value for {column!r}")
    try:
        quantity = int(row["quantity"])
    except ValueError:
        raise RowError(line_no, f"quantity {row['quantity']!r} is not a whole number") from None
    if quantity <= 0:
        raise RowError(line_no, "quantity must be positive")
    if "@" not in row["customer_email"]:
        raise RowError(line_no, "customer_email is not an e-mail address")
    country = row["country"].strip().upper()
    if len(country) != 2:
        raise RowError(line_no, f"country {country!r} is not an ISO 3166 alpha-2 code")
    fields = {
        "customer_email": row["customer_email"].strip().lower(),
        "postcode": row["postcode"].strip().upper(),
        "country": country,
    }
    return row["order_ref"].strip(), fields, {"sku": row["sku"].strip(), "quantity": quantity}


def read_orders(path: Path) -> tuple[list[Order], list[RowError]]:
    orders: OrderedDict[str, Order] = OrderedDict()
    errors: list[RowError] = []
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise SystemExit(f"{path}: missing columns: {', '.join(missing)}")
        for line_no, row in enumerate(reader, start=2):  # line 1 is the header
            try:
                ref, fields, item = parse_row(line_no, row)
            except RowError as err:
                errors.append(err)
                continue
            order = orders.setdefault(ref, Order(ref=ref, **fields))
            if (order.customer_email, order.postcode) != (fields["customer_email"], fields["postcode"]):
                errors.append(RowError(line_no, f"order {ref} has conflicting customer or address"))
                continue
            order.lines.append(item)
    return list(orders.values()), errors


def post_batch(api: str, token: str, batch: list[Order], retries: int = 3) -> None:
    body = json.dumps({"orders": [o.to_payload() for o in batch]}).encode()
    req = urllib.request.Request(
        f"{api.rstrip('/')}/v1/orders:batch",
        data=body,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    for attempt in range(1, retries + 1):
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                if resp.status == 200:
                    return
        except OSError as err:
            if attempt == retries:
                raise
            print(f"batch failed ({err}); retrying", file=sys.stderr)
        time.sleep(2 ** attempt)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv_file", type=Path)
    parser.add_argument("--api", default="http://localhost:8080")
    parser.add_argument("--token-file", type=Path)
    parser.add_argument("--dry-run", action="store_true", help="validate only, send nothing")
    args = parser.parse_args(argv)

    orders, errors = read_orders(args.csv_file)
    for err in errors:
        print(err, file=sys.stderr)
    print(f"{len(orders)} orders, {sum(len(o.lines) for o in orders)} lines, {len(errors)} errors")
    if errors or args.dry_run:
        return 1 if errors else 0
    if not args.token_file:
        parser.error("--token-file is required unless --dry-run is given")
    token = args.token_file.expanduser().read_text().strip()
    for start in range(0, len(orders), BATCH_SIZE):
        post_batch(args.api, token, orders[start:start + BATCH_SIZE])
        print(f"imported {min(start + BATCH_SIZE, len(orders))}/{len(orders)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
