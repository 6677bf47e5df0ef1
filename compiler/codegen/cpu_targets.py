"""CPU target descriptions: (architecture, CPU level, feature list) -> the C
compiler to run, its flags, and what the variant records for the runtime.

A CPU variant of an executable is built for one architecture (``x86_64``,
``aarch64``, ``armv7l``, ``riscv64``: ``platform.machine()`` spellings, which
name the ``cpu-c-<arch>`` format) and one feature level.  What the code needs
from the CPU is recorded as ``target.features`` in ``/proc/cpuinfo`` spelling,
so a runtime on the device checks it against its own ``/proc/cpuinfo`` without
knowing any compiler flag; it prefers the fitting variant that needs the most.
Foreign architectures are built by Debian's cross compilers
(``aarch64-linux-gnu-gcc`` ...), or by ``$CC_<arch>`` when set.
"""
from __future__ import annotations

import os
import platform
import shutil
from dataclasses import dataclass, field

from ..errors import CompileError

#: ``--cpu-arch`` spellings -> the platform.machine() name of the format.
ARCH_ALIASES = {"x86_64": "x86_64", "amd64": "x86_64", "x86-64": "x86_64",
                "aarch64": "aarch64", "arm64": "aarch64",
                "armv7": "armv7l", "armv7l": "armv7l", "armhf": "armv7l",
                "riscv64": "riscv64"}

#: Per architecture: the Debian cross compiler and the package that has it.
CROSS_CC = {"x86_64": ("x86_64-linux-gnu-gcc", "gcc-x86-64-linux-gnu"),
            "aarch64": ("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"),
            "armv7l": ("arm-linux-gnueabihf-gcc", "gcc-arm-linux-gnueabihf"),
            "riscv64": ("riscv64-linux-gnu-gcc", "gcc-riscv64-linux-gnu")}

