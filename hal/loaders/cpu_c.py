"""Loader for ``cpu-c-<arch>`` executables: shared objects loaded from memory.

The variant's bytes are a shared object built by the system C compiler at
compile time.  We never write it to disk: the bytes go into an anonymous
``memfd`` that is ``dlopen``ed as ``/proc/self/fd/N``; the fd is closed right
after (the mapping keeps the code alive).  Entry points follow the CPU
executable ABI of internals §5::

    int entry(const tvm_dispatch_state_t* state, uint32_t wg_begin, uint32_t wg_end);

Before mapping, the bytes pass elf_check (docs/security.md): nothing in an
accepted object runs at ``dlopen``.  Every entry point has that one signature, so loading needs no C declarations:
symbols are looked up with ``dlsym`` and cast to one function-pointer type of
cffi's C-level FFI, whose type parser is built in.  Parsing per-executable
``cdef`` text through pycparser cost ~40 ms on the first load of a process and
~0.1 ms per entry point on every load.  cffi releases the GIL around each
call, so worker threads run kernels in parallel.  A kernel known to be short
is called through ``held_entry`` instead, a ctypes function that keeps the
GIL: giving it up for microseconds of work made each call a context switch
when several threads call one module (cpu_program.HOLD_GIL_S).

glibc recognises an already loaded library by its path string, and fd numbers
are reused, so every load uses a distinct spelling of the same path
(``/proc/self/fd/./N``, ``/proc/self/fd//./N``, ...) to avoid being handed a
previously loaded, different library.
"""
from __future__ import annotations

import ctypes
import _ctypes
import functools
import itertools
import keyword
import os
import platform
import re
import weakref

import _cffi_backend

from tensorvm.vmfb import cpu_abi
from tensorvm.vmfb.cpu_abi import CLAIM_RUNNER, PACKET_RUNNER, TEAM_RUNNER

from ..errors import ExecutableRejectedError, HalError
from . import elf_check
from ..executable import Executable

#: cffi's C-level FFI: built-in C types only, no cdef parser behind it.
ffi = _cffi_backend.FFI()
#: An entry point (vmfb/cpu_abi.py: ENTRY_PARAMS); the state pointer is
#: passed as ``void*`` (same calling convention as ``const tvm_dispatch_state_t*``).
ENTRY_TYPE = ffi.typeof(cpu_abi.pointer_type())
_POINTER = ffi.sizeof("void*")
_CHARS = ffi.typeof("char[]")
_UINTPTR = ffi.typeof("uintptr_t*")
_VOIDPP = ffi.typeof("void**")
_U32 = ffi.typeof("uint32_t*")
#: ``tvm_dispatch_state_t`` (vmfb/cpu_abi.py: STATE_FIELDS): member byte
#: offsets and size on this host, from the compiler's own declaration.
STATE_OFFSETS, STATE_SIZE = cpu_abi.struct_layout(cpu_abi.STATE_FIELDS, _POINTER)
_GRID_AT = STATE_OFFSETS["workgroup_count"]
# new_state stores the three pointers as the state's first three words
if [f.name for f in cpu_abi.STATE_FIELDS[:3]] != ["bindings", "binding_lengths", "constants"]:
    raise ImportError("vmfb/cpu_abi.py STATE_FIELDS no longer starts with the three pointers "
                      "new_state() writes")


def new_state(bindings, lengths, constants, workgroups):
    """A zeroed native ``tvm_dispatch_state_t`` filled with three cdata
    pointers and the grid; the caller keeps the pointed-to arrays alive."""
    state = ffi.new(_CHARS, STATE_SIZE)
    ptrs = ffi.cast(_VOIDPP, state)
    ptrs[0], ptrs[1], ptrs[2] = bindings, lengths, constants
    wg = ffi.cast(_U32, state + _GRID_AT)
    wg[0], wg[1], wg[2] = workgroups
    return state


def state_binding(state, i: int) -> int:
    """The address binding ``i`` of a native state points at (for tests and
    debugging)."""
    return ffi.cast(_UINTPTR, ffi.cast(_VOIDPP, state)[0])[i]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]")      # (compiled once: not in a first load)
_C_KEYWORDS = frozenset("""auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Bool""".split())
_load_counter = itertools.count(1)


@functools.lru_cache(maxsize=1)
def format_name() -> str:
    """The format id this host loads, e.g. ``cpu-c-x86_64``."""
    return f"cpu-c-{platform.machine()}"


