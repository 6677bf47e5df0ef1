"""The user API: ``load_module(...)`` -> ``Module``; ``module.main(*arrays)``.

Arguments are checked against the export's reflection metadata (count, dtype,
shape with ``?`` matching any extent) before the VM runs, so a wrong input
raises ``InvalidArgumentError`` naming the argument, expected and actual.
numpy inputs reach the device zero-copy where the allocator allows; tensor
results come back as ``DeviceArray`` (numpy reads them with ``np.asarray``).

``module.main.invoke_async(*args)`` returns a ``concurrent.futures.Future``
at once: the export's ``main$async`` form submits its work to the device's
queue threads (on local-sync, which has none, the whole call runs on the
coroutine scheduler's thread; runtime/scheduler.py), and the future
completes when the results are ready.  ``await
module.main.call_async(*args)`` is the asyncio form: the event loop keeps
running meanwhile.  A loaded module may be called from any number of threads
at once.
"""
from __future__ import annotations

import os
import threading

import numpy as np


from . import dlpack, pytree
from .arrays import DeviceArray, DonatedView, arg_spec, import_array, tensor_text, to_view
from .errors import CallCancelledError, InvalidArgumentError
from .vm import BytecodeModule, Context
from .vm.interpreter import DEFAULT_TIMEOUT_S, bounds_error, coerce
from tensorvm.vmfb.host_transfers import TOKEN_KIND
from tensorvm.vmfb.model import ModuleDef, parse_signature

ASYNC_SUFFIX = "$async"
_NP = np.ndarray
from tensorvm.hal.buffer import BufferView as _BufferView  # noqa: E402  (no driver imports)
# What every load needs comes with the API, so that a process's first load
# pays no imports (4 ms of them: msgpack, the container reader, the hal module).
from tensorvm.vmfb import container as _container  # noqa: E402,F401
from . import custom_calls as _custom_calls  # noqa: E402,F401
from .modules import hal as _hal_module  # noqa: E402,F401
from .vm import cache as _module_cache  # noqa: E402,F401

_DEVICES: dict = {}
_DEVICES_LOCK = threading.Lock()


def _after_fork_in_child() -> None:
    global _DEVICES_LOCK
    _DEVICES_LOCK = threading.Lock()     # a parent thread may have held it at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def get_device(device="local-task"):
    """The process-wide HAL device for a URI, or ``device`` itself.

    Created on first use and reused; a cached device that was closed is
    replaced by a fresh one (a closed device takes no work)."""
    if not isinstance(device, str):
        return device
    with _DEVICES_LOCK:
        dev = _DEVICES.get(device)
        if dev is None or dev.closed:
            from tensorvm import hal
            dev = _DEVICES[device] = hal.create_device(device)
        return dev


