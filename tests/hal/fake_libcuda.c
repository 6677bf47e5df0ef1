/* A stand-in libcuda for testing the cuda driver's plumbing on machines
 * without a GPU: "device" memory is host memory, and a launch writes the
 * grid's block count (x*y*z) as a uint32 to its first pointer argument.
 * Graphs copy each kernel node's first pointer and grid when the node is
 * added or its parameters set, and a graph launch runs the nodes in order;
 * fake_counts() reports how often each graph call (and cuLaunchKernel) ran. */
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
enum { GRAPHS, INSTANTIATES, GRAPH_LAUNCHES, NODE_UPDATES, KERNEL_LAUNCHES, NCOUNTS };
static long counts[NCOUNTS];
void fake_counts(long* out) { memcpy(out, counts, sizeof counts); }
static void run_kernel(unsigned gx, unsigned gy, unsigned gz, CUdeviceptr first) {
  uint32_t* out = (uint32_t*)(uintptr_t)first;
  if (out) *out = gx * gy * gz;
}
int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned sh, void* s, void** params, void** extra) {
  (void)f; (void)bx; (void)by; (void)bz; (void)sh; (void)s; (void)extra;
  ++counts[KERNEL_LAUNCHES];
  if (params && params[0]) run_kernel(gx, gy, gz, *(CUdeviceptr*)params[0]);
  return 0;
}
typedef struct { void* func; unsigned gx, gy, gz, bx, by, bz, shared; void** params; void** extra; }
  KernelNodeParams;
typedef struct { unsigned gx, gy, gz; CUdeviceptr first; } Node;
typedef struct { Node* nodes[256]; int n; } Graph;
typedef struct { Graph* graph; Node nodes[256]; int n; } Exec;
static void copy_node(Node* n, const KernelNodeParams* p) {
  n->gx = p->gx; n->gy = p->gy; n->gz = p->gz;
  n->first = p->params && p->params[0] ? *(CUdeviceptr*)p->params[0] : 0;
}
int cuGraphCreate(Graph** g, unsigned f) { (void)f; *g = calloc(1, sizeof(Graph)); ++counts[GRAPHS]; return 0; }
int cuGraphAddKernelNode(Node** out, Graph* g, Node** deps, size_t ndeps, const KernelNodeParams* p) {
  (void)deps; (void)ndeps;
  if (g->n == 256) return 2;
  Node* n = calloc(1, sizeof(Node));
  copy_node(n, p);
  g->nodes[g->n++] = n; *out = n; return 0;
}
int cuGraphInstantiateWithFlags(Exec** e, Graph* g, unsigned long long f) {
  (void)f; Exec* x = calloc(1, sizeof(Exec)); x->graph = g; x->n = g->n;
  for (int i = 0; i < g->n; ++i) x->nodes[i] = *g->nodes[i];
  *e = x; ++counts[INSTANTIATES]; return 0;
}
int cuGraphExecKernelNodeSetParams(Exec* e, Node* node, const KernelNodeParams* p) {
  for (int i = 0; i < e->n; ++i) if (e->graph->nodes[i] == node) {
    copy_node(&e->nodes[i], p); ++counts[NODE_UPDATES]; return 0; }
  return 400;
}
int cuGraphLaunch(Exec* e, void* s) {
  (void)s; ++counts[GRAPH_LAUNCHES];
  for (int i = 0; i < e->n; ++i) run_kernel(e->nodes[i].gx, e->nodes[i].gy, e->nodes[i].gz, e->nodes[i].first);
  return 0;
}
int cuGraphExecDestroy(Exec* e) { free(e); return 0; }
int cuGraphDestroy(Graph* g) { for (int i = 0; i < g->n; ++i) free(g->nodes[i]); free(g); return 0; }
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
