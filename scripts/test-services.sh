#!/usr/bin/env bash
# Installs and runs the real services the integration tests need directly on the host, for machines without a
# Docker engine: two real S3 servers (LocalStack, Python; the Versity S3 gateway versitygw, Go) and Toxiproxy.
# Everything is installed into a cache directory on first use and reused afterwards; nothing is installed
# system-wide. Needs Python >= 3.12 (LocalStack) and Go (versitygw, Toxiproxy), and curl and openssl.
#
#   scripts/test-services.sh install   install LocalStack (Python venv), versitygw and Toxiproxy (Go binaries)
#   scripts/test-services.sh check     one line for each missing prerequisite, naming how to install it (exit 1)
#   scripts/test-services.sh start     install if needed, start all three (idempotent), wait until healthy
#   scripts/test-services.sh stop      stop what this script started
#   scripts/test-services.sh status    exit 0 when all three answer
#   scripts/test-services.sh settings  print the cache directory and the ports, as NAME=value lines (test-support's
#                                       Java harness reads them here, so that one place decides them)
#   scripts/test-services.sh start-tls  also a versitygw that speaks HTTPS (for benchmarks over TLS: scripts/benchmark.sh
#                                       and scripts/profile.sh with BOUNDED_UPLOAD_S3_TLS=true), with the same
#                                       self-signed certificate as LocalStack's HTTPS, and a trust store that holds it:
#                                       $CACHE/run/test-truststore.p12, password "changeit"
#
# Environment (all optional):
#   BOUNDED_UPLOAD_CACHE        cache directory            (default ~/.cache/bounded-upload)
#   BOUNDED_UPLOAD_LOCALSTACK_PORT                          (default 4566)
#   BOUNDED_UPLOAD_VERSITYGW_PORT                           (default 7070)
#   BOUNDED_UPLOAD_VERSITYGW_TLS_PORT                       (default 7443, start-tls only)
#   BOUNDED_UPLOAD_TOXIPROXY_PORT                           (default 8474)
#   BOUNDED_UPLOAD_PYTHON       Python >= 3.12 used to create the LocalStack venv
set -euo pipefail

LOCALSTACK_VERSION=2026.3.0
TOXIPROXY_VERSION=v2.12.0
VERSITYGW_VERSION=v1.8.0

CACHE=${BOUNDED_UPLOAD_CACHE:-$HOME/.cache/bounded-upload}
LS_PORT=${BOUNDED_UPLOAD_LOCALSTACK_PORT:-4566}
TP_PORT=${BOUNDED_UPLOAD_TOXIPROXY_PORT:-8474}
VG_PORT=${BOUNDED_UPLOAD_VERSITYGW_PORT:-7070}
VG_TLS_PORT=${BOUNDED_UPLOAD_VERSITYGW_TLS_PORT:-7443}
VENV="$CACHE/localstack-$LOCALSTACK_VERSION"
TP_DIR="$CACHE/toxiproxy-$TOXIPROXY_VERSION"
VG_DIR="$CACHE/versitygw-$VERSITYGW_VERSION"
RUN="$CACHE/run"

log() { printf '[test-services] %s\n' "$*" >&2; }

# A Python >= 3.12 with venv, or nothing (exit 1).
find_python() {
  if [ -n "${BOUNDED_UPLOAD_PYTHON:-}" ]; then echo "$BOUNDED_UPLOAD_PYTHON"; return; fi
  local candidate
  for candidate in python3.13 python3.12 /root/.pyenv/versions/3.13*/bin/python /root/.pyenv/versions/3.12*/bin/python \
                   "$HOME"/.pyenv/versions/3.13*/bin/python "$HOME"/.pyenv/versions/3.12*/bin/python python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      command -v "$candidate"; return
    fi
  done
  return 1
}

