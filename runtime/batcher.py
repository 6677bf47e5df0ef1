"""Dynamic batching: concurrent calls of a symbolic-batch function run as one.

``Batcher(module.main, max_batch=16, max_delay_ms=2)`` queues each request
(``batcher(*args)``, ``await batcher.call_async(*args)``, ``submit``), and a
worker thread concatenates waiting requests along the batch dim, makes one
call, and hands each request its rows of every result.  Why: a call has a
fixed cost (argument checks, VM, one dispatch per kernel) and small GEMMs use
the machine badly; one call of 16 rows pays that once (Triton's dynamic
batcher and Ray Serve's ``@serve.batch`` do the same in front of a model).

Which dims are the batch comes from the export's reflection: a tensor
argument whose leading dim is symbolic (``?``) is batched; every other
argument (weights, scalars) is shared, and only requests passing the same
objects for those are merged.  Every result must have a symbolic leading dim
to split.  Requests merge only with requests of the same shapes otherwise.

Per request: a deadline (``DeadlineExceededError``, that request only), an
immediate ``QueueFullError`` when ``max_queue`` requests wait (back-pressure),
argument errors raised at submission (``InvalidArgumentError``, before any
merging).  A merged call that fails is split in halves and re-run, down to
single requests, so an error reaches only the requests that cause it.
``close()`` (or leaving ``with``) fails waiting requests with
``BatcherClosedError`` and lets running ones finish.  Results are numpy
arrays (views of the merged call's results), nested as the function's are.

State a server keeps per request stream (a decoder's KV cache: megabytes
per sequence) is passed as ``Rows(store, start)``: rows of one array the
server holds, batch-major.  Requests naming adjacent rows of the same store
merge into a view of it, so the merged call reads the state in place
instead of concatenating every request's copy (Triton's sequence batcher
keeps such state in slots the same way).
"""
from __future__ import annotations

import asyncio
import bisect
import collections
import concurrent.futures
import threading
import time

import numpy as np

from . import pytree
from .arrays import DeviceArray, check_tensor, host_value, tensor_text
from .errors import (BatcherClosedError, DeadlineExceededError, InvalidArgumentError,
                     NotBatchableError, QueueFullError)
from tensorvm.vmfb import element_types


class Rows:
    """Rows ``[start, start + count)`` of ``store`` (a C-contiguous numpy
    array whose leading dim is the batch) as a batched argument: a request
    names its slot of state the server holds instead of passing a copy.
    The batcher passes a merged call a view of the store when the merged
    requests' rows are adjacent, else their rows gathered.  The store must
    not change while a request naming it waits or runs."""

    __slots__ = ("store", "start", "count")

    def __init__(self, store, start: int, count: int = 1):
        if not isinstance(store, np.ndarray) or store.ndim == 0 or not store.flags.c_contiguous:
            raise InvalidArgumentError("Rows needs a C-contiguous numpy array with a leading "
                                       f"(batch) dim, got {type(store).__name__}"
                                       f"{getattr(store, 'shape', '')}")
        start, count = int(start), int(count)
        if count < 1 or start < 0 or start + count > store.shape[0]:
            raise InvalidArgumentError(f"Rows({start}, count={count}) is outside a store of "
                                       f"{store.shape[0]} rows")
        self.store, self.start, self.count = store, start, count

    def view(self) -> np.ndarray:
        return self.store[self.start:self.start + self.count]

    def __repr__(self):
        return f"Rows(store{self.store.shape}, {self.start}, count={self.count})"


def _merge_rows(parts):
    """(merged argument, True if it is a view of a Rows store) of batched
    parts (arrays or Rows), in order: a view when all are adjacent Rows of
    one store."""
    first = parts[0]
    if len(parts) == 1 and type(first) is not Rows:
        return first, False
    if type(first) is Rows and all(type(p) is Rows and p.store is first.store for p in parts):
        end = first.start
        for p in parts:
            if p.start != end:
                break
            end += p.count
        else:
            return first.store[first.start:end], True
    return np.concatenate([p.view() if type(p) is Rows else p for p in parts]), False


def _order_key(req, column):
    """Sort key putting requests' Rows of one store in row order."""
    part = req.flat[column]
    return (id(part.store), part.start) if type(part) is Rows else (0, -1)


class _Request:
    __slots__ = ("flat", "rows", "key", "future", "deadline", "enqueued")

    def __init__(self, flat, rows, key, deadline):
        self.flat, self.rows, self.key, self.deadline = flat, rows, key, deadline
        self.future = concurrent.futures.Future()
        self.enqueued = time.monotonic()


