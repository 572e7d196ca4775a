"""``mrclens predict MODEL_DIR DATA --out predictions.json``: answers of a trained reader."""

from __future__ import annotations

import click

from mrclens.baseline_model import Reader
from mrclens.artifacts.predictions import write_predictions
from mrclens.formats import load_dataset


@click.command()
@click.argument("model_dir", type=click.Path(exists=True, file_okay=False))
@click.argument("data", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_file", required=True, type=click.Path(dir_okay=False),
              help="Prediction file to write: {\"question id\": \"answer text\"} (official SQuAD format).")
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="auto", show_default=True)
@click.option("--batch-size", type=click.IntRange(min=1), default=64, show_default=True)
def predict(model_dir, data, out_file, device, batch_size) -> None:
    """Answer every question in DATA with the reader saved in MODEL_DIR; `mrclens evaluate` scores the output."""
    reader = Reader.load(model_dir, device=device)
    dataset = load_dataset(data)
    preds = reader.predict(dataset, progress=True, batch_size=batch_size)
    write_predictions(out_file, preds, protect=(data,))
    click.echo(f"wrote {len(preds):,} predictions to {out_file}", err=True)