class Function:
    """A callable export of a loaded module; ``repr`` shows its signature."""

    def __init__(self, module: "Module", handle):
        self.module, self.handle, self.name = module, handle, handle.name
        self.signature = handle.signature
        self._sig = parse_signature(handle.signature)
        refl = handle.reflection or {}
        self.args = list(refl.get("args", [{} for _ in self._sig.args]))
        self.results = list(refl.get("results", [{} for _ in self._sig.results]))
        # arguments whose buffer a result takes over (compiler/host/donation.py)
        self._donated = [i for i, e in enumerate(self.args) if "donated_to" in e]
        self._specs = [arg_spec(self.args[i]) if i < len(self.args) and p.bank == "ref" else None
                       for i, p in enumerate(self._sig.args)]
        # per argument: (the numpy array of the last call, its BufferView), so
        # weights passed again as the same arrays are not imported again
        self._last_import = [None] * len(self._specs)
        self._async = None
        target = handle.target
        self._fused = getattr(target, "fused", None) if handle.all_refs else None
        # nested arguments/results recorded by a frontend (runtime/pytree.py)
        self._in_tree, self._out_tree = refl.get("pytree_args"), refl.get("pytree_results")
        # !stablehlo.token results: null refs in the VM, Token objects here
        self._token_results = [i for i, e in enumerate(self.results) if e.get("kind") == TOKEN_KIND]

    def _describe(self, entry, param) -> str:
        if entry.get("kind") == TOKEN_KIND:
            return "!stablehlo.token"
        if param.bank == "ref" and entry.get("dtype"):
            return tensor_text(entry.get("shape", []), entry["dtype"])
        return entry.get("dtype") or param.bank

    def __repr__(self):
        args = [self._describe(e, p) for e, p in zip(self.args, self._sig.args)]
        res = [self._describe(e, p) for e, p in zip(self.results, self._sig.results)]
        if self._in_tree is not None:          # the nesting a frontend recorded
            text = pytree.render(self._in_tree, iter(args))[1:-1].rstrip(",")
        else:
            text = ", ".join(f"{e.get('name', f'arg{i}')}: {a}"
                             for i, (e, a) in enumerate(zip(self.args, args)))
        out = (pytree.render(self._out_tree, iter(res)) if self._out_tree is not None
               else f"({', '.join(res)})")
        return f"<Function {self.name}({text}) -> {out}>"

    # -- arguments ---------------------------------------------------------------
    def _arg_label(self, i) -> str:
        name = self.args[i].get("name") if i < len(self.args) else None
        return f"argument '{name}' (#{i})" if name else f"argument #{i}"

    def _to_view(self, i, value, entry):
        return to_view(self.name, self._arg_label(i), value, entry, self.module.device)

    def _parameter_list(self, params, head: int = 8, tail: int = 2) -> str:
        """The parameters as text for an argument-count error; a long list
        (a model whose weights are arguments: hundreds) shows its first
        ``head`` and last ``tail``, so the message stays readable."""
        items = [f"{e.get('name', f'arg{i}')}: {self._describe(e, p)}"
                 for i, (e, p) in enumerate(zip(self.args, params))]
        if len(items) > head + tail + 1:
            items = [*items[:head], f"... {len(items) - head - tail} more ...", *items[-tail:]]
        return ", ".join(items)

    def _convert(self, args, pending=None) -> list:
        """VM arguments for ``args``; fences of not-yet-ready DeviceArrays are
        appended to ``pending`` (or waited for when it is None)."""
        params = self._sig.args
        if self._in_tree is not None:
            args = pytree.flatten(self._in_tree, tuple(args), [])
        if len(args) != len(params):
            raise InvalidArgumentError(f"{self.name} takes {len(params)} arguments "
                                       f"({self._parameter_list(params)}), got {len(args)}")
        out = []
        device = self.module.device
        last = self._last_import
        for i, (spec, v) in enumerate(zip(self._specs, args)):
            cls = v.__class__
            if spec is not None:
                if cls is not _NP and cls is not DeviceArray and hasattr(cls, "__dlpack__") \
                        and not isinstance(v, _NP):        # (ndarray subclasses: to_view)
                    hit = last[i]
                    if hit is not None and hit[0] is v and hit[1].buffer._storage is not None:
                        out.append(hit[1])  # the same immutable producer (JAX): same view
                        continue
                    producer = v
                    # torch, JAX...: a numpy array over the producer's memory
                    v = dlpack.host_array(v, f"{self.name}: {self._arg_label(i)}")
                    if v.dtype == spec[0] and v.shape == spec[1] and v.flags.c_contiguous:
                        view = import_array(device, v)
                        last[i] = (producer, view) if dlpack.immutable(cls) else None
                        out.append(view)
                        continue
                    cls = _NP
                if cls is _NP:
                    if v.dtype == spec[0] and v.shape == spec[1] and v.flags.c_contiguous:
                        # the same array object: same memory, so the same view
                        # (dtype, shape and layout were checked again above)
                        hit = last[i]
                        if hit is not None and hit[0] is v and hit[1].buffer._storage is not None:
                            out.append(hit[1])
                            continue
                        view = import_array(device, v)
                        last[i] = (v, view)
                        out.append(view)
                        continue
                elif cls is DeviceArray:
                    bv = v.buffer_view
                    if bv.dtype == spec[0] and bv.shape == spec[1]:
                        ready = v.ready
                        if ready is not None and not ready.is_signaled:
                            if pending is None:
                                v.wait()
                            else:
                                pending.append(ready)
                        out.append(bv)
                        continue
            out.append(self._convert_one(i, v, pending))
        for i in self._donated:
            out[i] = self._donate(i, args[i], out[i])
        return out

    def _donate(self, i, value, view):
        """The buffer a donated argument hands over: a DeviceArray's own (the
        array is invalid from now on), or a private copy of host memory (the
        caller's array is never written)."""
        self._last_import[i] = None
        if isinstance(value, DeviceArray):
            value.buffer_view = DonatedView(self.name, self._arg_label(i))
            return view
        return import_array(self.module.device, np.array(view.to_numpy(), copy=True))

    def _convert_one(self, i, v, pending):
        p = self._sig.args[i]
        entry = self.args[i] if i < len(self.args) else {}
        if p.bank == "ref":
            if entry.get("kind") == TOKEN_KIND:
                from .host_queues import Token
                if v is not None and not isinstance(v, Token):
                    raise InvalidArgumentError(f"{self.name}: {self._arg_label(i)}: expected a "
                                               f"token (tensorvm.runtime.Token()), got "
                                               f"{type(v).__name__}")
                return None                   # tokens carry no data: a null ref
            if entry.get("kind") == "fence" or (not entry.get("dtype") and not isinstance(
                    v, (np.ndarray, np.generic, list, tuple, int, float, complex, DeviceArray))
                    and not dlpack.is_dlpack(v)):
                return v                      # HAL objects (fences, buffers) pass through
            if isinstance(v, DeviceArray) and not v.is_ready:
                if pending is None:
                    v.wait()
                else:
                    pending.append(v.ready)
            return self._to_view(i, v, entry)
        try:
            return coerce(p.bank, v.item() if isinstance(v, (np.ndarray, np.generic))
                          and np.ndim(v) == 0 else v)
        except (TypeError, ValueError) as e:
            raise InvalidArgumentError(f"{self.name}: {self._arg_label(i)}: expected "
                                       f"{self._describe(entry, p)}, got {v!r} ({e})") from None

    def _wrap(self, results, ready=None):
        dev, t = self.module.device, self.module.timeout_s
        out = [DeviceArray(r, dev, ready, t) if r.__class__ is _BufferView or
               isinstance(r, _BufferView) else r for r in results]
        if self._token_results:
            from .host_queues import Token
            for i in self._token_results:
                out[i] = Token()
        if self._out_tree is not None:
            return pytree.unflatten(self._out_tree, iter(out))
        if not out:
            return None
        return out[0] if len(out) == 1 else tuple(out)

    def __call__(self, *args):
        if self.module.channel is not None:
            return self._call_on_channel(args)
        tracer = self.module.tracer
        if tracer is None:
            if self._fused is not None:     # refs only, checked by _convert and the bytecode
                try:
                    return self._wrap(self._fused(*self._convert(args)))
                except Exception as e:      # a native loop stopped on its deadline?
                    err = bounds_error(e, self.name, None, self.module.timeout_s)
                    if err is e:
                        raise
                    raise err from e
            return self._wrap(self.module.context.invoke(self.handle, self._convert(args)))
        t0 = tracer.now()
        try:
            return self._wrap(self.module.context.invoke(self.handle, self._convert(args)))
        finally:
            tracer.complete(f"call {self.name}", "invocation", t0, tracer.now())

    def _call_on_channel(self, args):
        """A call of one rank: its failure aborts the channel for the others (and
        breaks a channel that cannot recover: its next call raises ChannelBrokenError)."""
        channel = self.module.channel
        channel.check_usable()
        try:
            return self._wrap(self.module.context.invoke(self.handle, self._convert(args)))
        except BaseException as e:
            from tensorvm.hal.channel import PeerFailedError
            if not isinstance(e, PeerFailedError):
                channel.abort(e)
            channel.call_failed(e)
            raise

    def invoke_async(self, *args):
        """Start a call; returns a ``concurrent.futures.Future`` of the results.

        Runs the ``$async`` form when the module has one (inputs still being
        computed by earlier calls are waited for on the device queue, not on
        this thread); otherwise the plain function as a coroutine.  Returns
        before any of the call runs (arguments are checked here).  Errors,
        including device failures and timeouts, arrive as the future's
        exception.  ``cancel()`` of a future not yet done stops the call at
        its next back-branch / call / resume (``CallCancelledError``).
        ``asyncio`` users: ``await fn.call_async(...)``."""
        from concurrent.futures import Future
        from .scheduler import default_scheduler
        fut = Future()
        module = self.module
        afn = self._async_function()
        try:
            pending = []
            views = self._convert(args, pending)
            if afn is None:
                for f in pending:
                    f.wait(module.timeout_s)
                inv = module.context.begin_invoke(self.handle, views)
            else:
                from tensorvm.hal import Fence
                signal = module.device.create_fence()
                wait = Fence.join(pending) if pending else None
                inv = module.context.begin_invoke(afn.handle, views + [wait, signal])
        except BaseException as e:   # noqa: BLE001 - argument errors go to the future
            fut.set_exception(e)
            return fut
        sched = default_scheduler()

        def finished(results, exc):     # raising here comes back as finished(None, e)
            if fut.cancelled():                     # Future.cancel(): results unwanted
                if afn is not None:
                    signal.fail(exc or CallCancelledError("call cancelled"))
                return
            if exc is not None:
                if afn is not None:
                    signal.fail(exc)
                _settle(fut, None, exc)
            elif afn is None:
                _settle(fut, self._wrap(results), None)
            else:
                arrays = self._wrap(results, signal)

                def ready(err):
                    if err is None:
                        _settle(fut, arrays, None)
                    else:
                        from tensorvm.hal.errors import rethrow
                        _settle(fut, None, rethrow(err))
                sched.watch(signal, module.timeout_s, ready)
        fut.add_done_callback(lambda f: f.cancelled() and inv.cancel())   # stops its loops
        if module.device.inline_queue:    # kernels would run here: hand the call off
            sched.start(inv, finished)
        else:                              # host code here, kernels on the queue threads
            sched.start_here(inv, finished)
        return fut

    async def call_async(self, *args):
        """``await`` the call from asyncio: the results, or the call's error.
        The loop is not blocked: the call runs as ``invoke_async`` and its
        completion is handed to the loop thread-safely (``wrap_future``);
        cancelling the awaiting task cancels the call's future."""
        import asyncio
        return await asyncio.wrap_future(self.invoke_async(*args))

    def _async_function(self):
        if self._async is None:
            name = self.name + ASYNC_SUFFIX
            self._async = self.module[name] if name in self.module.bytecode.exports else False
        return self._async or None

    def begin(self, *args):
        """Start an invocation without running it (``Invocation.step()`` drives it)."""
        return self.module.context.begin_invoke(self.handle, self._convert(args))

    def finish(self, invocation):
        """Results of a completed invocation from ``begin``, wrapped like ``__call__``."""
        return self._wrap(invocation.results)


