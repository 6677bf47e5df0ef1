"""Loader for ``cpu-c-<arch>`` executables: shared objects loaded from memory.

The variant's bytes are a shared object built by the system C compiler at
compile time.  We never write it to disk: the bytes go into an anonymous
``memfd`` and cffi ``dlopen``s ``/proc/self/fd/N``; the fd is closed right
after (the mapping keeps the code alive).  Entry points follow the CPU
executable ABI of internals §5::

    int entry(const tvm_dispatch_state_t* state, uint32_t wg_begin, uint32_t wg_end);

cffi releases the GIL around each call, so worker threads run kernels in
parallel.

glibc recognises an already loaded library by its path string, and fd numbers
are reused, so every load uses a distinct spelling of the same path
(``/proc/self/fd/./N``, ``/proc/self/fd//./N``, ...) to avoid being handed a
previously loaded, different library.
"""
from __future__ import annotations

import functools
import itertools
import keyword
import os
import platform
import re

import cffi

from ..errors import HalError
from ..executable import Executable

ABI_CDEF = """
typedef struct tvm_dispatch_state {
  void* const* bindings;
  const uint64_t* binding_lengths;
  const uint32_t* constants;
  uint32_t workgroup_count[3];
} tvm_dispatch_state_t;
"""

#: The shared FFI holding the ABI struct; per-executable FFIs include it.
ffi = cffi.FFI()
ffi.cdef(ABI_CDEF)

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_C_KEYWORDS = frozenset("""auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Bool""".split())
_load_counter = itertools.count(1)


def format_name() -> str:
    """The format id this host loads, e.g. ``cpu-c-x86_64``."""
    return f"cpu-c-{platform.machine()}"


@functools.lru_cache(maxsize=1)
def host_features() -> frozenset:
    """CPU feature flags of this host from /proc/cpuinfo (x86 ``flags``, Arm
    ``Features``); empty where unreadable."""
    feats = set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, val = line.partition(":")
                if key.strip().lower() in ("flags", "features"):
                    feats.update(val.split())
    except OSError:
        pass
    return frozenset(feats)


def missing_features(target: dict) -> list:
    """Features the target requires that this CPU lacks (``+avx2`` == ``avx2``)."""
    have = host_features()
    want = [str(f).lstrip("+").lower() for f in (target or {}).get("features", ())]
    return [f for f in want if f not in have]


def _unique_fd_path(fd: int) -> str:
    n = next(_load_counter)
    spelling = "".join("/." if (n >> i) & 1 else "//" for i in range(n.bit_length()))
    return f"/proc/self/fd{spelling}/{fd}"


class CpuExecutable(Executable):
    """A dlopen'ed shared object and its entry point function pointers."""

    def __init__(self, device, name, format, entry_points, lib, lib_ffi, functions):
        super().__init__(device, name, format, entry_points)
        self._lib = lib                 # keeps the library mapped
        self._ffi = lib_ffi
        self.functions = functions      # cffi function objects, by ordinal


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
    lib_ffi = cffi.FFI()
    lib_ffi.include(ffi)
    if entry_points:
        lib_ffi.cdef("".join(f"int {e}(const tvm_dispatch_state_t*, uint32_t, uint32_t);\n"
                             for e in entry_points))
    fd = os.memfd_create("tensorvm-" + re.sub(r"[^A-Za-z0-9_.-]", "_", str(name))[:200],
                         os.MFD_CLOEXEC)
    try:
        view = memoryview(data).cast("B")
        written = 0
        while written < len(view):
            written += os.write(fd, view[written:])
        try:
            lib = lib_ffi.dlopen(_unique_fd_path(fd))
        except OSError as e:
            raise HalError(f"executable '{name}' ({format}) is not a loadable shared object: "
                           f"{str(e).split('  Additionally')[0]}") from None
    finally:
        os.close(fd)
    functions = []
    for e in entry_points:
        try:
            functions.append(getattr(lib, e))
        except (AttributeError, cffi.FFIError, NotImplementedError) as err:
            raise HalError(f"executable '{name}' has no entry point symbol '{e}': {err}") from None
    return CpuExecutable(device, name, format, entry_points, lib, lib_ffi, functions)
