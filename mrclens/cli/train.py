"""``mrclens train TRAIN --out MODEL_DIR``: train the baseline co-attention BiLSTM reader.

Multi-process (DistributedDataParallel; see :mod:`mrclens.baseline_model.distributed`)::

    torchrun --standalone --nproc-per-node 2 -m mrclens.cli.train TRAIN --out MODEL_DIR --device cpu
    mrclens train TRAIN --out MODEL_DIR --jobs 2         # starts the same torchrun command
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import click

from mrclens.cli.options import (FiniteFloat, config_option, echo_notes, example, jobs_option, on_invalid_option,
                                  require_reader, show_progress, verbosity_options)
from mrclens.defaults import DEFAULT_SEED, default_profile, describe_step_budgets, reader_profile_names, resolve_profile
from mrclens.formats import load_dataset
from mrclens.io_utils import json_text

log = logging.getLogger(__name__)


@click.command(epilog=example("mrclens train train-v1.1.json.gz --dev dev-v1.1.json.gz --out model --profile quick"))
@click.argument("train_file", metavar="TRAIN", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), metavar="FOLDER",
              help="Output folder: the trained reader (config.json, vocab.json, weights.pt).")
@click.option("--dev", "dev_file", type=click.Path(exists=True, dir_okay=False),
              help="Held-out SQuAD file scored after each epoch; the epoch with the best dev F1 is kept.")
@click.option("--epochs", type=click.IntRange(min=1), default=None, help="Passes over TRAIN (default: the profile's).")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help=f"Stop after this many optimizer steps [default: the profile's: {describe_step_budgets()}].")
@click.option("--max-minutes", type=FiniteFloat(min=0, min_open=True), default=None,
              help="Wall-clock cap: stop after this many minutes of training (evaluation not counted) "
                   "[default: none]. If it stops training, the weights depend on machine speed and load.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Random seed.")
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="auto", show_default=True)
@click.option("--profile", type=click.Choice(list(reader_profile_names())), default=None,
              help="paper: the paper's model; paper-em: plus exact-match features; paper-fast: the paper's model, "
                   "batch 64 and averaged weights (more examples per CPU minute); paper-budget: paper-fast with the "
                   "learning rate decayed linearly to zero over the step budget; paper-parallel: paper-fast trained by two "
                   "CPU processes of one thread each, for 4,600 steps; quick: smaller and faster "
                   f"[default: {default_profile('TRAIN')}].")
@click.option("--vectors", type=click.Path(exists=True, dir_okay=False), default=None,
              help="GloVe/word2vec text file to use instead of GloVe 6B 50-d.")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Torch CPU threads inside each process (not processes: see --jobs) while training (default: the profile's, 2, or 1 per process "
                   "for paper-parallel; under "
                   "torchrun, the CPUs available divided among the processes of this machine). The thread "
                   "count changes the weights; it is recorded in training.json.")
@click.option("--amp", type=click.Choice(["auto", "off", "bf16", "fp16"]), default="auto", show_default=True,
              help="Mixed precision on a GPU (the CPU always runs float32); auto = off, measured faster for this model.")
@click.option("--lstm", "lstm_impl", type=click.Choice(["auto", "padded", "packed"]), default="auto",
              show_default=True, help="BiLSTM implementation; auto = padded (two LSTMs), measured faster than packed on CPU and GPU.")
@click.option("--bucket-width", type=click.IntRange(min=0), default=None,
              help="Length buckets for training batches, in tokens (default 0: pools of 50 batches sorted by length).")
@click.option("--batch-size", type=click.IntRange(min=1), default=None,
              help="Questions per optimizer step, over all processes (default: the profile's, 32).")
@jobs_option(default=1, show_default=True, old=("--nproc",),
             help="Train with this many processes (DistributedDataParallel, gloo on CPU / nccl on GPU) "
                  "started through torchrun; the same as `torchrun --standalone --nproc-per-node N -m mrclens.cli.train ...`.")
@on_invalid_option
@config_option
@verbosity_options
def train(train_file, out_dir, dev_file, epochs, max_steps, max_minutes, seed, device, profile, vectors, threads,
          amp, lstm_impl, bucket_width, batch_size, jobs, on_invalid) -> None:
    """Train the baseline reader on TRAIN (SQuAD format) and save it to MODEL_DIR.

    Shows progress (loss, q/s over the last minute, time left) and a dev EM/F1 line after each epoch. Under torchrun
    (or with --jobs N) every process trains on its share of each batch and rank 0 alone scores
    --dev and writes MODEL_DIR.
    """
    require_reader("mrclens train", glove=vectors is None)  # --vectors FILE: no GloVe package needed
    from mrclens.baseline_model import ReaderConfig, distributed as ddp
    from mrclens.baseline_model import train as train_reader

    profile = resolve_profile(profile, train_file)  # the one rule (mrclens.defaults), applied once
    if jobs > 1 and not ddp.launched_by_torchrun():
        args = [train_file, "--out", out_dir, "--seed", str(seed), "--device", device, "--profile", profile,
                "--amp", amp, "--lstm", lstm_impl, "--on-invalid", on_invalid]
        for flag, value in (("--dev", dev_file), ("--epochs", epochs), ("--max-steps", max_steps), ("--max-minutes", max_minutes),
                            ("--vectors", vectors), ("--threads", threads), ("--bucket-width", bucket_width),
                            ("--batch-size", batch_size)):
            if value is not None:
                args += [flag, str(value)]
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={jobs}",
               "-m", "mrclens.cli.train", *args]
        click.echo("starting: " + " ".join(cmd), err=True)
        sys.exit(subprocess.run(cmd).returncode)

    import torch

    local_procs = int(os.environ.get("LOCAL_WORLD_SIZE", 1)) if ddp.launched_by_torchrun() else 1
    config = ReaderConfig.profile(profile, max_minutes=max_minutes, max_steps=max_steps)
    if threads is not None:
        config.cpu_threads = threads
    elif local_procs > 1:  # several processes share this machine's CPUs
        config.cpu_threads = max(1, len(os.sched_getaffinity(0)) // local_procs)
    torch.set_num_threads(config.cpu_threads or torch.get_num_threads())  # also for loading and tokenising
    if vectors:
        config.vectors = os.path.abspath(vectors)
    config.amp, config.lstm_impl, config.bucket_width = amp, lstm_impl, bucket_width
    if batch_size is not None:
        config.batch_size = batch_size
    info = ddp.init_from_env(device)
    try:
        train_ds = load_dataset(train_file, on_invalid=on_invalid)
        dev_ds = load_dataset(dev_file, on_invalid=on_invalid) if dev_file else None
        if info.is_main:
            for loaded in (train_ds, dev_ds):
                if loaded is not None:
                    echo_notes(loaded, on_invalid)
        if info.is_main:
            log.info(f"training profile {profile!r} (exact-match features "
                     f"{'on' if config.exact_match_features else 'off'})"
                     + (f" on {info.world_size} processes" if info.world_size > 1 else ""))
        reader = train_reader(train_ds, config, dev=dev_ds, epochs=epochs, seed=seed,
                              device=device, progress=show_progress())
        if info.is_main:  # one checkpoint, written by rank 0
            reader.save(out_dir)
            notice = reader.training.notice() if reader.training is not None else None
            if notice:
                click.secho(f"WARNING: {notice}", err=True, fg="yellow", bold=True)
            summary = {"model": str(out_dir), "training_log": reader.training_log[-1:],
                       "training": reader.training.to_json() if reader.training is not None else None}
            if reader.no_answer is not None:  # SQuAD v2.0: the reader abstains above this threshold
                summary["no_answer"] = reader.no_answer
            click.echo(json_text(summary))
    finally:
        ddp.shutdown()


if __name__ == "__main__":  # torchrun -m mrclens.cli.train ...: the `mrclens train` command with its error handling
    from mrclens.cli import main

    main(["train", *sys.argv[1:]], prog_name="mrclens")
