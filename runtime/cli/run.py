"""``tensorvm-run``: call one function of a .vmfb module (iree-run-module's flags).

    tensorvm-run --module=m.vmfb --function=main --device=local-task \\
        --input=2x2xf32=1,2,3,4 --input=@x.npy --output=@y.npy --trace=trace.json

``--trace`` writes a Chrome trace / Perfetto JSON of the call, the queue
submissions and every dispatch per worker thread (open it in ui.perfetto.dev);
a native loop's dispatch carries its iterations, kernel time and host time
per iteration as args.  ``--print-stats`` prints the same as a summary.

Many ranks (docs/collectives.md): ``--replicas=R --partitions=P`` runs R x P
in-process ranks (a module compiled for several, e.g. a JAX export over a
device mesh, runs as its declared count by default; ``--device`` repeated
gives each rank its device), ``--channel=mpi`` makes each process one rank of
``mpirun -n N tensorvm-run ...`` (or, ``--device`` repeated, one rank per
device: ranks are numbered process by process).  ``{rank}`` in an ``--input=@...`` or
``--output=@...`` path is replaced by the rank; printed results are
prefixed with ``rank K:``.

Host transfers (docs/host_transfers.md): ``--input=!stablehlo.token`` passes
a token argument; each ``--infeed=VALUE`` (the ``--input`` syntax) is one
entry pushed onto the module's infeed queue before the call; after it, what
the program's outfeeds and host sends wrote prints as ``outfeed[i]:`` /
``channel H[i]:``.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from .inputs import InputError, format_array, parse_input


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tensorvm-run", description="Run a function of a .vmfb module.")
    p.add_argument("--module", required=True, help="path of the .vmfb module")
    p.add_argument("--function", default="main", help="exported function to call (default main)")
    p.add_argument("--device", action="append", default=None,
                   help="HAL device URI: local-task (default), local-sync, local-task://N; "
                        "repeat it to give each rank its own device")
    p.add_argument("--input", action="append", default=[], metavar="VALUE",
                   help="an argument: 2x2xf32=1,2,3,4 | f32=1.5 | 4xi32 (zeros) | @file.npy")
    p.add_argument("--infeed", action="append", default=[], metavar="VALUE",
                   help="an entry for the program's stablehlo.infeed (the --input syntax); "
                        "repeat it, one entry each, in order")
    p.add_argument("--output", action="append", default=[], metavar="@FILE.npy",
                   help="write the next result to a .npy file instead of printing it")
    p.add_argument("--trace", metavar="PATH",
                   help="write a Chrome/Perfetto trace (JSON) of submissions and dispatches")
    p.add_argument("--print-stats", action="store_true",
                   help="print what the call ran to stderr: dispatches per entry point, and "
                        "each native loop's iterations and host time per iteration")
    p.add_argument("--replicas", type=int, help="run as this many in-process replicas")
    p.add_argument("--partitions", type=int, help="run as this many in-process partitions")
    p.add_argument("--channel", choices=["mpi"],
                   help="mpi: this process is one rank of mpirun (collectives over MPI), or "
                        "one rank per --device")
    return p


def _ranked(text: str, rank) -> str:
    return text if rank is None else text.replace("{rank}", str(rank))


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    from tensorvm import runtime
    try:
        tracer = None
        if args.trace or args.print_stats:
            from tensorvm.hal.trace import Tracer
            tracer = Tracer(args.trace)
        devices = args.device or ["local-task"]
        replicas, partitions = args.replicas, args.partitions
        if args.channel is None and replicas is None and partitions is None:
            # a module compiled for several ranks (mhlo.num_partitions, a device
            # mesh) runs as that many in-process ranks; so do several --device
            from tensorvm.vmfb.collectives import parse_devices
            from tensorvm.vmfb.container import read_module
            r, p = parse_devices(read_module(args.module).requirements)
            if r * p > 1 or len(devices) > 1:
                replicas, partitions = r, p if r * p > 1 else len(devices)
        # several --device with --channel=mpi: this process hosts one rank per device
        parallel = replicas is not None or partitions is not None or len(devices) > 1
        module = runtime.load_module(args.module, device=devices if len(devices) > 1 else devices[0],
                                     trace=tracer, replicas=replicas, partitions=partitions,
                                     channel=args.channel)
        queues = module.host_queues
        for spec in args.infeed:
            queues.infeed.push(parse_input(spec))
        if parallel:
            ranks = module.ranks
            per_rank = module[args.function].run(
                [[parse_input(_ranked(s, k)) for s in args.input] for k in ranks])
        else:
            rank = module.channel.rank if module.channel is not None else None
            ranks = [rank]
            per_rank = [module[args.function](*[parse_input(_ranked(s, rank))
                                                for s in args.input])]
        if tracer is not None:
            if args.trace:
                tracer.save()
            if args.print_stats:
                from tensorvm.hal.trace import format_summary
                print(format_summary(tracer), file=sys.stderr)
            for m in getattr(module, "modules", [module]):
                m.device.tracer = None      # the device is shared per URI: stop tracing
        for rank, results in zip(ranks, per_rank):
            _emit(results, [_ranked(o, rank) for o in args.output],
                  "" if rank is None else f"rank {rank}: ")
        _emit_host_queues(queues)
    except (InputError, OSError, ValueError) as e:     # ValueError: a bad rank/device count
        print(f"tensorvm-run: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - typed tensorvm errors, printed in one line
        if type(e).__module__.startswith("tensorvm"):
            print(f"tensorvm-run: error: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
        raise
    return 0


def _emit_host_queues(queues) -> None:
    """Print the entries the call left on the outfeed and host channels."""
    named = [("outfeed", queues.outfeed)] + [(f"channel {h}", q)
                                             for h, q in sorted(queues.channels.items())]
    for name, q in named:
        for i, entry in enumerate(q.clear()):
            text = ", ".join(format_array(a) for a in entry)
            print(f"{name}[{i}]: {text}", flush=True)


def _emit(results, outputs, prefix) -> None:
    """Print each result, or save it to its ``--output=@file.npy``."""
    from tensorvm.runtime.host_queues import Token
    if not isinstance(results, tuple):
        results = (results,)
    for i, r in enumerate(results):
        if isinstance(r, Token):
            if i < len(outputs):
                raise InputError(f"--output={outputs[i]}: result {i} is a !stablehlo.token "
                                 f"(no data to save)")
            print(f"{prefix}result[{i}]: !stablehlo.token", flush=True)
            continue
        a = np.asarray(r)
        if i < len(outputs):
            target = outputs[i]
            if not target.startswith("@"):
                raise InputError(f"--output={target}: expected @path.npy")
            np.save(target[1:], a)
        else:
            print(f"{prefix}result[{i}]: {format_array(a)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
