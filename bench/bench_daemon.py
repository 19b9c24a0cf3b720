"""Benchmark of the daemon over real ZeroMQ (issue 3). Prints one JSON object.

In one run, on the same ipc transport:
- `status` round trip p50/p99 through ragix_client, against a bare pyzmq DEALER/ROUTER echo
  (a server in its own process answering with a frame of the status answer's size to a frame
  of the status request's size), one of each in turn so that both see the same load, with the
  calling process's CPU per call for each (what a client costs its machine);
- durable single-write latency p50/p99 (one client, one write at a time; synchronous=FULL),
  beside the same writes committed one by one into a Store in process (the fsync floor);
- writes/s with 1, 4 and 16 concurrent clients, each a separate process writing sequentially
  (write, wait for the answer, write...), so that no client shares a GIL with another (they do
  share the machine's cores with the daemon); beside it, the Store's own rate in process with
  groups of 16, the largest group 16 sequential clients can form (the ceiling), with SQLite's
  own time per item (one writer: its rate bounds any daemon's), the clients' CPU per write,
  and issue 2's baseline (a bare table + FTS5, same texts, groups of 16) in process;
- search p50/p99 at N items through the daemon (mode fts), against the daemon's own search op
  called in process on the same home with the same queries (each query both ways in turn),
  and a bare echo round trip with a search's request and answer sizes after each pair (the
  transport's share of the difference). The store is populated in process (groups of 1000
  realistic items from textgen) before the daemon opens it.

Usage: python bench/bench_daemon.py [--items 100000] [--n 2000] [--seconds 3]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack
import zmq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests"))
from common import SqliteClock, emit, percentiles, progress
from textgen import TextGen, populate as fill

ECHO_SERVER = """
import sys, zmq
ctx = zmq.Context()
sock = ctx.socket(zmq.ROUTER)
sock.bind(sys.argv[1])
answer = b"a" * int(sys.argv[2])
print("ready", flush=True)
while True:
    frames = sock.recv_multipart()
    if frames[-1] == b"stop":
        break
    sock.send_multipart([frames[0], answer])
"""


def status_sizes(client) -> tuple[int, int]:
    """Bytes of a status request and of its answer, as they travel."""
    request = msgpack.packb({"v": 1, "id": 1, "op": "status", "args": {}}, use_bin_type=True)
    answer = msgpack.packb({"v": 1, "id": 1, "ok": True, "result": client.status()}, use_bin_type=True)
    return len(request), len(answer)


class Echo:
    """A bare pyzmq echo server in its own process, answering a frame of `answer_size` bytes
    to each frame of `request_size`; `round_trip()` times one exchange through a DEALER."""

    def __init__(self, endpoint: str, request_size: int, answer_size: int) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", ECHO_SERVER, endpoint, str(answer_size)],
                                     stdout=subprocess.PIPE, text=True)
        self.proc.stdout.readline()
        self.sock = zmq.Context.instance().socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(endpoint)
        self.payload = b"r" * request_size

    def round_trip(self) -> float:
        start = time.perf_counter()
        self.sock.send(self.payload)
        self.sock.poll(10_000)
        self.sock.recv()
        return time.perf_counter() - start

    def close(self) -> None:
        self.sock.send(b"stop")
        self.proc.wait(10)
        self.sock.close()


def bench_status_vs_echo(client, endpoint: str, request_size: int, answer_size: int,
                        n: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Status through ragix_client and a bare DEALER round trip to the echo server, one of
    each in turn, so that both see the same machine load."""
    echo = Echo(endpoint, request_size, answer_size)
    status_s, echo_s = [], []
    status_cpu = echo_cpu = 0.0  # this process's CPU (its ZeroMQ I/O thread included) per call
    for i in range(n + 200):
        cpu = time.process_time()
        start = time.perf_counter()
        client.status()
        middle = time.perf_counter()
        cpu_middle = time.process_time()
        took = echo.round_trip()
        if i >= 200:  # the first ones warm up both connections
            status_s.append(middle - start)
            echo_s.append(took)
            status_cpu += cpu_middle - cpu
            echo_cpu += time.process_time() - cpu_middle
    echo.close()
    return ({**percentiles(status_s), "client_cpu_us": round(status_cpu / n * 1e6, 1)},
            {**percentiles(echo_s), "client_cpu_us": round(echo_cpu / n * 1e6, 1)})


