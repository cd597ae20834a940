# SPDX-License-Identifier: GPL-2.0-or-later
"""The evaluator replica of both modules: evaluates every new checkpoint in the job dir
(all 10,000 test images), logs ``<task>: checkpoint <path> (epoch N, step S) test_accuracy A
loss L``, writes ``eval/accuracy`` and ``eval/loss`` at the checkpoint's global step into
``<job-dir>/eval/events.out.tfevents.*``, and exits 0 once it has evaluated the checkpoint
of epoch --epochs. Evaluators are not in TF_CONFIG's cluster, so they never join training."""

import logging
import os
import time

from . import common, data
from .events import EventFileWriter

POLL_SECONDS = 2.0


def run(args, cluster):
    task = cluster.task_name
    test_x, test_y = data.load("test", args.data_dir)
    model = common.Mlp(args.hidden_units)
    writer = EventFileWriter(os.path.join(args.job_dir, "eval"))
    done = 0
    logging.info("%s: waiting for checkpoints in %s", task, common.checkpoint_dir(args.job_dir))
    while done < args.epochs:
        epoch, path = common.latest_checkpoint(args.job_dir)
        if epoch <= done:
            time.sleep(POLL_SECONDS)
            continue
        state = common.load_checkpoint(path)
        model.load_state_dict(state["model"])
        correct, loss_sum, count = common.evaluate(model, test_x, test_y)
        accuracy, loss = correct / count, loss_sum / count
        step = int(state["global_step"])
        logging.info("%s: checkpoint %s (epoch %d, step %d) test_accuracy %.4f loss %.4f", task, path, epoch, step,
                     accuracy, loss)
        writer.add_scalar("eval/accuracy", accuracy, step)
        writer.add_scalar("eval/loss", loss, step)
        done = epoch
    writer.close()
    return 0
