"""The ``hal`` native VM module: VM calls -> HAL objects (internals.md §6).

Compiled host code imports these functions as ``hal.<name>``; each is called
as ``fn(state, *args)`` with variadic runs as lists.  Refs are the HAL's own
Python objects (Device, Buffer, BufferView, CommandBuffer, Executable, Fence),
so nothing is wrapped or looked up per call.  ``fence.await`` never blocks the
interpreter thread: if the fences are not yet signalled it returns
``Suspend(fence, timeout_ms)`` and the VM parks the invocation.
"""
from __future__ import annotations

import threading
import time

import numpy as np

from tensorvm import hal
from tensorvm.hal import Buffer, BufferView, CommandBuffer, Executable, Fence, HalError
from tensorvm.hal.allocator import DeviceBoundAllocator
from tensorvm.hal.channel import Channel
from tensorvm.hal.command_buffer import constant_slot
from tensorvm.hal.errors import rethrow
from tensorvm.runtime.errors import InvalidArgumentError
from tensorvm.runtime.vm.interpreter import current_invocation
from tensorvm.runtime.vm.native import NativeModule, Suspend
from tensorvm.runtime.vm.rodata import LazyRodata
from tensorvm.vmfb import element_types, hal_imports, host_transfers
from tensorvm.vmfb.cpu_abi import BOUNDS_DEADLINE, BOUNDS_MEASURE, BOUNDS_WORDS


class HalState:
    """Per-context state: the device and the executables loaded for it."""

    __slots__ = ("_device", "_executables", "_lock", "device_class", "timeout_s", "_channel",
                 "defer_loads", "_host_queues", "_unread_bounds")

    def __init__(self, device, timeout_s=None, channel=None, host_queues=None):
        self._channel = channel     # collectives' channel; a lone one made on first use
        self._host_queues = host_queues   # infeed/outfeed/host channels; made on first use
        if isinstance(device, str):
            device = hal.create_device(device)
        self._device = device
        self.device_class = type(device) if device is not None else None
        self._executables = {}      # id(ExecutableDef) -> (ExecutableDef, Executable)
        self._lock = threading.Lock()
        self.timeout_s = timeout_s      # the context's default: bounds of fused calls
        # executable.load picks the variant now and loads its code at the first
        # dispatch (PendingExecutable); HalModule(defer_loads=False) loads it then
        self.defer_loads = True
        self._unread_bounds = None   # (device, buffer): the bounds a GPU loop is bound to

    def loaded(self) -> list:
        """The executables the module asked for (its initializers or
        ``__init``), in load order (a PendingExecutable until its first
        dispatch)."""
        with self._lock:
            return [exe for _, exe in self._executables.values()]


    @property
    def channel(self):
        if self._channel is None:
            from tensorvm.hal.channel import single_channel
            self._channel = single_channel()
        return self._channel

    @property
    def host_queues(self):
        if self._host_queues is None:
            from tensorvm.runtime.host_queues import HostQueues
            self._host_queues = HostQueues(self.timeout_s)
        return self._host_queues

    @property
    def device(self):
        if self._device is None:
            raise HalError("this VM context has no HAL device; create the context with "
                           "device=... (e.g. hal.create_device('local-task'))")
        return self._device


def _need(obj, cls, fn: str, what: str):
    if not isinstance(obj, cls):
        got = "null" if obj is None else type(obj).__name__
        raise HalError(f"hal.{fn}: {what} must be a {cls.__name__}, got {got}")
    return obj


def _device(state, obj, fn):
    return _need(obj, hal.Device, fn, "device")


def _text(ref) -> str:
    if isinstance(ref, str):
        return ref
    if isinstance(ref, (bytes, bytearray, memoryview)):
        return bytes(ref).decode("utf-8", "replace")
    return str(ref)


def _tensor_type(shape, type_name) -> str:
    return "tensor<" + "".join(f"{'?' if d == -1 else d}x" for d in shape) + type_name + ">"


def _dtype_name(dtype) -> str:
    try:
        return element_types.from_numpy(dtype).name
    except KeyError:
        return str(dtype)


def _etype(type_id: int, fn: str):
    et = element_types.BY_ID.get(type_id)
    if et is None:
        raise HalError(f"hal.{fn}: unknown element type id {type_id}")
    return et


