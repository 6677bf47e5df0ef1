"""Greedy generation with KV caches the server holds, continuously batched.

``DecodeModel`` is the service's ``--model decode``: GPT-2 small's decode
step (decode.py, a symbolic batch).  A request asks for a generation:

    POST /predict {"prompt": [464, 3290], "max_tokens": 16}
        -> {"tokens": [16 token ids], "digests": [16 CRC-32s]}

The server feeds the prompt one token per step, then ``max_tokens`` greedy
tokens; each step's keys and values go into the request's slot of the
caches the server holds (one slot per running generation, ``slots`` of
them; a request finding none free gets a 503).  ``digests[i]`` is the
CRC-32 of the logits (all 50257 float32 values) that chose ``tokens[i]``,
so a client can check the answer bit for bit without receiving them.

Unbatched, each request runs its own steps of one sequence on its thread.
With ``batch`` (``--batch MAX``) one scheduler thread runs every running
generation's next token as one step of up to MAX sequences, over and over
(continuous batching, as vLLM and TGI serve decoders): a request joins at
the next step and leaves when done, nobody waits for a batch to fill (the
``DELAY_MS`` of ``--batch`` does not apply), and the step reads the slots'
caches in place: slots are handed out lowest first, and a step covers the
slots from its lowest to its highest running one, an idle slot between them
computing a row that is thrown away rather than copying 9.4 MB of caches
per sequence into a gathered batch.  The decode step's kernels give a
sequence the same bits whatever the batch (decisions.md), so a merged
generation equals a lone one exactly.
"""
from __future__ import annotations

import concurrent.futures
import json
import threading
import time
import zlib

import numpy as np

import decode


class Refused(Exception):
    """A request the service cannot serve now; ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class _Generation:
    """One request's generation: its slot, prompt, and what it produced."""

    __slots__ = ("slot", "prompt", "max_tokens", "position", "tokens", "logits", "done", "cancelled")

    def __init__(self, slot, prompt, max_tokens):
        self.slot, self.prompt, self.max_tokens = slot, prompt, max_tokens
        self.position, self.tokens, self.logits = 0, [], []
        self.done, self.cancelled = concurrent.futures.Future(), False

    def answer(self) -> dict:
        return {"tokens": self.tokens,
                "digests": [f"{zlib.crc32(row.view(np.uint8)):08x}" for row in self.logits]}

    def next_input(self) -> int:
        return int(self.prompt[self.position]) if self.position < len(self.prompt) else self.tokens[-1]

    def finished(self) -> bool:
        return len(self.tokens) >= self.max_tokens


