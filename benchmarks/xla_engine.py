"""XLA:CPU as a benchmark engine: jaxlib's PJRT CPU client compiles the same
StableHLO text tensorvm and IREE get, in a worker process.

XLA's threading is fixed when jax is imported (the single-threaded column
needs ``NPROC=1`` and ``XLA_FLAGS=--xla_cpu_multi_thread_eigen=false`` in the
environment first), so each XLA column is a persistent subprocess
(``python benchmarks/xla_engine.py``) that the benchmark drives over a pipe:
``prepare`` (compile, first call, outputs back for the parent's check),
``sample`` (time the prepared workload for S seconds in the worker, return
the per-call times), ``call``, ``drop``. The parent asks for one round at a
time, so XLA's rounds interleave with the other engines' like any other
column. A worker that errs on a request answers with the error; one that
times out or dies is killed and started afresh on the next request.

A timed call is what a jax user pays calling a jitted function on numpy
arrays: jax's C++ dispatch (the ``pjit`` fast path) puts the numpy inputs on
the device, runs the executable and returns jax arrays; ``np.asarray`` of
every result. The worker keeps its inputs 64-byte aligned (``aligned``), so
XLA uses them in place as it does a jax array's buffer, as tensorvm uses
numpy inputs in place: a copy of every weight per call would be charged to
XLA otherwise. The fast path is entered around our
own ``LoadedExecutable`` the way jax.jit's cache miss does (``jit_call``);
``jax.device_put`` + ``LoadedExecutable.execute`` is the fallback where that
jaxlib API is missing (10-30 us more per argument; --json says which path,
``xla_call``). 64-bit types are on in the worker, so int64 inputs (torch's
token ids) stay int64 as the module declares them.

A module whose ``main`` has symbolic dims (``tensor<?x...>``) is made static
for the workload's input shapes as jax does when it calls an ``Exported``:
the arguments get static types, a ``stablehlo.convert`` back to the
symbolic type feeds the old uses, then jax's ``refine_polymorphic_shapes``
propagates the shapes through the module.
"""
from __future__ import annotations

import atexit
import os
import pickle
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SINGLE_THREAD = {"NPROC": "1", "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false"}
START_TIMEOUT_S = 120        # the worker's jax import
SAMPLE_SLACK_S = 120         # on top of a sample request's budget


class XlaError(RuntimeError):
    """An error the worker reported (compile, refine, run)."""


# ----------------------------------------------------------------- parent side


class Worker:
    """One XLA worker process with extra environment ``env``, started at its
    first request; every worker is closed at exit (close_workers)."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        self.proc = None
        _WORKERS.append(self)

    def _start(self):
        env = {**os.environ, "JAX_PLATFORMS": "cpu", **self.env}
        if "XLA_FLAGS" not in self.env:
            env.pop("XLA_FLAGS", None)
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__)], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def request(self, *msg, timeout_s: float = START_TIMEOUT_S + 600):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            pickle.dump(msg, self.proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self.proc.stdin.flush()
            ready, _, _ = select.select([self.proc.stdout], [], [], timeout_s)
            if not ready:
                raise TimeoutError(f"XLA worker: no answer to {msg[0]!r} within {timeout_s:.0f} s")
            status, value = pickle.load(self.proc.stdout)
        except BaseException:        # a timeout (the benchmark's alarm too), a dead worker
            self.close()
            raise
        if status != "ok":
            raise XlaError(value)
        return value

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.kill()
            self.proc.wait()
            self.proc.stdout.close()
            self.proc = None


_WORKERS: list[Worker] = []


@atexit.register
def close_workers():
    """End every worker process this process started."""
    for w in _WORKERS:
        w.close()


def xla_engines():
    """The benchmark's engine list: ("XLA 1T", prepare) and ("XLA", prepare).

    ``prepare`` fills ``info`` with the worker's compile and first-call
    seconds, ``first_result`` (checked by the parent), ``sample(budget_s,
    min_reps, warmup)`` (per-call seconds timed in the worker) and
    ``release()``; it returns a callable that runs the workload in the
    worker on the inputs given."""
    import importlib.util
    if importlib.util.find_spec("jax") is None:
        raise ImportError("jax is not installed (XLA:CPU comes with jaxlib)")

    def make(worker):
        def prepare(wl, info):
            key = id(wl)
            r = worker.request("prepare", key, wl["text"], list(wl["inputs"]))
            info.update(compile_s=r["compile_s"], first_call_s=r["first_call_s"],
                        first_result=r["outputs"], xla_call=r["xla_call"])
            info["sample"] = lambda budget_s, min_reps, warmup: worker.request(
                "sample", key, budget_s, min_reps, warmup,
                timeout_s=budget_s + SAMPLE_SLACK_S)
            info["release"] = lambda: worker.request("drop", key)
            return lambda *inputs: worker.request("call", key, list(inputs))
        return prepare

    return [("XLA 1T", make(Worker(SINGLE_THREAD))), ("XLA", make(Worker({})))]


# ----------------------------------------------------------------- worker side


def aligned(x, alignment: int = 64):
    """``x`` in memory aligned to ``alignment`` bytes: XLA's CPU client uses
    such a numpy array in place and copies any other on every call (the
    unpickled inputs land anywhere; a GPT-2-small decode step took 97 ms
    with its 500 MB of weights copied, 22 ms in place)."""
    import numpy as np

    from tensorvm.hal.allocator import aligned_bytes
    x = np.asarray(x)
    if x.ctypes.data % alignment == 0 or x.nbytes == 0:
        return x
    out = aligned_bytes(x.nbytes, alignment, zero=False).view(x.dtype).reshape(x.shape)
    out[...] = x
    return out


def static_module(text: str, inputs):
    """The module of ``text`` compiled for XLA: symbolic argument dims of
    ``main`` set from ``inputs``' shapes and refined (see the module docstring)."""
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir
    from jax._src.lib.mlir.dialects import hlo

    with mlir.make_ir_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        mains = [op for op in module.body.operations
                 if "sym_name" in op.attributes
                 and ir.StringAttr(op.attributes["sym_name"]).value == "main"]
        if len(mains) != 1:
            raise ValueError("the module has no function @main")
        main = mains[0]
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        if len(ftype.inputs) != len(inputs):
            raise ValueError(f"@main takes {len(ftype.inputs)} arguments, the workload has {len(inputs)}")
        block = main.regions[0].blocks[0]
        types, changed = [], False
        for t, x, arg in zip(ftype.inputs, inputs, block.arguments):
            ranked = ir.RankedTensorType(t)
            if not any(ranked.is_dynamic_dim(d) for d in range(ranked.rank)):
                types.append(t)
                continue
            static = ir.RankedTensorType.get(list(x.shape), ranked.element_type)
            with ir.InsertionPoint.at_block_begin(block):
                symbolic = hlo.ConvertOp(ranked, arg)
            arg.replace_all_uses_except(symbolic.result, symbolic.operation)
            arg.set_type(static)
            types.append(static)
            changed = True
        if not changed:
            return module
        main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(types, ftype.results))
        return mlir.refine_polymorphic_shapes(module)


