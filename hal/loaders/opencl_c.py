"""``opencl-c`` executables: OpenCL C source built on the device at load
(the driver's replayable form of a command buffer is
``hal/drivers/opencl_program.py``).

Kernel ABI (vmfb/gpu_abi.py's ``OPENCL``, which tensorvm's OpenCL renderer
emits too; hand-written kernels follow it): for bindings ``0..n-1`` the
``cl_mem`` arguments, then ``n`` ``ulong`` byte offsets (one per binding, the
binding's offset), then the push constants as ``uint``.  A dispatch of
``(x, y, z)`` workgroups enqueues an NDRange of global size ``(x * L, y, z)`` and local size ``(L, 1, 1)``, where
``L`` is the variant's ``target["local_size"]`` (default 64) capped by what
the kernel allows, or the kernel's ``reqd_work_group_size`` where it
declares one; the kernel strides its threads over the workgroup's work.

A kernel may report failure, as a CPU kernel does with a nonzero return: one
more parameter after the push constants, ``__global uint* tvm_status`` (known
by its name: programs build with ``-cl-kernel-arg-info``), gets a word zeroed
for each launch; a nonzero value written there fails the
submission with "executable 'E' entry point 'K' failed with code N" (the
commands after it in the submission have run by then: OpenCL cannot stop a
queue).  Only kernels that take the parameter pay for it (a 4-byte buffer per
launch and a read when the submission completes).
"""
from __future__ import annotations

import hashlib
import warnings

from tensorvm.vmfb import source_check
from tensorvm.vmfb.gpu_abi import STATUS_PARAM
from ..errors import ExecutableRejectedError, HalError
from ..executable import Executable

FORMAT = "opencl-c"
BUILD_OPTIONS = ["-cl-std=CL1.2", "-cl-kernel-arg-info"]
# Defined when building for a CPU device (PoCL...): tensorvm's kernels then
# take their CPU forms (barrier-free, per-thread vectors) under #ifdef.
# Set False to build the GPU forms on CPU devices too (tests of those forms on PoCL).
CPU_DEVICE_MACRO = "TVM_CPU_DEVICE"
CPU_FORMS = True


def build_options(cl_device) -> list:
    """Build options for ``cl_device``: BUILD_OPTIONS, plus
    ``-DTVM_CPU_DEVICE`` where the device is a CPU (and CPU_FORMS is set)."""
    import pyopencl as cl
    cpu = CPU_FORMS and bool(cl_device.type & cl.device_type.CPU)
    return BUILD_OPTIONS + ([f"-D{CPU_DEVICE_MACRO}"] if cpu else [])
DEFAULT_LOCAL_SIZE = 64


class OpenCLExecutable(Executable):
    """A built cl.Program, the local size of each entry point and, per entry
    point, the free ``cl.Kernel`` objects (creating one costs ~0.1 ms in
    pyopencl, more than a small dispatch runs, and host code that records
    its command buffer per call would pay it per dispatch per call)."""

    def __init__(self, device, name, entry_points, program, local_sizes, kernels):
        super().__init__(device, name, FORMAT, entry_points)
        self.program = program
        self.local_sizes = local_sizes
        self.free_kernels = [[k] for k in kernels]
        # per entry point: the index of its status word parameter, or None
        self.status_args = [_status_arg(k.kernel) for k in kernels]

    def take_kernel(self, entry: int) -> "_Kernel":
        try:
            return self.free_kernels[entry].pop()
        except IndexError:
            import pyopencl as cl
            return _Kernel(cl.Kernel(self.program, self.entry_points[entry]))


class _Kernel:
    """A ``cl.Kernel`` and the argument values last set on it, so unchanged
    ones are skipped (a reused kernel usually gets the arguments it had).

    Scalars are set from their packed bytes (``set_scalar``): pyopencl's
    ``set_arg`` of a numpy scalar costs ~6 us (it tries each argument kind
    in turn), its ``_set_arg_buf`` of bytes ~0.2 us; where a pyopencl lacks
    the latter, ``set_arg`` of the bytes does the same, slower."""

    __slots__ = ("kernel", "args", "set_bytes")

    def __init__(self, kernel):
        self.kernel = kernel
        self.args = [None] * kernel.num_args
        self.set_bytes = getattr(kernel, "_set_arg_buf", None) or kernel.set_arg

    def set_buffer(self, i: int, mem) -> None:
        if self.args[i] is not mem:
            self.kernel.set_arg(i, mem)
            self.args[i] = mem

    def set_scalar(self, i: int, value: int, pack) -> None:
        """Set argument ``i`` to ``value`` packed by ``pack`` (gpu_abi's packers)."""
        if self.args[i] != value:
            self.set_bytes(i, pack(value))
            self.args[i] = value