def _settle(fut, result, exc) -> None:
    """Complete ``fut`` unless its caller cancelled it meanwhile."""
    from concurrent.futures import InvalidStateError
    try:
        if exc is None:
            fut.set_result(result)
        else:
            fut.set_exception(exc)
    except InvalidStateError:
        if not fut.cancelled():
            raise


class ExportsAsAttributes:
    """``module.name`` is ``module["name"]`` (exports as attributes)."""

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(str(e)) from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.functions))


class Module(ExportsAsAttributes):
    """A loaded module: exports as attributes / items, ``functions`` lists them."""

    def __init__(self, context: Context, bytecode: BytecodeModule, device, tracer=None):
        self.context, self.bytecode, self.device = context, bytecode, device
        self.name = bytecode.name
        self.tracer = tracer
        self.timeout_s = context.default_timeout_s
        self.channel = None           # the collective channel of an MPI rank (or None)
        self._functions = {}

    @property
    def functions(self) -> dict:
        """``{name: Function}`` of every public export (repr shows the signature);
        the ``name$async`` forms are reached through ``invoke_async``."""
        return {n: self[n] for n in self.bytecode.exports
                if not n.startswith("__") and not n.endswith(ASYNC_SUFFIX)}

    @property
    def host_queues(self):
        """This module's ``HostQueues`` (runtime/host_queues.py): push what its
        ``infeed`` / host ``recv`` ops read, pop what its ``outfeed`` / host
        ``send`` ops wrote."""
        from .modules.hal import HalState
        for _, state in self.context._modules:
            if isinstance(state, HalState):
                return state.host_queues
        raise ValueError(f"module '{self.name}' has no hal module state")

    @property
    def executables(self) -> list:
        """``{"name", "format", "variant", "target"}`` of each executable the
        module has loaded: which CPU variant (index into the .vmfb's list, its
        arch, cpu level and features) the runtime picked on this host."""
        from .modules.hal import HalState
        out = []
        for _, state in self.context._modules:
            if isinstance(state, HalState):
                out += [{"name": e.name, "format": e.format, "variant": getattr(e, "variant", None),
                         "target": dict(getattr(e, "target", {}))} for e in state.loaded()]
        return out

    def save_trace(self, path=None) -> str:
        """Write the trace (``load_module(..., trace=...)``) as Chrome/Perfetto JSON."""
        if self.tracer is None:
            raise ValueError("this module was loaded without trace=...")
        return self.tracer.save(path)

    def __getitem__(self, name: str) -> Function:
        fn = self._functions.get(name)
        if fn is None:
            if name not in self.bytecode.exports:
                raise KeyError(f"module '{self.name}' has no export '{name}' "
                               f"(exports: {', '.join(sorted(self.functions)) or 'none'})")
            fn = self._functions[name] = Function(self, self.context.lookup(f"{self.name}.{name}"))
        return fn

    def __repr__(self):
        return f"<Module '{self.name}' on {getattr(self.device, 'name', self.device)}: " \
               f"{', '.join(sorted(self.functions))}>"