# -- device / executables / allocation -------------------------------------------
def device_get(state):
    return state.device


class PendingExecutable:
    """An executable whose variant ``executable.load`` chose (so a module
    that cannot run on the device fails at load) but whose code is loaded
    into the device by its first dispatch: loading a module costs nothing
    per kernel (no dlopen, ELF check or entry-point tables for kernels a
    call never reaches), as function bodies are verified at first call.
    Loading is once, under a lock; a load error is raised by every dispatch
    that needs it."""

    __slots__ = ("device", "name", "format", "variant", "target", "_def", "_names",
                 "_exe", "_lock")

    def __init__(self, device, name, variant: int, v):
        self.device, self.name, self.variant = device, name, variant
        self.format, self.target = v.format, dict(v.target or {})
        self._def = v                 # (its entry points are decoded when first read)
        self._names = None
        self._exe = None
        self._lock = threading.Lock()

    @property
    def entry_points(self) -> list:
        """The variant's entry point names (decoding its entry points, not
        loading its code)."""
        names = self._names
        if names is None:
            names = self._names = [getattr(e, "name", e) for e in self._def.entry_points]
        return names

    def get(self) -> Executable:
        """The loaded executable (loading it on first use)."""
        exe = self._exe
        if exe is None:
            with self._lock:
                exe = self._exe
                if exe is None:
                    v = self._def
                    exe = self.device.load_executable(self.name, self.format, v.data,
                                                      v.entry_points, self.target)
                    exe.variant = self.variant
                    self._exe = exe
        return exe


def executable_load(state, device, exe_def):
    _device(state, device, "executable.load")
    key = id(exe_def)
    with state._lock:
        hit = state._executables.get(key)
    if hit is not None and hit[0] is exe_def and hit[1].device is device:
        return hit[1]
    variants = list(getattr(exe_def, "variants", None) or ())
    name = getattr(exe_def, "name", "?")
    i = device.select_variant(name, variants)
    v = variants[i]
    if state.defer_loads:
        exe = PendingExecutable(device, name, i, v)
    else:
        exe = device.load_executable(name, v.format, v.data, v.entry_points, v.target)
        exe.variant = i
    with state._lock:
        state._executables[key] = (exe_def, exe)
    return exe


def _executable(exe, fn: str) -> Executable:
    """``exe`` as a loaded Executable (a pending one is loaded now)."""
    if exe.__class__ is PendingExecutable:
        return exe.get()
    return _need(exe, Executable, fn, "executable")


def executable_has_entry(state, exe, name):
    """1 when the loaded variant has entry point ``name`` (a module may give its
    CPU variant entry points other variants lack, e.g. native loops)."""
    if exe.__class__ is not PendingExecutable:
        exe = _need(exe, hal.Executable, "executable.has_entry", "executable")
    return 1 if _text(name) in exe.entry_points else 0


def allocator_allocate(state, device, size):
    if device.__class__ is not state.device_class:
        _device(state, device, "allocator.allocate")
    # not zeroed: the module's dispatches and copies write what it later reads
    # (its results and transients); hal users' own allocations stay zeroed
    return device.allocator.allocate(size, zero=False)


def allocator_allocate_result(state, device, size):
    """A buffer for one of the call's results (the host reads it back)."""
    if device.__class__ is not state.device_class:
        _device(state, device, "allocator.allocate.result")
    return device.allocator.allocate_result(size)


def invocation_bounds(state, device):
    """The calling invocation's bounds (vmfb/cpu_abi.py: BOUNDS_*) as a host
    buffer, bound to native loops so ``timeout_s`` and ``cancel()`` stop them,
    and a tracer on the device gets their per-iteration stats."""
    if isinstance(device.allocator, DeviceBoundAllocator):
        # a GPU loop kernel (compiler/codegen/gpu_loop.py) takes the bounds as
        # a device binding it never reads: one zeroed buffer per device, made once
        cached = state._unread_bounds
        if cached is None or cached[0] is not device:
            cached = state._unread_bounds = (device, device.allocator.import_host(
                np.zeros(BOUNDS_WORDS, np.uint64).view(np.uint8)))
        return cached[1]
    inv = current_invocation()
    if inv is not None:
        words = inv.bounds()
    else:                       # a fused (synchronous) call: the context's timeout
        words = np.zeros(BOUNDS_WORDS, np.uint64)
        if state.timeout_s is not None:
            words[BOUNDS_DEADLINE] = int((time.monotonic() + state.timeout_s) * 1e9)
    words[BOUNDS_MEASURE] = device.tracer is not None
    return Buffer(words.view(np.uint8))


