# SPDX-License-Identifier: GPL-2.0-or-later
"""Fashion-MNIST with parameter servers over torch.distributed.rpc.

Run by the service as ``python -m trainer.ps_task --epochs N --batch-size N --learning-rate X
--optimizer adam|sgd|rmsprop --job-dir D`` once per replica (same flags as trainer.task):

* RPC world: master rank 0, workers 1..W, ps W+1..W+P (names ``master-replica-0``,
  ``worker-replica-N``, ``ps-replica-N``), computed from TF_CONFIG (the service sets
  RANK/WORLD_SIZE for master and workers only). Rendezvous ``tcp://MASTER_ADDR:MASTER_PORT``
  (from TF_CONFIG's master address when those are not set), TensorPipe backend.
* The ps replicas hold the parameters, split across them by size, and their optimizer state. The
  master and the workers each train on a DistributedSampler shard: for every batch they
  compute gradients with the parameters they last received, push them to every ps and get the
  updated parameters back (asynchronous updates: ``global_step`` counts the updates applied).
  Without ps replicas the master holds the parameters itself.
* At the end of every epoch the workers wait at the master; the master pulls the parameters,
  evaluates the 10,000 test images (master and workers log ``epoch N test_accuracy A loss L``),
  writes ``<job-dir>/checkpoints/ckpt-epoch-N.pt`` (the same layout as trainer.task: ``epoch``,
  ``global_step``, ``model`` state_dict, ``optimizer`` = the --optimizer's state_dict over the
  model's parameters, ``optimizer_name``, so either module resumes the other's checkpoints), reports the hypertune
  metric and event-file scalars, then lets the workers go on.
* At start the master resumes from the newest checkpoint (``Resuming from checkpoint <path>
  (epoch N)``) and loads it into the ps replicas.
* Evaluators behave as in trainer.task.
"""

import argparse
import logging
import os
import socket
import sys
import time

import torch
import torch.distributed.rpc as rpc
import torch.nn.functional as F
from torch.utils.data.distributed import DistributedSampler

from . import common, data, evaluator, ps_server
from .cluster import Cluster
from .events import EventFileWriter
from .hypertune import HyperTune

RPC_TIMEOUT_S = 300
# Workers wait at the end of an epoch while the master evaluates and checkpoints.
EPOCH_WAIT_TIMEOUT_S = 1800


def _parser():
    parser = argparse.ArgumentParser(prog="python -m trainer.ps_task", description=__doc__.split("\n\n")[0])
    return common.add_common_flags(parser)


def _assign_shards(model, ps_names):
    """{parameter name: ps name}: largest first onto the least loaded ps (deterministic)."""
    load = {n: 0 for n in ps_names}
    owner = {}
    params = sorted(model.named_parameters(), key=lambda kv: (-kv[1].numel(), kv[0]))
    for name, p in params:
        target = min(ps_names, key=lambda n: (load[n], ps_names.index(n)))
        owner[name] = target
        load[target] += p.numel()
    return owner


class RemoteModel:
    """The trainer's view of the sharded parameters: pushes gradients, installs what comes back."""

    def __init__(self, model, owner):
        self.model = model
        self.params = dict(model.named_parameters())
        self.by_ps = {}
        for name, ps in owner.items():
            self.by_ps.setdefault(ps, []).append(name)

    def _install(self, results):
        updates = 0
        with torch.no_grad():
            for values, count in results:
                for name, value in values.items():
                    self.params[name].copy_(value)
                updates = max(updates, count)
        return updates

    def pull(self):
        futures = [rpc.rpc_async(ps, ps_server.ps_pull, timeout=RPC_TIMEOUT_S) for ps in self.by_ps]
        return self._install([f.wait() for f in futures])

    def push_pull(self):
        futures = [rpc.rpc_async(ps, ps_server.ps_push_pull,
                                 args=({n: self.params[n].grad for n in names},), timeout=RPC_TIMEOUT_S)
                   for ps, names in self.by_ps.items()]
        return self._install([f.wait() for f in futures])

    def snapshot(self):
        """(model state_dict, {name: Adam state}, updates) gathered from every ps."""
        futures = [rpc.rpc_async(ps, ps_server.ps_snapshot, timeout=RPC_TIMEOUT_S) for ps in self.by_ps]
        values, states, updates = {}, {}, 0
        for f in futures:
            v, s, u = f.wait()
            values.update(v)
            states.update(s)
            updates = max(updates, u)
        return values, states, updates