def bench_single_write(client, home: Path, n: int, warmup: int) -> dict[str, Any]:
    """Daemon writes and in-process Store commits, interleaved one for one so that both see
    the same disk and the same load. Both are warmed first: until SQLite's first checkpoint
    the WAL file grows on every commit, and a growing file costs a slower fsync."""
    from ragixd.domain import commands as c
    from ragixd.store.store import Store
    gen = TextGen(99)
    store = Store(home / "ragix.db", synchronous="FULL")
    for _ in range(warmup):
        title, content = gen.item()
        store.execute([c.CreateItem({"title": title, "content": content}, dedup=False)])
    daemon_s, store_s = [], []
    for _ in range(n):
        title, content = gen.item()
        start = time.perf_counter()
        client.write(title=title, content=content, dedup=False)
        daemon_s.append(time.perf_counter() - start)
        title, content = gen.item()
        start = time.perf_counter()
        store.execute([c.CreateItem({"title": title, "content": content}, dedup=False)])
        store_s.append(time.perf_counter() - start)
    store.close()
    return {"writes": n, "warmup_writes": warmup, **percentiles(daemon_s),
            "store_in_process": percentiles(store_s)}


def bench_store_writes(home: Path, n: int, group: int) -> dict[str, Any]:
    """The same writes straight into a Store in process (synchronous=FULL, as the daemon):
    the floor for the daemon's write latency and the ceiling for its throughput."""
    from ragixd.domain import commands as c
    from ragixd.store.store import Store
    gen = TextGen(98)
    store = Store(home / "ragix.db", synchronous="FULL")
    # The policy built as the daemon builds it before it serves: its databases' compile (seconds,
    # once per process) is no part of a write.
    from ragixd import paths
    from ragixd.domain.policy import native
    from ragixd.native_cache import DirectoryCache
    native.use_cache(DirectoryCache(paths.cache_dir() / "policy"))  # the daemon's compiled databases
    c.default_policy().warm()
    for _ in range(20):  # and warmed as the daemon is by its warm-up writes
        store.execute([c.CreateItem({"title": title, "content": content}, dedup=False)
                       for title, content in (gen.item() for _ in range(group))])
    samples = []
    clock = SqliteClock()  # SQLite's own time: one writer, so its rate bounds any daemon's
    store.profile_sqlite(clock)
    start = time.perf_counter()
    for base in range(0, n, group):
        batch = [gen.item() for _ in range(group)]
        t = time.perf_counter()
        store.execute([c.CreateItem({"title": title, "content": content}, dedup=False)
                       for title, content in batch])
        samples.append(time.perf_counter() - t)
    elapsed = time.perf_counter() - start
    store.close()
    return {"group": group, "items": n, "items_per_s": round(n / elapsed), "per_commit": percentiles(samples),
            "sqlite_us_per_item": round(clock.seconds / n * 1e6, 1),
            "items_per_s_if_only_sqlite_ran": round(n / clock.seconds)}


def bench_bare_writes(home: Path, n: int, group: int) -> dict[str, Any]:
    """The same texts into a bare table + FTS5 in process, in groups of the same size (issue
    2's baseline): no log, no policy, no projections, no transport. What even the least a
    searchable, durable write can be costs on this machine, beside the throughput target."""
    from bench_store import bench_baseline
    gen = TextGen(97)
    items = [{"title": title, "content": content, "tags": []} for title, content in (gen.item() for _ in range(n))]
    return bench_baseline(items, group, home)


def _write_loop(endpoint: str, seed: int, ready, go, seconds: float, out) -> None:
    from ragix_client import Client
    gen = TextGen(seed)
    texts = [gen.item() for _ in range(4000)]
    client = Client(endpoint, timeout=60)
    client.status()
    ready.put(seed)
    go.wait()
    count = 0
    samples = []
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        title, content = texts[count % len(texts)]
        start = time.perf_counter()
        client.write(title=f"{title} {seed}-{count}", content=content, dedup=False)
        samples.append(time.perf_counter() - start)
        count += 1
    cpu = time.process_time() - cpu
    client.close()
    out.put((count, time.perf_counter(), samples, cpu))


