# SPDX-License-Identifier: GPL-2.0-or-later
"""The console tests' replica for a failed job: an argparse trainer like the service's samples.

`--epochs N --job-dir D`. Passed `'--epochs 2'` as one argument (what the wizard used to send for a line
typed as on a command line), argparse prints its usage and "error: unrecognized arguments" on stderr and
exits with status 2, as the first wizard job of issue 11 did.
"""
import argparse
import logging

logging.basicConfig(level=logging.INFO)
parser = argparse.ArgumentParser(prog="python -m consoletest.argfail")
parser.add_argument("--job-dir", required=True)
parser.add_argument("--epochs", type=int, default=1)
logging.info("parsing the arguments")
args = parser.parse_args()
logging.info("training for %d epochs into %s", args.epochs, args.job_dir)