def _optimizer_state_dict(model, adam_states, name, lr):
    """A state_dict of the --optimizer ``name`` over ``model.parameters()`` holding the ps replicas' state."""
    template = common.make_optimizer(name, model.parameters(), lr).state_dict()
    names = [n for n, _ in model.named_parameters()]
    return {"state": {i: adam_states[n] for i, n in enumerate(names) if n in adam_states},
            "param_groups": template["param_groups"]}


def _adam_states_by_name(model, optimizer_state):
    names = [n for n, _ in model.named_parameters()]
    return {names[int(i)]: s for i, s in optimizer_state.get("state", {}).items()}


def _init_parameter_servers(args, model, owner):
    """Master: loads the newest checkpoint (if any) and hands every ps its shard."""
    common.remove_stale_temporaries(args.job_dir)
    start_epoch, path = common.latest_checkpoint(args.job_dir)
    adam_states = {}
    global_step = 0
    if path:
        state = common.load_checkpoint(path)
        model.load_state_dict(state["model"])
        if common.checkpoint_optimizer(state) == args.optimizer:
            adam_states = _adam_states_by_name(model, state["optimizer"])
        else:
            logging.warning("The checkpoint holds %s state, not %s: the optimizer starts afresh",
                            common.checkpoint_optimizer(state), args.optimizer)
        global_step = int(state["global_step"])
        logging.info("Resuming from checkpoint %s (epoch %d)", path, start_epoch)
    hparams = dict(common.make_optimizer(args.optimizer, model.parameters(),
                                         args.learning_rate).state_dict()["param_groups"][0])
    hparams["lr"] = args.learning_rate
    hparams["optimizer"] = args.optimizer
    values = dict(model.state_dict())
    futures = []
    for ps in sorted(set(owner.values())):
        names = [n for n, o in owner.items() if o == ps]
        futures.append(rpc.rpc_async(ps, ps_server.ps_init, timeout=RPC_TIMEOUT_S, args=(
            {n: values[n] for n in names}, {n: adam_states[n] for n in names if n in adam_states}, hparams,
            global_step)))
        logging.info("%s holds %s (%d values)", ps, ", ".join(sorted(names)),
                     sum(values[n].numel() for n in names))
    for f in futures:
        f.wait()
    return start_epoch, global_step


