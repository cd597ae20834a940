# SPDX-License-Identifier: GPL-2.0-or-later
"""Fashion-MNIST, data-parallel with PyTorch DistributedDataParallel.

Run by the service as ``python -m trainer.task --epochs N --batch-size N --learning-rate X
--optimizer adam|sgd|rmsprop --job-dir D`` once per replica (a tuning trial writes under
``D/<trial-id>/``):

* master and workers form the DDP group (rendezvous ``env://`` from MASTER_ADDR, MASTER_PORT,
  WORLD_SIZE, RANK; when those are missing they are derived from TF_CONFIG). Backend gloo on
  CPUs; when every member sees a CUDA device and NCCL is built in, gradients go over NCCL.
  Each member trains on its DistributedSampler shard of the 60,000 training images;
* after every epoch the members evaluate the 10,000 test images (each a shard; the counts are
  summed), log ``epoch N test_accuracy A loss L``, and the master (rank 0) writes
  ``<job-dir>/checkpoints/ckpt-epoch-N.pt`` (atomically), reports the accuracy in the
  hypertune metrics file (CLOUD_ML_HP_METRIC_FILE) and writes event-file scalars;
* at start every member resumes from the newest checkpoint in the job dir, logging
  ``Resuming from checkpoint <path> (epoch N)``;
* ps replicas are not used by DDP: they log that and exit 0 (use trainer.ps_task for a
  parameter-server job);
* evaluator replicas evaluate each new checkpoint as it appears (event file in
  ``<job-dir>/eval/``) and exit 0 after the checkpoint of the last epoch.

Event file (master only): ``<job-dir>/events.out.tfevents.*`` with ``train/loss`` and
``train/accuracy`` (means over the last --log-every steps of the master's shard) and
``eval/accuracy``, ``eval/loss`` per epoch; the step is the global step (optimizer steps).
"""

import argparse
import datetime
import logging
import os
import socket
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data.distributed import DistributedSampler

from . import common, data, evaluator
from .cluster import Cluster
from .events import EventFileWriter
from .hypertune import HyperTune

def _parser():
    parser = argparse.ArgumentParser(prog="python -m trainer.task", description=__doc__.split("\n\n")[0])
    return common.add_common_flags(parser)


def _choose_device_and_group(world_size):
    """Gloo for rendezvous and metrics; NCCL for gradients when every member has a GPU."""
    has_cuda = torch.cuda.is_available() and dist.is_nccl_available()
    all_cuda = has_cuda
    if world_size > 1:
        flag = torch.tensor([1 if has_cuda else 0], dtype=torch.int32)
        dist.all_reduce(flag, op=dist.ReduceOp.MIN)
        all_cuda = bool(flag.item())
    if all_cuda:
        return torch.device("cuda", 0), dist.new_group(backend="nccl"), "nccl"
    device = torch.device("cuda", 0) if torch.cuda.is_available() else torch.device("cpu")
    return device, None, "gloo"


