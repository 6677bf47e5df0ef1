"""Shared runner of the fuzz harnesses (tools/fuzz_vmfb.py, tools/fuzz_mlir.py).

The parent process imports tensorvm once, generates mutants and forks one
child per mutant for the part that may misbehave; at most ``jobs`` children
run at a time.  The parent never creates a device or a thread, so forking is
safe and cheap (a few ms; no re-import).  Each child reports one JSON line on
a pipe; the parent classifies every mutant as

* ``ok``     - ran to completion,
* ``typed``  - raised one of the documented tensorvm errors,
* ``other``  - raised any other exception (a bug: the harness reports it),
* ``crash``  - died from a signal or exited without reporting,
* ``hang``   - ran past the timeout (killed).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import signal
import threading
import time
import traceback

CLASSES = ("ok", "typed", "other", "crash", "hang")
#: Address-space cap of a child: a mutant asking for absurd memory fails
#: there instead of taking the machine down.
CHILD_MEMORY_BYTES = 8 << 30


def arg_parser(doc: str, count: int, timeout_s: float) -> argparse.ArgumentParser:
    """The options both harnesses take: --count, --seed, --jobs, --timeout, --json."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("--count", type=int, default=count)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=timeout_s, help="seconds per mutant")
    p.add_argument("--json", metavar="PATH", help="write the tally as JSON")
    return p


def _child(fd: int, work, item) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY_BYTES, CHILD_MEMORY_BYTES))
    except (ValueError, OSError):
        pass
    try:
        result = work(item)
    except BaseException as e:  # noqa: BLE001 - classifying is the point
        result = {"class": "other", "error": type(e).__name__, "message": str(e)[:400],
                  "where": traceback.format_exc().strip().splitlines()[-3:-1]}
    try:
        os.write(fd, (json.dumps(result, default=str)[:8000] + "\n").encode())
    finally:
        os._exit(0)


def run_all(items, work, *, jobs: int = 2, timeout_s: float = 10.0, progress=None):
    """Run ``work(item) -> dict`` (with at least ``class``) for each item in a
    forked child; yields ``(item, result)`` in completion order."""
    if threading.active_count() > 1:
        raise RuntimeError("fuzz parent must not run threads before forking")
    pending = iter(items)
    running = {}        # pid -> (item, read fd, start)
    done = 0
    exhausted = False
    while running or not exhausted:
        while not exhausted and len(running) < jobs:
            item = next(pending, None)
            if item is None:
                exhausted = True
                break
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                _child(w, work, item)
            os.close(w)
            running[pid] = (item, r, time.monotonic())
        if not running:
            break
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            now = time.monotonic()
            for p, (item, r, start) in list(running.items()):
                if now - start > timeout_s:
                    os.kill(p, signal.SIGKILL)
                    os.waitpid(p, 0)
                    os.close(r)
                    del running[p]
                    done += 1
                    yield item, {"class": "hang", "error": f"no result after {timeout_s} s"}
            time.sleep(0.001)
            continue
        if pid not in running:
            continue
        item, r, _ = running.pop(pid)
        data = b""
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        done += 1
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            yield item, {"class": "crash", "error": signal.Signals(sig).name}
        elif not data:
            yield item, {"class": "crash", "error": f"exit status {os.WEXITSTATUS(status)} "
                                                     f"without a result"}
        else:
            yield item, json.loads(data)
        if progress is not None:
            progress(done)


class Tally:
    """Counts per (strategy, class) and the first examples of each bad class."""

    def __init__(self, examples: int = 8):
        self.counts = collections.Counter()
        self.by_strategy = collections.defaultdict(collections.Counter)
        self.errors = collections.Counter()
        self.examples = collections.defaultdict(list)
        self.limit = examples

    def add(self, strategy: str, ident, result: dict) -> None:
        cls = result["class"]
        self.counts[cls] += 1
        self.by_strategy[strategy][cls] += 1
        if cls != "ok":
            self.errors[(cls, result.get("error"))] += 1
        if cls in ("other", "crash", "hang") and len(self.examples[cls]) < self.limit:
            self.examples[cls].append({"id": ident, "strategy": strategy, **result})

    def merge(self, d: dict) -> None:
        """Add a tally that ``as_dict`` wrote (another batch of the run)."""
        self.counts.update(d["counts"])
        for s, c in d["by_strategy"].items():
            self.by_strategy[s].update(c)
        for key, v in d["errors"].items():
            cls, _, err = key.partition("/")
            self.errors[(cls, None if err == "None" else err)] += v
        for cls, exs in d["examples"].items():
            room = self.limit - len(self.examples[cls])
            self.examples[cls].extend(exs[:max(0, room)])

    def report(self) -> str:
        total = sum(self.counts.values())
        lines = [f"{total} mutants: " + ", ".join(f"{c} {self.counts[c]}" for c in CLASSES)]
        for s, c in sorted(self.by_strategy.items()):
            lines.append(f"  {s:12s} " + " ".join(f"{k}={c[k]}" for k in CLASSES if c[k]))
        lines.append("errors (class, type): " + ", ".join(
            f"{k[0]}/{k[1]}={v}" for k, v in self.errors.most_common(15)))
        for cls in ("crash", "hang", "other"):
            for ex in self.examples[cls]:
                lines.append(f"  {cls}: {json.dumps(ex, default=str)[:600]}")
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {"counts": dict(self.counts),
                "by_strategy": {k: dict(v) for k, v in self.by_strategy.items()},
                "errors": {f"{k[0]}/{k[1]}": v for k, v in self.errors.items()},
                "examples": dict(self.examples)}
