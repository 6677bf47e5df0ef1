"""``tensorvm-bundle``: the runtime alone, as one zip for a small device.

    tensorvm-bundle tensorvm-runtime.zip
    # on the device (Python >= 3.10 with numpy, cffi, msgpack; no compiler):
    PYTHONPATH=tensorvm-runtime.zip python3 -m tensorvm.runtime.cli.run --module=m.vmfb ...

The zip holds the pure-Python packages ``tensorvm.runtime``, ``tensorvm.hal``
and ``tensorvm.vmfb`` (what a .vmfb needs to load and run: kernels are
already compiled into it) and not ``tensorvm.compiler``, so it carries no
code that could invoke a C compiler; Python imports it straight from the zip
(zipimport).  See docs/deploy.md.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import zipfile

#: The packages a device needs, by import name.
PACKAGES = ("runtime", "hal", "vmfb")


_TOP = ('"""tensorvm runtime bundle (tensorvm-bundle): tensorvm.runtime, tensorvm.hal and '
        'tensorvm.vmfb, without the compiler."""\n')


def _package_root(name: str) -> pathlib.Path:
    import importlib
    return pathlib.Path(importlib.import_module(f"tensorvm.{name}").__file__).parent


def files() -> list:
    """(path inside the zip, source path) of every module of the bundle."""
    out = []
    for name in PACKAGES:
        root = _package_root(name)
        for p in sorted(root.rglob("*.py")):
            if "__pycache__" not in p.parts:
                out.append((f"tensorvm/{name}/{p.relative_to(root).as_posix()}", p))
    return out


def write_bundle(path) -> list:
    """Write the zip to ``path``; returns the names it holds."""
    names = []
    stamp = (2020, 1, 1, 0, 0, 0)       # fixed: the same sources give the same zip bytes
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        # zipimport finds no namespace packages: the bundle's tensorvm is a regular one
        z.writestr(zipfile.ZipInfo("tensorvm/__init__.py", stamp), _TOP)
        names.append("tensorvm/__init__.py")
        for arc, src in files():
            info = zipfile.ZipInfo(arc, stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, src.read_bytes())
            names.append(arc)
    return names


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="tensorvm-bundle", description=__doc__.split("\n\n")[0])
    p.add_argument("output", help="path of the zip to write (e.g. tensorvm-runtime.zip)")
    args = p.parse_args(argv)
    try:
        names = write_bundle(args.output)
    except OSError as e:
        print(f"tensorvm-bundle: error: {e}", file=sys.stderr)
        return 1
    size = pathlib.Path(args.output).stat().st_size
    print(f"wrote {args.output}: {len(names)} modules, {size} bytes "
          f"(tensorvm.runtime, tensorvm.hal, tensorvm.vmfb; no compiler)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
