"""Generate tokens with a small GPT-2-style decoder on tensorvm, IREE and XLA:CPU.

The KV caches stay on the device between calls; tokens/s side by side.

    python samples/generate/run.py [--tokens 48] [--repeats 7] [--engines tensorvm,iree,xla]

Needs only tensorvm and numpy: prefill.mlir, decode_step.mlir and the tokens
JAX generated (reference.json) were written by export.py and are committed
beside this file; the weights are regenerated from their seed by tiny_gpt.py.
IREE (iree-base-compiler, iree-base-runtime) and XLA (jax/jaxlib) columns
are added when those packages import; otherwise the table says why not.

Per engine: prefill the 8-token prompt (one call: the per-layer caches and
the first token), then one decode-step call per further token, each call
taking the caches and the token the previous call returned (device arrays:
no host round trip) and the position from the host. Each token is read back
as it is made, as a streaming generator would. Decode tokens/s counts the
decode steps only; prefill is timed apart; both are medians over --repeats
runs.

Checks (exit 1 when one fails): every engine generates JAX's tokens; on
tensorvm each donated cache keeps its buffer (same data pointer before and
after every decode call), and a donated cache used again raises
DonatedArrayError. Exit 2 when tensorvm fails to compile or run.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tiny_gpt as W  # noqa: E402

L, P = W.LAYERS, W.PROMPT_LEN
XLA_SINGLE_THREAD = {"NPROC": "1", "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false"}


def load_reference() -> dict:
    return json.loads((HERE / "reference.json").read_text())


def read_texts(reference: dict) -> tuple[str, str]:
    files = reference["files"]
    return (HERE / files["prefill"]).read_text(), (HERE / files["step"]).read_text()


def split(outputs):
    """(k caches, v caches, token) of a prefill or decode-step result."""
    outputs = list(outputs)
    return outputs[:L], outputs[L:2 * L], outputs[2 * L]


# ------------------------------------------------------------------ engines
# An engine has prefill(prompt) and step(ks, vs, tok, pos), both returning
# (ks, vs, tok) as the engine's device arrays, and read(tok) -> int.


class Calls:
    """An engine whose loaded functions take numpy and device arrays alike:
    ``prefill_fn``, ``step_fn`` and the ``weights`` are set by the subclass."""

    def prefill(self, prompt):
        return split(self.prefill_fn(*self.weights, prompt))

    def step(self, ks, vs, tok, pos):
        return split(self.step_fn(*self.weights, *ks, *vs, tok, np.int32(pos)))


class Tensorvm(Calls):
    def __init__(self, vmfbs: tuple[bytes, bytes], device: str):
        from tensorvm import runtime
        self.name, self.device = "tensorvm", device
        self.prefill_fn = runtime.load_module(vmfbs[0], device=device).main
        self.step_fn = runtime.load_module(vmfbs[1], device=device).main
        self.weights = W.init_weights()       # host memory: used in place on the CPU

    @staticmethod
    def read(tok) -> int:
        return int(np.asarray(tok))


def compile_tensorvm(texts, target="cpu") -> tuple[bytes, bytes]:
    from tensorvm.compiler import compile_str
    return tuple(compile_str(t, targets=[target]) for t in texts)


class Iree(Calls):
    def __init__(self, vmfbs: tuple[bytes, bytes], driver: str):
        import iree.runtime as ireert
        self.name, self.device = "IREE", driver
        config = ireert.Config(driver)
        context = ireert.SystemContext(config=config)
        fns = []
        for vmfb in vmfbs:
            module = ireert.VmModule.copy_buffer(config.vm_instance, vmfb)
            context.add_vm_module(module)
            fns.append(getattr(context.modules, module.name).main)
        self.prefill_fn, self.step_fn = fns
        # on the device once: numpy arguments would be copied in on every call
        self.weights = [ireert.asdevicearray(config.device, w) for w in W.init_weights()]

    @staticmethod
    def read(tok) -> int:
        return int(tok.to_host())


def compile_iree(texts) -> tuple[bytes, bytes]:
    import iree.compiler as ireec
    return tuple(ireec.compile_str(t, target_backends=["llvm-cpu"],
                                   extra_args=["--iree-llvmcpu-target-cpu=host"]) for t in texts)


class Xla:
    """The same StableHLO text compiled by jaxlib's PJRT CPU client (what
    jax.jit runs), arrays kept on the device with jax.device_put. XLA honours
    the donation too: a donated cache is deleted by the call that takes it."""

    def __init__(self, texts):
        import jax
        jax.config.update("jax_platforms", "cpu")
        from jax._src import compiler
        from jax._src.interpreters import mlir
        from jax._src.lib import xla_client as xc
        from jax._src.lib.mlir import ir
        self.jax = jax
        self.name, self.device = "XLA", "cpu"
        self.cpu = jax.devices("cpu")[0]
        options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
        exes = []
        for text in texts:
            with mlir.make_ir_context():
                code = mlir.module_to_bytecode(ir.Module.parse(text))
            exes.append(self.cpu.client.compile_and_load(code, xc.DeviceList((self.cpu,)), options))
        self.prefill_exe, self.step_exe = exes
        self.weights = jax.device_put(W.init_weights(), self.cpu)

    def prefill(self, prompt):
        return split(self.prefill_exe.execute([*self.weights, self.jax.device_put(prompt, self.cpu)]))

    def step(self, ks, vs, tok, pos):
        pos = self.jax.device_put(np.int32(pos), self.cpu)
        return split(self.step_exe.execute([*self.weights, *ks, *vs, tok, pos]))

    @staticmethod
    def read(tok) -> int:
        return int(np.asarray(tok))


# --------------------------------------------------------------- generation


def generate(engine, n: int, prompt=None):
    """n tokens after the prompt: (tokens, prefill seconds, decode seconds)."""
    prompt = np.asarray(W.PROMPT if prompt is None else prompt, np.int32)
    t0 = time.perf_counter()
    ks, vs, tok = engine.prefill(prompt)
    tokens = [engine.read(tok)]
    t1 = time.perf_counter()
    for i in range(n - 1):
        ks, vs, tok = engine.step(ks, vs, tok, P + i)
        tokens.append(engine.read(tok))
    return tokens, t1 - t0, time.perf_counter() - t1


def data_pointer(array) -> int:
    """Where a tensorvm DeviceArray's host-visible buffer starts."""
    return array.__array_interface__["data"][0]