def allocator_import(state, device, rodata):
    allocator = _device(state, device, "allocator.import").allocator
    if rodata.__class__ is LazyRodata:       # an initializer's constant: checked on use
        return rodata.import_into(allocator)
    return allocator.import_host(rodata)


allocator_import.lazy_rodata = True          # (runtime/vm/context.py)


# -- buffer views ------------------------------------------------------------------
def _plain_dtypes() -> dict:
    import numpy as np
    table = {}
    for et in element_types.BY_ID.values():
        try:
            table[et.id] = np.dtype(et.numpy)
        except TypeError:
            pass                     # an ml_dtypes type: added on first use (_dtype_of)
    return table


# Plain numpy dtypes up front; ml_dtypes (whose import costs ~0.5 s) only
# when a module uses an extended float.
_DTYPE_OF_ID = _plain_dtypes()


def _dtype_of(type_id):
    """The numpy dtype of an element type id, or None for an unknown id."""
    dt = _DTYPE_OF_ID.get(type_id)
    if dt is None and type_id in element_types.BY_ID:
        dt = _DTYPE_OF_ID[type_id] = element_types.numpy_dtype(element_types.BY_ID[type_id])
    return dt


def buffer_view_assert(state, view, name, type_id, dims):
    if view.__class__ is BufferView and view.dtype == _DTYPE_OF_ID.get(type_id) and \
            view.shape == tuple(dims):
        return
    if -1 in dims and view.__class__ is BufferView and view.dtype == _DTYPE_OF_ID.get(type_id) \
            and len(view.shape) == len(dims) and all(d in (-1, s) for d, s in zip(dims, view.shape)):
        return                      # -1: a dynamic dim, any size
    et = _etype(type_id, "buffer_view.assert")
    arg = _text(name)
    expected = _tensor_type(dims, et.name)
    if not isinstance(view, BufferView):
        got = "null" if view is None else type(view).__name__
        raise InvalidArgumentError(f"argument '{arg}': expected {expected}, got {got}")
    if len(view.shape) != len(dims) or any(d not in (-1, s) for d, s in zip(dims, view.shape)) \
            or view.dtype != _dtype_of(type_id):    # the cache above may not hold this type yet
        raise InvalidArgumentError(f"argument '{arg}': expected {expected}, got "
                                   f"{_tensor_type(view.shape, _dtype_name(view.dtype))}")


def buffer_view_checked_buffer(state, view, name, type_id, dims):
    """``buffer_view.assert`` then ``buffer_view.buffer`` in one call (the
    per-argument prologue of compiled functions)."""
    if view.__class__ is BufferView:
        dt = _DTYPE_OF_ID.get(type_id)          # hot path: one dict lookup per argument
        if dt is None:
            dt = _dtype_of(type_id)
        vdt = view.dtype
        if (vdt is dt or vdt == dt) and view.shape == tuple(dims):
            return view.buffer
    buffer_view_assert(state, view, name, type_id, dims)
    return view.buffer


def buffer_view_check_args(state, spec, views):
    """Check every argument of a call in one go: ``spec`` is the export's
    argument list as JSON, ``[[name, element type id, [dims]], ...]`` (parsed
    once per module string), ``views`` the arguments, in order.  The views
    then go to the binding table as they are (it takes a view's buffer)."""
    expected = _ARG_SPECS.get(spec)
    if expected is None:
        expected = _arg_spec(spec)
    if len(views) != len(expected):
        raise HalError(f"hal.buffer_view.check_args: {len(views)} arguments for a spec of "
                       f"{len(expected)}")
    for view, (dt, shape, name, type_id, dims) in zip(views, expected):
        if view.__class__ is not BufferView or view.shape != shape or \
                not (view.dtype is dt or view.dtype == dt):
            buffer_view_assert(state, view, name, type_id, dims)     # raises, naming it


