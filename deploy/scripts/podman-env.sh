# Sourced by the deploy scripts: podman set up to run on a CI machine without a Docker engine.
#
# - containers.conf: runc (crun fails there with a setrlimit error and a cgroups hybrid-mode error) and
#   default ulimits podman can set;
# - storage.conf: images and containers kept under the repository's ignored .scratch/deploy/, so that the
#   checks leave nothing behind outside the checkout and two checkouts never share a tag.
#
# Sets SLUICE_DEPLOY_DIR (the folder of it all) and exports CONTAINERS_CONF and CONTAINERS_STORAGE_CONF.

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export SLUICE_DEPLOY_DIR="${SLUICE_DEPLOY_DIR:-$repo_root/.scratch/deploy}"
mkdir -p "$SLUICE_DEPLOY_DIR/containers/storage" "$SLUICE_DEPLOY_DIR/containers/run" "$SLUICE_DEPLOY_DIR/tmp"

export CONTAINERS_CONF="$SLUICE_DEPLOY_DIR/containers.conf"
cat >"$CONTAINERS_CONF" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
EOF

export CONTAINERS_STORAGE_CONF="$SLUICE_DEPLOY_DIR/storage.conf"
cat >"$CONTAINERS_STORAGE_CONF" <<EOF
[storage]
driver = "overlay"
graphroot = "$SLUICE_DEPLOY_DIR/containers/storage"
runroot = "$SLUICE_DEPLOY_DIR/containers/run"
EOF

# Builds stage their layers in TMPDIR (/var/tmp by default).
export TMPDIR="$SLUICE_DEPLOY_DIR/tmp"
