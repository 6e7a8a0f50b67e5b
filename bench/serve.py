"""Throughput and latency of `argkb serve`'s /api/v1/query at 1, 4 and 16 clients, against
`argkb query` run as one process per query, on the 100k-argument graph of bench/query.py.

    python -m bench serve [--workdir /tmp/argkb-bench-query] [--queries 200] [--clients 1,4,16]
                          [--cli-queries 10]
    python -m bench serve --cold [--workdir /tmp/argkb-bench-query] [--queries 20]

Needs the graph bench/query.py builds (run it first; both reuse --workdir). Starts `argkb serve`
as a subprocess on a free loopback port against that instance, warms it up, then for each client
count sends the same --queries query texts (claims of the graph with their last word dropped,
as bench/query.py does) from that many threads, each with its own keep-alive connection, and
times every request end to end. The baseline runs `argkb query TEXT --json` in a new process
per query, as a script calling the CLI would (model load included each time). Both use
argkb's defaults (hybrid ranker, model stance alignment). Goal (issue 14): p95 <= 300 ms at 4
clients.

``--cold``: the first --queries requests (one client) right after a restart of Neo4j, with
`argkb serve --no-warm-up` (the baseline) and with its default warm-up, each on a freshly
restarted server; and how long each took to start answering.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"argkb serve exited with {proc.returncode} before answering")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(1.0)
    raise SystemExit(f"argkb serve did not answer on port {port} within {timeout:.0f} s")


def run_clients(port: int, texts: list[str], clients: int, k: int) -> tuple[list[float], float]:
    """Every text once, from ``clients`` threads; per-request seconds and the wall time."""
    work: queue.Queue[str] = queue.Queue()
    for text in texts:
        work.put(text)
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while True:
            try:
                text = work.get_nowait()
            except queue.Empty:
                return
            path = "/api/v1/query?" + urllib.parse.urlencode({"q": text, "k": k})
            clock = time.perf_counter()
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read()
            elapsed = time.perf_counter() - clock
            with lock:
                if response.status == 200:
                    latencies.append(elapsed)
                else:
                    failures.append(f"{response.status}: {body[:200]!r}")

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    if failures:
        raise SystemExit(f"{len(failures)} requests failed, e.g. {failures[0]}")
    return latencies, wall


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/argkb-bench-query"))
    parser.add_argument("--queries", type=int, default=200)
    # the instance restarts cold (bench/query.py stops it): 20 queries left p50 at 1 client 105 ms
    # on 2026-11-23, 200 gave 64 ms
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--clients", default="1,4,16")
    parser.add_argument("--cli-queries", type=int, default=10)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--cold", action="store_true", help="first requests after a restart")
    parser.add_argument("--heap", default="4g")
    parser.add_argument("--pagecache", default="4g")
    return parser


Row = tuple[str, list[float], float]  # method, seconds per query, queries per second


@contextmanager
def serving(argkb: list[str], env: dict[str, str], *options: str) -> Iterator[int]:
    """``argkb serve`` on a free loopback port, answering; its port. Stopped on the way out."""
    from argkb.db.server import free_port

    port = free_port()
    serve = subprocess.Popen(
        [*argkb, "serve", "--port", str(port), *options], env=env, stderr=subprocess.DEVNULL
    )
    try:
        wait_healthy(port, serve)
        yield port
    finally:
        serve.terminate()
        serve.wait(timeout=60)


def measure_serve(args: argparse.Namespace, port: int, texts: list[str]) -> tuple[list[Row], float]:
    """Warm the server up, then time each client count; the rows and the load average before
    the clock started."""
    warmup, measured = texts[: args.warmup], texts[args.warmup : args.warmup + args.queries]
    run_clients(port, warmup, 1, args.k)
    load_before = os.getloadavg()[0]
    rows = []
    for clients in (int(c) for c in args.clients.split(",")):
        latencies, wall = run_clients(port, measured, clients, args.k)
        rows.append((f"argkb serve, {clients} client(s)", latencies, len(measured) / wall))
        print(f"{clients} client(s): {len(measured) / wall:.1f} queries/s", flush=True)
    return rows, load_before


def measure_cli(argkb: list[str], env: dict[str, str], texts: list[str], k: int) -> Row:
    """The baseline: ``argkb query TEXT --json`` in a new process per query."""
    cli: list[float] = []
    for text in texts:
        clock = time.perf_counter()
        done = subprocess.run(
            [*argkb, "query", text, "--k", str(k), "--json"],
            env=env,
            capture_output=True,
            check=False,
        )
        cli.append(time.perf_counter() - clock)
        if done.returncode != 0:
            raise SystemExit(f"argkb query failed: {done.stderr.decode()[-300:]}")
        json.loads(done.stdout)
    return ("argkb query, a process per query", cli, len(cli) / sum(cli))


def print_table(rows: list[Row]) -> None:
    from bench import common

    print("| method | queries/s | p50 ms | p95 ms | max ms | goal p95<=300 at 4 clients |")
    print("|---|---:|---:|---:|---:|---|")
    for name, values, rate in rows:
        ms = [v * 1000 for v in values]
        p95 = common.percentile(ms, 95)
        goal = ("met" if p95 <= 300 else "NOT met") if name.endswith(" 4 client(s)") else ""
        print(
            f"| {name} | {rate:.2f} | {common.percentile(ms, 50):.0f} | {p95:.0f} | "
            f"{max(ms):.0f} | {goal} |"
        )


def environment(inst: Any) -> dict[str, str]:
    """What an ``argkb`` subprocess needs to reach the benchmark's instance."""
    env = dict(os.environ, NEO4J_URI=inst.uri, HF_HUB_OFFLINE="1")
    auth = inst.server.config.auth()
    if auth is not None:
        env["NEO4J_USERNAME"], env["NEO4J_PASSWORD"] = auth
    return env