class Instance:
    """Process-level runtime state for embedding: native modules added to every
    context (user modules for custom calls), the device cache, the default
    wait timeout (``timeout_s``: what ``fence.await -1`` means; never infinite
    unless None is asked for) and an optional trace (``trace``: a path or a
    ``tensorvm.hal.trace.Tracer``) installed on the devices it loads onto."""

    def __init__(self, native_modules=(), *, timeout_s=DEFAULT_TIMEOUT_S, trace=None):
        self.native_modules = list(native_modules)
        self.timeout_s = timeout_s
        self.tracer = _tracer(trace)

    def device(self, device="local-task"):
        return get_device(device)

    def load_module(self, source, device="local-task", *, timeout_s=None, trace=None,
                    verify="lazy", expected_sha256=None, custom_calls=None, replicas=None,
                    partitions=None, channel=None, host_queues=None):
        """Read (``bytes``/path/ModuleDef), verify, link with ``hal`` and run ``__init``.

        ``custom_calls``: ``{name: fn}`` binding the module's host calls
        (runtime/custom_calls.py); a host call left unbound raises
        ``MissingCustomCallError`` naming it.
        ``replicas`` / ``partitions``: load as that many in-process ranks
        (a ``ParallelModule``; ``device`` may then be a list, one per rank, a URI
        listed more than once giving each of those ranks its own device);
        ``channel="mpi"``: this process is one MPI rank, or with a list of
        devices hosts one rank per device (a ``ParallelModule`` of this
        process's ranks; every process of the job loads together, ranks
        numbered process by process); ``channel=[Channel, ...]``: one rank per
        channel (and device), e.g. from ``hal.channels.hierarchical.mpi_channels``
        over a communicator of one's own (runtime/parallel.py).
        ``host_queues``: a ``HostQueues`` to use (shared with other modules);
        by default the module gets its own (``module.host_queues``), and the
        ranks of a parallel load (in process, or this process's under MPI)
        share one.

        ``verify="lazy"`` checks the container and the module's tables now and
        each function's bytecode just before its first call, and loads each
        executable's code into the device at its first dispatch (a load costs
        nothing per instruction or kernel); ``"eager"`` checks every function
        and loads every executable now.
        ``expected_sha256`` pins the module's bytes (vmfb IntegrityError if they
        differ; docs/security.md)."""
        if verify not in ("lazy", "eager"):
            raise ValueError(f"verify must be 'lazy' or 'eager', got {verify!r}")
        bytecode = _verified_module(source, verify == "lazy", expected_sha256)
        mdef = bytecode.definition
        kw = dict(timeout_s=timeout_s, trace=trace, verify=verify, custom_calls=custom_calls,
                  host_queues=host_queues)
        if replicas is not None or partitions is not None:
            if channel is not None:
                raise ValueError("replicas= / partitions= load in-process ranks with channels "
                                 "of their own; pass channel= without them")
            return self._load_parallel(bytecode, device, replicas or 1, partitions or 1, **kw)
        several = isinstance(device, (list, tuple))
        if channel == "mpi":
            from tensorvm.hal.channels.hierarchical import mpi_channels
            from tensorvm.vmfb.collectives import parse_devices
            r, p = parse_devices(mdef.requirements)
            chans = mpi_channels(len(device) if several else 1, None if r * p == 1 else r, p,
                                 self.timeout_s if timeout_s is None else timeout_s)
            channel = chans if several else chans[0]
        elif isinstance(channel, str):
            raise ValueError(f"channel must be 'mpi', a tensorvm.hal.channel.Channel or a list "
                             f"of them, got {channel!r}")
        if isinstance(channel, (list, tuple)):
            return self._load_ranks(bytecode, list(device) if several else [device] * len(channel),
                                    list(channel), several, **kw)
        if several:
            raise ValueError(f"{len(device)} devices for one rank: pass replicas= / partitions= "
                             f"(in-process ranks) or channel='mpi' (one rank per device)")
        dev = self.device(device)
        tracer = _tracer(trace) or self.tracer
        if tracer is not None:
            dev.tracer = tracer
        # eager: kernels too, so that every load error surfaces now
        natives = [_hal_module.HalModule(defer_loads=verify == "lazy")]
        natives += [m for m in self.native_modules if m.name != "hal"]
        natives += _custom_call_modules(bytecode, custom_calls or {}, natives)
        ctx = Context(natives + [bytecode], device=dev, channel=channel, host_queues=host_queues,
                      default_timeout_s=self.timeout_s if timeout_s is None else timeout_s)
        module = Module(ctx, bytecode, dev, tracer)
        module.channel = channel
        return module

    def _load_parallel(self, bytecode, device, replicas, partitions, **kw):
        """``replicas * partitions`` in-process ranks of ``bytecode``."""
        from .parallel import inprocess_channels
        n = replicas * partitions
        devices = list(device) if isinstance(device, (list, tuple)) else [device] * n
        if len(devices) != n:
            raise ValueError(f"{replicas} replicas x {partitions} partitions need {n} devices, "
                             f"got {len(devices)}")
        timeout = kw["timeout_s"]
        chans = inprocess_channels(replicas, partitions,
                                   self.timeout_s if timeout is None else timeout)
        return self._load_ranks(bytecode, devices, chans, isinstance(device, (list, tuple)), **kw)

    def _load_ranks(self, bytecode, devices, chans, listed, **kw):
        """One rank of ``bytecode`` per channel, on its device, one context each
        (sharing the verified module): a ParallelModule of those ranks."""
        from .parallel import ParallelModule
        if len(devices) != len(chans) or not chans:
            raise ValueError(f"{len(chans)} ranks need as many devices (at least one), got "
                             f"{len(devices)}")
        if listed:
            # a URI listed for several ranks gives each its own device (the
            # process-wide one of get_device would make them share its workers)
            from tensorvm import hal
            devices = [hal.create_device(d) if isinstance(d, str) and devices.count(d) > 1
                       else d for d in devices]
        if kw.get("host_queues") is None:      # one host for every rank here (run_parallel)
            from .host_queues import HostQueues
            timeout = kw["timeout_s"]
            kw["host_queues"] = HostQueues(self.timeout_s if timeout is None else timeout)
        mods = [self.load_module(bytecode, d, channel=c, **kw) for d, c in zip(devices, chans)]
        return ParallelModule(mods, chans, kw["host_queues"])