_ARG_SPECS: dict = {}           # spec string -> [(dtype, shape, name, type id, dims)]
_ARG_SPEC_LIMIT = 4096


def _arg_spec(spec):
    """The parsed ``check_args`` spec (HalError naming the defect)."""
    import json
    where = "hal.buffer_view.check_args: spec"
    if spec.__class__ is not str:
        raise HalError(f"{where} must be a string, got {type(spec).__name__}")
    try:
        entries = json.loads(spec)
    except ValueError as e:
        raise HalError(f"{where} is not JSON: {e}") from None
    if entries.__class__ is not list:
        raise HalError(f"{where} must be a JSON list")
    out = []
    for i, e in enumerate(entries):
        if not (e.__class__ is list and len(e) == 3 and e[0].__class__ is str
                and e[1].__class__ is int and e[2].__class__ is list
                and all(d.__class__ is int and d >= 0 for d in e[2])):
            raise HalError(f"{where}[{i}] must be [name, element type id, [static dims]], "
                           f"got {e!r:.200}")
        dt = _dtype_of(e[1])
        if dt is None:
            _etype(e[1], "buffer_view.check_args")
        out.append((dt, tuple(e[2]), e[0], e[1], e[2]))
    if len(_ARG_SPECS) >= _ARG_SPEC_LIMIT:
        _ARG_SPECS.clear()
    _ARG_SPECS[spec] = out
    return out


def buffer_view_buffer(state, view):
    if view.__class__ is BufferView:
        return view.buffer
    return _need(view, BufferView, "buffer_view.buffer", "view").buffer


def buffer_view_dim(state, view, index):
    shape = _need(view, BufferView, "buffer_view.dim", "view").shape
    if not 0 <= index < len(shape):
        raise HalError(f"hal.buffer_view.dim: index {index} out of range for rank {len(shape)}")
    return shape[index]


def buffer_view_create(state, buffer, offset, length, type_id, dims):
    _need(buffer, Buffer, "buffer_view.create", "buffer")
    dtype = _dtype_of(type_id)
    if dtype is None:
        _etype(type_id, "buffer_view.create")
    if offset != 0 or length != buffer.byte_length:
        buffer = buffer.subspan(offset, length)
    n = dtype.itemsize
    for d in dims:
        if d < 0:
            return BufferView(buffer, dims, dtype)      # raises the HalError
        n *= d
    if n > buffer.byte_length:
        return BufferView(buffer, dims, dtype)          # raises the HalError
    return BufferView.wrap(buffer, tuple(dims), dtype)


# -- command buffers -----------------------------------------------------------------
def command_buffer_create(state, device):
    return _device(state, device, "command_buffer.create").create_command_buffer()


def _cb(obj, fn):
    return _need(obj, CommandBuffer, fn, "command buffer")


def command_buffer_dispatch(state, cb, exe, entry, wx, wy, wz, constants, buffers, ranges):
    _cb(cb, "command_buffer.dispatch")
    exe = _executable(exe, "command_buffer.dispatch")
    if len(ranges) != 2 * len(buffers):
        raise HalError(f"hal.command_buffer.dispatch: {len(buffers)} buffers need "
                       f"{2 * len(buffers)} offset/length values, got {len(ranges)}")
    bindings = [(b, ranges[2 * i], ranges[2 * i + 1]) for i, b in enumerate(buffers)]
    cb.dispatch(exe, entry, (wx, wy, wz), constants, bindings)


def command_buffer_dispatch_indirect(state, cb, exe, entry, wx, wy, wz, constants, buffers,
                                     slots, ranges):
    """Like dispatch; a null buffer binds the slot at the same position."""
    fn = "command_buffer.dispatch.indirect"
    _cb(cb, fn)
    exe = _executable(exe, fn)
    if len(slots) != len(buffers) or len(ranges) != 2 * len(buffers):
        raise HalError(f"hal.{fn}: {len(buffers)} buffers need as many slots and "
                       f"{2 * len(buffers)} offset/length values, got {len(slots)} and "
                       f"{len(ranges)}")
    bindings = [(b if b is not None else slots[i], ranges[2 * i], ranges[2 * i + 1])
                for i, b in enumerate(buffers)]
    cb.dispatch(exe, entry, (wx, wy, wz), constants, bindings)


