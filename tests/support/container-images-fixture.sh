#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ctest's fixtures/container_images (tests/CMakeLists.txt): builds what is missing of the custom-container tests'
# images (packaging/container-images.sh) before integration/tst_containers and gui/tst_submitwizard start. Where
# containers cannot run (not root, no podman) it builds nothing and passes: those tests then skip with the reason, or
# fail under TRAINYARD_REQUIRE_ALL=1, by themselves.
#   container-images-fixture.sh SOURCE_DIR
set -eu
source_dir=$1
if [ "$(id -u)" -ne 0 ]; then
    echo "container images: not built (custom containers run under rootful podman: run as root)"
    exit 0
fi
if ! command -v podman >/dev/null 2>&1; then
    echo "container images: not built (podman is not installed; packaging/setup-deps.sh installs it)"
    exit 0
fi
exec "$source_dir/packaging/container-images.sh"
