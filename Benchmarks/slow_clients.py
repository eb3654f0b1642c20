#!/usr/bin/env python3
"""1,000 slow clients against `ferry serve` while 100 ordinary uploads (curl -F) land.

Usage: slow_clients.py FERRY_BINARY [--slow N] [--uploads N] [--parallel N] [--nofile N] [-- SERVE_ARGS...]

Starts `ferry serve --port 0` (as uid 65534 when run as root, under `prlimit --nofile=N:N` when
--nofile is given), opens N connections that send one byte a second (half trickle a request
head, half a request body after a whole head), and meanwhile runs the uploads with curl,
--parallel at a time. Prints one JSON line per upload and a summary: how long each upload
took, when the slow clients were cut, and the statuses the server logged. Figures, not a test.
"""
import argparse, asyncio, json, os, resource, statistics, subprocess, sys, tempfile, time

def main():
    args_list = sys.argv[1:]
    serve_args = []
    if "--" in args_list:
        index = args_list.index("--")
        args_list, serve_args = args_list[:index], args_list[index + 1:]
    parser = argparse.ArgumentParser()
    parser.add_argument("ferry", type=os.path.abspath)
    parser.add_argument("--slow", type=int, default=1000)
    parser.add_argument("--uploads", type=int, default=100)
    parser.add_argument("--parallel", type=int, default=10)
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--nofile", type=int)
    options = parser.parse_args(args_list)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(run(options, serve_args))

async def run(options, serve_args):
    root = tempfile.mkdtemp(prefix="ferry-slow-")
    os.chmod(root, 0o777)
    source = os.path.join(root, "upload.bin")
    with open(source, "wb") as f:
        f.write(os.urandom(options.size))
    command = []
    if options.nofile:
        command += ["prlimit", f"--nofile={options.nofile}:{options.nofile}", "--"]
    if os.getuid() == 0:
        command += ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    command += [options.ferry, "serve", "--port", "0", "--dir", os.path.join(root, "uploads")] + serve_args
    server = await asyncio.create_subprocess_exec(*command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root)
    url = (await server.stdout.readline()).decode().strip().removesuffix("/upload")
    port = int(url.rsplit(":", 1)[1])
    log = []

    async def read_log():
        async for line in server.stdout:
            try:
                log.append(json.loads(line))
            except ValueError:
                pass
    log_task = asyncio.create_task(read_log())

    started = time.monotonic()
    cut_times = []

    async def slow_client(index):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            cut_times.append(time.monotonic() - started)
            return
        if index % 2 == 0:
            payload = b"POST /upload HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100000
        else:
            body = b"--b\r\nContent-Disposition: form-data; name=f; filename=slow.bin\r\n\r\n" + b"a" * 100000
            writer.write(b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                         + b"Content-Length: %d\r\n\r\n" % (len(body) + 8))
            payload = body
        try:
            for byte in payload:
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    data = await asyncio.wait_for(reader.read(1024), timeout=1.0)
                    if data is not None:  # an answer (408) or EOF: cut
                        break
                except asyncio.TimeoutError:
                    pass
        except (ConnectionError, OSError):
            pass
        cut_times.append(time.monotonic() - started)
        writer.close()

    slow_tasks = [asyncio.create_task(slow_client(i)) for i in range(options.slow)]
    await asyncio.sleep(2)  # let them all connect first

    semaphore = asyncio.Semaphore(options.parallel)
    results = []

    async def upload(index):
        async with semaphore:
            t0 = time.monotonic()
            process = await asyncio.create_subprocess_exec(
                "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "300",
                "-F", f"file=@{source};filename=u{index}.bin", url + "/upload",
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out, err = await process.communicate()
            seconds = time.monotonic() - t0
            row = {"upload": index, "status": int(out or b"0"), "seconds": round(seconds, 3), "curlExit": process.returncode}
            results.append(row)
            print(json.dumps(row), flush=True)

    uploads_started = time.monotonic()
    await asyncio.gather(*(upload(i) for i in range(options.uploads)))
    uploads_seconds = time.monotonic() - uploads_started
    if slow_tasks:
        await asyncio.wait(slow_tasks, timeout=300)
    still_open = sum(1 for task in slow_tasks if not task.done())
    for task in slow_tasks:
        task.cancel()
    server.terminate()
    await server.wait()
    log_task.cancel()
    times = sorted(r["seconds"] for r in results)
    statuses = {}
    for entry in log:
        statuses[entry.get("status")] = statuses.get(entry.get("status"), 0) + 1
    summary = {
        "slowClients": options.slow, "uploads": options.uploads, "parallel": options.parallel, "bytes": options.size,
        "nofile": options.nofile, "serveArgs": serve_args,
        "uploadsOK": sum(1 for r in results if r["status"] == 200),
        "uploadSeconds": {"min": times[0], "median": statistics.median(times), "p90": times[int(len(times) * 0.9) - 1],
                          "max": times[-1]},
        "allUploadsSeconds": round(uploads_seconds, 2),
        "slowCut": len(cut_times), "slowStillOpen": still_open,
        "slowCutBySeconds": {"median": round(statistics.median(cut_times), 1) if cut_times else None,
                             "max": round(max(cut_times), 1) if cut_times else None},
        "serverStatuses": statuses,
    }
    print(json.dumps(summary), flush=True)
    subprocess.run(["rm", "-rf", root])

if __name__ == "__main__":
    main()
