#!/usr/bin/env python3
"""Drives tuspy (the official tus client, PyPI `tuspy`) against a tus server, for Ferry's tests.

  tus_client.py upload  ENDPOINT FILE METADATA_JSON CHUNK_SIZE [STOP_AT|-] [nochecksum]
      creates an upload and sends FILE in CHUNK_SIZE PATCHes (with sha1 Upload-Checksum unless
      `nochecksum`), stopping at offset STOP_AT if given; prints {"url": ..., "offset": ...}.
  tus_client.py resume  UPLOAD_URL FILE CHUNK_SIZE
      a new client resumes UPLOAD_URL from the server's offset (HEAD) to the end of FILE;
      prints {"url": ..., "startOffset": ..., "offset": ...}.

Exit 0 on success; tuspy's exception on standard error otherwise.
"""
import json
import sys

from tusclient import client


def main(argv):
    mode = argv[1]
    if mode == "upload":
        endpoint, path, metadata, chunk_size = argv[2], argv[3], json.loads(argv[4]), int(argv[5])
        stop_at = int(argv[6]) if len(argv) > 6 and argv[6] != "-" else None
        checksum = not (len(argv) > 7 and argv[7] == "nochecksum")
        uploader = client.TusClient(endpoint).uploader(
            path, chunk_size=chunk_size, metadata=metadata, upload_checksum=checksum)
        uploader.upload(stop_at=stop_at)
        print(json.dumps({"url": uploader.url, "offset": uploader.offset}))
    elif mode == "resume":
        url, path, chunk_size = argv[2], argv[3], int(argv[4])
        uploader = client.TusClient(url).uploader(path, url=url, chunk_size=chunk_size, upload_checksum=True)
        start = uploader.offset
        uploader.upload()
        print(json.dumps({"url": uploader.url, "startOffset": start, "offset": uploader.offset}))
    else:
        raise SystemExit("unknown mode " + mode)


if __name__ == "__main__":
    main(sys.argv)