def bench_concurrent_writes(endpoint: str, clients: int, seconds: float) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    ready, out, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    procs = [ctx.Process(target=_write_loop, args=(endpoint, 1000 + i, ready, go, seconds, out))
             for i in range(clients)]
    for p in procs:
        p.start()
    for _ in procs:
        ready.get(timeout=120)
    start = time.perf_counter()
    go.set()
    results = [out.get(timeout=seconds + 120) for _ in procs]
    for p in procs:
        p.join(30)
    elapsed = max(end for _, end, _, _ in results) - start
    writes = sum(count for count, _, _, _ in results)
    latencies = [s for _, _, samples, _ in results for s in samples]
    client_cpu = sum(cpu for _, _, _, cpu in results)
    # The clients' own CPU (packing, sending, waiting, unpacking) is taken from the same two
    # cores as the daemon's: at the target's rate it would need this many of them alone.
    return {"clients": clients, "writes": writes, "seconds": round(elapsed, 2),
            "writes_per_s": round(writes / elapsed), "latency": percentiles(latencies),
            "client_cpu_us_per_write": round(client_cpu / writes * 1e6, 1)}


def _bulk_loop(endpoint: str, in_flight: int, ready, stop, out) -> None:
    """A bulk writer: `propose` batches of 100 items, `in_flight` of them pipelined at all times
    (an agent importing a folder), until `stop` is set; puts the items acknowledged."""
    import msgpack
    import zmq
    gen = TextGen(77)
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.connect(endpoint)
    sent = acked = 0
    ready.put("bulk")
    while not stop.is_set():
        while sent - acked < in_flight:
            items = [{"title": title, "content": content, "why_store": "bulk import", "source": "bench"}
                     for title, content in (gen.item() for _ in range(100))]
            sock.send_multipart([b"", msgpack.packb({"v": 1, "id": sent, "op": "propose", "args": {"items": items}})])
            sent += 1
        if sock.poll(100):
            sock.recv_multipart()
            acked += 1
    sock.close(linger=0)
    out.put(acked * 100)


def bench_fairness(client, endpoint: str, n: int, in_flight: int = 20) -> dict[str, Any]:
    """A client's single writes alone, then while another client keeps `in_flight` propose
    batches of 100 items queued (2,000 items ahead of it in a first-come queue)."""
    def quiet(label: str) -> list[float]:
        samples = []
        for i in range(n):
            start = time.perf_counter()
            client.write(title=f"quiet {label} {i}", content=f"a quiet client's note {i}", dedup=False)
            samples.append(time.perf_counter() - start)
            time.sleep(0.02)
        return samples
    alone = quiet("alone")
    ctx = mp.get_context("spawn")
    ready, stop, out = ctx.Queue(), ctx.Event(), ctx.Queue()
    bulk = ctx.Process(target=_bulk_loop, args=(endpoint, in_flight, ready, stop, out))
    bulk.start()
    ready.get(timeout=120)
    time.sleep(2.0)  # let its backlog build
    start = time.perf_counter()
    beside = quiet("beside")
    stop.set()
    bulk_items = out.get(timeout=300)
    elapsed = time.perf_counter() - start
    bulk.join(30)
    return {"quiet_writes": n, "bulk_in_flight_batches": in_flight, "bulk_batch_items": 100,
            "alone": percentiles(alone), "beside_bulk": percentiles(beside),
            "bulk_items_per_s": round(bulk_items / (elapsed + 2.0))}


def populate(home: Path, items: int) -> float:
    """Items written as the daemon writes them (Memory: vectors included), so the daemon starts
    with nothing to back-fill: a back-fill running under the measurements would skew them."""
    from ragixd.memory import Memory
    mem = Memory(home, synchronous="OFF", backfill=False)
    seconds = fill(mem.execute, items, report=progress)
    mem.close()
    return seconds


