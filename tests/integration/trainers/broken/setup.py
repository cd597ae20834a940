# SPDX-License-Identifier: GPL-2.0-or-later
# A package whose build fails the way a real broken setup.py does: an exception during egg_info.
raise SystemExit("tytest-broken: setup.py refuses to build (missing dependency 'nonexistent_dep_xyz')")
