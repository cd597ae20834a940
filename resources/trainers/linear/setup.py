# SPDX-License-Identifier: GPL-2.0-or-later
"""The bundled pure-Python sample trainer (no framework, no data set).

Staged by the executor with ``pip install --no-index --no-deps --no-build-isolation`` like any
user package. It needs nothing beyond the Python standard library, so it runs on an install made
without Recommends (no PyTorch): the package's clean-install test submits it.

The package is installed read-only (/usr/share/trainyard/trainers/linear), so setuptools builds in
a temporary folder, removed when setup.py exits (as the Fashion-MNIST sample does).
"""

import atexit
import shutil
import tempfile

from setuptools import setup

_scratch = tempfile.mkdtemp(prefix="trainyard-linear-build-")
atexit.register(shutil.rmtree, _scratch, True)

setup(
    name="trainyard-linear-trainer",
    version="0.1.0",
    description="Pure-Python linear-regression sample trainer for Trainyard",
    license="GPL-2.0-or-later",
    packages=["trainer"],
    python_requires=">=3.7",
    options={
        "build": {"build_base": _scratch + "/build"},
        "egg_info": {"egg_base": _scratch},
    },
)
