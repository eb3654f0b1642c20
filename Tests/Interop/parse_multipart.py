#!/usr/bin/env python3
"""Parse a multipart/form-data body with two independent parsers and print what each saw.

Usage: parse_multipart.py BODY_FILE CONTENT_TYPE

Prints one JSON object: {"werkzeug": [PART, ...], "python_multipart": [PART, ...]}, where PART is
{"name", "filename" (or null), "content_type" (or null), "size", "sha256"}, in wire order.
Used by Ferry's interoperability tests (Tests/MultipartTests/PythonInteropTests.swift).
"""
import hashlib
import json
import sys

import python_multipart
from python_multipart.multipart import parse_options_header
from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData, Preamble
from werkzeug.http import parse_options_header as werkzeug_options


def boundary_of(content_type):
    _, options = werkzeug_options(content_type)
    return options["boundary"].encode("latin-1")


def with_werkzeug(body, boundary):
    decoder = MultipartDecoder(boundary)
    decoder.receive_data(body)
    decoder.receive_data(None)
    parts, current, data = [], None, bytearray()
    while True:
        event = decoder.next_event()
        if isinstance(event, (Field, File)):
            current = {
                "name": event.name,
                "filename": event.filename if isinstance(event, File) else None,
                "content_type": event.headers.get("content-type"),
            }
            data = bytearray()
        elif isinstance(event, Data):
            data += event.data
            if not event.more_data:
                current["size"] = len(data)
                current["sha256"] = hashlib.sha256(bytes(data)).hexdigest()
                parts.append(current)
        elif isinstance(event, Epilogue):
            return parts
        elif isinstance(event, NeedData):
            raise ValueError("werkzeug: body ended before the closing boundary")
        elif not isinstance(event, Preamble):
            raise ValueError(f"werkzeug: unexpected event {event!r}")


def with_python_multipart(body, boundary):
    parts = []
    state = {"field": b"", "value": b"", "headers": {}, "hash": None, "size": 0}

    def on_part_begin():
        state["headers"] = {}
        state["hash"] = hashlib.sha256()
        state["size"] = 0

    def on_header_field(data, start, end):
        state["field"] += data[start:end]

    def on_header_value(data, start, end):
        state["value"] += data[start:end]

    def on_header_end():
        state["headers"][state["field"].decode("latin-1").lower()] = state["value"]
        state["field"], state["value"] = b"", b""

    def on_part_data(data, start, end):
        state["hash"].update(data[start:end])
        state["size"] += end - start

    def on_part_end():
        _, options = parse_options_header(state["headers"]["content-disposition"])
        content_type = state["headers"].get("content-type")
        filename = options.get(b"filename")
        parts.append({
            "name": options[b"name"].decode("utf-8"),
            "filename": filename.decode("utf-8") if filename is not None else None,
            "content_type": content_type.decode("latin-1") if content_type is not None else None,
            "size": state["size"],
            "sha256": state["hash"].hexdigest(),
        })

    parser = python_multipart.MultipartParser(boundary, {
        "on_part_begin": on_part_begin, "on_header_field": on_header_field,
        "on_header_value": on_header_value, "on_header_end": on_header_end,
        "on_part_data": on_part_data, "on_part_end": on_part_end,
    })
    # Feed in odd-sized pieces so the parser's own buffering is exercised.
    for offset in range(0, len(body), 4093):
        parser.write(body[offset:offset + 4093])
    parser.finalize()
    return parts


def main():
    with open(sys.argv[1], "rb") as handle:
        body = handle.read()
    boundary = boundary_of(sys.argv[2])
    print(json.dumps({
        "werkzeug": with_werkzeug(body, boundary),
        "python_multipart": with_python_multipart(body, boundary),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
