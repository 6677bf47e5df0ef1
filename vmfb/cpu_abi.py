"""Native functions a CPU executable exports besides its entry points,
declared once for the compiler (which writes them) and the CPU loader
(which calls them).

``tvm_run_packets`` runs a list of prepared dispatches in one native call: a
replayed command buffer of 40 small kernels cost 40 Python-level calls
(each a method call and a cffi call, ~1 us) before; now it is one.  A packet
is ``PACKET_WORDS`` pointer-sized words: the entry point's address, its
``tvm_dispatch_state_t*``, the first and the end workgroup.  The runner
stops at the first entry point that returns non-zero, stores that packet's
index in ``*failed`` and returns the code.  Modules built before it existed
lack the symbol; the loader then runs the packets one call each.
"""
from __future__ import annotations

PACKET_RUNNER = "tvm_run_packets"
PACKET_WORDS = 4

PACKET_RUNNER_C = f"""
__attribute__((visibility("default")))
int {PACKET_RUNNER}(const uintptr_t* p, uintptr_t n, uintptr_t* failed) {{
  typedef int (*tvm_entry_t)(const void*, uint32_t, uint32_t);
  for (uintptr_t i = 0; i < n; ++i, p += {PACKET_WORDS}) {{
    const int rc = ((tvm_entry_t)p[0])((const void*)p[1], (uint32_t)p[2], (uint32_t)p[3]);
    if (rc) {{ *failed = i; return rc; }}
  }}
  return 0;
}}
"""
