"""``python -m porter_realm FILE [--key HEX] [--json]``: the forensic summary of a Realm file."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional

from . import inspect


def describe(summary: Dict[str, Any]) -> List[str]:
    """The summary as lines of text."""
    lines = [f"File: {summary['file']}", f"Diagnosis: {summary['diagnosis']}: {summary['message']}"]
    header = summary.get("header")
    if header:
        refs = header["topRefs"]
        lines.append(
            f"Header: top refs {refs[0]} (slot 0), {refs[1]} (slot 1); selected slot {header['selectedSlot']}; "
            f"current snapshot at {header['currentTopRef']}, previous at {header['previousTopRef']}"
            + ("; streaming form" if header.get("streaming") else "")
        )
    if not summary.get("readable"):
        lines.append(f"Unreadable: {summary.get('reason', 'unknown reason')}")
        return lines
    lines.append(f"File format: {summary['fileFormat']} ({summary['writers']})")
    lines.append(f"Encrypted: {'yes' if summary['encrypted'] else 'no'}")
    version = summary.get("schemaVersion")
    lines.append(f"Schema version: {'none' if version is None else version}")
    lines.append(f"File size: {summary['fileSize']} bytes")
    lines.append("Classes:")
    for cls in summary["classes"]:
        kind = " (embedded)" if cls["embedded"] else (f" (primary key: {cls['primaryKey']})" if cls["primaryKey"] else "")
        lines.append(f"  {cls['name']}  {cls['objects']} objects{kind}")
    return lines


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m porter_realm", description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--key", help="the 64-byte key of an encrypted file, as 128 hex digits")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    try:
        summary = inspect(args.file, args.key)
    except Exception as error:  # a missing file, a malformed key
        print(f"porter_realm: error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=2) if args.json else "\n".join(describe(summary)))
    return 0 if summary.get("readable") else 1


if __name__ == "__main__":
    sys.exit(main())
