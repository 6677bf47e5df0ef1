"""A process-wide cache of verified bytecode modules, keyed by their exact bytes.

A ``BytecodeModule`` is immutable once built and may be shared by any number
of contexts (module.py), so loading bytes the process has already accepted
again (another device, another context, a service worker) reuses the read,
schema-checked and table-verified module, and with it every function body
already verified, lowered and fused, instead of doing that work again.

A hit needs the same bytes, compared in full (``==`` is a memcmp, or the
same immutable ``bytes`` object), never a digest or a checksum alone: two
different modules never share an entry.  Only immutable sources are cached:
``bytes``, and copies of other bytes-like sources and of files up to
``PRIVATE_LIMIT`` bytes (read into private memory, so a buffer or file that
changes later cannot change a cached module); bigger files are mapped and
read uncached, as ``read_module`` does.  A module whose header or tables are
damaged never enters the cache (it raised first); a damaged payload raises
where it is first read (read_module), for every context alike.  Entries stay
while a loaded module uses them, and the ``capacity`` most recent ones (at
most ``max_bytes`` of sources) beyond.
"""
from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict

from tensorvm.vmfb.container import read_module

from .module import BytecodeModule

PRIVATE_LIMIT = 64 << 20


def private_bytes(source):
    """``source`` as immutable bytes, or None for a file over PRIVATE_LIMIT
    (or a bytes-like object over it), which is loaded without the cache."""
    if source.__class__ is bytes:
        return source
    if isinstance(source, (str, os.PathLike)):
        from tensorvm.vmfb.errors import VmfbError
        with open(source, "rb") as f:
            if os.fstat(f.fileno()).st_size > PRIVATE_LIMIT:
                return None
            data = f.read(PRIVATE_LIMIT + 1)
        if not data:
            raise VmfbError(f"{os.fspath(source)}: file is empty (0 bytes), not a vmfb")
        return None if len(data) > PRIVATE_LIMIT else data
    mv = memoryview(source)
    return None if mv.nbytes > PRIVATE_LIMIT else mv.tobytes()


class ModuleCache:
    """Verified ``BytecodeModule``s by source bytes (see module docstring)."""

    def __init__(self, capacity: int = 8, max_bytes: int = 256 << 20):
        self.capacity, self.max_bytes = capacity, max_bytes
        self._lock = threading.Lock()
        self._recent = OrderedDict()                  # key -> module (strong)
        self._alive = weakref.WeakValueDictionary()   # key -> module (while used)
        self.hits = self.misses = 0

    @staticmethod
    def _key(data: bytes):
        return len(data), data[:64]    # length + fixed prefix (it holds the header CRC)

    def load(self, data: bytes, lazy: bool = True, checksums: bool = True) -> BytecodeModule:
        """The verified module of ``data`` (immutable bytes): cached, or read
        and verified now (VmfbError / VerificationError as ``read_module`` and
        ``BytecodeModule.from_def`` raise them).  ``lazy=False`` verifies
        every function body before returning, cached or not.
        ``checksums=False``: the caller matched ``data`` against a pinned
        digest, which covers every byte, so no section CRC is checked."""
        key = self._key(data)
        with self._lock:
            hit = self._recent.get(key) or self._alive.get(key)
            if hit is not None and (hit.source is data or hit.source == data):
                self.hits += 1
                self._remember(key, hit)
            else:
                hit = None
                self.misses += 1
        if hit is not None:
            if not lazy:
                hit.verify_bodies()
            return hit
        module = BytecodeModule.from_def(read_module(data, checksums), lazy=lazy)
        module.source = data
        with self._lock:
            held = self._recent.get(key) or self._alive.get(key)
            if held is None:     # (equal keys, other bytes: a damaged payload; the
                self._alive[key] = module           # module held keeps its entry)
                self._remember(key, module)
        return module

    def _remember(self, key, module) -> None:
        recent = self._recent
        recent[key] = module
        recent.move_to_end(key)
        total = sum(len(m.source) for m in recent.values())
        while recent and (len(recent) > self.capacity or total > self.max_bytes):
            _, old = recent.popitem(last=False)
            total -= len(old.source)

    def _after_fork_in_child(self) -> None:
        self._lock = threading.Lock()     # a parent thread may have held it at the fork

    def clear(self) -> None:
        """Forget every entry (modules already loaded keep working)."""
        with self._lock:
            self._recent.clear()
            self._alive.clear()


MODULES = ModuleCache()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=MODULES._after_fork_in_child)