def check_cache_buffers(engine: Tensorvm, n: int) -> list[str]:
    """Generate n tokens checking, at every decode call, that each layer's k
    and v cache comes back in the buffer it was given (the donation) and that
    the donated cache, read or passed to a call again, raises
    DonatedArrayError. The problems found, as messages (none: all good)."""
    from tensorvm.runtime import DonatedArrayError
    problems = []
    ks, vs, tok = engine.prefill(np.asarray(W.PROMPT, np.int32))
    for i in range(n - 1):
        before = [data_pointer(c) for c in ks + vs]
        stale = ks[0]
        ks, vs, tok = engine.step(ks, vs, tok, P + i)
        after = [data_pointer(c) for c in ks + vs]
        moved = [j for j, (b, a) in enumerate(zip(before, after)) if a != b]
        if moved:
            problems.append(f"decode step at position {P + i}: cache(s) {moved} moved to a new buffer")
        for what, use in (("read", lambda: np.asarray(stale)),
                          ("passed to a call", lambda: engine.step([stale] + ks[1:], vs, tok, P + i + 1))):
            try:
                use()
            except DonatedArrayError:
                continue
            problems.append(f"a donated cache {what} again did not raise DonatedArrayError")
        if problems:
            break
    return problems


def measure(engine, n: int, repeats: int, expected: list[int]) -> dict:
    """Medians over `repeats` timed runs after one warm-up run; every run's
    tokens are compared with `expected`."""
    runs = [generate(engine, n) for _ in range(repeats + 1)]
    bad = next((r[0] for r in runs if r[0] != expected), None)
    timed = runs[1:]
    return {"tokens": bad if bad is not None else expected, "match": bad is None,
            "prefill_ms": statistics.median(r[1] for r in timed) * 1e3,
            "decode_tok_s": statistics.median((n - 1) / r[2] for r in timed)}


# --------------------------------------------------------------- XLA worker


def xla_in_subprocess(n: int, repeats: int, single_thread: bool, timeout_s=600) -> dict:
    """XLA's thread count is fixed when jax is imported, so each XLA column
    runs in its own process (this file with --xla-worker)."""
    env = {**os.environ, "JAX_PLATFORMS": "cpu", **(XLA_SINGLE_THREAD if single_thread else {})}
    if not single_thread:
        env.pop("XLA_FLAGS", None)
    cmd = [sys.executable, str(pathlib.Path(__file__).resolve()), "--xla-worker",
           "--tokens", str(n), "--repeats", str(repeats)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout_s)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise RuntimeError((proc.stderr.strip().splitlines() or ["exit status %d" % proc.returncode])[-1])
    return json.loads(lines[-1])


def xla_worker(n: int, repeats: int) -> int:
    reference = load_reference()
    engine = Xla(read_texts(reference))
    print(json.dumps(measure(engine, n, repeats, reference["tokens"][:n])))
    return 0


# ---------------------------------------------------------------------- main


def main(argv=None) -> int:
    try:
        return run(argv)
    except Exception as e:  # tensorvm raises typed errors with actionable messages
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2


