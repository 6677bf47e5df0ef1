"""The GPU kernel-argument ABI, declared once: the compiler's GPU renderers
(compiler/codegen/gpu.py) write each kernel's parameter list from these
layouts and the drivers (hal/drivers/opencl_program.py, cuda_program.py)
set the arguments at the indices the same layouts give, as vmfb/cpu_abi.py
does for the CPU dispatch state (IREE's executable_library.h plays this
part there).  tests/test_abi_contract.py proves both sides read it.

A kernel of ``n`` bindings and ``m`` 32-bit push-constant words takes, in
order (``KernelArgs.parts``):

1. the bindings as global pointers, ``0..n-1`` (inputs first, then outputs);
2. where ``binding_offsets`` -- one byte offset per binding (``offset_ctype``):
   OpenCL cannot offset a ``cl_mem`` on the host, so the kernel adds it; CUDA
   adds the offset to the device pointer on the host and has none;
3. the push constants, one ``constant_ctype`` per word; 64-bit values
   (i64 / f64 constants and the dynamic dims, which follow the scalar
   constants) take ``WIDE_WORDS`` words, low word first;
4. optionally (OpenCL) ``STATUS_PARAM``, a status word a kernel may set to
   fail its launch, known by its name (hal/loaders/opencl_c.py).
"""
from __future__ import annotations

import struct
from typing import NamedTuple

#: Words a 64-bit push constant (i64, f64, a dynamic dim) takes, low first.
WIDE_WORDS = 2
#: The name of an OpenCL kernel's optional last parameter, its status word.
STATUS_PARAM = "tvm_status"


class KernelArgs(NamedTuple):
    """One dialect's kernel-argument layout (the module docstring).  The
    packers turn an offset or a word into its argument bytes (compiled
    ``struct`` packers: the OpenCL driver sets arguments per launch)."""
    binding_offsets: bool
    offset_ctype: str          # C type of a binding's byte offset (if any)
    constant_ctype: str        # C type of one push-constant word
    pack_offset: object        # offset -> bytes (None without offsets)
    pack_constant: object      # word -> bytes

    @property
    def parts(self) -> tuple:
        """The argument groups in order."""
        return ("bindings", "offsets", "constants") if self.binding_offsets \
            else ("bindings", "constants")

    def binding_arg(self, k: int) -> int:
        """Argument index of binding ``k``'s pointer."""
        return k

    def offset_arg(self, k: int, bindings: int) -> int:
        """Argument index of binding ``k``'s byte offset."""
        if not self.binding_offsets:
            raise ValueError("this kernel ABI passes no binding offsets")
        return bindings + k

    def constant_arg(self, word: int, bindings: int) -> int:
        """Argument index of push-constant word ``word``."""
        return bindings * (2 if self.binding_offsets else 1) + word

    def count(self, bindings: int, words: int) -> int:
        """Arguments of a kernel with ``bindings`` and ``words`` (no status word)."""
        return self.constant_arg(words, bindings)

    def offset_name(self, binding: str) -> str:
        """The parameter name of binding ``binding``'s offset."""
        return f"{binding}_off"

    def constant_name(self, word: int) -> str:
        """The parameter name of push-constant word ``word``."""
        return f"c{word}"


#: OpenCL C: ``cl_mem`` pointers, ``ulong`` offsets, ``uint`` words
#: (little-endian, as every device of the x86-64 / aarch64 hosts tensorvm runs on).
OPENCL = KernelArgs(True, "ulong", "uint", struct.Struct("<Q").pack, struct.Struct("<I").pack)
#: CUDA C: device pointers (offset on the host), ``uint32_t`` words.
CUDA = KernelArgs(False, "", "uint32_t", None, struct.Struct("<I").pack)
