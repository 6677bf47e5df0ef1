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


@pytest.mark.parametrize("through_a_view", [False, True])
def test_buffer_updates_are_refused(through_a_view):
    """A buffer the forward updates (a counter here; BatchNorm's running stats
    in training mode), also through a view of it, cannot be a module constant."""
    class Counter(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("calls", torch.zeros(2))

        def forward(self, x):
            (self.calls[:1] if through_a_view else self.calls).add_(1)
            return x * 2

    with pytest.raises(FrontendError, match="updates buffers calls"):
        compile_torch(Counter(), (torch.ones(3),))

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


def test_pt2_transformer_exported_with_the_default_attention_backend(tmp_path):
    """A .pt2 traced elsewhere with torch's default (flash) attention backend:
    its views rely on that backend's strides, which the math decomposition
    export_torch uses does not give; export_program falls back to it."""
    from tensorvm.compiler.frontends.from_torch import export_program
    layer = torch_transformer().eval()
    x = torch.randn(2, 8, 32)
    with torch.no_grad():
        torch.export.save(torch.export.export(layer, (x,)), tmp_path / "layer.pt2")
        want = layer(x).numpy()
    mod = load_module(export_program(torch.export.load(tmp_path / "layer.pt2")).compile())
    np.testing.assert_allclose(np.asarray(mod.main(x.numpy())), want, rtol=1e-4, atol=1e-5)

def test_int64_inputs_keep_their_type():
    """Token ids are int64 in torch: the module takes int64 (JAX's 32-bit
    default would narrow them and refuse the tensors the model is called with)."""
    table = torch.nn.Embedding(10, 4)
    ids = torch.tensor([[1, 9, 3]])
    mod = load_module(compile_torch(table, (ids,)))
    assert "i64" in str(mod.main.args[0])
    with torch.no_grad():
        np.testing.assert_allclose(np.asarray(mod.main(ids.numpy())), table(ids).numpy(), rtol=1e-6)


REAL_MODELS = [("resnet18", ("torchvision",)), ("mobilenet_v3_small", ("torchvision",)),
               ("encoder", ()), ("gpt2", ("transformers",)), ("bert", ("transformers",))]


@pytest.mark.slow
@pytest.mark.parametrize("name, needs", REAL_MODELS, ids=[m for m, _ in REAL_MODELS])
def test_real_model_matches_eager(name, needs):
    """torchvision CNNs and transformers (HF GPT-2 / BERT tiny random configs,
    nn.TransformerEncoder) with a dynamic batch, parameters and buffers as
    module constants, batches 1 and 3 against eager (each 10-25 s here)."""
    for m in needs:
        pytest.importorskip(m, reason=f"{name} needs {m}")
    from torch_models_check import check
    r = check(name, repeats=1)
    assert r["main_args"] == 1                     # only the input: weights are constants
    for b in (1, 3):
        assert r[f"b{b}_rel"] < 1e-4, r            # error relative to max |eager output|
