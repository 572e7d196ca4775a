"""``mrclens evaluate DATA PREDICTIONS``: official SQuAD EM/F1 of a prediction file."""

from __future__ import annotations

import json

import click

from mrclens.metrics import evaluate as evaluate_predictions
from mrclens.metrics import load_predictions
from mrclens.squad import load_dataset


@click.command()
@click.argument("data", type=click.Path(exists=True, dir_okay=False))
@click.argument("predictions", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print every figure as one JSON object.")
def evaluate(data: str, predictions: str, as_json: bool) -> None:
    """Score PREDICTIONS ({"question id": "answer text"}) against the gold answers in DATA.

    Prints {"exact_match": ..., "f1": ...} in percent, like the official SQuAD script.
    """
    result = evaluate_predictions(load_dataset(data), load_predictions(predictions))
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(json.dumps({"exact_match": result["exact_match"], "f1": result["f1"]}))
    if result["missing"]:
        click.echo(f"warning: {result['missing']:,} question(s) have no prediction and score 0", err=True)
    if result["unknown"]:
        click.echo(f"warning: {result['unknown']:,} prediction(s) are for question ids not in {data}", err=True)
