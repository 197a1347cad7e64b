# syntax=docker/dockerfile:1
# passmint in a container: built with the Swift toolchain on Debian bookworm, run on bookworm-slim with only the
# libraries the binary links (scripts/check-deploy.sh compares the list below with `ldd` of a built binary).
#   docker build -t passmint .
#   docker run --rm passmint --help
# How to run a fleet with it: docs/deploy.md.

FROM swift:6.3-bookworm AS build
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libssl-dev libzip-dev libspng-dev libsqlite3-dev libqrencode-dev libzint-dev zlib1g-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The Swift runtime and Foundation are linked in (--static-swift-stdlib): the image needs no toolchain.
RUN swift build -c release --static-swift-stdlib --product passmint \
    && bin="$(swift build -c release --show-bin-path)" \
    && mkdir -p /out \
    && cp "$bin/passmint" /out/ \
    && cp -R "$bin/passmint_Passmint.resources" "$bin/passmint_PassmintServer.resources" /out/

FROM debian:bookworm-slim
# The packages of every library passmint links, directly or through another (ldd; checked by scripts/check-deploy.sh).
# ca-certificates: the trust roots for APNs, Google and a PostgreSQL server with sslmode=verify-full.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libc6 libgcc-s1 libstdc++6 libssl3 libzip4 libbz2-1.0 libspng0 libsqlite3-0 libqrencode4 libzint2.11 libpng16-16 zlib1g \
        ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/passmint --create-home passmint
# The binary and its resource bundles (Apple's root certificates, the API's OpenAPI document) sit side by side, where Bundle.module looks.
COPY --from=build /out/ /usr/local/bin/
# The repository's templates, as a default; a real deployment builds FROM this image with its own (docs/deploy.md).
COPY PassTemplates /srv/passmint/templates
ENV PASSMINT_HOST=0.0.0.0 \
    PASSMINT_PORT=8080 \
    PASSMINT_TEMPLATES=/srv/passmint/templates \
    PASSMINT_CERTIFICATES=/etc/passmint/certificates \
    PASSMINT_JOBS_FOLDER=/var/lib/passmint/jobs
USER 10001:10001
WORKDIR /var/lib/passmint
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/passmint"]
CMD ["serve"]
