# SPDX-License-Identifier: GPL-2.0-or-later
"""Fashion-MNIST sample trainer for Trainyard.

Modules:
  trainer.task     data-parallel training with PyTorch DDP (master + workers)
  trainer.ps_task  parameter-server training with torch.distributed.rpc (ps replicas hold the weights)

Importing the package sizes the CPU thread budget and installs the SIGTERM watcher before
torch is imported (see trainer.threads and trainer.signals).
"""

from . import signals as _signals
from . import threads as _threads

_threads.configure()
_signals.install()