def _settle(fut, result=None, exc=None) -> None:
    """Complete ``fut`` unless it is done already (a caller's deadline or
    cancellation came first)."""
    try:
        if exc is None:
            fut.set_result(result)
        else:
            fut.set_exception(exc)
    except concurrent.futures.InvalidStateError:
        pass


def batch_layout(function) -> list[bool]:
    """Per flat argument of ``function``: True if batched (a tensor whose
    leading dim is symbolic).  NotBatchableError naming the function when
    nothing is batched or a result has no symbolic leading dim to split."""
    batched = [bool(e.get("dtype")) and e.get("kind") is None and bool(e.get("shape"))
               and e["shape"][0] == "?" for e in function.args]
    name = function.name
    if not any(batched):
        raise NotBatchableError(f"function '{name}' has no argument with a symbolic leading "
                                f"(batch) dim: {function!r}; export it with the batch "
                                f"symbolic (jax.export symbolic_shape('b, ...'))", name)
    for i, e in enumerate(function.results):
        shape = e.get("shape") or []
        if not e.get("dtype") or e.get("kind") is not None or not shape or shape[0] != "?":
            what = tensor_text(shape, e["dtype"]) if e.get("dtype") else e.get("kind", "a value")
            raise NotBatchableError(f"function '{name}': result #{i} ({what}) has no symbolic "
                                    f"leading dim, so it cannot be split per request", name)
    return batched


