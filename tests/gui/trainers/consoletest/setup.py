# SPDX-License-Identifier: GPL-2.0-or-later
from setuptools import find_packages, setup

setup(name="consoletest", version="0.1", packages=find_packages(), description="Trainyard console test trainer")
