# syntax=docker/dockerfile:1
# Crown's image: the release folder (`pnpm build`, docs/OPERATIONS.md) on Node 20, nothing installed at start.
#   docker build -t crown .
#   docker run -e DATABASE_URL=... -e CROWN_SECRET=... crown            (the API, web portal and kiosk)
#   docker run -e DATABASE_URL=... -e CROWN_SECRET=... crown worker     (a job worker)

# ---- build: the whole workspace with its development tools, then the release folder
FROM node:20-bookworm-slim AS build
ENV ONNXRUNTIME_NODE_INSTALL=skip \
    PNPM_HOME=/pnpm \
    CI=true
# The pnpm of package.json's "packageManager" field.
RUN corepack enable
WORKDIR /src
# Dependencies first: a source change rebuilds from here on, not the install.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY core/package.json core/
COPY adapters/client/package.json adapters/client/
COPY adapters/crypto/package.json adapters/crypto/
COPY adapters/db/package.json adapters/db/
COPY adapters/http/package.json adapters/http/
COPY adapters/inference/package.json adapters/inference/
COPY adapters/jobs/package.json adapters/jobs/
COPY adapters/mail/package.json adapters/mail/
COPY adapters/pdf/package.json adapters/pdf/
COPY adapters/storage/package.json adapters/storage/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/kiosk/package.json apps/kiosk/
COPY tests/package.json tests/
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --frozen-lockfile
COPY . .
# The web portal and kiosk (precompressed), then dist/release: the bundle, the model, production dependencies.
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm run build

# ---- run: Node, ffmpeg (videos), DejaVu (the PDF reports' fonts), tini (signals, zombie ffmpeg children)
FROM node:20-bookworm-slim AS run
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core tini \
 && rm -rf /var/lib/apt/lists/*
# The process runs as `crown`; the release stays root's, read-only to it. Only /data is its to write.
RUN groupadd --system --gid 10001 crown \
 && useradd --system --uid 10001 --gid crown --home-dir /data --shell /usr/sbin/nologin crown \
 && mkdir -p /data && chown crown:crown /data
WORKDIR /app
COPY --from=build /src/dist/release /app
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    CROWN_DATA_DIR=/data
USER crown
EXPOSE 8080
VOLUME ["/data"]
# Ready once the API answers /readyz (its database reachable). A worker container has no HTTP server:
# docker-compose.yml turns this check off for it.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Crown drains in-flight requests and jobs on SIGTERM, then exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["tini", "--", "node", "crown.mjs"]
CMD ["start"]