class Batcher:
    """Merges concurrent calls of ``function`` (a ``module.<export>``).

    ``max_batch``: rows per merged call (a bigger request runs alone);
    ``max_delay_ms``: how long the oldest waiting request may wait for others
    once a worker is free; ``max_queue``: waiting requests before
    ``QueueFullError``; ``timeout_ms``: the default deadline per request
    (default: the module's ``timeout_s``; None: none); ``pad_to``: batch
    sizes to pad a merged call up to (the smallest one that fits; padding
    rows repeat the last row and are dropped); ``workers``: merged calls in
    flight at once."""

    def __init__(self, function, *, max_batch=16, max_delay_ms=2.0, max_queue=1024,
                 timeout_ms="module", pad_to=(), workers=1):
        if int(max_batch) < 1 or int(max_queue) < 1 or int(workers) < 1 or max_delay_ms < 0:
            raise ValueError(f"max_batch, max_queue and workers must be >= 1 and max_delay_ms "
                             f">= 0, got {max_batch}, {max_queue}, {workers}, {max_delay_ms}")
        self.function = function
        self.name = function.name
        self._batched = batch_layout(function)
        self._in_tree = function._in_tree
        self._out_tree = function._out_tree
        self.max_batch, self.max_queue = int(max_batch), int(max_queue)
        self.max_delay_s = max_delay_ms / 1e3
        if timeout_ms == "module":
            t = function.module.timeout_s
            timeout_ms = None if t is None else 1e3 * t
        self.timeout_ms = timeout_ms
        self.pad_to = sorted(int(p) for p in pad_to)
        self.stats = collections.Counter()      # requests, calls, rows, padded, retries, Rows...
        self._queue: collections.deque = collections.deque()
        self._cond = threading.Condition()
        self._closed = False
        self._workers = [threading.Thread(target=self._work, daemon=True,
                                          name=f"tensorvm-batcher-{self.name}-{k}")
                         for k in range(int(workers))]
        for t in self._workers:
            t.start()

    def __repr__(self):
        return (f"<Batcher {self.name} max_batch={self.max_batch} "
                f"max_delay_ms={1e3 * self.max_delay_s:g} queued={len(self._queue)}>")

    # -- entry points -------------------------------------------------------------
    def __call__(self, *args, timeout_ms="default"):
        return self.call(*args, timeout_ms=timeout_ms)

    def call(self, *args, timeout_ms="default"):
        """The function's results for ``args`` (numpy), from a merged call;
        raises what a single call would, or a BatcherError."""
        req = self._submit(args, timeout_ms)
        wait = None if req.deadline is None else max(0.0, req.deadline - time.monotonic())
        try:
            return req.future.result(wait)
        except DeadlineExceededError:
            raise
        except concurrent.futures.TimeoutError:
            raise self._expire(req) from None

    async def call_async(self, *args, timeout_ms="default"):
        """``await`` form of ``call``: the event loop runs on meanwhile;
        cancelling the awaiting task withdraws a request not yet merged."""
        req = self._submit(args, timeout_ms)
        wait = None if req.deadline is None else max(0.0, req.deadline - time.monotonic())
        try:
            return await asyncio.wait_for(asyncio.wrap_future(req.future), wait)
        except DeadlineExceededError:
            raise
        except asyncio.TimeoutError:
            raise self._expire(req) from None

    def submit(self, *args, timeout_ms="default") -> concurrent.futures.Future:
        """Queue a request; its ``Future`` gets the results.  The deadline is
        checked when the request would be merged (``call`` and
        ``call_async`` also stop waiting at it)."""
        return self._submit(args, timeout_ms).future

    def close(self, timeout_s=None) -> None:
        """Refuse new requests, fail waiting ones with BatcherClosedError,
        let merged calls in flight finish, stop the workers."""
        with self._cond:
            self._closed = True
            dropped, self._queue = list(self._queue), collections.deque()
            self._cond.notify_all()
        for r in dropped:
            _settle(r.future, exc=BatcherClosedError(
                f"batcher for '{self.name}' closed before this request ran", self.name))
        for t in self._workers:
            if t is not threading.current_thread():
                t.join(timeout_s)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- submission -----------------------------------------------------------------
    def _submit(self, args, timeout_ms) -> _Request:
        flat, rows, key = self._prepare(args)
        if timeout_ms == "default":
            timeout_ms = self.timeout_ms
        deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1e3
        req = _Request(flat, rows, key, deadline)
        with self._cond:
            if self._closed:
                raise BatcherClosedError(f"batcher for '{self.name}' is closed", self.name)
            if len(self._queue) >= self.max_queue:
                self._queue = collections.deque(r for r in self._queue if not r.future.done())
                if len(self._queue) >= self.max_queue:
                    self.stats["queue_full"] += 1
                    raise QueueFullError(f"batcher for '{self.name}': {self.max_queue} requests "
                                         f"already wait (max_queue); retry later", self.name)
            self._queue.append(req)
            self.stats["requests"] += 1
            self._cond.notify()
        return req

    def _prepare(self, args):
        """(flat arguments, rows, merge key): batched arguments become host
        arrays checked against the reflection, so that a bad request fails
        here, alone, with the error a single call would raise."""
        fn = self.function
        if self._in_tree is not None:
            args = pytree.flatten(self._in_tree, tuple(args), [])
        if len(args) != len(self._batched):
            fn._convert(args)               # raises the single call's count error
            raise InvalidArgumentError(f"{fn.name} takes {len(self._batched)} arguments, "
                                       f"got {len(args)}")
        flat, rows, key, first = list(args), None, [], None
        for i, (is_batched, v) in enumerate(zip(self._batched, args)):
            label = fn._arg_label(i)
            if not is_batched:              # shared: merged only with the same object
                key.append(v if isinstance(v, (int, float, bool)) else id(v))
                continue
            entry = fn.args[i]
            if type(v) is Rows:
                arr = v.view()
            else:
                arr = np.asarray(v) if isinstance(v, DeviceArray) else host_value(
                    fn.name, label, v, element_types.numpy_dtype(entry["dtype"]))
            check_tensor(fn.name, label, arr.shape, arr.dtype, entry)
            if rows is None:
                rows, first = arr.shape[0], label
            elif arr.shape[0] != rows:
                raise InvalidArgumentError(f"{fn.name}: the batched arguments disagree on the "
                                           f"batch size: {first} has {rows} rows, {label} has "
                                           f"{arr.shape[0]}")
            flat[i] = v if type(v) is Rows else arr
            key.append(arr.shape[1:])
        return flat, rows, tuple(key)

    def _expire(self, req) -> DeadlineExceededError:
        """The deadline error of ``req``, which its future now holds (a
        request not yet merged is withdrawn)."""
        err = DeadlineExceededError(f"{self.name}: request not answered within its deadline "
                                    f"({self._timeout_text(req)})", self.name)
        _settle(req.future, exc=err)
        with self._cond:
            self.stats["expired"] += 1
        return err

    def _timeout_text(self, req) -> str:
        return f"{1e3 * (req.deadline - req.enqueued):.0f} ms"

    # -- the worker -----------------------------------------------------------------
    def _work(self) -> None:
        while True:
            batch = self._next_batch()
            if batch is None:
                return
            self._run(batch)

    def _next_batch(self):
        """The requests of the next merged call (waits for them), or None
        once closed."""
        with self._cond:
            while True:
                queue = self._queue
                while queue and not self._live(queue[0]):
                    queue.popleft()
                if self._closed:
                    return None
                if not queue:
                    self._cond.wait()
                    continue
                head = queue[0]
                rows = sum(r.rows for r in queue if r.key == head.key)
                due = head.enqueued + self.max_delay_s
                now = time.monotonic()
                if rows >= self.max_batch or now >= due:
                    return self._take(head.key)
                self._cond.wait(due - now)

    def _live(self, req) -> bool:
        """False for a request to drop: cancelled, settled, or past its
        deadline (then it gets its DeadlineExceededError)."""
        if req.future.done():
            return False
        if req.deadline is not None and time.monotonic() >= req.deadline:
            self._expire(req)
            return False
        return True

    def _take(self, key) -> list:
        """The oldest requests of ``key`` fitting ``max_batch`` rows (at least
        one), removed from the queue and marked running."""
        taken, kept, rows = [], collections.deque(), 0
        for r in self._queue:
            if r.key == key and (not taken or rows + r.rows <= self.max_batch) and self._live(r):
                try:                         # (False: cancelled; RuntimeError: expired
                    running = r.future.set_running_or_notify_cancel()   # just now)
                except RuntimeError:
                    running = False
                if running:
                    taken.append(r)
                    rows += r.rows
            elif not r.future.done():
                kept.append(r)
        self._queue = kept
        return taken

    def _run(self, reqs) -> None:
        """Run ``reqs`` as one call and settle each; on an error, halves
        re-run until the failing requests are alone with their errors."""
        reqs = [r for r in reqs if not r.future.done()]
        if not reqs:
            return
        try:
            outs = self._call(reqs)
        except Exception as e:          # noqa: BLE001 - goes to the request(s) it belongs to
            if len(reqs) == 1:
                _settle(reqs[0].future, exc=e)
                return
            with self._cond:
                self.stats["retries"] += 1
            mid = len(reqs) // 2
            self._run(reqs[:mid])
            self._run(reqs[mid:])
            return
        for r, out in zip(reqs, outs):
            _settle(r.future, out)

    def _call(self, reqs) -> list:
        """One call of the function on the concatenated requests; each
        request's results."""
        fn, total = self.function, sum(r.rows for r in reqs)
        k = bisect.bisect_left(self.pad_to, total)
        size = self.pad_to[k] if k < len(self.pad_to) and total else total
        column = next((i for i, b in enumerate(self._batched) if b and type(reqs[0].flat[i]) is Rows),
                      None)
        if column is not None and len(reqs) > 1:    # state rows in store order: one view
            reqs.sort(key=lambda r: _order_key(r, column))
        args, views, gathers = [], 0, 0
        for i, is_batched in enumerate(self._batched):
            if not is_batched:
                args.append(reqs[0].flat[i])
                continue
            merged, in_place = _merge_rows([r.flat[i] for r in reqs])
            if type(reqs[0].flat[i]) is Rows:
                views += in_place
                gathers += not in_place
            if size > total:
                merged = np.concatenate([merged, np.repeat(merged[-1:], size - total, axis=0)])
            args.append(merged)
        if self._in_tree is not None:
            args = pytree.unflatten(self._in_tree, iter(args))
        host = [np.asarray(a) for a in self._flat_results(fn(*args))]
        for j, h in enumerate(host):
            if h.ndim == 0 or h.shape[0] != size:
                raise NotBatchableError(
                    f"{fn.name}: result #{j} has {h.shape[0] if h.ndim else 'no'} rows for "
                    f"{size} batch rows: its leading dim is not the batch", fn.name)
        with self._cond:
            self.stats.update(calls=1, rows=total, padded=size - total, rows_in_place=views,
                              rows_gathered=gathers)
        outs, start = [], 0
        for r in reqs:
            rows = [h[start:start + r.rows] for h in host]
            start += r.rows
            outs.append(pytree.unflatten(self._out_tree, iter(rows)) if self._out_tree is not None
                        else rows[0] if len(rows) == 1 else tuple(rows))
        return outs

    def _flat_results(self, result) -> list:
        if self._out_tree is not None:
            return pytree.flatten(self._out_tree, result, [], "results")
        if isinstance(result, tuple):
            return list(result)
        return [result]
