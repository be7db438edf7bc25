# Needl in a container: the web app built with Node, the server built in release, both copied into
# a slim Debian that runs them as an unprivileged user with its data in the /data volume.
#
#   docker build -t needl .                       # the full build (a release build of the workspace)
#   docker run -p 8080:8080 -v needl-data:/data needl
#
# The runtime stage can also take a binary and a web app built outside (CI does, from its own
# build, instead of building the workspace again):
#
#   docker build --build-arg ARTIFACTS=prebuilt --build-arg NEEDL_BIN=target/release/needl -t needl .
#
# Stages are chosen by name through ARTIFACTS, so BuildKit builds only the ones the image uses.

ARG ARTIFACTS=built

# The web app: Vite's static build, served by the server from NEEDL_WEB_DIR.
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

# The server. MuPDF is built from source by its -sys crate: bindgen needs libclang.
FROM rust:1-bookworm AS server
RUN apt-get update \
    && apt-get install -y --no-install-recommends libclang-dev clang \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p api --bin needl \
    && install -m 0755 target/release/needl /needl

FROM scratch AS built
COPY --from=server /needl /needl
COPY --from=web /src/web/dist /web

FROM scratch AS prebuilt
ARG NEEDL_BIN=target/release/needl
COPY ${NEEDL_BIN} /needl
COPY web/dist /web

FROM ${ARTIFACTS} AS artifacts

# What runs: the binary needs only glibc; curl is for the health check, ca-certificates for feeds
# and S3 over HTTPS, fonts-dejavu-core for the font report PDFs are written in.
FROM debian:bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin needl \
    && mkdir -p /data /app \
    && chown needl:needl /data \
    && chmod 0700 /data
COPY --from=artifacts /needl /usr/local/bin/needl
COPY --from=artifacts /web /app/web
ENV NEEDL_HOST=0.0.0.0 \
    PORT=8080 \
    NEEDL_DATA_DIR=/data \
    NEEDL_WEB_DIR=/app/web
USER needl
WORKDIR /data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${PORT}/healthz" >/dev/null || exit 1
ENTRYPOINT ["needl"]
CMD ["serve"]
