# SPDX-License-Identifier: GPL-2.0-or-later
"""Trainyard's built-in algorithms: XGBoost, linear learner, wide & deep (the service's built-in images).

The executor stages this folder like any user's package (``pip install --no-index --no-deps
--no-build-isolation --target STAGING``) and runs ``python -m trainyard_algorithms.<module> ARGS --job-dir DIR``
for a job whose ``masterConfig.imageUri`` names one of ``gcr.io/cloud-ml-algos/…``'s images (README.md has the
contract). Pure Python; it declares no ``install_requires``: numpy, pandas, xgboost and torch come from Debian
(python3-numpy, python3-pandas, python3-xgboost, python3-torch), and an offline pip must never try to fetch them.
A module that misses one fails the job with the ``apt install`` line that fixes it.

``events.py`` and ``hypertune.py`` in the package are symbolic links to the Fashion-MNIST sample trainer's
writers (``../trainers/fmnist/trainer/``): one implementation of each file format. setuptools and the executor's
package copy follow the links, so a staged install holds plain files; an installed tree must keep this folder
beside ``trainers/`` (``/usr/share/trainyard/{algorithms,trainers}``), as the source tree has it.

setuptools builds in ``build/`` and ``*.egg-info`` next to this file by default; the package is installed
read-only, so the build goes to a temporary folder instead, removed when setup.py exits (as the trainers do).
"""

import atexit
import shutil
import tempfile

from setuptools import setup

_scratch = tempfile.mkdtemp(prefix="trainyard-algorithms-build-")
atexit.register(shutil.rmtree, _scratch, True)

setup(
    name="trainyard-algorithms",
    version="0.1.0",
    description="Built-in algorithms for Trainyard: XGBoost, linear learner and wide & deep on CSV tables",
    license="GPL-2.0-or-later",
    packages=["trainyard_algorithms"],
    # The image table (images.json) is data the package reads at import: it must be staged with the modules.
    package_data={"trainyard_algorithms": ["images.json"]},
    python_requires=">=3.9",
    options={
        "build": {"build_base": _scratch + "/build"},
        "egg_info": {"egg_base": _scratch},
    },
)
