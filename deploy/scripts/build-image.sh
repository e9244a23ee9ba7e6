#!/usr/bin/env bash
# Builds Sluice's image from the repository's Dockerfile with podman, offline: the base image is used as it
# is found locally (deploy/scripts/stand-in-base-image.sh makes one where none can be pulled). Prints the
# image's size. Usage: deploy/scripts/build-image.sh [TAG] (default localhost/sluice:test).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/podman-env.sh"
tag="${1:-localhost/sluice:test}"
"$(dirname "${BASH_SOURCE[0]}")/stand-in-base-image.sh"
started=$SECONDS
podman build --quiet --isolation=chroot --pull=never --jobs=2 --tag "$tag" "$repo_root" >/dev/null
podman image prune --force >/dev/null
size=$(podman image inspect "$tag" --format '{{.Size}}')
base=$(podman image inspect docker.io/library/node:20-bookworm-slim --format '{{.Size}}')
echo "image: $tag built in $((SECONDS - started)) s: $((size / 1000000)) MB ($(((size - base) / 1000000)) MB over the base image's $((base / 1000000)) MB)"
