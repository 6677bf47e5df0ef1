"""The wheel carries every subpackage, and the runtime never needs the compiler."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
LAYERS = {"compiler": "compiler", "runtime": "runtime", "hal": "hal", "vmfb": "vmfb"}


def _source_modules():
    mods = []
    for pkg, folder in LAYERS.items():
        for p in sorted((ROOT / folder).rglob("*.py")):
            rel = p.relative_to(ROOT / folder).with_suffix("")
            parts = [x for x in rel.parts if x != "__init__"]
            mods.append(".".join(["tensorvm", pkg, *parts]))
    return mods


@pytest.mark.slow
def test_wheel_contains_and_imports_every_module(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("tensorvm-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        z.extractall(tmp_path / "site")
    for mod in _source_modules():
        path = mod.replace(".", "/")
        assert f"{path}.py" in names or f"{path}/__init__.py" in names, f"{mod} missing from wheel"
    code = ("import importlib, sys\n"
            f"mods = {_source_modules()!r}\n"
            "for m in mods:\n"
            "    if m.endswith('__main__'): continue\n"
            "    importlib.import_module(m)\n"
            "import tensorvm.runtime as r; assert r.__file__.startswith(sys.argv[1]), r.__file__\n")
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "site")], check=True,
                   cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"})


def test_runtime_hal_vmfb_never_import_the_compiler():
    code = ("import sys\n"
            "import tensorvm.runtime, tensorvm.hal, tensorvm.vmfb\n"
            "from tensorvm.runtime import load_module\n"
            "import tensorvm.runtime.modules.hal, tensorvm.runtime.cli.run, tensorvm.runtime.cli.dump\n"
            "bad = [m for m in sys.modules if m.startswith('tensorvm.compiler')]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True)