def _build_log(exc) -> str:
    text = str(exc)
    marker = text.find("Build on")
    if marker >= 0:
        text = text[marker:].split("\n", 1)[-1]
    return text.strip() or "(the OpenCL compiler gave no log)"


def check_source(name: str, text: str) -> None:
    """Refuse OpenCL C that would read other files while it builds (the trust
    model, docs/security.md): ``#include`` reaches any path the process can
    read, whatever the build's include paths.  The rules, applied after the
    preprocessor's own first phases (trigraphs, line splices, comments,
    digraphs), are tensorvm.vmfb.source_check's."""
    found = source_check.check(text)
    if found is not None:
        raise ExecutableRejectedError(
            f"executable '{name}' (opencl-c) rejected at load: "
            + rejection_text(found) + "; modules must be self-contained",
            executable=name, reason=f"{found.reason} in OpenCL source")


def rejection_text(found) -> str:
    """What a refused kernel source does, for an error message."""
    what = ("its source includes another file" if found.reason in source_check.READS_FILE
            else "its source has a construct the trust model refuses")
    return f"{what} (line {found.line}: {found.detail})"


def build_program(device, name: str, source: bytes):
    """The cl.Program for ``source`` on ``device``, built once per physical
    device (the cache is shared by every HAL device on it)."""
    import pyopencl as cl
    shared = device._shared
    options = build_options(device.cl_device)
    key = hashlib.sha256(bytes(source) + "\0".join(options).encode()).digest()
    with shared.lock:
        program = shared.programs.get(key)
        if program is not None:
            return program
        try:
            text = bytes(source).decode("utf-8")
        except UnicodeDecodeError as e:
            raise HalError(f"executable '{name}': opencl-c data is not UTF-8 OpenCL C "
                           f"source (byte {e.start})") from None
        check_source(name, text)
        try:
            with warnings.catch_warnings():     # compiler chatter on success is not news
                warnings.simplefilter("ignore", cl.CompilerWarning)
                # cache_dir=False: pyopencl's own binary cache (used where the
                # driver has none, e.g. AMD's and Intel's) hashes every file
                # that a line '#include "f"' names, comments included, so it
                # would open any file, even a FIFO that blocks the load.
                program = cl.Program(device.context, text).build(
                    options=options, devices=[device.cl_device], cache_dir=False)
        except cl.Error as e:
            raise HalError(f"executable '{name}': OpenCL C build failed on device "
                           f"'{device.name}' ({device.description}):\n{_build_log(e)}") from None
        shared.programs[key] = program
        shared.builds += 1
        return program


def _status_arg(kernel):
    """The index of ``kernel``'s status word (its last parameter, if named
    STATUS_PARAM), or None."""
    import pyopencl as cl
    n = kernel.num_args
    try:
        last = kernel.get_arg_info(n - 1, cl.kernel_arg_info.NAME) if n else None
    except cl.Error:                      # (no argument info: no status word)
        return None
    return n - 1 if last == STATUS_PARAM else None


def load(device, name, data, entry_points, target) -> OpenCLExecutable:
    import pyopencl as cl
    needed = [e for e in target.get("extensions", ()) if e not in device.extensions]
    if needed:
        raise HalError(f"executable '{name}' needs the OpenCL extension(s) {', '.join(needed)}, "
                       f"which device '{device.name}' ({device.description}) does not support "
                       f"(it uses f64 values: recompile without them for this device)")
    program = build_program(device, name, bytes(data))
    want = int(target.get("local_size", DEFAULT_LOCAL_SIZE))
    local_sizes, kernels = [], []
    for entry in entry_points:
        try:
            kernel = cl.Kernel(program, entry)
        except cl.Error:
            raise HalError(f"executable '{name}' has no kernel '{entry}' "
                           f"(its OpenCL program defines {program.kernel_names!r})") from None
        limit = kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE,
                                           device.cl_device)
        # a kernel that declares reqd_work_group_size gets it (a GPU loop's
        # kernel on CPU devices: compiler/codegen/gpu_loop.py)
        fixed = kernel.get_work_group_info(cl.kernel_work_group_info.COMPILE_WORK_GROUP_SIZE,
                                           device.cl_device)
        local_sizes.append(int(fixed[0]) if fixed and fixed[0] else max(1, min(want, int(limit))))
        kernels.append(_Kernel(kernel))
    return OpenCLExecutable(device, name, entry_points, program, local_sizes, kernels)