@functools.lru_cache(maxsize=1)
def host_features() -> frozenset:
    """CPU feature flags of this host from /proc/cpuinfo; empty where unreadable."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            return parse_cpuinfo(f.read())
    except OSError:
        return frozenset()


def parse_cpuinfo(text: str) -> frozenset:
    """The feature flags in /proc/cpuinfo text: x86 ``flags``, Arm
    ``Features``, RISC-V ``isa`` (its single letters after ``rv64``/``rv32``
    and its ``_``-separated extensions, e.g. ``zba``)."""
    feats = set()
    for line in text.splitlines():
        key, _, val = line.partition(":")
        key = key.strip().lower()
        if key in ("flags", "features"):
            feats.update(val.split())
        elif key == "isa" and val.strip().startswith("rv"):
            base, *exts = val.strip().lower().split("_")
            feats.update(base[4:])          # rv64imafdcv -> i m a f d c v
            feats.update(exts)
    return frozenset(feats)


def missing_features(target: dict) -> list:
    """Features the target requires that this CPU lacks (``+avx2`` == ``avx2``)."""
    feats, have = tuple((target or {}).get("features", ())), host_features()
    try:
        return list(_missing_features(feats, have))    # (every load of a module asks again)
    except TypeError:                                  # an unhashable feature: no memo
        return list(_missing_features.__wrapped__(feats, have))


@functools.lru_cache(maxsize=256)
def _missing_features(feats: tuple, have: frozenset) -> tuple:
    want = [str(f).lstrip("+").lower() for f in feats]
    return tuple(f for f in want if f not in have)


def _unique_fd_path(fd: int) -> str:
    n = next(_load_counter)
    spelling = "".join("/." if (n >> i) & 1 else "//" for i in range(n.bit_length()))
    return f"/proc/self/fd{spelling}/{fd}"


class CpuExecutable(Executable):
    """A dlopen'ed shared object and its entry point function pointers."""

    def __init__(self, device, name, format, entry_points, lib, functions, runner=None,
                 claimer=None, team=None):
        super().__init__(device, name, format, entry_points)
        self._lib = lib                 # the ctypes handle
        self.functions = functions      # cffi function pointers, by ordinal
        self._held = [None] * len(functions)
        # tvm_run_packets (vmfb/cpu_abi.py): (cffi pointer, releases the GIL;
        # ctypes function, keeps it), or None in modules built before it.
        self.runner = None if runner is None else \
            (ffi.cast(RUNNER_TYPE, runner), _HELD_RUNNER(runner))
        # tvm_run_claimed (cffi pointer, releases the GIL), or None in modules
        # built before it: local-task then cuts a split dispatch into ranges.
        self.claimer = None if claimer is None else ffi.cast(CLAIMER_TYPE, claimer)
        # tvm_run_team (cffi pointer, releases the GIL), or None in modules
        # built before it: local-task then meets its threads in Python.
        self.team = None if team is None else ffi.cast(TEAM_TYPE, team)
        # Unmapped once nothing (no prepared program) references this executable.
        weakref.finalize(self, _dlclose, lib._handle)


    def held_entry(self, ordinal: int):
        """Entry ``ordinal`` as a callable ``(state address, begin, end) -> rc``
        that keeps the GIL for the call (made on first use: ~10x a cffi cast)."""
        fn = self._held[ordinal]
        if fn is None:
            fn = self._held[ordinal] = _HELD_ENTRY(int(ffi.cast("uintptr_t",
                                                               self.functions[ordinal])))
        return fn


#: ctypes' PYFUNCTYPE calls keep the GIL (cffi's always release it).
_HELD_ENTRY = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32)
#: ``tvm_run_packets`` (vmfb/cpu_abi.py: PACKET_PARAMS).
RUNNER_TYPE = ffi.typeof(cpu_abi.pointer_type("int", cpu_abi.PACKET_PARAMS))
_HELD_RUNNER = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)
#: ``tvm_run_claimed`` (vmfb/cpu_abi.py: CLAIM_PARAMS).
CLAIMER_TYPE = ffi.typeof(cpu_abi.claim_pointer_type())
#: ``tvm_run_team`` (vmfb/cpu_abi.py: TEAM_PARAMS).
TEAM_TYPE = ffi.typeof(cpu_abi.team_pointer_type())


def _dlclose(handle) -> None:
    try:
        _ctypes.dlclose(handle)
    except OSError:
        pass


def load(device, name: str, format: str, data, entry_points, target: dict) -> CpuExecutable:
    """Load a ``cpu-c-<arch>`` variant's bytes into this process."""
    if format != format_name():
        raise HalError(f"executable '{name}': format '{format}' does not run on this host "
                       f"(it loads '{format_name()}')")
    missing = missing_features(target)
    if missing:
        raise HalError(f"executable '{name}' needs CPU features {missing} that this host "
                       f"({platform.machine()}) does not have; recompile for this CPU or "
                       f"without those features")
    for e in entry_points:
        if not _IDENT.match(e) or e in _C_KEYWORDS or keyword.iskeyword(e):
            raise HalError(f"executable '{name}': entry point name {e!r} is not a C identifier")
    try:
        elf_check.check(data)
    except elf_check.ElfRejected as e:
        raise ExecutableRejectedError(f"executable '{name}' ({format}) rejected at load: {e}",
                                      executable=name, reason=str(e)) from None
    fd = os.memfd_create("tensorvm-" + _UNSAFE_NAME.sub("_", str(name))[:200], os.MFD_CLOEXEC)
    try:
        view = memoryview(data).cast("B")
        written = 0
        while written < len(view):
            written += os.write(fd, view[written:])
        try:
            lib = ctypes.CDLL(_unique_fd_path(fd), mode=os.RTLD_NOW | os.RTLD_LOCAL)
        except OSError as e:
            raise HalError(f"executable '{name}' ({format}) is not a loadable shared object: "
                           f"{str(e).split('  Additionally')[0]}") from None
    finally:
        os.close(fd)
    functions = []
    for e in entry_points:
        try:                        # (dlsym directly: a ctypes function object per
            address = _ctypes.dlsym(lib._handle, e)    # entry cost 10x as much)
        except OSError as err:
            _dlclose(lib._handle)
            raise HalError(f"executable '{name}' has no entry point symbol '{e}': {err}") from None
        functions.append(ffi.cast(ENTRY_TYPE, address))
    runner, claimer, team = (_optional_symbol(lib, s)
                             for s in (PACKET_RUNNER, CLAIM_RUNNER, TEAM_RUNNER))
    return CpuExecutable(device, name, format, entry_points, lib, functions, runner, claimer, team)


def _optional_symbol(lib, symbol: str):
    """The address of ``symbol``, or None in modules built before it existed."""
    try:
        return _ctypes.dlsym(lib._handle, symbol)
    except OSError:
        return None