def measure_cold(args: argparse.Namespace, inst: Any, argkb: list[str], texts: list[str]) -> None:
    """``--cold``: per variant, restart Neo4j, start serve, time its start and its first
    requests; the instance is stopped on the way out, whichever restart it is."""
    from bench import common

    print("| serve | seconds to answering | first request ms | requests 2 to n: p50 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    try:
        for index, (name, option) in enumerate([("--no-warm-up (baseline)", "--no-warm-up"),
                                                ("warm-up (default)", "--warm-up")]):  # fmt: skip
            inst.stop()
            inst = common.reuse_instance(inst.home, heap=args.heap, pagecache=args.pagecache)
            clock = time.perf_counter()
            with serving(argkb, environment(inst), option) as port:
                started = time.perf_counter() - clock
                batch = texts[index * args.queries : (index + 1) * args.queries]
                ms = [v * 1000 for v in run_clients(port, batch, 1, args.k)[0]]
            p50 = common.percentile(ms[1:], 50)
            print(f"| {name} | {started:.1f} | {ms[0]:.0f} | {p50:.0f} | {max(ms[1:]):.0f} |",
                  flush=True)  # fmt: skip
    finally:
        inst.stop()


def main() -> int:
    args = build_parser().parse_args()

    from bench import common

    folder = args.workdir / "instance"
    if not (folder / "data").exists():
        raise SystemExit(f"no benchmark graph in {folder}: run bench/query.py first")
    inst = common.reuse_instance(folder, heap=args.heap, pagecache=args.pagecache)
    env = environment(inst)
    argkb = [str(Path(sys.executable).with_name("argkb"))]  # the venv's console script
    if args.cold:
        with inst.driver() as drv:
            texts = common.benchmark_queries(drv, 2 * args.queries, args.seed + 2)
        measure_cold(args, inst, argkb, texts)
        print(f"\n{args.queries} requests per variant, k={args.k}, the bench/query.py graph in "
              f"{args.workdir}; load average {os.getloadavg()[0]:.1f} after")  # fmt: skip
        return 0
    try:
        with inst.driver() as drv:
            texts = common.benchmark_queries(
                drv, args.warmup + args.queries + args.cli_queries, args.seed + 1
            )
        with serving(argkb, env) as port:  # up during the baseline too, as when it was measured
            rows, load_before = measure_serve(args, port, texts)
            rows.append(measure_cli(argkb, env, texts[args.warmup + args.queries :], args.k))
    finally:
        inst.stop()
    load = os.getloadavg()[0]
    print(
        f"\n{args.queries} queries per client count after {args.warmup} warm-up, k={args.k}, "
        f"the bench/query.py graph in {args.workdir}; {args.cli_queries} queries for the "
        f"process-per-query baseline; load average {load_before:.1f} before, {load:.1f} after\n"
    )
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
