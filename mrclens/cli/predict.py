"""``mrclens predict MODEL_DIR DATA --out predictions.json``: answers of a trained reader."""

from __future__ import annotations

import logging

import click

from mrclens.artifacts.predictions import write_predictions
from mrclens.cli.options import (echo_notes, example, on_invalid_option, require_reader, show_progress,
                                 verbosity_options)
from mrclens.formats import load_dataset

log = logging.getLogger(__name__)


@click.command(epilog=example("mrclens predict model dev-v1.1.json.gz --out predictions.json"))
@click.argument("model_dir", type=click.Path(exists=True, file_okay=False))
@click.argument("data", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_file", required=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="Output file, the predictions: {\"question id\": \"answer text\"} (official SQuAD format); for a "
                   "reader that abstains (trained on SQuAD v2.0), a Hugging Face list with each question's "
                   "no_answer_probability and no_answer_score.")
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="auto", show_default=True)
@click.option("--batch-size", type=click.IntRange(min=1), default=64, show_default=True)
@on_invalid_option
@verbosity_options
def predict(model_dir, data, out_file, device, batch_size, on_invalid) -> None:
    """Answer every question in DATA with the reader saved in MODEL_DIR; `mrclens evaluate` scores the output."""
    require_reader("mrclens predict", glove=False)  # a saved reader holds its own embeddings
    from mrclens.baseline_model import Reader

    reader = Reader.load(model_dir, device=device)
    dataset = load_dataset(data, on_invalid=on_invalid)
    echo_notes(dataset, on_invalid)
    preds, na_probs, na_scores = reader.predict_with_no_answer(dataset, progress=show_progress(), batch_size=batch_size)
    write_predictions(out_file, preds, protect=(data,), na_probs=na_probs, na_scores=na_scores)
    abstained = f" ({sum(1 for a in preds.values() if a == ''):,} answered \"no answer\")" if na_probs is not None else ""
    log.info(f"wrote {len(preds):,} predictions to {out_file}{abstained}")
