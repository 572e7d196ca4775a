"""The baseline co-attention BiLSTM reader that MRCLens trains on the dataset under audit.

Public API::

    from mrclens.baseline_model import ReaderConfig, Reader, train
    reader = train(train_dataset, ReaderConfig.profile("paper"), dev=held_out)
    predictions = reader.predict(dataset)          # {question id: answer text}
    reader.save("model/"); reader = Reader.load("model/")

See :mod:`mrclens.baseline_model.config` for the architecture and profiles,
:mod:`~mrclens.baseline_model.train` for the optimisation.
"""

from mrclens.baseline_model.config import ReaderConfig
from mrclens.baseline_model.model import CoAttentionReader, decode_spans
from mrclens.baseline_model.reader import CheckpointError, Reader
from mrclens.baseline_model.train import train

__all__ = ["ReaderConfig", "Reader", "train", "CheckpointError", "CoAttentionReader", "decode_spans"]
