# SPDX-License-Identifier: GPL-2.0-or-later
"""The bundled Fashion-MNIST sample trainer.

Staged by the executor with ``pip install --no-index --no-deps --no-build-isolation`` exactly
like a user's package on AI Platform Training. It deliberately declares no
``install_requires``: torch and numpy come from the interpreter's system packages (Debian's
python3-torch, python3-numpy), and an offline pip must never try to fetch them.

setuptools builds in ``build/`` and ``*.egg-info`` next to this file by default; the package
is installed read-only (/usr/share/trainyard/trainers/fmnist), so the build goes to a
temporary folder instead, removed when setup.py exits.
"""

import atexit
import shutil
import tempfile

from setuptools import setup

_scratch = tempfile.mkdtemp(prefix="trainyard-fmnist-build-")
atexit.register(shutil.rmtree, _scratch, True)

setup(
    name="trainyard-fmnist-trainer",
    version="0.1.0",
    description="Fashion-MNIST sample trainer for Trainyard (PyTorch DDP and parameter-server modules)",
    license="GPL-2.0-or-later",
    packages=["trainer"],
    python_requires=">=3.7",
    options={
        "build": {"build_base": _scratch + "/build"},
        "egg_info": {"egg_base": _scratch},
    },
)
