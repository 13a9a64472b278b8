#!/usr/bin/env python3
"""Load test of the example server: the container version beside the hand-wired one.

Starts both versions of the built server on 127.0.0.1 (each on a free port it picks itself),
drives keep-alive HTTP/1.1 traffic at them from 64 connections (the Python 3 standard library
only), and checks what per-request injection promises:

- every response carries its own request's id, and the context id the handler got is the one
  the request-scope middleware made (container version: the X-Context-ID header);
- no two requests ever got the same context instance;
- no request failed (no status other than 200, no dropped connection);
- clients that hang up while their request runs leave nothing behind;
- after the load, no request context is alive, and resident memory grew less than a bound;
- on SIGTERM, each server answers the request it is running, then exits with status 0.

Then it prints the throughput, p99 latency and server CPU time per request of both versions,
and their ratios: a benchmark, which never fails on the numbers. Every wait is bounded.

    python3 Scripts/load_test.py --binary .build/release/Server
"""

import argparse
import asyncio
import json
import os
import signal
import sys
import time

HOST = "127.0.0.1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class CheckFailed(Exception):
    """A check that did not pass; the message says which and why."""


def check(passed, description):
    """Prints one check; a failing one ends the test."""
    print(f"  {'ok  ' if passed else 'FAIL'} {description}", flush=True)
    if not passed:
        raise CheckFailed(description)


class Server:
    """One running server process, with its output kept for a failure report."""

    def __init__(self, binary, wiring, slow_ms):
        self.binary, self.wiring, self.slow_ms = binary, wiring, slow_ms
        self.process, self.port, self.output = None, None, []
        self.drain = None  # the task that keeps reading the server's output
        self.baseline = None  # /stats after the warm-up
        self.context_ids = set()  # every context id the server answered with

    async def start(self, timeout):
        arguments = ["--port", "0"] + (["--hand-wired"] if self.wiring == "hand-wired" else [])
        self.process = await asyncio.create_subprocess_exec(
            self.binary, *arguments,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "SLOW_RESPONSE_MS": str(self.slow_ms)})
        deadline = time.monotonic() + timeout
        while self.port is None:
            line = await asyncio.wait_for(self.process.stdout.readline(), deadline - time.monotonic())
            if not line:
                raise CheckFailed(f"{self.wiring}: the server ended before listening: {self.output}")
            self.output.append(line.decode(errors="replace").rstrip())
            if line.startswith(b"Listening on http://"):
                self.port = int(line.split(b":")[2].split(b" ")[0])
        self.drain = asyncio.create_task(self._drain_output())

    async def _drain_output(self):
        while line := await self.process.stdout.readline():
            self.output.append(line.decode(errors="replace").rstrip())

    def cpu_seconds(self):
        """User and system CPU time the server used so far (Linux /proc)."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    async def stats(self):
        """GET /stats on a connection of its own."""
        reader, writer = await asyncio.open_connection(HOST, self.port)
        try:
            writer.write(b"GET /stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            status, _, body = await asyncio.wait_for(read_response(reader), 10)
            if status != 200:
                raise CheckFailed(f"{self.wiring}: GET /stats answered {status}")
            return json.loads(body)
        finally:
            writer.close()

    async def poll_stats(self, until, timeout):
        """Polls /stats until `until(stats)` holds or `timeout` seconds pass; the last stats. A
        refused or dropped connection counts as not yet, until the time is up."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                stats = await self.stats()
                if until(stats):
                    return stats
            except (ConnectionError, asyncio.IncompleteReadError):
                if time.monotonic() > deadline:
                    raise
            else:
                if time.monotonic() > deadline:
                    return stats
            await asyncio.sleep(0.05)

    async def stop_during_request(self, timeout):
        """Sends SIGTERM while a GET /slow runs: (its HTTP status, the request id it echoed, the
        server's exit status, or None if it did not exit within `timeout` seconds)."""
        reader, writer = await asyncio.open_connection(HOST, self.port)
        writer.write(b"GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-ID: in-flight\r\n\r\n")
        await self.poll_stats(lambda stats: stats["liveContexts"] >= 1, timeout)
        self.process.send_signal(signal.SIGTERM)
        try:
            status, _, body = await asyncio.wait_for(read_response(reader), timeout)
            exit_status = await asyncio.wait_for(self.process.wait(), timeout)
            await asyncio.wait_for(self.drain, timeout)
            return status, json.loads(body)["requestID"], exit_status
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            self.process.kill()
            await self.process.wait()
            return None, None, None
        finally:
            writer.close()


