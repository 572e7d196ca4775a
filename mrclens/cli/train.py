"""``mrclens train TRAIN --out MODEL_DIR``: train the baseline co-attention BiLSTM reader."""

from __future__ import annotations

import json
import logging
import os

import click

from mrclens.cli.options import config_option, example, show_progress, verbosity_options
from mrclens.defaults import DEFAULT_SEED, default_profile, describe_time_caps, reader_profile_names
from mrclens.squad import load_dataset

log = logging.getLogger(__name__)


@click.command(epilog=example("mrclens train train-v1.1.json.gz --dev dev-v1.1.json.gz --out model --profile quick"))
@click.argument("train_file", metavar="TRAIN", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Directory to write the trained reader into (config.json, vocab.json, weights.pt).")
@click.option("--dev", "dev_file", type=click.Path(exists=True, dir_okay=False),
              help="Held-out SQuAD file scored after each epoch; the epoch with the best dev F1 is kept.")
@click.option("--epochs", type=click.IntRange(min=1), default=None, help="Passes over TRAIN (default: the profile's).")
@click.option("--max-minutes", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Stop after this many minutes of training (evaluation not counted) "
                   f"[default: the profile's cap: {describe_time_caps()}].")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Random seed.")
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="auto", show_default=True)
@click.option("--profile", type=click.Choice(list(reader_profile_names())), default=None,
              help="paper: the paper's model; paper-em: plus exact-match features; quick: smaller and faster "
                   f"[default: {default_profile('TRAIN')}].")
@click.option("--vectors", type=click.Path(exists=True, dir_okay=False), default=None,
              help="GloVe/word2vec text file to use instead of GloVe 6B 50-d.")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="CPU threads for torch (default: the CPUs available to this process).")
@config_option
@verbosity_options
def train(train_file, out_dir, dev_file, epochs, max_minutes, seed, device, profile, vectors, threads) -> None:
    """Train the baseline reader on TRAIN (SQuAD format) and save it to MODEL_DIR.

    Shows progress (loss, examples/s) and a dev EM/F1 line after each epoch on standard error;
    prints the model directory and the last training-log record as JSON on standard output.
    """
    import torch

    from mrclens.baseline_model import ReaderConfig, train as train_reader

    torch.set_num_threads(threads or len(os.sched_getaffinity(0)))
    profile = profile or default_profile(train_file)
    config = ReaderConfig.profile(profile, max_minutes=max_minutes)
    if vectors:
        config.vectors = os.path.abspath(vectors)
    train_ds = load_dataset(train_file)
    dev_ds = load_dataset(dev_file) if dev_file else None
    log.info(f"training profile {profile!r} (exact-match features {'on' if config.exact_match_features else 'off'})")
    reader = train_reader(train_ds, config, dev=dev_ds, epochs=epochs, seed=seed, device=device,
                          progress=show_progress())
    reader.save(out_dir)
    click.echo(json.dumps({"model": str(out_dir), "training_log": reader.training_log[-1:]}))
