"""Differential fuzz of the kernel-source check (tensorvm.vmfb.source_check):
random sources built from the pieces that confuse preprocessors (trigraphs,
digraphs, splices, comments, literals, digit separators) around an
``include`` of a canary header are preprocessed by real compilers; every
source whose output holds the canary's text (the compiler read the file)
must be refused by the check.

    python tools/fuzz_sources.py --count 3000 [--seed 1] [--jobs 2]

Compilers: clang in OpenCL C 1.2 mode (PoCL's front end), clang and GCC in
C++17 (CUDA's device and host passes), GCC in ISO C99 (trigraphs on).  Those
missing are skipped.  Prints how many sources each compiler read the file
through, and every miss (a read the check let pass).
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from tensorvm.vmfb import source_check

MARKER = "TVM_CANARY_READ_7F3A"


def compilers() -> dict:
    """name -> argv prefix of each available preprocessor mode."""
    out = {}
    clang = shutil.which("clang") or next(
        (p for p in (shutil.which(f"clang-{v}") for v in range(20, 10, -1)) if p), None)
    if clang:
        out["clang-opencl"] = [clang, "-E", "-w", "-x", "cl", "-cl-std=CL1.2"]
        out["clang-c++17"] = [clang, "-E", "-w", "-x", "c++", "-std=c++17"]
    gcc = shutil.which("gcc")
    if gcc:
        out["gcc-c99"] = [gcc, "-E", "-w", "-x", "c", "-std=c99"]
        out["gcc-c++17"] = [gcc, "-E", "-w", "-x", "c++", "-std=c++17"]
    return out


def pieces(path: str) -> tuple:
    return ("#", "??=", "%:", "%", ":", "\\\n", "\\ \n", "??/\n", "??/", "/*", "*/", "//",
            "\n", "\n", " ", "\t", '"', "'", "include", "include", "import", f'"{path}"',
            f"<{path}>", "1'0", "0x1'f", "x", "#define X", "#if 0", "#endif", 'R"(', ')"',
            "%:%:", "##", "/", "*", "\\", "?", "??", "u8", "L", "_Pragma", '("x")', "\r\n",
            "\n\r", "\r", "\f", "\v", "\\u0069", "incl", "ude", "e")


def source(rng: random.Random, path: str) -> str:
    """A random source; most hold an ``include`` of ``path`` somewhere."""
    p = pieces(path)
    out = [rng.choice(p) for _ in range(rng.randrange(0, 6))]
    if rng.random() < 0.8:
        out += [rng.choice(("#", "??=", "%:", "# ", "#/**/", "%\\\n:", "#\\\n"))]
        out += [rng.choice(p) for _ in range(rng.randrange(0, 3))]
        out += [rng.choice(("include", "inc\\\nlude", "include", "import")), " ",
                rng.choice((f'"{path}"', f"<{path}>")), "\n"]
    out += [rng.choice(p) for _ in range(rng.randrange(0, 6))]
    return "".join(out)


def _preprocess(argv, text: str, tmp: str, i: int) -> bool:
    f = os.path.join(tmp, f"s{i}.src")
    with open(f, "w", newline="") as fh:
        fh.write(text)
    try:
        proc = subprocess.run(argv + [f, "-o", "-"], capture_output=True, text=True,
                              timeout=30, errors="replace")
    except subprocess.TimeoutExpired:
        return False
    return MARKER in proc.stdout


def run(count: int, seed: int = 0, jobs: int = 2, modes=None):
    """(reads per compiler, misses: [(compiler, source)], refused count)."""
    modes = modes or compilers()
    reads = {m: 0 for m in modes}
    misses, refused = [], 0
    with tempfile.TemporaryDirectory(prefix="tvm-fuzz-src-") as tmp:
        canary = os.path.join(tmp, "canary.h")
        with open(canary, "w") as f:
            f.write(f"{MARKER}\n")
        rng = random.Random(seed)
        texts = [source(rng, canary) for _ in range(count)]
        verdicts = [source_check.check(t) for t in texts]
        refused = sum(v is not None for v in verdicts)
        with ThreadPoolExecutor(jobs) as pool:
            for mode, argv in modes.items():
                got = pool.map(lambda it: _preprocess(argv, it[1], tmp, f"{mode}-{it[0]}"),
                               enumerate(texts))
                for text, verdict, read in zip(texts, verdicts, got):
                    if read:
                        reads[mode] += 1
                        if verdict is None:
                            misses.append((mode, text))
    return reads, misses, refused


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    reads, misses, refused = run(args.count, args.seed, args.jobs)
    print(f"{args.count} sources, {refused} refused by the check; the file was read by: "
          + ", ".join(f"{m} {n}" for m, n in reads.items()))
    for mode, text in misses[:20]:
        print(f"MISS ({mode}): {text!r}")
    print(f"{len(misses)} misses")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