def command_buffer_dispatch_slotted(state, cb, exe, entry, wx, wy, wz, constants, constant_slots,
                                    buffers, slots, ranges):
    """Like dispatch.indirect; push constant k is slot ``constant_slots[k]``
    of the submission's constant table where that is >= 0 (a loop body
    recorded once: compiler/host/host_replay.py)."""
    if len(constant_slots) != len(constants):
        raise HalError(f"hal.command_buffer.dispatch.slotted: {len(constants)} constants need as "
                       f"many constant slots, got {len(constant_slots)}")
    consts = [c if s < 0 else constant_slot(s) for c, s in zip(constants, constant_slots)]
    command_buffer_dispatch_indirect(state, cb, exe, entry, wx, wy, wz, consts, buffers, slots,
                                     ranges)


def command_buffer_execute_slotted(state, cb, commands, table, constants):
    """Append finalized ``commands`` to ``cb`` with binding table ``table``
    and constant table ``constants`` (``CommandBuffer.execute_commands``)."""
    fn = "command_buffer.execute.slotted"
    _cb(cb, fn).execute_commands(_cb(commands, fn), table, constants)


def command_buffer_copy_indirect(state, cb, src, src_slot, src_offset, dst, dst_slot,
                                 dst_offset, length):
    _cb(cb, "command_buffer.copy.indirect").copy(
        src if src is not None else src_slot, src_offset,
        dst if dst is not None else dst_slot, dst_offset, length)


def command_buffer_barrier(state, cb):
    _cb(cb, "command_buffer.barrier").execution_barrier()


def command_buffer_fill(state, cb, buffer, offset, length, pattern, pattern_bytes):
    if pattern_bytes not in (1, 2, 4):
        raise HalError(f"hal.command_buffer.fill: pattern size must be 1, 2 or 4 bytes, "
                       f"got {pattern_bytes}")
    value = (pattern & ((1 << (8 * pattern_bytes)) - 1)).to_bytes(pattern_bytes, "little")
    _cb(cb, "command_buffer.fill").fill(buffer, offset, length, value)


def command_buffer_copy(state, cb, src, src_offset, dst, dst_offset, length):
    _cb(cb, "command_buffer.copy").copy(src, src_offset, dst, dst_offset, length)


def command_buffer_finalize(state, cb):
    _cb(cb, "command_buffer.finalize").finalize()


# -- fences and queue ------------------------------------------------------------------
def fence_create(state, device):
    if device.__class__ is not state.device_class:
        _device(state, device, "fence.create")
    return device.create_fence()


def fence_signal(state, fence):
    """Signal a fence from host code (e.g. an ``$async`` signal fence)."""
    _need(fence, Fence, "fence.signal", "fence").signal()


def fence_await(state, timeout_ms, fences):
    if len(fences) == 1:                      # the common case, fast
        f = fences[0]
        if f.__class__ is Fence:
            if not f.is_settled and state._device is not None:
                state._device.help_until(f)   # run our own submission instead of sleeping
            if f.is_signaled:
                return 0
    live = [_need(f, Fence, "fence.await", "fence") for f in fences if f is not None]
    for f in live:
        failure = f.failure
        if failure is not None:
            raise rethrow(failure)
    if all(f.is_signaled for f in live):
        return 0
    waitable = live[0] if len(live) == 1 else Fence.join(live)
    return Suspend(waitable, timeout_ms)


def _fence_or_null(f, fn, what):
    return None if f is None else _need(f, Fence, fn, what)


def queue_execute(state, device, wait, signal, cbs):
    fn = "device.queue.execute"
    _device(state, device, fn).queue_execute(_fence_or_null(wait, fn, "wait fence"),
                                              _fence_or_null(signal, fn, "signal fence"), cbs)


def queue_execute_indirect(state, device, wait, signal, cb, table):
    fn = "device.queue.execute.indirect"
    if device.__class__ is not state.device_class:
        _device(state, device, fn)
    if wait is not None:
        _need(wait, Fence, fn, "wait fence")
    if signal is not None:
        _need(signal, Fence, fn, "signal fence")
    device.queue_execute(wait, signal, (cb,), (table,))