class DecodeModel:
    """The loaded decode step, the cache slots and, with ``batch``
    ((max sequences per step, ignored delay)), the scheduler thread; the
    interface of server.Model (``parse``, ``predict``, ``predict_async``,
    ``close``, ``requests``, ``batcher``)."""

    def __init__(self, device="local-task", vmfb=None, timeout_s=30.0, batch=None, slots=16, seed=0,
                 cfg=None):
        from tensorvm import runtime
        self.cfg = cfg = cfg or decode.CONFIG      # (another cfg: a vmfb of decode.export_mlir(cfg))
        if vmfb is None:
            from tensorvm import compiler
            vmfb = compiler.compile_str(decode.MLIR.read_text(), targets=["cpu"])
        self.module = runtime.load_module(vmfb, device=device, timeout_s=timeout_s)
        self.weights = decode.weights(seed, cfg)
        self.device, self.model, self.timeout_s = device, "decode", timeout_s
        self.max_rows = int(batch[0]) if batch else 1
        slots = max(slots, self.max_rows)
        self.k = [np.zeros(decode.cache_shape(cfg, slots), np.float32) for _ in range(cfg["layers"])]
        self.v = [np.zeros_like(a) for a in self.k]
        self.free = list(range(slots))
        self.requests = 0
        self.batcher = None                   # (no runtime.Batcher: the scheduler below)
        # steps run, sequences and idle slots they covered, seconds in the call and in the step
        self.stats = {"steps": 0, "rows": 0, "idle_rows": 0, "call_s": 0.0, "step_s": 0.0}
        self._running: list[_Generation] = []
        self._cond = threading.Condition()
        self._closed = False
        self._scheduler = None
        if batch:
            self._scheduler = threading.Thread(target=self._schedule, daemon=True,
                                               name="tensorvm-decode-scheduler")
            self._scheduler.start()

    # -- requests ---------------------------------------------------------------------
    def parse(self, body: bytes):
        """(prompt token ids, max_tokens) of a request body."""
        try:
            doc = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError) as e:
            raise ValueError(f"body is not JSON: {e}") from None
        vocab, cache = self.cfg["vocab"], self.cfg["cache"]
        prompt = doc.get("prompt") if isinstance(doc, dict) else None
        n = doc.get("max_tokens", 16) if isinstance(doc, dict) else None
        if not isinstance(prompt, list) or not 0 < len(prompt) <= cache or \
                not all(type(t) is int and 0 <= t < vocab for t in prompt):
            raise ValueError(f'expected {{"prompt": [1 to {cache} integers in [0, {vocab})], '
                             f'"max_tokens": n}}')
        if type(n) is not int or not 0 < n <= cache + 1 - len(prompt):
            raise ValueError(f'"max_tokens" must be an integer in [1, {cache + 1 - len(prompt)}]: '
                             f"the prompt and the tokens fed back share a cache of {cache} positions")
        return np.asarray(prompt, np.int32), n

    def predict(self, request) -> dict:
        g = self._admit(*request)
        if self._scheduler is None:
            try:
                while not g.finished():
                    self._step([g], self.k, self.v)
            finally:
                with self._cond:
                    self.free.append(g.slot)
            return g.answer()
        self._start(g)
        try:
            g.done.result(self.timeout_s)
        except concurrent.futures.TimeoutError:
            raise self._expire(g) from None
        return g.answer()

    async def predict_async(self, request) -> dict:
        """``predict`` on an event loop: a batched generation is awaited
        (no thread waits for it), an unbatched one runs on the loop's
        executor."""
        import asyncio
        if self._scheduler is None:
            return await asyncio.get_running_loop().run_in_executor(None, self.predict, request)
        g = self._admit(*request)
        self._start(g)
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(g.done)), self.timeout_s)
        except asyncio.TimeoutError:
            raise self._expire(g) from None
        return g.answer()

    def _start(self, g) -> None:
        with self._cond:                       # the scheduler frees the slot when it drops g
            self._running.append(g)
            self._cond.notify()

    def _expire(self, g):
        """The deadline error of ``g``, withdrawn from the steps."""
        from tensorvm.runtime import DeadlineExceededError
        with self._cond:
            g.cancelled = True
            self._cond.notify()
        return DeadlineExceededError(f"generation not done within {self.timeout_s} s", "main")

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._scheduler is not None:
            self._scheduler.join(self.timeout_s)

    def _admit(self, prompt, max_tokens) -> _Generation:
        with self._cond:
            self.requests += 1
            if self._closed:
                raise Refused(503, "the service is shutting down")
            if not self.free:
                raise Refused(503, f"all {len(self.k[0])} generation slots are busy; retry later")
            slot = min(self.free)
            self.free.remove(slot)
        for a in (*self.k, *self.v):        # what the reference's fresh cache holds
            a[slot] = 0
        return _Generation(slot, prompt, max_tokens)

    # -- steps ----------------------------------------------------------------------------
    def _schedule(self) -> None:
        """The scheduler thread: one step of every running generation (up to
        ``max_rows`` of them, lowest slots first), until closed."""
        while True:
            with self._cond:
                self._drop([g for g in self._running if g.cancelled])
                while not self._running and not self._closed:
                    self._cond.wait()
                    self._drop([g for g in self._running if g.cancelled])
                if self._closed:
                    self._drop(list(self._running), Refused(503, "the service shut down"))
                    return
                group = sorted(self._running, key=lambda g: g.slot)[:self.max_rows]
            try:
                self._step(group, self.k, self.v)
            except Exception as e:         # noqa: BLE001 - each generation gets the error
                with self._cond:
                    self._drop(group, e)
                continue
            with self._cond:
                self._drop([g for g in group if g.finished()])

    def _drop(self, done, error=None) -> None:
        """Generations leaving the running set (under the lock): slots freed,
        their callers woken with the result or ``error``."""
        for g in done:
            self._running.remove(g)
            self.free.append(g.slot)
            try:
                if error is None:
                    g.done.set_result(None)
                else:
                    g.done.set_exception(error)
            except concurrent.futures.InvalidStateError:     # its caller cancelled it
                pass

    def _step(self, group, k_cache, v_cache, record=True) -> None:
        """One decode step of ``group`` (sorted by slot) on the slots from
        its first to its last; rows of idle slots between them are dropped."""
        lo, hi = group[0].slot, group[-1].slot + 1
        tok, at = np.zeros(hi - lo, np.int32), np.zeros(hi - lo, np.int32)
        for g in group:
            tok[g.slot - lo], at[g.slot - lo] = g.next_input(), g.position
        t0 = time.perf_counter()
        logits, k, v = self.module.main(*self.weights, tok, at, *(a[lo:hi] for a in k_cache),
                                        *(a[lo:hi] for a in v_cache))
        t1 = time.perf_counter()
        rows = np.array([g.slot - lo for g in group])
        slots, pos = rows + lo, at[rows]
        k, v = np.asarray(k)[rows], np.asarray(v)[rows]
        for layer in range(self.cfg["layers"]):         # each row's keys and values at its position
            k_cache[layer][slots, :, pos] = k[:, layer]
            v_cache[layer][slots, :, pos] = v[:, layer]
        logits = np.asarray(logits)
        top = np.argmax(logits[rows], axis=1)
        for r, g in enumerate(group):
            if g.position >= len(g.prompt) - 1:        # past the prompt: a generated token
                g.tokens.append(int(top[r]))
                g.logits.append(logits[rows[r]].copy())   # its CRC: on the request's thread
            g.position += 1
        if not record:
            return
        with self._cond:
            self.stats["call_s"] += t1 - t0
            self.stats["step_s"] += time.perf_counter() - t0
            self.stats["steps"] += 1
            self.stats["rows"] += len(group)
            self.stats["idle_rows"] += hi - lo - len(group)

    def reference(self, prompt, max_tokens) -> dict:
        """The answer of a generation run alone, with caches of its own (one
        sequence per step: the single call a batched answer must equal)."""
        k = [np.zeros(decode.cache_shape(self.cfg, 1), np.float32) for _ in range(self.cfg["layers"])]
        v = [np.zeros_like(a) for a in k]
        g = _Generation(0, np.asarray(prompt, np.int32), max_tokens)
        while not g.finished():
            self._step([g], k, v, record=False)
        return g.answer()
