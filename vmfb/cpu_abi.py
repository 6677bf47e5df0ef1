"""The CPU executable ABI, declared once: the compiler renders its C from
these tables and the CPU loader (hal/loaders/cpu_c.py) derives its byte
layout and function-pointer types from the same ones (IREE's
executable_library.h plays this part there).  tests/test_abi_contract.py
proves both sides read this declaration.

Every entry point is ``ENTRY_RESULT name(ENTRY_PARAMS)``: it runs workgroups
``[wg_begin, wg_end)`` of the grid in its ``tvm_dispatch_state_t``
(``STATE_FIELDS``) and returns 0 or one of the ``RC_*`` codes.

Native functions a CPU executable exports besides its entry points:

``tvm_run_packets`` runs a list of prepared dispatches in one native call: a
replayed command buffer of 40 small kernels cost 40 Python-level calls
(each a method call and a cffi call, ~1 us) before; now it is one.  A packet
is ``PACKET_WORDS`` pointer-sized words: the entry point's address, its
``tvm_dispatch_state_t*``, the first and the end workgroup.  The runner
stops at the first entry point that returns non-zero, stores that packet's
index in ``*failed`` and returns the code.  Modules built before it existed
lack the symbol; the loader then runs the packets one call each.

``tvm_run_claimed`` runs one dispatch's workgroups ``grain`` at a time,
each batch claimed from a counter the calling threads share (an atomic
fetch-add; relaxed: the workgroups write disjoint outputs and the threads
meet under a lock afterwards), until the counter passes ``end``.  local-task
gives each of its threads one such call for a split dispatch: a thread that
is slow to wake or preempted by another process holds ``grain`` workgroups
at most, where a fixed range per thread left the others waiting for its
whole range.  An entry point's error stops the claims (the counter is set
to ``end``) and is returned.  Modules built before it lack the symbol; the
driver then cuts ranges.

``tvm_run_team`` runs a stretch of a replayed command buffer (segments of
dispatches, each segment's dispatches independent, the segments in order)
on every thread that calls it with the same control words: each claims
workgroups of the current segment ``grain`` at a time, waits (spinning,
then asleep on a futex) until the segment's claimed workgroups are done,
and the first to see it done moves all of them to the next segment.  A
thread that arrives late starts at the current segment; one that arrives
after the end returns at once.  local-task's threads used to meet in
Python between segments, tens of microseconds per segment (a 1 ms
transformer of 34 dispatches ran slower on two workers than on one).  The
first error stops every thread and is returned with its item.
"""
from __future__ import annotations

from typing import NamedTuple


class Field(NamedTuple):
    """One member of a native struct: its C type, name and array length
    (1 = a plain member); ``pointer`` members are pointer-sized."""
    ctype: str
    name: str
    count: int = 1

    @property
    def pointer(self) -> bool:
        return self.ctype.endswith("*")


#: ``tvm_dispatch_state_t``, member by member: the bindings' base addresses,
#: their lengths in bytes, the push constants, the grid.
STATE_STRUCT = "tvm_dispatch_state_t"
STATE_FIELDS = (Field("void* const*", "bindings"),
                Field("const uint64_t*", "binding_lengths"),
                Field("const uint32_t*", "constants"),
                Field("uint32_t", "workgroup_count", 3))
#: C sizes of the non-pointer member types.
_SIZES = {"uint32_t": 4, "uint64_t": 8}


def struct_c(tag: str, fields) -> str:
    """The C typedef of struct ``tag`` (``tag`` without its ``_t``)."""
    body = "".join(f"  {f.ctype} {f.name}{f'[{f.count}]' if f.count > 1 else ''};\n"
                   for f in fields)
    return f"\ntypedef struct {tag[:-2]} {{\n{body}}} {tag};\n"


