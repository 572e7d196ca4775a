"""A worker process of the multi-process (DDP, gloo) tests.

Started by ``torch.multiprocessing.start_processes`` from ``test_distributed.py`` (it is a module
so that the started interpreter can import it by name). Each worker

1. runs ``mrclens train`` as torchrun would start it (``WORLD_SIZE``/``RANK``/``LOCAL_RANK``/
   ``MASTER_*`` in the environment): the command joins the gloo group, trains, and rank 0 alone
   writes the checkpoint;
2. joins a new gloo group and trains the tiny reader twice with the same seed, recording the
   per-step losses of the global batch and a digest of the final weights.

It writes ``rank<r>.json`` into the output folder.
"""

from __future__ import annotations

import hashlib
import json
import os

import torch
import torch.distributed as dist

from mrclens.baseline_model import train
from mrclens.formats import load_dataset
from reader_helpers import first_questions, tiny_config


def weights_digest(model: torch.nn.Module) -> str:
    """sha256 over ``model``'s state dict (each name, then its tensor's raw bytes), in name order."""
    h = hashlib.sha256()
    for name, t in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(t.detach().cpu().contiguous().numpy().tobytes())
    return h.hexdigest()


def train_curves(data, epochs: int, runs: int = 1) -> list[dict]:
    """Train the tiny reader ``runs`` times (seed 0, CPU): per run, the per-step losses and the weights' digest."""
    out = []
    for _ in range(runs):
        losses: list[float] = []
        reader = train(data, tiny_config(), epochs=epochs, seed=0, device="cpu", progress=False,
                       on_step=lambda step, loss: losses.append(loss))
        out.append({"losses": losses, "digest": weights_digest(reader.model)})
    return out


def run(rank: int, world: int, ports: tuple[int, int], sample: str, n_questions: int, epochs: int,
        cli_args: list[str], out_dir: str) -> None:
    torch.set_num_threads(1)
    env = {"MASTER_ADDR": "127.0.0.1", "RANK": str(rank), "WORLD_SIZE": str(world), "LOCAL_RANK": str(rank),
           "LOCAL_WORLD_SIZE": str(world)}
    # 1. the CLI as torchrun starts it
    os.environ.update(env, MASTER_PORT=str(ports[0]))
    from click.testing import CliRunner

    from mrclens.cli import main

    res = CliRunner().invoke(main, ["train", *cli_args, "--threads", "1"])
    cli = {"exit_code": res.exit_code, "stdout": res.stdout, "exception": repr(res.exception)}
    # 2. loss curves, twice
    os.environ.update(MASTER_PORT=str(ports[1]))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        curves = train_curves(first_questions(load_dataset(sample), n_questions), epochs, runs=2)
    finally:
        dist.destroy_process_group()
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w", encoding="utf-8") as fh:
        json.dump({"cli": cli, "curves": curves}, fh)
