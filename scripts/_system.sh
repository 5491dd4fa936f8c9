# Sourced by scripts/test and .ci/run: the system packages the tests need
# (Debian's Chromium for browser tests, Redis, nginx, Node.js for the front
# end's unit tests; PostgreSQL's server binaries are on these machines
# already). Installs only what is missing.
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v node >/dev/null 2>&1 || need+=(nodejs)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing ${need[*]}" >&2
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
    else
        echo "missing ${need[*]}: the tests that need them will be skipped" >&2
    fi
fi
