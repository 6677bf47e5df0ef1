/* Runs captured dispatches against a cpu-c shared object, for checking
 * cross-compiled kernels under qemu-user (tests/cross/qemu_harness.py).
 *
 *   kernel_harness KERNELS.so SPEC IN.bin OUT.bin
 *
 * SPEC is text: the dispatch count, then per dispatch
 *   ENTRY WX WY WZ NCONST C0 .. CN-1 NBIND LEN0 .. LENB-1
 * IN.bin holds every dispatch's binding bytes before it ran, in order;
 * OUT.bin receives them after this object's entry point ran all the
 * dispatch's workgroups in one call (the CPU executable ABI, docs/vmfb.md). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tvm_dispatch_state_t: qemu_harness.py puts the compiler's ABI text (cpu.ABI) here */
TVM_ABI
typedef int (*entry_fn)(const tvm_dispatch_state_t*, uint32_t, uint32_t);

static int fail(const char* what, const char* detail) {
  fprintf(stderr, "kernel_harness: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  return 2;
}

int main(int argc, char** argv) {
  if (argc != 5) return fail("usage: kernel_harness KERNELS.so SPEC IN.bin OUT.bin", NULL);
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) return fail("dlopen failed", dlerror());
  FILE* spec = fopen(argv[2], "r");
  FILE* in = fopen(argv[3], "rb");
  FILE* out = fopen(argv[4], "wb");
  if (!spec || !in || !out) return fail("cannot open the spec or data files", NULL);
  unsigned count;
  if (fscanf(spec, "%u", &count) != 1) return fail("bad spec header", NULL);
  for (unsigned d = 0; d < count; ++d) {
    char name[256];
    uint32_t wg[3];
    unsigned nconst, nbind;
    if (fscanf(spec, "%255s %u %u %u %u", name, &wg[0], &wg[1], &wg[2], &nconst) != 5)
      return fail("bad dispatch line", NULL);
    uint32_t* consts = calloc(nconst + 1, sizeof *consts);
    for (unsigned i = 0; i < nconst; ++i)
      if (fscanf(spec, "%u", &consts[i]) != 1) return fail("bad constant", name);
    if (fscanf(spec, "%u", &nbind) != 1) return fail("bad binding count", name);
    uint64_t* lens = calloc(nbind + 1, sizeof *lens);
    void** ptrs = calloc(nbind + 1, sizeof *ptrs);
    for (unsigned i = 0; i < nbind; ++i) {
      unsigned long long n;
      if (fscanf(spec, "%llu", &n) != 1) return fail("bad binding length", name);
      lens[i] = n;
      ptrs[i] = aligned_alloc(64, (n + 63) / 64 * 64 + 64);
      if (!ptrs[i] || fread(ptrs[i], 1, n, in) != n) return fail("short input data", name);
    }
    entry_fn fn = (entry_fn)dlsym(lib, name);
    if (!fn) return fail("no such entry point", name);
    tvm_dispatch_state_t st = {ptrs, lens, consts, {wg[0], wg[1], wg[2]}};
    int rc = fn(&st, 0, wg[0] * wg[1] * wg[2]);
    if (rc) {
      fprintf(stderr, "kernel_harness: %s returned %d\n", name, rc);
      return 1;
    }
    for (unsigned i = 0; i < nbind; ++i) {
      if (fwrite(ptrs[i], 1, lens[i], out) != lens[i]) return fail("write failed", name);
      free(ptrs[i]);
    }
    free(ptrs);
    free(lens);
    free(consts);
  }
  if (fclose(out)) return fail("write failed", argv[4]);
  printf("ran %u dispatches\n", count);
  return 0;
}