def struct_layout(fields, pointer_bytes: int) -> tuple[dict, int]:
    """({member: byte offset}, size) of a struct of ``fields`` under the C
    rules (each member at its alignment, the size rounded to the largest)."""
    offsets, at, align = {}, 0, 1
    for f in fields:
        size = pointer_bytes if f.pointer else _SIZES[f.ctype]
        at = -(-at // size) * size
        offsets[f.name] = at
        at += size * f.count
        align = max(align, size)
    return offsets, -(-at // align) * align


STATE_C = struct_c(STATE_STRUCT, STATE_FIELDS)

#: An entry point's result and parameters (C type, name).
ENTRY_RESULT = "int"
ENTRY_PARAMS = ((f"const {STATE_STRUCT}*", "st"), ("uint32_t", "wg_begin"), ("uint32_t", "wg_end"))


def declarator(name: str, result: str = ENTRY_RESULT, params=ENTRY_PARAMS) -> str:
    """The C declarator of function ``name`` (an entry point by default)."""
    return f"{result} {name}({', '.join(f'{t} {n}' for t, n in params)})"


def pointer_type(result: str = ENTRY_RESULT, params=ENTRY_PARAMS) -> str:
    """The C function-pointer type of such a function, this ABI's structs
    passed as ``void*`` (same calling convention): cffi's built-in type parser
    reads it without declarations of the structs."""
    def plain(t):
        return "const void*" if STATE_STRUCT in t else t
    return f"{result}(*)({', '.join(plain(t) for t, _ in params)})"


#: Entry-point return codes: a loop stopped by its call's bounds (the VM
#: reports CallCancelledError / CallTimeoutError), and a kernel whose binding
#: is shorter than its dynamic shape needs (the HAL checks static shapes at
#: record time; dynamic ones are checked by the kernel, which then touches
#: no memory).
RC_OK, RC_CANCELLED, RC_TIMED_OUT, RC_BINDING_SHORT = 0, -2, -3, -4
STOP_CODES = {RC_CANCELLED: "cancelled", RC_TIMED_OUT: "timed out"}

PACKET_RUNNER = "tvm_run_packets"
#: A packet's words, in order: the entry point, its state, its workgroup range.
PACKET_FIELDS = ("entry", "state", "wg_begin", "wg_end")
PACKET_WORDS = len(PACKET_FIELDS)
PACKET_PARAMS = (("const uintptr_t*", "p"), ("uintptr_t", "n"), ("uintptr_t*", "failed"))
_AT = {f: i for i, f in enumerate(PACKET_FIELDS)}


CLAIM_RUNNER = "tvm_run_claimed"
#: The entry point, its state, the shared counter (the next unclaimed
#: workgroup; starts at 0), the end workgroup, workgroups per claim.
CLAIM_PARAMS = (("tvm_entry_fn", "entry"), (f"const {STATE_STRUCT}*", "st"),
                ("uint32_t*", "next"), ("uint32_t", "end"), ("uint32_t", "grain"))
CLAIM_RUNNER_C = f"""
typedef {pointer_type().replace("(*)", "(*tvm_entry_fn)").replace("const void*", f"const {STATE_STRUCT}*")};
__attribute__((visibility("default")))
{declarator(CLAIM_RUNNER, "int", CLAIM_PARAMS)} {{
  for (;;) {{
    const uint32_t b = __atomic_fetch_add(next, grain, __ATOMIC_RELAXED);
    if (b >= end) return 0;
    const int rc = entry(st, b, end - b < grain ? end : b + grain);
    if (rc) {{ __atomic_store_n(next, end, __ATOMIC_RELAXED); return rc; }}
  }}
}}
"""


TEAM_RUNNER = "tvm_run_team"
#: The items (``PACKET_WORDS`` words each, as ``tvm_run_packets`` reads them,
#: every ``wg_begin`` 0), the segments (``TEAM_SEGMENT_WORDS`` uint32 each),
#: their count, this run's control words (``team_control_words``, zeroed),
#: and whether the calling thread leads: a segment of one claim is run by
#: the leader alone (a chain of small kernels hopping between cores paid
#: for moving its data every time).
TEAM_PARAMS = (("const uintptr_t*", "items"), ("const uint32_t*", "segs"),
               ("uint32_t", "nseg"), ("uint32_t*", "ctl"), ("uint32_t", "lead"))
#: A segment's words: its first item, its item count, its workgroups (the
#: items' totals, concatenated), workgroups per claim.
TEAM_SEGMENT_FIELDS = ("first", "count", "total", "grain")
TEAM_SEGMENT_WORDS = len(TEAM_SEGMENT_FIELDS)
#: Control words: the segment being run (``nseg`` once done or stopped), the
#: first error's code, 1 + the item that returned it (0 until stored: a
#: thread stopped by another's error may see the code first), the threads
#: asleep; then per segment the next unclaimed workgroup and the
#: workgroups done.
TEAM_STAGE, TEAM_RC, TEAM_FAILED, TEAM_SLEEPERS, TEAM_HEAD = 0, 1, 2, 3, 4
#: Pauses a waiting thread spins before it sleeps (a futex on the segment's
#: done counter, woken by the thread that completes the segment; at most
#: TEAM_SLEEP_US at a time).  Spinning longer cost a VM whose vCPUs the host
#: time-slices on fewer cores the waiter's whole slice each time.
TEAM_SPINS = 2048
TEAM_SLEEP_US = 1000


def team_control_words(nseg: int) -> int:
    return TEAM_HEAD + 2 * nseg


TEAM_RUNNER_C = f"""
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static void tvm_team_wake(uint32_t* word, uint32_t* ctl) {{
  if (__atomic_load_n(&ctl[{TEAM_SLEEPERS}], __ATOMIC_SEQ_CST))
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 0x7fffffff, 0, 0, 0);
}}
__attribute__((visibility("default")))
{declarator(TEAM_RUNNER, "int", TEAM_PARAMS)} {{
  typedef {pointer_type().replace("(*)", "(*tvm_team_entry_t)")};
  for (;;) {{
    const uint32_t s = __atomic_load_n(&ctl[{TEAM_STAGE}], __ATOMIC_ACQUIRE);
    if (s >= nseg) return (int)__atomic_load_n(&ctl[{TEAM_RC}], __ATOMIC_ACQUIRE);
    const uint32_t* sg = segs + {TEAM_SEGMENT_WORDS} * s;
    const uint32_t total = sg[2], grain = sg[3], last = sg[0] + sg[1];
    uint32_t* next = ctl + {TEAM_HEAD} + 2 * s;
    uint32_t* done = next + 1;
    for (; lead || grain < total; ) {{
      const uint32_t b0 = __atomic_fetch_add(next, grain, __ATOMIC_RELAXED);
      if (b0 >= total) break;
      const uint32_t e = total - b0 < grain ? total : b0 + grain;
      uint32_t b = b0;
      uint32_t off = 0;
      for (uint32_t i = sg[0]; i < last && b < e; ++i) {{
        const uintptr_t* p = items + {PACKET_WORDS} * i;
        const uint32_t t = (uint32_t)p[{_AT["wg_end"]}];
        if (b < off + t) {{
          const uint32_t hi = (e < off + t ? e : off + t) - off;
          const int rc = ((tvm_team_entry_t)p[{_AT["entry"]}])((const void*)p[{_AT["state"]}], b - off, hi);
          if (rc) {{
            uint32_t zero = 0;
            if (__atomic_compare_exchange_n(&ctl[{TEAM_RC}], &zero, (uint32_t)rc, 0,
                                            __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
              __atomic_store_n(&ctl[{TEAM_FAILED}], i + 1, __ATOMIC_RELEASE);
            __atomic_store_n(&ctl[{TEAM_STAGE}], nseg, __ATOMIC_SEQ_CST);
            __atomic_fetch_add(done, 1, __ATOMIC_SEQ_CST);      /* wakes a sleeper's look */
            tvm_team_wake(done, ctl);
            return rc;
          }}
          b = off + hi;
        }}
        off += t;
      }}
      if (__atomic_add_fetch(done, e - b0, __ATOMIC_SEQ_CST) >= total) tvm_team_wake(done, ctl);
    }}
    for (uint32_t spins = 0;; ) {{
      const uint32_t seen = __atomic_load_n(done, __ATOMIC_ACQUIRE);
      if (seen >= total || __atomic_load_n(&ctl[{TEAM_STAGE}], __ATOMIC_ACQUIRE) != s) break;
      if (++spins < {TEAM_SPINS}) {{
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
        continue;
      }}
      __atomic_fetch_add(&ctl[{TEAM_SLEEPERS}], 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n(done, __ATOMIC_SEQ_CST) == seen
          && __atomic_load_n(&ctl[{TEAM_STAGE}], __ATOMIC_SEQ_CST) == s) {{
        const struct timespec nap = {{0, {TEAM_SLEEP_US} * 1000}};
        syscall(SYS_futex, done, FUTEX_WAIT_PRIVATE, seen, &nap, 0, 0);
      }}
      __atomic_fetch_sub(&ctl[{TEAM_SLEEPERS}], 1, __ATOMIC_SEQ_CST);
    }}
    uint32_t expect = s;
    if (__atomic_load_n(done, __ATOMIC_ACQUIRE) >= total)
      __atomic_compare_exchange_n(&ctl[{TEAM_STAGE}], &expect, s + 1, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  }}
}}
"""


def team_pointer_type() -> str:
    """cffi's spelling of ``tvm_run_team``'s pointer type."""
    return f"int(*)({', '.join(t for t, _ in TEAM_PARAMS)})"


def claim_pointer_type() -> str:
    """cffi's spelling of ``tvm_run_claimed``'s pointer type (structs as
    ``void*``, the entry point as its own pointer type)."""
    plain = {"tvm_entry_fn": pointer_type(), f"const {STATE_STRUCT}*": "const void*"}
    return f"int(*)({', '.join(plain.get(t, t) for t, _ in CLAIM_PARAMS)})"


def packet(entry: int, state: int, wg_begin: int, wg_end: int) -> list:
    """One packet's words (addresses as integers) in ``PACKET_FIELDS`` order."""
    words = dict(entry=entry, state=state, wg_begin=wg_begin, wg_end=wg_end)
    return [words[f] for f in PACKET_FIELDS]


PACKET_RUNNER_C = f"""
__attribute__((visibility("default")))
{declarator(PACKET_RUNNER, "int", PACKET_PARAMS)} {{
  typedef {pointer_type().replace("(*)", "(*tvm_entry_t)")};
  for (uintptr_t i = 0; i < n; ++i, p += {PACKET_WORDS}) {{
    const int rc = ((tvm_entry_t)p[{_AT["entry"]}])(
        (const void*)p[{_AT["state"]}], (uint32_t)p[{_AT["wg_begin"]}], (uint32_t)p[{_AT["wg_end"]}]);
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