async def read_response(reader):
    """One HTTP/1.1 response with a Content-Length body: (status, headers, body)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        if line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers, body


class LoadResult:
    """What one load run saw."""

    def __init__(self):
        self.latencies, self.failures = [], []
        self.echoed = self.header_matches = 0
        self.duplicate_contexts = 0
        self.seconds = self.cpu_seconds = 0.0


async def run_load(server, tag, requests, connections):
    """`requests` GET /greet over `connections` keep-alive connections, each request with a
    unique X-Request-ID; checks each response against its request."""
    result, next_index = LoadResult(), iter(range(requests))

    async def connection(number):
        reader, writer = await asyncio.open_connection(HOST, server.port)
        try:
            for index in next_index:
                request_id = f"{tag}-{index}"
                started = time.perf_counter()
                writer.write(
                    f"GET /greet HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-ID: {request_id}\r\n"
                    f"X-Caller: client-{number}\r\n\r\n".encode())
                try:
                    status, headers, body = await read_response(reader)
                except (asyncio.IncompleteReadError, ConnectionError) as error:
                    result.failures.append(f"{request_id}: connection dropped ({error!r})")
                    return
                result.latencies.append(time.perf_counter() - started)
                if status != 200:
                    result.failures.append(f"{request_id}: status {status}")
                    continue
                greeting = json.loads(body)
                context_id = greeting["contextID"]
                result.echoed += greeting["requestID"] == request_id
                result.header_matches += headers.get("x-context-id") == str(context_id)
                if context_id in server.context_ids:
                    result.duplicate_contexts += 1
                server.context_ids.add(context_id)
        finally:
            writer.close()

    cpu_before, started = server.cpu_seconds(), time.perf_counter()
    await asyncio.gather(*(connection(number) for number in range(connections)))
    result.seconds = time.perf_counter() - started
    result.cpu_seconds = server.cpu_seconds() - cpu_before
    return result


async def abandon_slow_requests(server, count, timeout):
    """Sends `count` GET /slow requests, waits (bounded polling) until all of them are running in
    the server, then hangs up on them (half with FIN, half with RST); returns the live contexts
    seen while they ran and how long the server took to drop them."""
    streams = [await asyncio.open_connection(HOST, server.port) for _ in range(count)]
    for index, (_, writer) in enumerate(streams):
        writer.write(f"GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-ID: abandoned-{index}\r\n\r\n".encode())
    running = await server.poll_stats(lambda stats: stats["liveContexts"] >= count, timeout)
    hung_up = time.monotonic()
    for index, (_, writer) in enumerate(streams):
        if index % 2:
            writer.transport.abort()
        else:
            writer.close()
    after = await server.poll_stats(lambda stats: stats["liveContexts"] == 0, timeout)
    return running["liveContexts"], after["liveContexts"], time.monotonic() - hung_up


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the built Server executable")
    parser.add_argument("--requests", type=int, default=20_000, help="requests per measured round")
    parser.add_argument("--rounds", type=int, default=2, help="measured rounds per version, alternated")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--warmup", type=int, default=4_000, help="requests before the baseline")
    parser.add_argument("--abandoned", type=int, default=200, help="slow requests hung up on")
    parser.add_argument("--slow-ms", type=int, default=2_000, help="how long GET /slow takes")
    parser.add_argument("--memory-bound-mib", type=float, default=10, help="allowed resident growth after the warm-up")
    arguments = parser.parse_args()

    servers = [Server(arguments.binary, wiring, arguments.slow_ms) for wiring in ("container", "hand-wired")]
    results = {server.wiring: [] for server in servers}
    try:
        for server in servers:
            await server.start(timeout=30)
            await server.poll_stats(lambda stats: True, timeout=30)  # until it answers
            print(f"{server.wiring}: listening on {HOST}:{server.port}, pid {server.process.pid}", flush=True)
            await run_load(server, f"{server.wiring}-warmup", arguments.warmup, arguments.connections)
            server.baseline = await server.stats()

        for round_number in range(1, arguments.rounds + 1):
            for server in servers:
                print(f"{server.wiring}, round {round_number}: {arguments.requests} requests over "
                      f"{arguments.connections} connections", flush=True)
                result = await run_load(server, f"{server.wiring}-{round_number}", arguments.requests, arguments.connections)
                results[server.wiring].append(result)
                answered = len(result.latencies)
                check(not result.failures, f"no request failed (no non-200 status, no dropped connection): "
                      f"{len(result.failures)} failed {result.failures[:3]}")
                check(answered == arguments.requests, f"every request answered: {answered}/{arguments.requests}")
                check(result.echoed == answered, f"each response carries its own request's id: {result.echoed}/{answered}")
                check(result.duplicate_contexts == 0, f"no two requests got the same context instance: "
                      f"{result.duplicate_contexts} repeated, {len(server.context_ids)} distinct so far")
                if server.wiring == "container":
                    check(result.header_matches == answered, f"the handler's context is the one the request's scope "
                          f"made (X-Context-ID): {result.header_matches}/{answered}")

        for server in servers:
            print(f"{server.wiring}: {arguments.abandoned} clients hang up during GET /slow "
                  f"({arguments.slow_ms} ms)", flush=True)
            running, left, seconds = await abandon_slow_requests(server, arguments.abandoned, timeout=30)
            check(running >= arguments.abandoned, f"all were running in their scopes when the clients hung up: "
                  f"{running} live contexts")
            check(left == 0, f"nothing left behind: {left} live contexts {seconds:.2f} s after hanging up")
            stats = await server.poll_stats(lambda stats: stats["liveContexts"] == 0, timeout=30)
            check(stats["liveContexts"] == 0, f"after the load, no request context is alive: {stats['liveContexts']} "
                  f"(made {stats['contextsMade']})")
            if stats["residentBytes"] is not None:
                growth = (stats["residentBytes"] - server.baseline["residentBytes"]) / 2**20
                check(growth < arguments.memory_bound_mib,
                      f"resident memory grew {growth:+.1f} MiB after the warm-up "
                      f"({server.baseline['residentBytes'] / 2**20:.1f} -> {stats['residentBytes'] / 2**20:.1f} MiB), "
                      f"bound {arguments.memory_bound_mib:g} MiB")

        for server in servers:
            started = time.monotonic()
            status, request_id, exit_status = await server.stop_during_request(timeout=15)
            check(status == 200 and request_id == "in-flight" and exit_status == 0,
                  f"{server.wiring}: SIGTERM during a GET /slow: the request was answered ({status}, "
                  f"{request_id}), then the server exited with status {exit_status} "
                  f"in {time.monotonic() - started:.2f} s")
    except BaseException:
        for server in servers:
            if server.process and server.process.returncode is None:
                server.process.kill()
        for server in servers:
            print(f"--- {server.wiring} server output (last 20 lines)", *server.output[-20:], sep="\n")
        raise

    print("\nCost of the container (a benchmark: never fails on the numbers)")
    print(f"  {'version':<11} {'requests/s':>11} {'p50 ms':>8} {'p99 ms':>8} {'server CPU µs/request':>22}")
    summary = {}
    for wiring, rounds in results.items():
        latencies = [latency for result in rounds for latency in result.latencies]
        requests = len(latencies)
        summary[wiring] = (
            requests / sum(result.seconds for result in rounds),
            percentile(latencies, 0.50) * 1000,
            percentile(latencies, 0.99) * 1000,
            sum(result.cpu_seconds for result in rounds) / requests * 1e6)
        print(f"  {wiring:<11} {summary[wiring][0]:>11.0f} {summary[wiring][1]:>8.2f} {summary[wiring][2]:>8.2f} "
              f"{summary[wiring][3]:>22.1f}")
    container, by_hand = summary["container"], summary["hand-wired"]
    print(f"  container / hand-wired: throughput {container[0] / by_hand[0]:.3f}x, p99 {container[2] / by_hand[2]:.3f}x, "
          f"server CPU per request {container[3] / by_hand[3]:.3f}x")
    print(f"  ({arguments.rounds} alternated rounds of {arguments.requests} requests per version over "
          f"{arguments.connections} connections; the client shares the machine with the servers)")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except CheckFailed as failure:
        print(f"load test FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
