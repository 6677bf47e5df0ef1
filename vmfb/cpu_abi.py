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

#: A native loop's last binding is its call's bounds: ``BOUNDS_WORDS`` uint64
#: words, zeroed when made.  ``BOUNDS_STOP``: non-zero once ``cancel()`` ran
#: (the loop reads its low 32 bits every iteration); ``BOUNDS_DEADLINE``: the
#: call's deadline in CLOCK_MONOTONIC ns, 0 = none; ``BOUNDS_MEASURE``:
#: non-zero when the device has a tracer, asking loops for their stats.
BOUNDS_WORDS = 4
BOUNDS_BYTES = 8 * BOUNDS_WORDS
BOUNDS_STOP, BOUNDS_DEADLINE, BOUNDS_MEASURE = 0, 1, 2

#: A native loop's entry point (``EntryPoint.loop_stats``) starts its scratch
#: binding (the second-to-last) with this record of ``LOOP_STATS_WORDS``
#: uint64 words; the loop's own scratch follows it.  The scratch is not
#: zeroed: the loop stores the record on a normal exit when its bounds ask
#: for measurements (``BOUNDS_MEASURE``), and only then does it read the
#: clock around each kernel; otherwise the record holds garbage.
LOOP_STATS_WORDS = 8
LOOP_STATS_BYTES = 8 * LOOP_STATS_WORDS
LOOP_STATS_FIELDS = {"iterations": 0,        # iterations of the root loop
                     "inner_iterations": 1,  # iterations of nested loops, all together
                     "dispatches": 2,        # kernel calls and in-place updates
                     "kernel_ns": 3,         # ns inside kernel calls and in-place updates
                     "total_ns": 4}          # ns of the whole entry point
