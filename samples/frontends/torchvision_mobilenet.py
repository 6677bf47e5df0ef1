"""A torchvision model (MobileNetV3-Small, random weights) compiled with
``compile_torch`` (torch.export + torchax) with a dynamic batch, checked
against PyTorch eager.

    python samples/frontends/torchvision_mobilenet.py [--batch 1 3]

Needs ``pip install 'tensorvm[torch]'`` (torch 2.12.1, torchax 0.0.13,
torchvision 0.27.1).  Parameters and BatchNorm buffers are module
constants, so ``main`` takes only the image batch.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check import compare, finish, timed  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", type=int, nargs="+", default=[1, 3])
    p.add_argument("--size", type=int, default=64)
    args = p.parse_args(argv)
    import torch
    import torchvision
    from tensorvm.compiler.frontends import compile_torch
    from tensorvm.runtime import load_module

    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v3_small(num_classes=100).eval()
    batch = torch.export.Dim("batch", min=1, max=256)
    example = torch.randn(2, 3, args.size, args.size)
    vmfb = timed("compile_torch", compile_torch, model, (example,),
                 dynamic_shapes=({0: batch},))
    module = load_module(vmfb)
    print(module.main)
    ok = True
    for b in args.batch:
        x = torch.randn(b, 3, args.size, args.size)
        got = timed(f"tensorvm batch {b}", module.main, x.numpy())
        with torch.no_grad():
            ok &= compare(f"batch {b}", got, model(x).numpy())
    finish(ok)


if __name__ == "__main__":
    sys.exit(main())