def queue_execute_indirect_wait(state, device, cb, timeout_ms, table):
    """Submit ``cb`` with ``table`` (no wait fence) and wait for it, like
    ``fence.create`` + ``device.queue.execute.indirect`` + ``fence.await``
    in one call: the device may run the work on this thread (local-sync
    always does; local-task does when its queue is idle), and a submission
    that is not done yet suspends the invocation on its fence."""
    fn = "device.queue.execute.indirect.wait"
    if device.__class__ is not state.device_class:
        _device(state, device, fn)
    if device.execute_now(cb, table):      # ran here already (an idle inline queue)
        return None
    fence = device.create_fence()
    device.queue_execute(None, fence, (cb,), (table,), caller_waits=True)
    if not fence.is_settled:
        device.help_until(fence)
    if fence.is_signaled:
        return None
    failure = fence.failure
    if failure is not None:
        raise rethrow(failure)
    return Suspend(fence, timeout_ms)


def queue_alloca(state, device, wait, signal, size):
    fn = "device.queue.alloca"
    return _device(state, device, fn).queue_alloca(_fence_or_null(wait, fn, "wait fence"),
                                                   _fence_or_null(signal, fn, "signal fence"),
                                                   size)


def queue_dealloca(state, device, wait, signal, buffer):
    fn = "device.queue.dealloca"
    _device(state, device, fn).queue_dealloca(_fence_or_null(wait, fn, "wait fence"),
                                              _fence_or_null(signal, fn, "signal fence"),
                                              _need(buffer, Buffer, fn, "buffer"))


def _load(buffer, offset, size, fn):
    return int.from_bytes(_need(buffer, Buffer, fn, "buffer").read(offset, size),
                          "little", signed=True)


def buffer_load_i32(state, buffer, offset):
    return _load(buffer, offset, 4, "buffer.load.i32")


def buffer_load_i64(state, buffer, offset):
    return _load(buffer, offset, 8, "buffer.load.i64")


# -- collective channels (vmfb/collectives.py) ---------------------------------------
def channel_get(state):
    return state.channel


def channel_replica_id(state, channel):
    return _need(channel, Channel, "channel.replica_id", "channel").replica_id


def channel_partition_id(state, channel):
    return _need(channel, Channel, "channel.partition_id", "channel").partition_id


def channel_collective(state, channel, kind, mode, reduction, params, groups, inputs, outputs):
    """Queue collective ``kind`` on the inputs' contents, writing the outputs
    (buffer views), and suspend the invocation until it is done: the thread
    stays free (one thread may drive every rank's invocations) and the
    channel's timeout bounds the wait for peers."""
    from .collective_call import run_collective
    fn = "channel.collective"
    _need(channel, Channel, fn, "channel")
    for v in (*inputs, *outputs):
        _need(v, BufferView, fn, "operand")
    done = Fence.single(hal.Semaphore(0), 1)
    channel.queue(None, done, lambda: run_collective(channel, kind, mode, reduction, params,
                                                     groups, inputs, outputs), "collective")
    t = channel.timeout_s        # the channel's own timeout error comes first
    return Suspend(done, -1 if t is None else int(t * 1000) + 5000)


# -- host transfers (vmfb/host_transfers.py) ----------------------------------------
def host_queue_push(state, queue, handle, views):
    """One entry of the views' contents (computed already) onto the queue."""
    q = state.host_queues.queue(queue, handle)
    for v in views:
        _need(v, BufferView, "host_queue.push", "operand")
    q.put_entry(tuple(np.array(v.to_numpy(), copy=True) for v in views))