def search_queries(n: int) -> list[str]:
    gen = TextGen(123)
    return [gen.query(1 + i % 3) for i in range(n)]


def bench_search(client, search_in_process, queries: list[str],
                 echo: Echo) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Each query through the daemon and in process on the same store, in turn, the daemon
    first for every other query: whichever runs a new query first reads its pages into the
    page cache for the other (with the daemon always first, it measured ~15 % slower). After
    each pair, a bare echo round trip with a search's request and answer sizes: the transport
    alone, its server idle for as long as the daemon was (waking an idle process costs more
    than answering a busy one)."""
    for q in queries[:50]:
        client.search(q, k=10, mode="fts")
        search_in_process(q)
        echo.round_trip()
    daemon_s, local_s, echo_s = [], [], []

    def through(q: str) -> None:
        start = time.perf_counter()
        client.search(q, k=10, mode="fts")
        daemon_s.append(time.perf_counter() - start)

    def local(q: str) -> None:
        start = time.perf_counter()
        search_in_process(q)
        local_s.append(time.perf_counter() - start)

    for i, q in enumerate(queries):
        for run in ((through, local) if i % 2 == 0 else (local, through)):
            run(q)
        echo_s.append(echo.round_trip())
    return percentiles(daemon_s), percentiles(local_s), percentiles(echo_s)


def in_process_search(home: Path):
    """The daemon's own search op (handler, filters, answer) called in process on the same
    home, in fts mode: what the daemon adds is then transport, validation and threads only.
    Returns (search function, close function)."""
    from ragixd.domain.trust import Caller
    from ragixd.memory import Memory
    from ragixd.ops import handlers, registry
    mem = Memory(home, backfill=False)
    owner = Caller("full", "owner")
    extras = {"pub_endpoint": "", "memory": mem, "policy": mem.policy}

    def search(q: str) -> Any:
        ctx = handlers.QueryContext(mem.store.reader(), owner, extras)
        return registry.QUERIES["search"](ctx, {"query": q, "k": 10, "mode": "fts"})
    return search, mem.close


def run_search(work: Path, items: int, n_queries: int,
               reuse: Path | None = None) -> tuple[float | None, dict[str, Any]]:
    from support.daemon import Daemon

    if reuse is not None and (reuse / "ragix.db").exists():
        home, populate_s = reuse, None
        progress(f"reusing the populated home {home}")
    else:
        progress(f"populating {items} items in process")
        home = reuse or work / "search"
        home.mkdir(parents=True, exist_ok=True)
        populate_s = round(populate(home, items), 1)
    daemon = Daemon(home, checked=False).start(timeout=300)
    client = daemon.client()
    search, close = in_process_search(home)  # a second, read-only use of the daemon's home
    queries = search_queries(n_queries)
    request_size, answer_size = search_sizes(search, queries)
    echo = Echo(f"ipc://{work / 'search-echo.sock'}", request_size, answer_size)
    progress("search through the daemon and in process")
    through, in_process, bare = bench_search(client, search, queries, echo)
    echo.close()
    close()
    client.close()
    daemon.stop()
    return populate_s, {"daemon": through, "in_process": in_process,
                        "ratio_p50": ratio(through, in_process),
                        "ratio_p99": ratio(through, in_process, "p99_ms"),
                        "daemon_minus_in_process_p50_ms": round(through["p50_ms"] - in_process["p50_ms"], 4),
                        "bare_echo_same_sizes": {**bare, "request_bytes": request_size,
                                                 "answer_bytes": answer_size}}


def search_sizes(search, queries: list[str]) -> tuple[int, int]:
    """Median bytes of a search request and of its answer, as they travel."""
    sizes = []
    for q in queries[:50]:
        request = {"v": 1, "id": 1, "op": "search", "args": {"query": q, "k": 10, "mode": "fts"}}
        answer = {"v": 1, "id": 1, "ok": True, "result": search(q)}
        sizes.append((len(msgpack.packb(request, use_bin_type=True)), len(msgpack.packb(answer, use_bin_type=True))))
    return sorted(s[0] for s in sizes)[len(sizes) // 2], sorted(s[1] for s in sizes)[len(sizes) // 2]


def ratio(a: dict[str, Any], b: dict[str, Any], key: str = "p50_ms") -> float:
    return round(a[key] / b[key], 3) if b[key] else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=100_000, help="items in the store for search")
    ap.add_argument("--n", type=int, default=2000, help="samples for the latency figures")
    ap.add_argument("--writes", type=int, default=1000, help="single durable writes timed")
    ap.add_argument("--warmup", type=int, default=1500, help="writes before the single-write timing")
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each concurrent-write run")
    ap.add_argument("--queries", type=int, default=600)
    ap.add_argument("--search-home", default=None,
                    help="populate the search part's home here, or reuse it if already populated "
                         "(textgen items written through Memory, as bench_vectors.py does)")
    ap.add_argument("--only", default="search,status,write,concurrent,fairness",
                    help="comma-separated parts to run (default: all)")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    from support.daemon import Daemon
    with tempfile.TemporaryDirectory(prefix="ragix-bench-", dir=os.environ.get("BENCH_TMP")) as tmp:
        work = Path(tmp)
        out: dict[str, Any] = {"bench": "daemon", "cpus": os.cpu_count(), "items": args.items}

        if "search" in parts:
            reuse = Path(args.search_home) if args.search_home else None
            out["populate_s"], out["search"] = run_search(work, args.items, args.queries, reuse)
        daemon = Daemon(work / "writes", checked=False).start()
        client = daemon.client()
        if "status" in parts:
            progress("status round trip and bare echo")
            request_size, answer_size = status_sizes(client)
            status, echo = bench_status_vs_echo(client, f"ipc://{work / 'echo.sock'}", request_size,
                                                answer_size, args.n)
            out["status"] = {"daemon": status, "bare_echo": echo, "request_bytes": request_size,
                             "answer_bytes": answer_size, "ratio_p50": ratio(status, echo),
                             "ratio_p99": ratio(status, echo, "p99_ms")}
        if "concurrent" in parts:
            out["concurrent_writes"] = []
            for clients in (1, 4, 16):
                progress(f"writes with {clients} concurrent clients")
                out["concurrent_writes"].append(bench_concurrent_writes(daemon.endpoint, clients, args.seconds))
            progress("store ceiling: groups of 16 in process")
            (work / "inproc16").mkdir()
            out["store_in_process_group_16"] = bench_store_writes(work / "inproc16", 3200, 16)
            progress("bare table + FTS5 in process, groups of 16 (issue 2's baseline)")
            (work / "bare16").mkdir()
            out["bare_table_fts_group_16"] = bench_bare_writes(work / "bare16", 20_000, 16)
        if "fairness" in parts:
            progress("a client's single writes beside a bulk writer")
            out["fairness"] = bench_fairness(client, daemon.endpoint, 60)
        if "write" in parts:
            progress("single durable writes, daemon and in process interleaved")
            (work / "inproc1").mkdir()
            warmup = 0 if "concurrent" in parts else args.warmup
            if warmup:
                for i in range(warmup):
                    client.write(title=f"warm-up {i}", content="warm-up", dedup=False)
            out["single_write"] = bench_single_write(client, work / "inproc1", args.writes, args.warmup)
        client.close()
        check = daemon.client()
        out["verify_ok"] = check.verify()["ok"]
        check.close()
        daemon.stop()
    targets = {
        "status_le_2x_echo": lambda: out["status"]["ratio_p50"] <= 2.0,
        "single_write_p50_le_2ms": lambda: out["single_write"]["p50_ms"] <= 2.0,
        "writes_16_clients_ge_20k": lambda: out["concurrent_writes"][-1]["writes_per_s"] >= 20_000,
        "search_le_1_3x_in_process": lambda: out["search"]["ratio_p50"] <= 1.3,
    }
    out["targets"] = {}
    for name, met in targets.items():
        try:
            out["targets"][name] = met()
        except KeyError:
            pass  # that part was not run
    emit(out)


if __name__ == "__main__":
    main()
