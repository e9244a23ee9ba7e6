# Sluice's container image. docs/deployment.md describes it; in short:
#
#   docker build -t sluice .                      # the CPU image (target runtime, the default)
#   docker build --target gpu -t sluice:gpu .     # CUDA 12 (needs the network at build time, see below)
#   docker run -p 8080:8080 -v "$PWD/model-store:/models:ro" sluice
#
# Stages: build (dev dependencies, TypeScript compiled, the files the image ships gathered in /out),
# deps (production dependencies only, other platforms' ONNX Runtime binaries removed), runtime (the two
# together on the Node.js base image, as a non-root user); deps-gpu and gpu make the CUDA variant. podman
# builds it the same (`podman build .`).

ARG NODE_IMAGE=node:20-bookworm-slim
ARG CUDA_IMAGE=nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund --no-update-notifier
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY plugins plugins
# Only the server and the built-in plugins are compiled (the build's bench and scripts are not copied in);
# type declarations and source maps are left out of the image.
RUN npx tsc -p tsconfig.build.json \
 && find dist \( -name '*.d.ts' -o -name '*.map' \) -delete \
 && mkdir -p /out/opt/sluice/plugins \
 && mv dist /out/opt/sluice/dist \
 && for plugin in plugins/*/; do \
      mkdir -p "/out/opt/sluice/$plugin" && cp "$plugin/sluice-plugin.yaml" "$plugin/package.json" "/out/opt/sluice/$plugin"; \
    done
COPY package.json LICENSE /out/opt/sluice/
COPY bin /out/opt/sluice/bin
COPY schemas /out/opt/sluice/schemas
COPY proto /out/opt/sluice/proto
# The demo models and workflows (under 1 MB): SLUICE_MODEL_STORE=/opt/sluice/model-store serves them.
COPY model-store /out/opt/sluice/model-store
COPY workflows /out/opt/sluice/workflows
COPY deploy/container/sluice.yaml /out/etc/sluice/sluice.yaml

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /opt/sluice
COPY package.json package-lock.json .npmrc ./
# .npmrc keeps every install script from running (ignore-scripts): the packages ship their binaries.
# A linux/amd64 image never loads the ONNX Runtime builds of other platforms (about 245 MB), nor the
# packages' type declarations and source maps (about 40 MB).
RUN npm ci --omit=dev --no-audit --no-fund --no-update-notifier \
 && rm -rf node_modules/onnxruntime-node/bin/napi-v6/darwin \
           node_modules/onnxruntime-node/bin/napi-v6/win32 \
           node_modules/onnxruntime-node/bin/napi-v6/linux/arm64 \
           node_modules/@img/sharp-linuxmusl-* node_modules/@img/sharp-libvips-linuxmusl-* \
 && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete \
 && rm -rf /root/.npm

# ---------------------------------------------------------------------------------------------------
# The GPU variant. ONNX Runtime's CUDA provider libraries are not in the npm package: its install script
# downloads them (docs/gpu.md), so this target needs the network while it builds. CUDA 12 and cuDNN 9
# come from the base image; the host needs the NVIDIA driver and container toolkit.
FROM deps AS deps-gpu
RUN ONNXRUNTIME_NODE_INSTALL=cuda12 node node_modules/onnxruntime-node/script/install.js

FROM ${NODE_IMAGE} AS node
FROM ${CUDA_IMAGE} AS gpu
LABEL org.opencontainers.image.title="sluice-gpu" \
      org.opencontainers.image.description="Sluice with ONNX Runtime's CUDA 12 provider" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=deps-gpu /opt/sluice/node_modules /opt/sluice/node_modules
COPY --from=build /out/ /
RUN mkdir -p /models /var/lib/sluice \
 && chown 1000:0 /models /var/lib/sluice \
 && chmod 0775 /models /var/lib/sluice
USER 1000:1000
WORKDIR /etc/sluice
EXPOSE 8080 8081 8082 7070 7071
ENTRYPOINT ["node", "/opt/sluice/bin/sluice.js"]
CMD ["start", "--foreground"]

# ---------------------------------------------------------------------------------------------------
# The CPU image, the default target (the last stage).
FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="sluice" \
      org.opencontainers.image.description="Sluice: serves ONNX models over TorchServe-, KServe- and OIP-compatible REST and gRPC APIs" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production
COPY --from=deps /opt/sluice/node_modules /opt/sluice/node_modules
COPY --from=build /out/ /
# Sluice writes only to /var/lib/sluice (snapshot, token-auth keys) and, for archives registered at run
# time, to the model store. Group 0 may write too, for platforms that run images under an arbitrary uid.
RUN mkdir -p /models /var/lib/sluice \
 && chown 1000:0 /models /var/lib/sluice \
 && chmod 0775 /models /var/lib/sluice
USER 1000:1000
WORKDIR /etc/sluice
# HTTP inference, management, metrics; gRPC inference, management.
EXPOSE 8080 8081 8082 7070 7071
# Node.js is PID 1: `sluice start --foreground` handles SIGTERM itself (a graceful stop within
# shutdownTimeoutMs, then exit 0) and starts no child processes that would need reaping.
ENTRYPOINT ["node", "/opt/sluice/bin/sluice.js"]
CMD ["start", "--foreground"]
