# hlspack in a container. The build stage runs scripts/bootstrap, the same
# script CI and the README use; the runtime stage gets only the shared libraries.
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
WORKDIR /src
COPY . .
# install -s strips the symbol tables, which running the tool does not need.
RUN ./scripts/bootstrap \
 && swift build -c release -Xswiftc -warnings-as-errors --static-swift-stdlib --product hlspack \
 && install -D -s "$(swift build -c release --show-bin-path)/hlspack" /out/hlspack

FROM debian:bookworm-slim
COPY scripts/bootstrap /usr/local/lib/hlspack/bootstrap
RUN /usr/local/lib/hlspack/bootstrap --runtime && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/hlspack /usr/local/bin/hlspack
# Runs as any user, so that `docker run --user "$(id -u):$(id -g)"` writes
# files the caller owns into a mounted folder. Such a uid has no passwd
# entry and no home: HOME and TMPDIR name a folder every user may write.
ENV HOME=/tmp TMPDIR=/tmp
WORKDIR /work
ENTRYPOINT ["hlspack"]
CMD ["--help"]