#: x86-64 micro-architecture levels (the psABI's), as cpuinfo flags; each
#: level includes the one before.  pni = SSE3, abm = LZCNT.
_V2 = ("cx16", "lahf_lm", "pni", "popcnt", "sse4_1", "sse4_2", "ssse3")
_V3 = _V2 + ("abm", "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "movbe", "xsave")
_V4 = _V3 + ("avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl")
X86_LEVELS = {"x86-64": (), "x86-64-v2": _V2, "x86-64-v3": _V3, "x86-64-v4": _V4}

#: ``--cpu-features`` names per architecture -> (compiler spelling, cpuinfo flags).
FEATURES = {
    "x86_64": {"sse4.2": ("-msse4.2", ("sse4_2",)), "avx": ("-mavx", ("avx",)),
               "avx2": ("-mavx2", ("avx", "avx2")), "fma": ("-mfma", ("fma",)),
               "f16c": ("-mf16c", ("f16c",)), "bmi2": ("-mbmi2", ("bmi2",)),
               "avx512f": ("-mavx512f", ("avx512f",)), "avx512bw": ("-mavx512bw", ("avx512bw",)),
               "avx512dq": ("-mavx512dq", ("avx512dq",)), "avx512vl": ("-mavx512vl", ("avx512vl",)),
               "avx512cd": ("-mavx512cd", ("avx512cd",)),
               "avx512vnni": ("-mavx512vnni", ("avx512_vnni",))},
    # +<ext> of -march; dotprod/fp16/i8mm/bf16/sve need Armv8.2-A
    "aarch64": {"neon": ("simd", ("asimd",)), "dotprod": ("dotprod", ("asimd", "asimddp")),
                "fp16": ("fp16", ("fphp", "asimdhp")), "i8mm": ("i8mm", ("i8mm",)),
                "bf16": ("bf16", ("bf16",)), "sve": ("sve", ("sve",))},
    # -mfpu values
    "armv7l": {"neon": ("neon", ("neon",)), "vfpv4": ("vfpv4", ("vfpv4",))},
    # single-letter or z* extensions of -march=rv64gc
    "riscv64": {"v": ("v", ("v",)), "zba": ("_zba", ("zba",)), "zbb": ("_zbb", ("zbb",))},
}


@dataclass
class CpuTarget:
    """One CPU variant to build: compiler, flags and the recorded target."""
    arch: str                       # platform.machine() spelling
    cpu: str                        # "host", "generic", an x86 level or a -march/-mcpu name
    flags: list = field(default_factory=list)
    features: tuple = ()            # cpuinfo flags the code needs
    requested: tuple = ()           # the --cpu-features as given

    @property
    def format(self) -> str:
        return f"cpu-c-{self.arch}"

    @property
    def vector_bytes(self) -> int:
        """Width of the generic vectors the kernels are written in: the
        target's registers (GCC splits wider vector types badly: 32-byte
        vectors on SSE-only x86-64-v2 ran matmul512 55x slower than v4)."""
        if self.arch != "x86_64":
            return 16
        return 64 if "avx512f" in self.features else 32 if "avx" in self.features else 16

    def record(self) -> dict:
        """The variant's ``target`` map in the .vmfb (docs/vmfb.md)."""
        triple = {"armv7l": "arm-linux-gnueabihf"}.get(self.arch, f"{self.arch}-linux-gnu")
        out = {"triple": triple, "arch": self.arch, "cpu": self.cpu,
               "features": sorted(set(self.features))}
        if self.requested:
            out["requested_features"] = list(self.requested)
        return out

    def compiler(self) -> str:
        """Path of the C compiler that builds this variant, or a CompileError
        saying what to install."""
        if self.arch == host_arch():
            cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") \
                or shutil.which("clang")
            if cc is None:
                raise CompileError("the cpu target needs a C compiler (cc, gcc or clang) on "
                                   "PATH, or set CC")
            return cc
        name, package = CROSS_CC[self.arch]
        cc = os.environ.get(f"CC_{self.arch}") or shutil.which(name)
        if cc is None:
            raise CompileError(f"the cpu target for {self.arch} needs the cross compiler {name} "
                               f"(Debian package {package}) on PATH, or set CC_{self.arch}")
        return cc


def host_arch() -> str:
    m = platform.machine().lower()
    return ARCH_ALIASES.get(m, m)


def normalize_arch(arch: str) -> str:
    if arch in ("", "host"):
        return host_arch()
    a = ARCH_ALIASES.get(arch.lower())
    if a is None:
        raise CompileError(f"unknown --cpu-arch '{arch}'; known: host, "
                           + ", ".join(sorted(set(ARCH_ALIASES.values()))))
    return a


def _feature_names(arch: str, features) -> list:
    if isinstance(features, str):
        features = [f for f in features.split(",") if f.strip()]
    names = []
    for f in features:
        f = f.strip()
        if f.startswith("-"):
            raise CompileError(f"--cpu-features '{f}': removing features is not supported; "
                               "name the features the variant may use (+name)")
        name = f.lstrip("+").lower()
        if name not in FEATURES.get(arch, {}):
            raise CompileError(f"unknown CPU feature '{f}' for {arch}; known: "
                               + ", ".join("+" + k for k in FEATURES.get(arch, {})))
        if name not in names:
            names.append(name)
    return names


def resolve(arch: str = "host", cpu: str = "host", features=()) -> CpuTarget:
    """The CpuTarget of ``--cpu-arch``/``--cpu``/``--cpu-features``."""
    arch = normalize_arch(arch)
    native = arch == host_arch()
    if cpu in ("", "host") and not native:
        cpu = "generic"              # no -march=native for another machine
    names = _feature_names(arch, features)
    table = FEATURES.get(arch, {})
    need = [flag for n in names for flag in table[n][1]]
    if cpu == "host":
        if names:
            raise CompileError("--cpu-features applies to a named --cpu (e.g. generic or "
                               "x86-64-v3), not --cpu=host, which takes this machine's")
        return CpuTarget(arch, "host", ["-march=native"], tuple(_host_flags()))
    if cpu in X86_LEVELS and arch != "x86_64":
        raise CompileError(f"--cpu={cpu} is an x86-64 level; for {arch} use generic or a "
                           f"-mcpu/-march name with --cpu-features")
    if arch == "x86_64":
        if cpu in X86_LEVELS:
            need = list(X86_LEVELS[cpu]) + need
            flags = [f"-march={cpu}"]
        elif cpu == "generic":
            flags = []
        else:
            flags = [f"-march={cpu}"]
        flags += [table[n][0] for n in names]
    elif arch == "aarch64":
        exts = "".join("+" + table[n][0] for n in names)
        if cpu == "generic":
            base = "armv8.2-a" if any(n != "neon" for n in names) else "armv8-a"
            flags = [f"-march={base}{exts}"]
        else:
            flags = [f"-mcpu={cpu}{exts}"]
    elif arch == "armv7l":
        fpu = "neon-vfpv4" if {"neon", "vfpv4"} <= set(names) else \
            "neon" if "neon" in names else "vfpv4-d16" if "vfpv4" in names else "vfpv3-d16"
        march = "armv7-a" if cpu == "generic" else cpu
        # ieee: _Float16 exists only with an fp16 format (custom kernels may use it)
        flags = [f"-march={march}", f"-mfpu={fpu}", "-mfloat-abi=hard", "-mfp16-format=ieee"]
    elif arch == "riscv64":
        letters = "".join(table[n][0] for n in names if not table[n][0].startswith("_"))
        zs = "".join(table[n][0] for n in names if table[n][0].startswith("_"))
        march = f"rv64gc{letters}{zs}" if cpu == "generic" else cpu
        flags = [f"-march={march}", "-mabi=lp64d"]
    else:
        raise CompileError(f"no CPU code generation for architecture {arch}")
    return CpuTarget(arch, cpu, flags, tuple(dict.fromkeys(need)),
                     tuple("+" + n for n in names))


def parse_variant(spec: str) -> CpuTarget:
    """``ARCH[:CPU[:+feat,+feat]]`` (``--cpu-variant``), e.g.
    ``x86_64:x86-64-v4`` or ``aarch64:generic:+neon,+dotprod``."""
    parts = spec.split(":")
    if not parts[0] or len(parts) > 3:
        raise CompileError(f"--cpu-variant '{spec}': expected ARCH[:CPU[:+feature,...]]")
    return resolve(parts[0], parts[1] if len(parts) > 1 else "host",
                   parts[2] if len(parts) > 2 else ())


def targets_of(options) -> list:
    """Every CPU variant the options ask for, in the module's order: the
    ``cpu_variants`` specs, or one per comma-separated ``--cpu`` name on
    ``--cpu-arch`` with ``--cpu-features``."""
    specs = getattr(options, "cpu_variants", ()) or ()
    if specs:
        return [parse_variant(s) for s in specs]
    arch = getattr(options, "cpu_arch", "host") or "host"
    features = getattr(options, "cpu_features", ()) or ()
    cpus = [c for c in str(options.cpu or "host").split(",") if c.strip()] or ["host"]
    return [resolve(arch, c.strip(), features) for c in cpus]


def _host_flags() -> list:
    """cpuinfo flags of this machine that -march=native code may use."""
    wanted = set(X86_LEVELS["x86-64-v4"]) | {"neon", "asimd", "asimddp"}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    return sorted(wanted & set(line.split(":", 1)[1].split()))
    except OSError:
        pass
    return []