def _train(args, cluster, rank):
    task = cluster.task_name
    trainers = cluster.trainer_count
    ps_names = [cluster.rpc_name(trainers + i) for i in range(len(cluster.ps))] or ["master-replica-0"]
    if not cluster.ps and rank == 0:
        logging.info("%s: no ps replicas in the cluster; the master holds the parameters", task)

    train_x, train_y = data.load("train", args.data_dir, args.train_examples)
    test_x, test_y = data.load("test", args.data_dir)
    logging.info("%s: loaded Fashion-MNIST from %s: %d training and %d test images", task, args.data_dir,
                 train_x.shape[0], test_x.shape[0])

    torch.manual_seed(args.seed)
    model = common.Mlp(args.hidden_units)
    owner = _assign_shards(model, ps_names)
    remote = RemoteModel(model, owner)

    coordinator = ps_server._coordinator
    if rank == 0:
        start_epoch, global_step = _init_parameter_servers(args, model, owner)
        coordinator.start.set_result({"epoch": start_epoch, "global_step": global_step})
    else:
        info = rpc.rpc_sync("master-replica-0", ps_server.coord_start_info, timeout=EPOCH_WAIT_TIMEOUT_S)
        start_epoch, global_step = info["epoch"], info["global_step"]
        if start_epoch:
            logging.info("Resuming from checkpoint %s (epoch %d)", common.checkpoint_path(args.job_dir, start_epoch),
                         start_epoch)
    if start_epoch >= args.epochs:
        logging.info("%s: checkpoint of epoch %d already reaches --epochs %d; nothing to train", task, start_epoch,
                     args.epochs)

    sampler = DistributedSampler(range(train_x.shape[0]), num_replicas=trainers, rank=rank, shuffle=True,
                                 seed=args.seed)
    writer = EventFileWriter(args.job_dir) if rank == 0 else None
    hypertune = HyperTune() if rank == 0 else None
    metric_tag = args.hypertune_metric_tag or cluster.metric_tag()
    accuracy = None
    global_step = remote.pull()

    for epoch in range(start_epoch + 1, args.epochs + 1):
        started = time.monotonic()
        sampler.set_epoch(epoch)
        order = torch.tensor(list(sampler))
        window_loss, window_correct, window_seen, window_steps = 0.0, 0, 0, 0
        epoch_loss, epoch_correct, epoch_seen, steps = 0.0, 0, 0, 0
        for start in range(0, order.numel(), args.batch_size):
            idx = order[start:start + args.batch_size]
            x, y = train_x[idx], train_y[idx]
            model.zero_grad(set_to_none=True)
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            loss.backward()
            global_step = remote.push_pull()
            steps += 1
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
                if rank == 0 and steps % (args.log_every * 5) == 0:
                    logging.info("epoch %d step %d train_loss %.4f train_accuracy %.4f", epoch, global_step,
                                 window_loss / window_steps, window_correct / window_seen)
                window_loss, window_correct, window_seen, window_steps = 0.0, 0, 0, 0
        logging.info("%s: epoch %d trained %d examples in %d steps in %.1f s (global step %d): train_loss %.4f "
                     "train_accuracy %.4f", task, epoch, epoch_seen, steps, time.monotonic() - started, global_step,
                     epoch_loss / max(1, epoch_seen), epoch_correct / max(1, epoch_seen))

        if rank != 0:
            accuracy, test_loss = rpc.rpc_sync("master-replica-0", ps_server.coord_epoch_done, args=(epoch,),
                                               timeout=EPOCH_WAIT_TIMEOUT_S)
            logging.info("epoch %d test_accuracy %.4f loss %.4f", epoch, accuracy, test_loss)
            global_step = remote.pull()
            continue

        coordinator.wait_for_workers(epoch, EPOCH_WAIT_TIMEOUT_S)
        values, adam_states, global_step = remote.snapshot()
        model.load_state_dict(values)
        correct, loss_sum, count = common.evaluate(model, test_x, test_y)
        accuracy, test_loss = correct / count, loss_sum / count
        logging.info("epoch %d test_accuracy %.4f loss %.4f", epoch, accuracy, test_loss)
        path = common.save_checkpoint(args.job_dir, epoch, {
            "epoch": epoch,
            "global_step": global_step,
            "model": model.state_dict(),
            "optimizer": _optimizer_state_dict(model, adam_states, args.optimizer, args.learning_rate),
            "optimizer_name": args.optimizer,
        })
        logging.info("Saved checkpoint %s", path)
        writer.add_scalar("eval/accuracy", accuracy, global_step)
        writer.add_scalar("eval/loss", test_loss, global_step)
        hypertune.report_hyperparameter_tuning_metric(metric_tag, accuracy, global_step, path)
        coordinator.release(epoch, (accuracy, test_loss))

    if writer:
        writer.close()
    if rank == 0:
        # The parameters of the last epoch (loaded from the servers above), exported as task.py exports them.
        logging.info("Exported the model for prediction to %s", common.export_model(args.job_dir, model))
    if accuracy is not None:
        logging.info("%s: training finished after epoch %d: test_accuracy %.4f", task, args.epochs, accuracy)


def _run(args, cluster):
    rank = cluster.rpc_rank()
    world_size = cluster.rpc_world_size
    name = cluster.rpc_name(rank)
    port = cluster.master_port
    if not port and world_size == 1:
        with socket.socket() as s:
            s.bind((cluster.master_addr, 0))
            port = s.getsockname()[1]
    init_method = "tcp://%s:%d" % (cluster.master_addr, port)
    if rank == 0:
        # Before init_rpc: a worker may ask for the start as soon as the RPC agent is up.
        ps_server.start_coordinator(len(cluster.workers))
    logging.info("%s: RPC rank %d of %d (%d trainers, %d ps), rendezvous at %s", name, rank, world_size,
                 cluster.trainer_count, len(cluster.ps), init_method)
    options = rpc.TensorPipeRpcBackendOptions(init_method=init_method, rpc_timeout=RPC_TIMEOUT_S,
                                              num_worker_threads=max(16, 2 * world_size))
    rpc.init_rpc(name, rank=rank, world_size=world_size, rpc_backend_options=options)
    logging.info("%s: RPC ready", name)
    if cluster.task_type == "ps":
        logging.info("%s: serving parameters until training ends", name)
    else:
        _train(args, cluster, rank)
    # Graceful: returns once every replica has called shutdown and no RPC is outstanding, so
    # the ps replicas serve until the last trainer is done.
    rpc.shutdown()
    logging.info("%s: done", name)
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
    if cluster.task_type == "evaluator":
        return evaluator.run(args, cluster)
    try:
        return _run(args, cluster)
    except RuntimeError as e:
        if common.is_peer_failure(e):
            logging.error("%s: lost contact with another replica (%s); exiting with status %d so that the "
                          "cluster is restarted from the latest checkpoint", cluster.task_name, e,
                          common.EXIT_PEER_LOST)
            sys.stderr.flush()
            # The RPC agent's threads would keep a normal exit waiting.
            os._exit(common.EXIT_PEER_LOST)
        raise


if __name__ == "__main__":
    sys.exit(main())