def _verified_module(source, lazy: bool, expected_sha256) -> BytecodeModule:
    """The verified BytecodeModule of ``source`` (path, bytes-like or
    ModuleDef): from the process's module cache when these exact bytes were
    accepted before (runtime/vm/cache.py), else read and verified now."""
    if source.__class__ is bytes:            # (the common case: immutable, cacheable)
        data = source
    elif isinstance(source, BytecodeModule):    # a rank of a parallel load: verified already
        if not lazy:
            source.verify_bodies()
        return source
    elif isinstance(source, ModuleDef):
        if expected_sha256 is not None:
            raise ValueError("expected_sha256 pins a module's bytes; pass the .vmfb path or "
                             "bytes, not a ModuleDef")
        return BytecodeModule.from_def(source, lazy=lazy)
    elif not isinstance(source, (bytes, bytearray, memoryview, str, os.PathLike)):
        raise TypeError(f"load_module takes a path, bytes or ModuleDef, "
                        f"got {type(source).__name__}")
    else:
        data = _module_cache.private_bytes(source)
        if data is None:                     # too big to copy: mapped, not cached
            return BytecodeModule.from_def(
                _container.read_module(source, expected_sha256=expected_sha256), lazy=lazy)
    if expected_sha256 is not None:
        _container.check_digest(data, expected_sha256)
    return _module_cache.MODULES.load(data, lazy, checksums=expected_sha256 is None)


