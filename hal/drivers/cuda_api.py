"""A small cffi (ABI mode) binding of the CUDA driver API, libcuda.so.1.

Loaded at run time, so tensorvm needs neither pycuda nor the CUDA toolkit to
run PTX: only the NVIDIA driver.  ``load()`` returns the ``CudaApi`` or
raises ``DeviceUnavailableError`` saying what is missing
(``TENSORVM_LIBCUDA`` names another library to load instead).  Every call goes
through ``check``, which turns a CUresult into a ``HalError`` naming the call
and the driver's error name and text.  cffi releases the GIL around calls,
so synchronising on an event does not stall other Python threads.

Graphs (``cuGraph*``, CUDA 11.4+) are declared with the version-1 kernel
node parameters (``CUDA_KERNEL_NODE_PARAMS`` as CUDA 11 defined it, the
symbols ``cuGraphAddKernelNode`` / ``cuGraphExecKernelNodeSetParams`` that
drivers keep for programs built against it); a driver without them leaves
the cuda driver launching kernel by kernel (``cuda_program.py``).
"""
from __future__ import annotations

import os
import threading

from ..errors import DeviceUnavailableError, HalError, OutOfMemoryError

CDEF = """
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int* version);
CUresult cuGetErrorName(CUresult error, const char** str);
CUresult cuGetErrorString(CUresult error, const char** str);
CUresult cuDeviceGetCount(int* count);
CUresult cuDeviceGet(CUdevice* device, int ordinal);
CUresult cuDeviceGetName(char* name, int len, CUdevice dev);
CUresult cuDeviceGetAttribute(int* value, int attrib, CUdevice dev);
CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext* ctx, CUdevice dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int n,
                            int* options, void** values);
CUresult cuModuleGetFunction(CUfunction* fn, CUmodule module, const char* name);
CUresult cuFuncGetAttribute(int* value, int attrib, CUfunction fn);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz,
                        unsigned int shared_bytes, CUstream stream, void** params, void** extra);
CUresult cuMemAlloc_v2(CUdeviceptr* ptr, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr ptr);
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, CUstream s);
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t n, CUstream s);
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t n, CUstream s);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t n, CUstream s);
CUresult cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuMemHostRegister_v2(void* p, size_t bytes, unsigned int flags);
CUresult cuMemHostUnregister(void* p);
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* dptr, void* p, unsigned int flags);
CUresult cuStreamCreate(CUstream* stream, unsigned int flags);
CUresult cuStreamSynchronize(CUstream stream);
CUresult cuEventCreate(CUevent* event, unsigned int flags);
CUresult cuEventRecord(CUevent event, CUstream stream);
CUresult cuEventSynchronize(CUevent event);
CUresult cuEventDestroy_v2(CUevent event);
typedef struct CUgraph_st* CUgraph;
typedef struct CUgraphNode_st* CUgraphNode;
typedef struct CUgraphExec_st* CUgraphExec;
typedef struct {
    CUfunction func;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    void** kernelParams;
    void** extra;
} CUDA_KERNEL_NODE_PARAMS;
CUresult cuGraphCreate(CUgraph* graph, unsigned int flags);
CUresult cuGraphAddKernelNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* deps,
                              size_t ndeps, const CUDA_KERNEL_NODE_PARAMS* params);
CUresult cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long flags);
CUresult cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                        const CUDA_KERNEL_NODE_PARAMS* params);
CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream);
CUresult cuGraphExecDestroy(CUgraphExec exec);
CUresult cuGraphDestroy(CUgraph graph);
"""

ATTR_CC_MAJOR = 75
ATTR_CC_MINOR = 76
FUNC_MAX_THREADS = 0
JIT_ERROR_LOG_BUFFER = 5
CUDA_ERROR_OUT_OF_MEMORY = 2
JIT_ERROR_LOG_BUFFER_SIZE = 6
STREAM_NON_BLOCKING = 1
EVENT_DISABLE_TIMING = 2
HOST_REGISTER_DEVICEMAP = 2

_LIBRARIES = ("libcuda.so.1", "libcuda.so")
_lock = threading.Lock()
_cached = None          # CudaApi, or the DeviceUnavailableError to raise again


