#!/usr/bin/env bash
# Makes a local stand-in for the Dockerfile's base image, node:20-bookworm-slim, on a machine that cannot
# pull images (no registry reachable) but has Debian's packages and Node.js: a minimal Debian bookworm root
# file system (mmdebstrap), this machine's node binary and npm, a `node` user (uid 1000) as the real image
# has, and this machine's CA bundle (NODE_EXTRA_CA_CERTS), which `npm ci` inside a build needs where the
# registry is reached through a proxy with its own certificate authority. Tagged with the real image's
# name, so the Dockerfile builds unchanged with --pull=never.
#
# Does nothing when the image already exists (a real one pulled, or the stand-in made earlier).
# Needs root, podman and mmdebstrap. Usage: deploy/scripts/stand-in-base-image.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/podman-env.sh"

image=docker.io/library/node:20-bookworm-slim
if podman image exists "$image"; then
  echo "stand-in base image: $image is there already"
  exit 0
fi

node_bin="$(command -v node)"
npm_dir="$(npm root -g)/npm"
node_major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" != 20 ]; then
  echo "stand-in base image: this machine's node is $("$node_bin" --version), the image is named for Node.js 20; install Node.js 20" >&2
  exit 1
fi
ca_bundle=/etc/ssl/certs/ca-certificates.crt
if [ ! -f "$ca_bundle" ]; then
  echo "stand-in base image: $ca_bundle is missing; apt-get install -y ca-certificates" >&2
  exit 1
fi

work="$SLUICE_DEPLOY_DIR/stand-in"
rm -rf "$work"
mkdir -p "$work/context"
started=$SECONDS

# The path excludes are those of Debian's -slim images (documentation, manual pages, translations), so
# that the stand-in weighs about what the real base image does and image sizes measured on it compare.
slim=()
for folder in doc man info locale lintian linda; do
  slim+=(--dpkgopt="path-exclude=/usr/share/$folder/*")
done
slim+=(--dpkgopt='path-include=/usr/share/doc/*/copyright')
mmdebstrap --quiet --variant=minbase --mode=root "${slim[@]}" bookworm "$work/rootfs.tar"
echo "stand-in base image: Debian root file system made in $((SECONDS - started)) s"
podman import --quiet "$work/rootfs.tar" localhost/sluice-stand-in-rootfs:bookworm >/dev/null
rm -f "$work/rootfs.tar"

cp "$(readlink -f "$node_bin")" "$work/context/node"
cp -a "$npm_dir" "$work/context/npm"
cp "$ca_bundle" "$work/context/ca-certificates.crt"
cat >"$work/context/Containerfile" <<'EOF'
FROM localhost/sluice-stand-in-rootfs:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && echo 'node:x:1000:1000::/home/node:/bin/bash' >>/etc/passwd \
 && echo 'node:x:1000:' >>/etc/group \
 && echo 'node:*:19000:0:99999:7:::' >>/etc/shadow \
 && mkdir -p /home/node && chown 1000:1000 /home/node \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*
ENV NODE_VERSION=20 NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
EOF
podman build --quiet --isolation=chroot --pull=never -t "$image" "$work/context" >/dev/null
podman image rm --force localhost/sluice-stand-in-rootfs:bookworm >/dev/null
rm -rf "$work"
echo "stand-in base image: made $image in $((SECONDS - started)) s"