def _run_trainer(args, cluster):
    rank = int(os.environ.get("RANK", cluster.trainer_rank()))
    world_size = int(os.environ.get("WORLD_SIZE", cluster.trainer_count))
    os.environ.setdefault("MASTER_ADDR", cluster.master_addr)
    port = cluster.master_port
    if not port and world_size == 1:
        with socket.socket() as s:
            s.bind((cluster.master_addr, 0))
            port = s.getsockname()[1]
    os.environ.setdefault("MASTER_PORT", str(port))
    os.environ["RANK"] = str(rank)
    os.environ["WORLD_SIZE"] = str(world_size)
    task = cluster.task_name

    logging.info("%s: rank %d of %d, rendezvous at %s:%s", task, rank, world_size, os.environ["MASTER_ADDR"],
                 os.environ["MASTER_PORT"])
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world_size,
                            timeout=datetime.timedelta(minutes=10))
    device, grad_group, backend = _choose_device_and_group(world_size)
    logging.info("%s: process group ready (gradients over %s, device %s, %d threads)", task, backend, device,
                 torch.get_num_threads())

    train_x, train_y = data.load("train", args.data_dir, args.train_examples)
    test_x, test_y = data.load("test", args.data_dir)
    logging.info("%s: loaded Fashion-MNIST from %s: %d training and %d test images", task, args.data_dir,
                 train_x.shape[0], test_x.shape[0])

    torch.manual_seed(args.seed)
    model = common.Mlp(args.hidden_units).to(device)
    optimizer = common.make_optimizer(args.optimizer, model.parameters(), args.learning_rate)

    # The master picks the checkpoint so that every member resumes from the same one even if
    # a newer file appeared in between.
    if rank == 0:
        common.remove_stale_temporaries(args.job_dir)
    choice = [common.latest_checkpoint(args.job_dir) if rank == 0 else None]
    if world_size > 1:
        dist.broadcast_object_list(choice, src=0)
    start_epoch, resume_path = choice[0]
    global_step = 0
    if resume_path:
        state = common.load_checkpoint(resume_path)
        model.load_state_dict(state["model"])
        if common.checkpoint_optimizer(state) == args.optimizer:
            optimizer.load_state_dict(state["optimizer"])
        else:
            logging.warning("%s: the checkpoint holds %s state, not %s: the optimizer starts afresh", task,
                            common.checkpoint_optimizer(state), args.optimizer)
        for group in optimizer.param_groups:
            group["lr"] = args.learning_rate
        global_step = int(state["global_step"])
        logging.info("Resuming from checkpoint %s (epoch %d)", resume_path, start_epoch)
    if start_epoch >= args.epochs:
        logging.info("%s: checkpoint of epoch %d already reaches --epochs %d; nothing to train", task, start_epoch,
                     args.epochs)

    ddp = DistributedDataParallel(model, process_group=grad_group,
                                  device_ids=[device.index] if device.type == "cuda" else None)
    sampler = DistributedSampler(range(train_x.shape[0]), num_replicas=world_size, rank=rank, shuffle=True,
                                 seed=args.seed)
    test_shard = slice(rank, None, world_size)
    test_x, test_y = test_x[test_shard].to(device), test_y[test_shard].to(device)

    writer = EventFileWriter(args.job_dir) if rank == 0 else None
    hypertune = HyperTune() if rank == 0 else None
    metric_tag = args.hypertune_metric_tag or cluster.metric_tag()
    accuracy = None

    for epoch in range(start_epoch + 1, args.epochs + 1):
        started = time.monotonic()
        sampler.set_epoch(epoch)
        order = torch.tensor(list(sampler))
        window_loss, window_correct, window_seen, window_steps = 0.0, 0, 0, 0
        epoch_loss, epoch_correct, epoch_seen = 0.0, 0, 0
        for start in range(0, order.numel(), args.batch_size):
            idx = order[start:start + args.batch_size]
            x, y = train_x[idx].to(device), train_y[idx].to(device)
            optimizer.zero_grad(set_to_none=True)
            logits = ddp(x)
            loss = F.cross_entropy(logits, y)
            loss.backward()
            optimizer.step()
            global_step += 1
            batch_loss = loss.item()
            batch_correct = (logits.argmax(1) == y).sum().item()
            window_loss += batch_loss
            window_correct += batch_correct
            window_seen += y.numel()
            window_steps += 1
            epoch_loss += batch_loss * y.numel()
            epoch_correct += batch_correct
            epoch_seen += y.numel()
            if window_steps == args.log_every:
                if writer:
                    writer.add_scalar("train/loss", window_loss / window_steps, global_step)
                    writer.add_scalar("train/accuracy", window_correct / window_seen, global_step)
                if rank == 0 and global_step % (args.log_every * 5) == 0:
                    logging.info("epoch %d step %d train_loss %.4f train_accuracy %.4f", epoch, global_step,
                                 window_loss / window_steps, window_correct / window_seen)
                window_loss, window_correct, window_seen, window_steps = 0.0, 0, 0, 0
        train_seconds = time.monotonic() - started
        logging.info("%s: epoch %d trained %d examples in %.1f s (global step %d): train_loss %.4f "
                     "train_accuracy %.4f", task, epoch, epoch_seen, train_seconds, global_step,
                     epoch_loss / max(1, epoch_seen), epoch_correct / max(1, epoch_seen))

        correct, loss_sum, count = common.evaluate(model, test_x, test_y)
        totals = torch.tensor([correct, loss_sum, count], dtype=torch.float64)
        if world_size > 1:
            dist.all_reduce(totals)
        accuracy = totals[0].item() / totals[2].item()
        test_loss = totals[1].item() / totals[2].item()
        logging.info("epoch %d test_accuracy %.4f loss %.4f", epoch, accuracy, test_loss)

        if rank == 0:
            path = common.save_checkpoint(args.job_dir, epoch, {
                "epoch": epoch,
                "global_step": global_step,
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "optimizer_name": args.optimizer,
            })
            logging.info("Saved checkpoint %s", path)
            writer.add_scalar("eval/accuracy", accuracy, global_step)
            writer.add_scalar("eval/loss", test_loss, global_step)
            hypertune.report_hyperparameter_tuning_metric(metric_tag, accuracy, global_step, path)

    if writer:
        writer.close()
    if rank == 0:
        # The trained model as the prediction service deploys it (TorchScript, raw pixels in, probabilities out).
        logging.info("Exported the model for prediction to %s", common.export_model(args.job_dir, model))
    dist.destroy_process_group()
    if accuracy is not None:
        logging.info("%s: training finished after epoch %d: test_accuracy %.4f", task, args.epochs, accuracy)
    return 0


def main(argv=None):
    common.setup_logging()
    parser = _parser()
    args = parser.parse_args(argv)
    common.check_flags(parser, args)
    try:
        cluster = Cluster()
    except ValueError as e:
        logging.error("%s", e)
        return 2
    args.job_dir = common.trial_job_dir(args.job_dir, cluster.trial)
    if cluster.trial:
        logging.info("%s: trial %s writes under %s", cluster.task_name, cluster.trial, args.job_dir)
    common.set_threads()
    if cluster.task_type == "ps":
        logging.info("%s: parameter servers are not used by trainer.task (DDP); exiting. "
                     "Use --module-name trainer.ps_task for parameter-server training.", cluster.task_name)
        return 0
    if cluster.task_type == "evaluator":
        return evaluator.run(args, cluster)
    try:
        return _run_trainer(args, cluster)
    except RuntimeError as e:
        if common.is_peer_failure(e):
            logging.error("%s: lost contact with another replica (%s); exiting with status %d so that the "
                          "cluster is restarted from the latest checkpoint", cluster.task_name, e,
                          common.EXIT_PEER_LOST)
            return common.EXIT_PEER_LOST
        raise


if __name__ == "__main__":
    sys.exit(main())