# Go 1.21 or later: older releases cannot fetch the toolchain that versitygw and Toxiproxy ask for.
go_usable() {
  local version
  version=$(go env GOVERSION 2>/dev/null) || return 1
  version=${version#go}
  [ "${version%%.*}" -gt 1 ] 2>/dev/null && return 0
  local minor=${version#*.}
  [ "${minor%%.*}" -ge 21 ] 2>/dev/null
}

# One line for each prerequisite that is missing, naming how to install it; exit 1 when one is. Whatever is installed
# in the cache already, or answers already, needs nothing.
check() {
  local missing=0
  need() { log "missing: $*"; missing=1; }
  command -v curl >/dev/null || need "curl, to see whether the services answer: apt-get install -y curl"
  # With a Docker engine, the LocalStack runs use its container (test-support's Testcontainers path).
  if ! localstack_up && [ ! -x "$VENV/.installed" ] && ! docker info >/dev/null 2>&1; then
    find_python >/dev/null || need "Python 3.12 or later with venv, for LocalStack: apt-get install -y python3 python3-venv" \
      "(Debian 13 or later; elsewhere pyenv install 3.12), or set BOUNDED_UPLOAD_PYTHON to one"
    if [ ! -s "$RUN/localstack-cert.pem" ]; then
      command -v openssl >/dev/null || need "openssl, for LocalStack's certificate: apt-get install -y openssl"
    fi
  fi
  if { ! toxiproxy_up && [ ! -x "$TP_DIR/server" ]; } || { ! versitygw_up && [ ! -x "$VG_DIR/versitygw" ]; }; then
    go_usable || need "Go 1.21 or later, to build versitygw and Toxiproxy: https://go.dev/dl/" \
      "(or apt-get install -y golang-go on Debian 13 or later)"
  fi
  return "$missing"
}

install_localstack() {
  [ -x "$VENV/.installed" ] && return
  log "installing LocalStack $LOCALSTACK_VERSION into $VENV (1-2 minutes, once)"
  rm -rf "$VENV"
  local python
  python=$(find_python) || { log "missing: Python 3.12 or later with venv (see: $0 check)"; exit 1; }
  "$python" -m venv "$VENV"
  # Every package pinned (pip freeze of a working install): an unpinned resolve picks whatever is newest that day,
  # and this LocalStack release already breaks with cbor2 >= 5.7 or without service_identity.
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps \
    -r "$(dirname "${BASH_SOURCE[0]}")/localstack-requirements.txt"
  printf '#!/bin/sh\n' > "$VENV/.installed" && chmod +x "$VENV/.installed"
}

# go_install WHAT DIR BINARY MODULE@VERSION HOW_LONG: builds a Go command into the cache, once.
go_install() {
  [ -x "$2/$3" ] && return
  go_usable || { log "missing: Go 1.21 or later, to build $1 (see: $0 check)"; exit 1; }
  log "building $1 into $2 ($5, once)"
  mkdir -p "$2"
  GOBIN="$2" GOFLAGS=-mod=mod go install "$4"
}

install_toxiproxy() {
  # Pinned: @latest resolves to an old v2.5.0 through some module proxies.
  go_install "Toxiproxy $TOXIPROXY_VERSION" "$TP_DIR" server \
    "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION" "about a minute"
}

install_versitygw() {
  go_install "versitygw $VERSITYGW_VERSION" "$VG_DIR" versitygw \
    "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" "about 2 minutes"
}

# An unsigned request is refused with 403 once the gateway serves.
versitygw_up() { [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$VG_PORT/" 2>/dev/null)" = 403 ]; }

localstack_up() { curl -fsS "http://127.0.0.1:$LS_PORT/_localstack/health" 2>/dev/null | grep -q '"s3": *"\(available\|running\)"'; }
# Healthy is not yet serving: right after start an S3 request can still get 501 "no handler for operation" (seen when
# three test JVMs created their buckets at once). Ready once an S3 request (ListBuckets, which LocalStack takes
# unsigned) is answered 200.
localstack_serves_s3() { [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$LS_PORT/" 2>/dev/null)" = 200 ]; }
toxiproxy_up() { curl -fsS "http://127.0.0.1:$TP_PORT/version" >/dev/null 2>&1; }

wait_for() { # name, check function, seconds
  local i
  for ((i = 0; i < $3 * 2; i++)); do
    "$2" && return 0
    sleep 0.5
  done
  log "$1 did not become healthy within $3 s; its log:"; tail -n 40 "$RUN/$1.log" >&2 || true
  return 1
}

# The self-signed certificate of the test servers' HTTPS (localhost and 127.0.0.1), key and certificate in one file.
certificate() {
  local cert="$RUN/localstack-cert.pem"
  if [ ! -s "$cert" ]; then
    # LocalStack generates its TLS certificate with an API that newer pyOpenSSL releases removed
    # (X509.add_extensions); handing it a ready certificate skips that code. The tests speak plain HTTP.
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=localhost \
      -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$cert.key" -out "$cert.crt" 2>/dev/null
    cat "$cert.key" "$cert.crt" >"$cert" && rm -f "$cert.key" "$cert.crt"
  fi
  echo "$cert"
}

versitygw_tls_up() { curl -sk -o /dev/null "https://127.0.0.1:$VG_TLS_PORT/" 2>/dev/null; }

# A versitygw over HTTPS beside the plain one (its own data directory), and a trust store for the JVM's clients.
start_tls() {
  local cert store="$RUN/test-truststore.p12"
  cert=$(certificate)
  openssl pkey -in "$cert" -out "$RUN/tls.key" 2>/dev/null
  openssl x509 -in "$cert" -out "$RUN/tls.crt"
  if [ ! -s "$store" ]; then
    keytool -importcert -noprompt -alias bounded-upload-test -file "$RUN/tls.crt" -keystore "$store" \
      -storetype PKCS12 -storepass changeit >/dev/null
  fi
  if versitygw_tls_up; then log "versitygw (HTTPS) already answers on $VG_TLS_PORT"; else
    mkdir -p "$RUN/versitygw-tls-data"
    ROOT_ACCESS_KEY=AKIAEXAMPLESECRET0001 ROOT_SECRET_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY nohup "$VG_DIR/versitygw" --port "127.0.0.1:$VG_TLS_PORT" --keep-alive --quiet \
      --cert "$RUN/tls.crt" --key "$RUN/tls.key" posix "$RUN/versitygw-tls-data" >"$RUN/versitygw-tls.log" 2>&1 &
    echo $! >"$RUN/versitygw-tls.pid"
  fi
  wait_for versitygw-tls versitygw_tls_up 30
  log "versitygw over HTTPS on https://127.0.0.1:$VG_TLS_PORT (LocalStack speaks HTTPS on its own port); trust store $store"
}

start() {
  check || exit 1
  install_localstack
  install_toxiproxy
  install_versitygw
  mkdir -p "$RUN"
  if toxiproxy_up; then log "Toxiproxy already answers on $TP_PORT"; else
    nohup "$TP_DIR/server" -host 127.0.0.1 -port "$TP_PORT" >"$RUN/toxiproxy.log" 2>&1 &
    echo $! >"$RUN/toxiproxy.pid"
  fi
  if localstack_up; then log "LocalStack already answers on $LS_PORT"; else
    local cert
    cert=$(certificate)
    # Its own data directory, so that nothing of a developer's LocalStack is touched.
    CUSTOM_SSL_CERT_PATH="$cert" SERVICES=s3 GATEWAY_LISTEN="127.0.0.1:$LS_PORT" EAGER_SERVICE_LOADING=1 SKIP_SSL_CERT_DOWNLOAD=1 \
      DISABLE_EVENTS=1 LOCALSTACK_CLI=0 FILESYSTEM_ROOT="$RUN/localstack-fs" \
      nohup "$VENV/bin/python" -m localstack.runtime.main >"$RUN/localstack.log" 2>&1 &
    echo $! >"$RUN/localstack.pid"
  fi
  if versitygw_up; then log "versitygw already answers on $VG_PORT"; else
    # Objects as plain files under its own data directory (xattrs for metadata); versions in a directory of their
    # own, which lets buckets be versioned. --keep-alive: without it every answer closes its connection, unlike S3,
    # and every request of a pooled client pays for a new one.
    mkdir -p "$RUN/versitygw-data" "$RUN/versitygw-versions"
    # The credentials of the tests' clients (S3TestServices.ACCESS_KEY / SECRET_KEY): versitygw checks them.
    ROOT_ACCESS_KEY=AKIAEXAMPLESECRET0001 ROOT_SECRET_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY nohup "$VG_DIR/versitygw" --port "127.0.0.1:$VG_PORT" --keep-alive --quiet \
      posix --versioning-dir "$RUN/versitygw-versions" "$RUN/versitygw-data" >"$RUN/versitygw.log" 2>&1 &
    echo $! >"$RUN/versitygw.pid"
  fi
  wait_for toxiproxy toxiproxy_up 30
  wait_for versitygw versitygw_up 30
  wait_for localstack localstack_up 120
  wait_for localstack localstack_serves_s3 60
  log "LocalStack on http://127.0.0.1:$LS_PORT, versitygw on http://127.0.0.1:$VG_PORT, Toxiproxy on http://127.0.0.1:$TP_PORT"
}

stop() {
  local name pid
  for name in localstack versitygw versitygw-tls toxiproxy; do
    if [ -f "$RUN/$name.pid" ]; then
      pid=$(cat "$RUN/$name.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$RUN/$name.pid"
    fi
  done
}

case "${1:-}" in
  install) check || exit 1; install_localstack; install_toxiproxy; install_versitygw ;;
  check) check ;;
  start) start ;;
  start-tls) start; start_tls ;;
  stop) stop ;;
  status) localstack_up && versitygw_up && toxiproxy_up ;;
  settings) printf 'cache=%s\nlocalstack-port=%s\nversitygw-port=%s\ntoxiproxy-port=%s\n' "$CACHE" "$LS_PORT" "$VG_PORT" "$TP_PORT" ;;
  *) echo "usage: $0 check|install|start|start-tls|stop|status|settings" >&2; exit 2 ;;
esac
