"""The PyTorch frontend (torch.export + torchax): a CNN with a dynamic batch
and a transformer encoder layer, parameters as module constants, matched
against PyTorch eager."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the torch frontend needs torch "
                                            "(pip install 'tensorvm[torch]')")
pytest.importorskip("torchax", reason="the torch frontend needs torchax (pip install 'tensorvm[torch]')")

from tensorvm.compiler.frontends import FrontendError  # noqa: E402
from tensorvm.compiler.frontends.from_torch import compile_torch  # noqa: E402
from tensorvm.runtime import load_module  # noqa: E402

from frontend_models import torch_cnn, torch_transformer  # noqa: E402


def test_cnn_with_a_dynamic_batch():
    model = torch_cnn()
    batch = torch.export.Dim("b", min=1, max=64)
    mod = load_module(compile_torch(model, (torch.randn(2, 3, 16, 16),),
                                    dynamic_shapes=({0: batch},)))
    assert len(mod.main.args) == 1              # weights and BN stats are constants
    for b in (1, 4):
        x = torch.randn(b, 3, 16, 16)
        with torch.no_grad():
            want = model(x).numpy()
        np.testing.assert_allclose(np.asarray(mod.main(x.numpy())), want, rtol=1e-4, atol=1e-5)


def test_transformer_layer_and_nested_outputs():
    layer = torch_transformer()

    def both(x):
        y = layer(x)
        return {"y": y, "stats": (y.mean(), [y.amax(dim=-1)])}

    x = torch.randn(2, 8, 32)
    mod = load_module(compile_torch(both, (x,)))
    got = mod.main(x.numpy())
    with torch.no_grad():
        want = both(x)
    np.testing.assert_allclose(np.asarray(got["y"]), want["y"].numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(got["stats"][1][0]), want["stats"][1][0].numpy(),
                               rtol=1e-4, atol=1e-5)


def test_non_tensor_inputs_are_refused():
    with pytest.raises(FrontendError, match="example argument 0 is a list"):
        compile_torch(lambda xs: xs[0], ([torch.ones(2)],))


def test_cli_compiles_a_saved_pt2_program(tmp_path):
    from tensorvm.compiler import cli
    model = torch_cnn()
    ep = torch.export.export(model, (torch.randn(2, 3, 16, 16),),
                             dynamic_shapes=({0: torch.export.Dim("b")},))
    torch.export.save(ep, tmp_path / "cnn.pt2")
    assert cli.main([str(tmp_path / "cnn.pt2"), "-o", str(tmp_path / "cnn.vmfb")]) == 0
    x = torch.randn(3, 3, 16, 16)
    with torch.no_grad():
        want = model(x).numpy()
    got = load_module(str(tmp_path / "cnn.vmfb")).main(x.numpy())
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-5)
