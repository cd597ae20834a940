# SPDX-License-Identifier: GPL-2.0-or-later
"""The bundled Fashion-MNIST sample trainer.

Staged by the executor with ``pip install --no-index --no-deps`` exactly like a user's
package on AI Platform Training. It deliberately declares no ``install_requires``: torch and
numpy come from the interpreter's system packages (Debian's python3-torch, python3-numpy),
and an offline pip must never try to fetch them.
"""

from setuptools import setup

setup(
    name="trainyard-fmnist-trainer",
    version="0.1.0",
    description="Fashion-MNIST sample trainer for Trainyard (PyTorch DDP and parameter-server modules)",
    license="GPL-2.0-or-later",
    packages=["trainer"],
    python_requires=">=3.7",
)