def jit_call(exe, device, n_inputs: int):
    """(a callable running ``exe`` on numpy or jax arrays, the path's name):
    jax's C++ jit dispatch around ``exe`` where jaxlib has it. Its first call
    (the cache miss) runs ``exe`` through jax.device_put and hands the C++
    side the fast-path data jax.jit's own cache miss builds from a compiled
    MeshExecutable: one device, every input kept, committed outputs."""
    import jax

    def slow(*xs):
        return tuple(exe.execute(jax.device_put(list(xs), device)))
    try:
        from jax._src import tree_util
        from jax._src.interpreters import pxla
        from jax._src.lib import _jax
        one = jax.sharding.SingleDeviceSharding(device)

        def cache_miss(*xs):
            outs = slow(*xs)
            fast = pxla.MeshExecutableFastpathData(
                exe, tree_util.tree_structure(outs), [one] * n_inputs, [one] * len(outs),
                [o.aval for o in outs], [True] * len(outs), [True] * n_inputs,
                [None] * n_inputs, [])
            return outs, fast, False
        keys = pxla.JitGlobalCppCacheKeys(
            donate_argnums=(), donate_argnames=None, device=None, backend=None,
            in_shardings_treedef=None, in_shardings_leaves=None, out_shardings_treedef=None,
            out_shardings_leaves=None, in_layouts_treedef=None, in_layouts_leaves=None,
            out_layouts_treedef=None, out_layouts_leaves=None)
        return _jax.pjit("xla_main", slow, cache_miss, [], [], keys, tree_util.dispatch_registry,
                         pxla.cc_shard_arg, _jax.PjitFunctionCache(capacity=4)), "jit fast path"
    except (ImportError, AttributeError, TypeError) as e:
        print(f"XLA worker: no jit fast path ({type(e).__name__}: {e}); "
              "calling through jax.device_put", file=sys.stderr)
        return slow, "device_put"


def serve():
    """The worker's loop: requests on stdin, answers on the original stdout
    (anything else printed goes to stderr)."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    import jax
    jax.config.update("jax_platforms", "cpu")
    jax.config.update("jax_enable_x64", True)
    from jax._src import compiler
    from jax._src.interpreters import mlir
    from jax._src.lib import xla_client as xc
    sys.path.insert(0, HERE)
    from run import sample, to_host

    device = jax.devices("cpu")[0]
    client = device.client
    prepared: dict = {}

    def prepare(key, text, inputs):
        inputs = [aligned(x) for x in inputs]
        t0 = time.perf_counter()
        module = static_module(text, inputs)
        options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
        exe = client.compile_and_load(mlir.module_to_bytecode(module), xc.DeviceList((device,)),
                                      options)
        t1 = time.perf_counter()
        fn, path = jit_call(exe, device, len(inputs))
        outputs = to_host(fn(*inputs))
        t2 = time.perf_counter()
        prepared[key] = (fn, inputs)
        return {"compile_s": t1 - t0, "first_call_s": t2 - t1, "outputs": outputs,
                "xla_call": path}

    def timed(key, budget_s, min_reps, warmup):
        fn, inputs = prepared[key]
        return sample(fn, inputs, budget_s, min_reps, warmup, {})

    handlers = {"prepare": prepare, "sample": timed,
                "call": lambda key, inputs: to_host(prepared[key][0](*inputs)),
                "drop": lambda key: prepared.pop(key, None) and None}
    while True:
        try:
            op, *args = pickle.load(sys.stdin.buffer)
        except EOFError:
            return
        try:
            reply = ("ok", handlers[op](*args))
        except Exception as e:  # noqa: BLE001 - reported to the parent as the cell's error
            reply = ("error", f"{type(e).__name__}: {e}")
        pickle.dump(reply, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()


if __name__ == "__main__":
    serve()
