"""The baseline co-attention BiLSTM reader that MRCLens trains on the dataset under audit.

Public API::

    from mrclens.baseline_model import ReaderConfig, Reader, train
    reader = train(train_dataset, ReaderConfig.profile("paper"), dev=held_out)
    predictions = reader.predict(dataset)          # {question id: answer text}
    reader.save("model/"); reader = Reader.load("model/")

See :mod:`mrclens.baseline_model.config` for the architecture and profiles,
:mod:`~mrclens.baseline_model.train` for the optimisation. The pieces the multiple-choice baseline
(:mod:`mrclens.multiple_choice`) shares with this reader live in modules meant to be shared:
:mod:`~mrclens.baseline_model.layers` (the exact padded BiLSTM), :mod:`~mrclens.baseline_model.runtime`
(device, deterministic CPU training, peak memory), :mod:`~mrclens.baseline_model.checkpoint` (the
checkpoint folder), :mod:`~mrclens.baseline_model.vectors` and :mod:`~mrclens.baseline_model.tokenize`.
"""

from mrclens.baseline_model.config import ReaderConfig
from mrclens.baseline_model.model import CoAttentionReader, decode_spans
from mrclens.baseline_model.reader import CheckpointError, Reader
from mrclens.baseline_model.train import train

__all__ = ["ReaderConfig", "Reader", "train", "CheckpointError", "CoAttentionReader", "decode_spans"]