def host_queue_pop(state, queue, handle, views):
    """The oldest entry of the queue into the views (checked against their
    types: HostQueueTypeError); an empty queue suspends the invocation until
    a push, or fails it with HostQueueTimeoutError after the queues' timeout.
    The errors are raised on the invocation's thread as they are (not
    through a fence, which would make them HalErrors)."""
    from tensorvm.runtime.host_queues import check_entry
    hq = state.host_queues
    q = hq.queue(queue, handle)
    for v in views:
        _need(v, BufferView, "host_queue.pop", "result")
    op = "stablehlo.infeed" if q is hq.infeed else "stablehlo.recv"

    def write(entry):
        check_entry(q, entry, views, op)
        for v, a in zip(views, entry):
            if a.nbytes:
                v.buffer.write(0, a.tobytes())
    got = []
    done = Fence.single(hal.Semaphore(0), 1)
    inv = current_invocation()

    def deliver(entry, error):      # on the pushing (or timer) thread
        if error is None and inv is not None and inv.cancelled:
            from tensorvm.runtime.errors import CallCancelledError
            got.append((None, CallCancelledError(f"call cancelled while waiting in {op} on "
                                                 f"{q.name}")))
            done.signal()           # the call ends now ...
            return False            # ... and the entry goes to the next pop
        got.append((entry, error))
        done.signal()
        return True

    def then():                     # back on the invocation's thread
        entry, error = got[0]
        if error is not None:
            raise error
        write(entry)
    # bounded by the context's timeout when the queues have none (a pop left
    # waiting past its call would take an entry meant for a later one)
    t = hq.timeout_s if hq.timeout_s is not None else state.timeout_s
    entry = q.take(deliver, op, t)
    if entry is not None:
        write(entry)
        return None
    return Suspend(done, -1 if t is None else int(t * 1000) + 5000, then)


#: name -> (calling convention, implementation); the conventions are the
#: ones compiled code imports (vmfb/hal_imports.py declares them).
FUNCTIONS = hal_imports.bind({
    "device.get": device_get,
    "executable.load": executable_load,
    "executable.has_entry": executable_has_entry,
    "invocation.bounds": invocation_bounds,
    "allocator.allocate": allocator_allocate,
    "allocator.allocate.result": allocator_allocate_result,
    "allocator.import": allocator_import,
    "buffer_view.assert": buffer_view_assert,
    "buffer_view.buffer": buffer_view_buffer,
    "buffer_view.checked_buffer": buffer_view_checked_buffer,
    "buffer_view.check_args": buffer_view_check_args,
    "buffer_view.dim": buffer_view_dim,
    "buffer_view.create": buffer_view_create,
    "command_buffer.create": command_buffer_create,
    "command_buffer.dispatch": command_buffer_dispatch,
    "command_buffer.barrier": command_buffer_barrier,
    "command_buffer.fill": command_buffer_fill,
    "command_buffer.copy": command_buffer_copy,
    "command_buffer.finalize": command_buffer_finalize,
    "fence.create": fence_create,
    "fence.await": fence_await,
    "device.queue.execute": queue_execute,
    "command_buffer.dispatch.indirect": command_buffer_dispatch_indirect,
    "command_buffer.copy.indirect": command_buffer_copy_indirect,
    "device.queue.execute.indirect": queue_execute_indirect,
    "device.queue.execute.indirect.wait": queue_execute_indirect_wait,
    "command_buffer.dispatch.slotted": command_buffer_dispatch_slotted,
    "command_buffer.execute.slotted": command_buffer_execute_slotted,
    "fence.signal": fence_signal,
    "device.queue.alloca": queue_alloca,
    "device.queue.dealloca": queue_dealloca,
    "buffer.load.i32": buffer_load_i32,
    "buffer.load.i64": buffer_load_i64,
    "channel.get": channel_get,
    "channel.replica_id": channel_replica_id,
    "channel.partition_id": channel_partition_id,
    "channel.collective": channel_collective,
    host_transfers.PUSH: host_queue_push,
    host_transfers.POP: host_queue_pop,
})


class HalModule(NativeModule):
    """The ``hal`` module; its state is the context's device (``context.device``)."""

    name = "hal"
    plain = frozenset(("buffer_view.checked_buffer", "buffer_view.check_args", "allocator.allocate",
                       "allocator.allocate.result", "buffer_view.create",
                       "buffer_view.buffer", "allocator.import", "device.get", "executable.load"))

    def __init__(self, *, defer_loads: bool = True):
        """``defer_loads``: executables load at their first dispatch
        (PendingExecutable) instead of when the module asks for them."""
        self.defer_loads = defer_loads

    def functions(self) -> dict:
        return dict(FUNCTIONS)

    def create_state(self, context) -> HalState:
        state = HalState(getattr(context, "device", None),
                         getattr(context, "default_timeout_s", None),
                         getattr(context, "channel", None),
                         getattr(context, "host_queues", None))
        state.defer_loads = self.defer_loads
        return state
