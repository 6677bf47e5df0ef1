/* A stand-in libcuda for testing the cuda driver's plumbing on machines
 * without a GPU: "device" memory is host memory, and a launch writes the
 * grid's block count (x*y*z) as a uint32 to its first pointer argument. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
typedef unsigned long long CUdeviceptr;
int cuInit(unsigned f) { (void)f; return 0; }
int cuDriverGetVersion(int* v) { *v = 13000; return 0; }
int cuGetErrorName(int e, const char** s) { *s = e == 218 ? "CUDA_ERROR_INVALID_PTX" : "CUDA_ERROR_NOT_FOUND"; return 0; }
int cuGetErrorString(int e, const char** s) { (void)e; *s = "fake error"; return 0; }
int cuDeviceGetCount(int* n) { *n = 1; return 0; }
int cuDeviceGet(int* d, int i) { *d = i; return 0; }
int cuDeviceGetName(char* s, int n, int d) { (void)d; strncpy(s, "Fake GPU", n); return 0; }
int cuDeviceGetAttribute(int* v, int a, int d) { (void)d; *v = a == 75 ? 8 : 0; return 0; }
int cuDevicePrimaryCtxRetain(void** c, int d) { (void)d; *c = (void*)1; return 0; }
int cuCtxSetCurrent(void* c) { (void)c; return 0; }
int cuModuleLoadDataEx(void** m, const void* image, unsigned n, int* o, void** v) {
  if (strstr((const char*)image, "BROKEN")) {
    if (n >= 1 && o[0] == 5) strcpy((char*)v[0], "ptxas fatal: BROKEN kernel");
    return 218;
  }
  *m = (void*)1; return 0;
}
int cuModuleGetFunction(void** f, void* m, const char* name) {
  (void)m; if (strcmp(name, "missing") == 0) return 500; *f = (void*)1; return 0;
}
int cuFuncGetAttribute(int* v, int a, void* f) { (void)a; (void)f; *v = 1024; return 0; }
int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned sh, void* s, void** params, void** extra) {
  (void)f; (void)bx; (void)by; (void)bz; (void)sh; (void)s; (void)extra;
  if (params && params[0]) { uint32_t* out = (uint32_t*)(uintptr_t)*(CUdeviceptr*)params[0];
    if (out) *out = gx * gy * gz; }
  return 0;
}
int cuMemAlloc_v2(CUdeviceptr* p, size_t n) { *p = (CUdeviceptr)(uintptr_t)calloc(1, n); return 0; }
int cuMemFree_v2(CUdeviceptr p) { free((void*)(uintptr_t)p); return 0; }
int cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, void* s) { (void)s; memset((void*)(uintptr_t)d, v, n); return 0; }
int cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, void* s) { (void)s; for (size_t i = 0; i < n; ++i) ((uint16_t*)(uintptr_t)d)[i] = v; return 0; }
int cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, void* s) { (void)s; for (size_t i = 0; i < n; ++i) ((uint32_t*)(uintptr_t)d)[i] = v; return 0; }
int cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void* h, size_t n, void* s) { (void)s; memmove((void*)(uintptr_t)d, h, n); return 0; }
int cuMemcpyDtoHAsync_v2(void* h, CUdeviceptr d, size_t n, void* s) { (void)s; memmove(h, (void*)(uintptr_t)d, n); return 0; }
int cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr src, size_t n, void* s) { (void)s; memcpy((void*)(uintptr_t)d, (void*)(uintptr_t)src, n); return 0; }
int cuMemHostRegister_v2(void* p, size_t n, unsigned f) { (void)p; (void)n; (void)f; return 0; }
int cuMemHostUnregister(void* p) { (void)p; return 0; }
int cuMemHostGetDevicePointer_v2(CUdeviceptr* d, void* p, unsigned f) { (void)f; *d = (CUdeviceptr)(uintptr_t)p; return 0; }
int cuStreamCreate(void** s, unsigned f) { (void)f; *s = (void*)1; return 0; }
int cuStreamSynchronize(void* s) { (void)s; return 0; }
int cuEventCreate(void** e, unsigned f) { (void)f; *e = (void*)1; return 0; }
int cuEventRecord(void* e, void* s) { (void)e; (void)s; return 0; }
int cuEventSynchronize(void* e) { (void)e; return 0; }
int cuEventDestroy_v2(void* e) { (void)e; return 0; }
