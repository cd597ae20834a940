// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace Trainyard::PackageModules {

/// Whether `name` is a Python module name as `python -m` takes it: dotted identifiers (`trainer.task`), ASCII
/// letters, digits and `_`, no segment starting with a digit. The service's `trainingInput.pythonModule` rule.
bool isModuleName(const QString& name);

/// The Python modules a trainer package offers to `python -m`: the dotted names of its `.py` files that lie inside
/// folders that are packages all the way down (each holds an `__init__.py`), without the `__init__` modules
/// themselves; sorted, names ending in `.task` first (the service's convention, `trainer.task`).
///
/// `packagePath` is a package project folder (setup.py or pyproject.toml; hidden folders, `build`, `dist`, `venv`,
/// `__pycache__` and `*.egg-info` are skipped, at most 20,000 `.py` files are looked at) or an sdist `.tar.gz`
/// (listed with `tar -tzf`, which may take up to 15 s; its top folder `<name>-<version>/` is stripped). Anything
/// else, a tar that fails or a folder without packages: an empty list. gcloud's package folder (PackageSource:
/// `trainer/` with `__init__.py`) lists its parent project's modules, or its own as `trainer.*` when it is built
/// alone.
///
/// Blocking (it walks the folder or runs tar): call it on a worker thread, as the submit wizard does.
QStringList discover(const QString& packagePath);

} // namespace Trainyard::PackageModules
