# SPDX-License-Identifier: GPL-2.0-or-later
"""Remote procedures of trainer.ps_task. They live in their own importable module because
torch.distributed.rpc pickles a function by its qualified name: every replica runs
``python -m trainer.ps_task`` (so ``__main__`` there), but all of them can import
``trainer.ps_server``.

On a ps replica: one ``ParameterShard`` holds a subset of the model's parameters and their
optimizer state (--optimizer), and applies every gradient pushed to it (asynchronous parameter-server training:
no replica waits for the others within an epoch; a lock orders the updates).
On the master: the ``Coordinator`` tells workers where training starts and holds them at the
end of every epoch until the master has evaluated and checkpointed.
"""

import threading

import torch
import torch.distributed.rpc as rpc

from . import common

_shard = None
_coordinator = None


class ParameterShard:
    def __init__(self, tensors, adam_states, hparams, updates=0):
        """``tensors``: {name: tensor}; ``adam_states``: {name: per-parameter optimizer state} for
        the names being resumed; ``hparams``: the optimizer's param-group settings (lr, betas, eps,
        momentum, ...) and ``optimizer``, its --optimizer name; ``updates``: the checkpoint's global
        step (SGD's state has no step count of its own)."""
        self.lock = threading.Lock()
        self.names = list(tensors)
        self.params = [tensors[n].detach().clone().requires_grad_(True) for n in self.names]
        settings = {k: v for k, v in hparams.items() if k != "params"}
        name = settings.pop("optimizer", "adam")
        self.optimizer = common.make_optimizer(name, self.params, settings.pop("lr"))
        group = dict(self.optimizer.state_dict()["param_groups"][0])
        group.update({k: v for k, v in settings.items() if k in group})
        state = {i: adam_states[n] for i, n in enumerate(self.names) if n in adam_states}
        self.optimizer.load_state_dict({"state": state, "param_groups": [group]})
        self.updates = max([int(updates)] + [int(s["step"]) for s in state.values() if "step" in s])

    def values(self):
        return {n: p.detach().clone() for n, p in zip(self.names, self.params)}

    def apply(self, grads):
        with self.lock:
            for n, p in zip(self.names, self.params):
                p.grad = grads[n]
            self.optimizer.step()
            self.updates += 1
            return self.values(), self.updates

    def snapshot(self):
        with self.lock:
            state = self.optimizer.state_dict()["state"]
            return self.values(), {n: state[i] for i, n in enumerate(self.names) if i in state}, self.updates


def ps_init(tensors, adam_states, hparams, updates=0):
    global _shard
    _shard = ParameterShard(tensors, adam_states, hparams, updates)
    return sorted(_shard.names)


def ps_pull():
    return _shard.values(), _shard.updates


def ps_push_pull(grads):
    """Applies one step of gradients; returns the updated values and the update count."""
    return _shard.apply(grads)


def ps_snapshot():
    return _shard.snapshot()


class Coordinator:
    def __init__(self, worker_count):
        self.lock = threading.Lock()
        self.worker_count = worker_count
        self.start = torch.futures.Future()
        self.epochs = {}  # epoch -> [workers arrived, all arrived (Event), released (Future)]

    def _entry(self, epoch):
        entry = self.epochs.get(epoch)
        if entry is None:
            entry = self.epochs[epoch] = [0, threading.Event(), torch.futures.Future()]
            if self.worker_count == 0:
                entry[1].set()
        return entry

    def arrive(self, epoch):
        with self.lock:
            entry = self._entry(epoch)
            entry[0] += 1
            if entry[0] == self.worker_count:
                entry[1].set()
            return entry[2]

    def wait_for_workers(self, epoch, timeout):
        """Raises RuntimeError when not every worker finished ``epoch`` within ``timeout`` seconds
        (a worker died: the service restarts the cluster)."""
        with self.lock:
            entry = self._entry(epoch)
        if not entry[1].wait(timeout):
            raise RuntimeError("Timed out after %d s waiting for the workers to finish epoch %d (%d of %d arrived)"
                               % (timeout, epoch, entry[0], self.worker_count))

    def release(self, epoch, evaluation):
        """Lets the workers go on after ``epoch``, telling them the master's ``evaluation``."""
        with self.lock:
            entry = self._entry(epoch)
        entry[2].set_result(evaluation)


def start_coordinator(worker_count):
    global _coordinator
    _coordinator = Coordinator(worker_count)
    return _coordinator


@rpc.functions.async_execution
def coord_start_info():
    """Completes with {"epoch", "global_step", "shards"} once the master has loaded the
    parameter servers."""
    return _coordinator.start


@rpc.functions.async_execution
def coord_epoch_done(epoch):
    """A worker finished ``epoch``; completes with (test accuracy, test loss) when the master has
    evaluated and checkpointed it."""
    return _coordinator.arrive(epoch)