def run(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=48, help="tokens to generate after the prompt (default 48)")
    ap.add_argument("--repeats", type=int, default=7, help="timed runs per engine; medians are shown (default 7)")
    ap.add_argument("--engines", default="tensorvm,iree,xla", help="comma-separated: tensorvm,iree,xla")
    ap.add_argument("--xla-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    reference = load_reference()
    n = args.tokens
    if not 1 <= n <= len(reference["tokens"]):
        ap.error(f"--tokens must be 1..{len(reference['tokens'])} (the reference's length)")
    if args.xla_worker:
        return xla_worker(n, args.repeats)
    engines = [e.strip().lower() for e in args.engines.split(",") if e.strip()]
    expected = reference["tokens"][:n]
    texts = read_texts(reference)
    rows, failures = [], []     # rows: (group, engine, device, result dict or skip reason)

    if "tensorvm" in engines:
        t0 = time.perf_counter()
        vmfbs = compile_tensorvm(texts)
        print(f"tensorvm: compiled prefill + decode step in {time.perf_counter() - t0:.1f} s")
        for group, device in (("sync", "local-sync"), ("task", "local-task")):
            engine = Tensorvm(vmfbs, device)
            problems = check_cache_buffers(engine, n)
            for p in problems:
                failures.append(f"tensorvm {device}: {p}")
            if not problems:
                print(f"tensorvm {device}: the {2 * L} caches kept their buffers over {n - 1} decode "
                      f"calls; a donated cache used again raised DonatedArrayError")
            rows.append((group, "tensorvm", device, measure(engine, n, args.repeats, expected)))

    if "iree" in engines:
        try:
            t0 = time.perf_counter()
            iree_vmfbs = compile_iree(texts)
            print(f"IREE: compiled prefill + decode step in {time.perf_counter() - t0:.1f} s")
        except ImportError as e:
            iree_vmfbs = f"skipped: {e} (pip install iree-base-compiler iree-base-runtime)"
        except Exception as e:  # noqa: BLE001 - a peer's failure is reported, not fatal
            iree_vmfbs = f"failed: {type(e).__name__}: {str(e).strip().splitlines()[0][:200]}"
        for group, driver in (("sync", "local-sync"), ("task", "local-task")):
            if isinstance(iree_vmfbs, str):
                rows.append((group, "IREE", driver, iree_vmfbs))
                continue
            try:
                rows.append((group, "IREE", driver, measure(Iree(iree_vmfbs, driver), n, args.repeats, expected)))
            except Exception as e:  # noqa: BLE001
                rows.append((group, "IREE", driver, f"failed: {type(e).__name__}: {e}"))

    if "xla" in engines:
        import importlib.util
        have_jax = importlib.util.find_spec("jax") is not None
        for group, label, single in (("sync", "1 thread", True), ("task", "all threads", False)):
            if not have_jax:
                rows.append((group, "XLA", label, "skipped: jax is not installed (XLA:CPU comes with jaxlib)"))
                continue
            try:
                rows.append((group, "XLA", label, xla_in_subprocess(n, args.repeats, single)))
            except Exception as e:  # noqa: BLE001
                rows.append((group, "XLA", label, f"failed: {type(e).__name__}: {e}"))

    for group, engine, device, r in rows:
        if isinstance(r, dict) and not r["match"]:
            failures.append(f"{engine} {device}: tokens differ from JAX's: {r['tokens']}")
    print_table(rows, n, args.repeats)
    print(f"JAX (reference, jax {reference['jax_version']}): {expected}")
    if failures:
        for f in failures:
            print(f"FAIL: {f}", file=sys.stderr)
        return 1
    print("OK: every engine that ran generated JAX's tokens")
    return 0


def print_table(rows, n, repeats) -> None:
    print(f"\n{n} tokens after the {P}-token prompt: prefill (1 call) + {n - 1} decode steps; "
          f"medians of {repeats} runs")
    print(f"{'engine':10} {'device':12} {'prefill ms':>10} {'decode tok/s':>13}  tokens")
    for group in ("sync", "task"):
        mine = None
        peers = []
        for g, engine, device, r in rows:
            if g != group:
                continue
            if isinstance(r, str):
                print(f"{engine:10} {device:12} {'':>10} {'':>13}  {r}")
                continue
            print(f"{engine:10} {device:12} {r['prefill_ms']:10.2f} {r['decode_tok_s']:13.0f}  "
                  f"{'= JAX' if r['match'] else 'DIFFER'}")
            if engine == "tensorvm":
                mine = r["decode_tok_s"]
            else:
                peers.append((r["decode_tok_s"], f"{engine} {device}"))
        if mine is not None and peers:
            best, who = max(peers)
            print(f"  tensorvm / faster peer ({who}), decode tok/s: {mine / best:.2f}x")
    print()


if __name__ == "__main__":
    sys.exit(main())
