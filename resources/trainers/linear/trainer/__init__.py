# SPDX-License-Identifier: GPL-2.0-or-later
"""Pure-Python sample trainer for Trainyard: ``python -m trainer.task`` (see task.py)."""
