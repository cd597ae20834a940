# SPDX-License-Identifier: GPL-2.0-or-later
"""What both training modules share: flags, the model, evaluation, checkpoints."""

import glob
import logging
import os
import re
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import data, threads

# Exit status for "a peer replica went away": >= 128 so that the service treats it as
# retryable and restarts the whole cluster, which then resumes from the latest checkpoint.
# (A replica killed by a signal reads as 128 + signal; 200 is not a signal number.)
EXIT_PEER_LOST = 200

# Messages of gloo, c10d and TensorPipe errors that mean another replica went away (killed,
# restarted) rather than a bug in this one.
_PEER_FAILURES = ("Connection closed by peer", "Connection reset by peer", "connection reset", "Broken pipe",
                  "Timed out", "timed out", "Connection refused", "ECONNRESET", "ECONNREFUSED", "EPIPE",
                  "Socket Timeout", "end of file", "pipe closed", "NCCL communicator was aborted",
                  "RPC ran for more than set timeout", "Connection closed",
                  # TensorPipe transport/channel errors: "eof (this error originated at
                  # tensorpipe/transport/shm/connection_impl.cc:259)", "process_vm_readv: No such process"
                  "originated at tensorpipe/transport", "originated at tensorpipe/channel")

CHECKPOINT_DIR = "checkpoints"
OPTIMIZERS = ("adam", "sgd", "rmsprop")
_CHECKPOINT_RE = re.compile(r"^ckpt-epoch-(\d+)\.pt$")


def add_common_flags(parser):
    parser.add_argument("--job-dir", required=True,
                        help="where checkpoints, event files and the final model go (the service passes it)")
    parser.add_argument("--epochs", type=int, default=2, help="passes over the training set (default 2)")
    parser.add_argument("--batch-size", type=int, default=128, help="examples per step and replica (default 128)")
    parser.add_argument("--learning-rate", type=float, default=0.002, help="learning rate (default 0.002)")
    parser.add_argument("--optimizer", choices=OPTIMIZERS, default="adam",
                        help="adam, sgd (momentum 0.9) or rmsprop (default adam)")
    parser.add_argument("--hidden-units", type=int, default=256, help="units of the first hidden layer (default 256)")
    parser.add_argument("--log-every", type=int, default=20,
                        help="steps between train/loss and train/accuracy event-file points (default 20)")
    parser.add_argument("--seed", type=int, default=42, help="initialisation and shuffling seed (default 42)")
    parser.add_argument("--data-dir", default=data.DEFAULT_DATA_DIR,
                        help="folder with the Fashion-MNIST IDX files (default %s)" % data.DEFAULT_DATA_DIR)
    parser.add_argument("--train-examples", type=int, default=0,
                        help="use only the first N training examples (0 = all 60000; for quick tests)")
    parser.add_argument("--hypertune-metric-tag", default="",
                        help="tag of the hyperparameter metric (default: TF_CONFIG's "
                             "job.hyperparameters.hyperparameterMetricTag, else 'accuracy')")
    return parser


def check_flags(parser, args):
    for name in ("epochs", "batch_size", "hidden_units", "log_every"):
        if getattr(args, name) < 1:
            parser.error("--%s must be at least 1, got %d" % (name.replace("_", "-"), getattr(args, name)))
    if not args.learning_rate > 0:
        parser.error("--learning-rate must be positive, got %g" % args.learning_rate)
    if args.train_examples < 0:
        parser.error("--train-examples must be 0 or positive, got %d" % args.train_examples)


def make_optimizer(name, params, learning_rate):
    """The torch optimizer --optimizer names. SGD gets momentum 0.9: plain SGD at the learning rates
    a tuning study tries for Adam (1e-4 .. 1e-1) barely moves in two epochs."""
    if name == "sgd":
        return torch.optim.SGD(params, lr=learning_rate, momentum=0.9)
    if name == "rmsprop":
        return torch.optim.RMSprop(params, lr=learning_rate)
    return torch.optim.Adam(params, lr=learning_rate)


def checkpoint_optimizer(state):
    """The --optimizer a checkpoint's optimizer state belongs to (checkpoints from before the flag are Adam's)."""
    return state.get("optimizer_name", "adam")


def trial_job_dir(job_dir, trial):
    """Where a run writes: <job-dir>/<trial-id>/ for a tuning trial, as the service's samples do (the
    service passes every trial the same --job-dir), else the job dir itself."""
    return os.path.join(job_dir, trial) if trial else job_dir


def is_peer_failure(error):
    text = str(error)
    return any(s in text for s in _PEER_FAILURES)


def setup_logging():
    # Python logging's default "LEVEL:logger:message" prefix: the executor reads the severity from it.
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s", stream=sys.stderr)


