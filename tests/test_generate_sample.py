"""samples/generate: the decoder's prefill and decode-step modules generate
JAX's tokens on tensorvm, each donated KV cache stays in one buffer across
decode calls, and a donated cache used again raises DonatedArrayError.
numpy and tensorvm only (the committed .mlir and reference.json)."""
from __future__ import annotations

import importlib.util
import pathlib
import shutil

import numpy as np
import pytest

from tensorvm.runtime import DonatedArrayError

SAMPLE = pathlib.Path(__file__).resolve().parent.parent / "samples" / "generate"
TOKENS = 5

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def _load_sample():
    spec = importlib.util.spec_from_file_location("generate_sample_run", SAMPLE / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sample():
    run = _load_sample()
    reference = run.load_reference()
    vmfbs = run.compile_tensorvm(run.read_texts(reference))
    return run, reference, vmfbs


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_generates_jax_tokens(sample, device):
    run, reference, vmfbs = sample
    tokens, prefill_s, decode_s = run.generate(run.Tensorvm(vmfbs, device), TOKENS)
    assert tokens == reference["tokens"][:TOKENS]
    assert prefill_s > 0 and decode_s > 0


def test_cache_keeps_its_buffer_and_donated_cache_raises(sample):
    run, _, vmfbs = sample
    engine = run.Tensorvm(vmfbs, "local-sync")
    ks, vs, tok = engine.prefill(np.asarray(run.W.PROMPT, np.int32))
    before = [run.data_pointer(c) for c in ks + vs]
    old_k0 = ks[0]
    ks2, vs2, tok2 = engine.step(ks, vs, tok, run.P)
    assert [run.data_pointer(c) for c in ks2 + vs2] == before
    with pytest.raises(DonatedArrayError):
        np.asarray(old_k0)
    with pytest.raises(DonatedArrayError):
        engine.step(ks, vs, tok2, run.P + 1)
    # the results carry on: the next step still gives JAX's token
    _, _, tok3 = engine.step(ks2, vs2, tok2, run.P + 1)
    assert engine.read(tok3) == run.load_reference()["tokens"][2]


def test_sample_check_finds_no_problem(sample):
    run, _, vmfbs = sample
    assert run.check_cache_buffers(run.Tensorvm(vmfbs, "local-task"), TOKENS) == []