class CudaApi:
    """The loaded library (``lib``), its ffi and the error check."""

    def __init__(self, ffi, lib):
        self.ffi = ffi
        self.lib = lib

    def error_text(self, rc: int) -> str:
        name, text = self.ffi.new("const char**"), self.ffi.new("const char**")
        n = self.lib.cuGetErrorName(rc, name)
        t = self.lib.cuGetErrorString(rc, text)
        nm = self.ffi.string(name[0]).decode() if n == 0 and name[0] else f"CUresult {rc}"
        tx = self.ffi.string(text[0]).decode() if t == 0 and text[0] else ""
        return f"{nm}: {tx}" if tx else nm

    def check(self, rc: int, what: str) -> None:
        if rc == CUDA_ERROR_OUT_OF_MEMORY:
            raise OutOfMemoryError(f"CUDA {what} failed: {self.error_text(rc)}")
        if rc != 0:
            raise HalError(f"CUDA {what} failed: {self.error_text(rc)}")

    def out(self, ctype: str, fn, *args, what: str):
        """Call ``fn(out_ptr, *args)`` and return the value written to it."""
        box = self.ffi.new(ctype + "*")
        self.check(fn(box, *args), what)
        return box[0]

    def device_count(self) -> int:
        return self.out("int", self.lib.cuDeviceGetCount, what="cuDeviceGetCount")

    def device_info(self, ordinal: int) -> dict:
        dev = self.out("CUdevice", self.lib.cuDeviceGet, ordinal, what="cuDeviceGet")
        buf = self.ffi.new("char[256]")
        self.check(self.lib.cuDeviceGetName(buf, 256, dev), "cuDeviceGetName")
        major = self.out("int", self.lib.cuDeviceGetAttribute, ATTR_CC_MAJOR, dev,
                         what="cuDeviceGetAttribute")
        minor = self.out("int", self.lib.cuDeviceGetAttribute, ATTR_CC_MINOR, dev,
                         what="cuDeviceGetAttribute")
        try:
            total = self.out("size_t", self.lib.cuDeviceTotalMem_v2, dev, what="cuDeviceTotalMem")
        except (HalError, AttributeError):
            total = None                # (the allocation limit falls back to host memory)
        return {"device": dev, "name": self.ffi.string(buf).decode(errors="replace"),
                "compute_capability": (major, minor), "total_memory": total}


def _after_fork_in_child() -> None:
    """A CUDA driver initialised in the parent is unusable in a forked child
    (CUDA's rule); the child's calls get a typed error instead of failing
    deep inside the driver."""
    global _cached, _lock
    _lock = threading.Lock()
    if isinstance(_cached, CudaApi):
        _cached = DeviceUnavailableError(
            "CUDA was initialised in the parent before this process forked, and CUDA "
            "cannot be used in a forked child: create CUDA devices only after forking, or "
            "start worker processes with multiprocessing's 'spawn' method")


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def load() -> CudaApi:
    """The driver API, initialised; DeviceUnavailableError with the reason."""
    global _cached
    with _lock:
        if isinstance(_cached, CudaApi):
            return _cached
        if _cached is not None:
            raise DeviceUnavailableError(str(_cached))
        try:
            _cached = _load()
            return _cached
        except DeviceUnavailableError as e:
            _cached = e
            raise


def _load() -> CudaApi:
    import cffi
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    errors = []
    override = os.environ.get("TENSORVM_LIBCUDA")      # tests point this at a stand-in
    for name in ([override] if override else _LIBRARIES):
        try:
            lib = ffi.dlopen(name)
            break
        except OSError as e:
            errors.append(str(e))
    else:
        raise DeviceUnavailableError(
            "the NVIDIA driver library libcuda.so.1 is not installed or not loadable "
            f"(no NVIDIA GPU driver on this machine): {errors[0].split('.  ')[0]}")
    api = CudaApi(ffi, lib)
    rc = lib.cuInit(0)
    if rc != 0:
        raise DeviceUnavailableError(f"cuInit failed: {api.error_text(rc)} "
                                     "(no usable NVIDIA GPU or driver)")
    if api.device_count() == 0:
        raise DeviceUnavailableError("the NVIDIA driver reports no CUDA device")
    return api
