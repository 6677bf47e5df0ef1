"""Where batching pays: the BERT model in process, without HTTP.

    python samples/service/batch_bench.py [--seq 128] [--clients 16] [--calls 10]
                                          [--batch 16,2] [--device local-task]

Exports the bert.py encoder at ``--seq`` tokens (needs JAX; the service's
asset is seq 128), then prints (1) the cost of one call per row at batch 1,
4 and 16 — batching can only win what a 16-row call saves over 16 one-row
calls — and (2) ``clients`` threads making ``calls`` calls each, straight on
``module.main`` and through a ``runtime.Batcher``: throughput, p50 / p99, and
the largest difference from a single call's result.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import threading
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bert  # noqa: E402
from server import parse_batch  # noqa: E402


def _per_row_ms(main, weights, ids, rows, repeats=5) -> float:
    x = np.resize(ids, (rows, ids.shape[1]))
    np.asarray(main(*weights, x))
    best = min(_timed(lambda: np.asarray(main(*weights, x))) for _ in range(repeats))
    return 1e3 * best / rows


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _load(call, weights, xs, clients, calls) -> tuple[float, list, list]:
    """(wall seconds, latencies, answers by input index) of ``clients``
    threads each making ``calls`` calls."""
    lat, answers = [], {}

    def client(c):
        for k in range(calls):
            i = (c * calls + k) % len(xs)
            t0 = time.perf_counter()
            answers[i] = np.asarray(call(*weights, xs[i][None]))
            lat.append(time.perf_counter() - t0)
    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, sorted(lat), answers


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seq", type=int, default=bert.CONFIG["seq"])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--calls", type=int, default=10, help="per client")
    ap.add_argument("--batch", type=parse_batch, default=(16, 2.0), metavar="MAX[,DELAY_MS]")
    ap.add_argument("--device", default="local-task")
    args = ap.parse_args(argv)
    from tensorvm import compiler, runtime
    cfg = dict(bert.CONFIG, seq=args.seq)
    text = bert.MLIR.read_text() if cfg == bert.CONFIG else bert.export_mlir(cfg)
    module = runtime.load_module(compiler.compile_str(text, targets=["cpu"]), args.device)
    weights = bert.weights(0, cfg)
    xs = np.random.default_rng(1).integers(0, cfg["vocab"], (64, args.seq), dtype=np.int32)
    main = module.main
    rows = {b: _per_row_ms(main, weights, xs[0:1], b) for b in (1, 4, 16)}
    print(f"seq {args.seq}: one call per row: " + ", ".join(
        f"batch {b} {ms:.2f} ms" for b, ms in rows.items()) +
        f" (a 16-row call saves {100 * (1 - rows[16] / rows[1]):.0f}% per row)")
    single = {i: np.asarray(main(*weights, x[None])) for i, x in enumerate(xs)}
    _, one, _ = _load(main, weights, xs, 1, args.calls)
    results = {}
    with runtime.Batcher(main, max_batch=args.batch[0], max_delay_ms=args.batch[1]) as b:
        for name, call in (("unbatched", main), ("batched", b)):
            wall, lat, answers = _load(call, weights, xs, args.clients, args.calls)
            diff = max(float(np.max(np.abs(a - single[i]))) for i, a in answers.items())
            results[name] = len(lat) / wall
            print(f"{name:9s} {args.clients} clients: {len(lat) / wall:6.1f} calls/s, "
                  f"p50 {1e3 * lat[len(lat) // 2]:7.1f} ms, "
                  f"p99 {1e3 * lat[min(len(lat) - 1, int(0.99 * len(lat)))]:7.1f} ms, "
                  f"max |diff| from a single call {diff:.1e}")
        stats = b.stats
    print(f"single client: p50 {1e3 * one[len(one) // 2]:.1f} ms; batched / unbatched "
          f"throughput {results['batched'] / results['unbatched']:.2f}x; "
          f"{stats['rows'] / max(stats['calls'], 1):.1f} rows per merged call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