def set_threads():
    """Intra-op threads of torch: this replica's share of the cores (see trainer.threads)."""
    count = threads.replica_threads()
    torch.set_num_threads(count)
    return count


class Mlp(nn.Module):
    """784 -> hidden -> hidden/2 -> 10, ReLU. On a CPU an epoch of Fashion-MNIST takes seconds."""

    def __init__(self, hidden_units=256):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden_units)
        self.fc2 = nn.Linear(hidden_units, hidden_units // 2)
        self.fc3 = nn.Linear(hidden_units // 2, 10)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


@torch.no_grad()
def evaluate(model, images, labels, batch_size=2000):
    """Returns (correct, loss_sum, count) over the examples given."""
    model.eval()
    correct = 0
    loss_sum = 0.0
    for start in range(0, images.shape[0], batch_size):
        x = images[start:start + batch_size]
        y = labels[start:start + batch_size]
        logits = model(x)
        loss_sum += F.cross_entropy(logits, y, reduction="sum").item()
        correct += (logits.argmax(1) == y).sum().item()
    model.train()
    return correct, loss_sum, images.shape[0]


def checkpoint_dir(job_dir):
    return os.path.join(job_dir, CHECKPOINT_DIR)


def checkpoint_path(job_dir, epoch):
    return os.path.join(checkpoint_dir(job_dir), "ckpt-epoch-%d.pt" % epoch)


def latest_checkpoint(job_dir):
    """(epoch, path) of the newest complete checkpoint in the job dir, or (0, None)."""
    best = (0, None)
    for path in glob.glob(os.path.join(checkpoint_dir(job_dir), "ckpt-epoch-*.pt")):
        m = _CHECKPOINT_RE.match(os.path.basename(path))
        if m and int(m.group(1)) > best[0]:
            best = (int(m.group(1)), path)
    return best


def remove_stale_temporaries(job_dir):
    """Drops the temporary files of checkpoints whose writer died before the rename."""
    for path in glob.glob(os.path.join(checkpoint_dir(job_dir), ".ckpt-epoch-*.pt.tmp*")):
        try:
            os.remove(path)
        except OSError:
            pass


def save_checkpoint(job_dir, epoch, state):
    """Writes ``state`` as <job-dir>/checkpoints/ckpt-epoch-<epoch>.pt atomically (temporary
    file in the same folder, fsync, rename): a reader never sees a partial checkpoint."""
    folder = checkpoint_dir(job_dir)
    os.makedirs(folder, exist_ok=True)
    final = checkpoint_path(job_dir, epoch)
    tmp = os.path.join(folder, ".ckpt-epoch-%d.pt.tmp%d" % (epoch, os.getpid()))
    with open(tmp, "wb") as f:
        torch.save(state, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, final)
    try:
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass
    return final


MODEL_DIR = "model"

# Fashion-MNIST's classes, in label order (the dataset's README).
CLASSES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot")


class Serving(nn.Module):
    """What the exported model computes: raw pixels [N, 784] (0-255, as the dataset stores them) through the
    training's normalisation and the MLP, to each class's probability [N, 10] (CLASSES' order)."""

    def __init__(self, mlp):
        super().__init__()
        self.mlp = mlp

    def forward(self, pixels):
        x = pixels.reshape(pixels.shape[0], -1).float() / 255.0
        x = (x - data.PIXEL_MEAN) / data.PIXEL_STD
        return F.softmax(self.mlp(x), dim=1)


def export_model(job_dir, model):
    """Writes <job-dir>/model/model.pt, a TorchScript archive of Serving(model) on the CPU, atomically (temporary
    file, fsync, rename), model/classes.json and model/explanation_metadata.json: a folder that `versions create --framework pytorch` deploys as it
    is. Returns the folder."""
    import copy
    import json

    folder = os.path.join(job_dir, MODEL_DIR)
    os.makedirs(folder, exist_ok=True)
    scripted = torch.jit.script(Serving(copy.deepcopy(model).cpu()).eval())
    final = os.path.join(folder, "model.pt")
    tmp = os.path.join(folder, ".model.pt.tmp%d" % os.getpid())
    scripted.save(tmp)
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, final)
    with open(os.path.join(folder, "classes.json"), "w") as f:
        json.dump(list(CLASSES), f)
    # The service's explanation metadata: one image input, explained from a black image (projects.explain with
    # integratedGradientsAttribution draws the pixels' attributions over the image).
    with open(os.path.join(folder, "explanation_metadata.json"), "w") as f:
        json.dump({"inputs": {"pixels": {"input_baselines": [0], "modality": "image"}},
                   "outputs": {"probabilities": {}}, "framework": "pytorch"}, f)
    return folder


def load_checkpoint(path):
    return torch.load(path, map_location="cpu")