def _custom_call_modules(bytecode, custom_calls: dict, natives) -> list:
    """The ``custom`` native module for a module's host calls ([] if none)."""
    cc = _custom_calls
    wanted = cc.needed(bytecode)
    if not wanted or any(m.name == cc.MODULE for m in natives):
        return []                       # (an embedder's own 'custom' module serves them)
    missing = set(wanted) - set(custom_calls)
    if missing:
        raise cc.MissingCustomCallError(bytecode.name, missing)
    return [cc.CustomCallModule(custom_calls, wanted)]


def _tracer(trace):
    """A Tracer for ``trace`` (None, a path, or a Tracer); paths are saved at exit."""
    if trace is None:
        return None
    from tensorvm.hal.trace import Tracer
    if isinstance(trace, Tracer):
        return trace
    tracer = Tracer(trace)
    import atexit
    atexit.register(tracer.save)
    return tracer


_DEFAULT = Instance()


def load_module(path_or_bytes, device="local-task", *, native_modules=(), timeout_s=None,
                trace=None, verify="lazy", expected_sha256=None, custom_calls=None,
                replicas=None, partitions=None, channel=None, host_queues=None) -> Module:
    """Load a ``.vmfb`` (path, bytes or ModuleDef) onto ``device`` (URI or Device).

    ``timeout_s``: the default wait timeout (60 s unless given); ``trace``: a
    path or Tracer that records queue submissions and dispatches per thread;
    ``verify``: "lazy" (each function's bytecode before its first call) or
    "eager" (all of it now); ``expected_sha256``: the hex SHA-256 the module's
    bytes must have (``tensorvm-dump`` prints it); ``custom_calls``: ``{name: fn}``
    for the module's host calls (docs/custom_kernels.md); ``replicas`` /
    ``partitions``: run as that many in-process ranks (a ParallelModule);
    ``channel="mpi"``: this process is one rank of ``mpirun``, or one rank per
    device of a ``device`` list (runtime/parallel.py);
    ``host_queues``: the ``HostQueues`` its infeed/outfeed/host send/recv use
    (default: its own, ``module.host_queues``; docs/host_transfers.md)."""
    inst = Instance(native_modules) if native_modules else _DEFAULT
    return inst.load_module(path_or_bytes, device, timeout_s=timeout_s, trace=trace,
                            verify=verify, expected_sha256=expected_sha256,
                            custom_calls=custom_calls, replicas=replicas,
                            partitions=partitions, channel=channel, host_queues=host_queues)
