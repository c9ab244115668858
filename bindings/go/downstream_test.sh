#!/bin/sh
# go.downstream: what a Go user outside this repository does. Installs the build into a scratch
# prefix, writes a module in a temporary directory outside the repository whose go.mod requires
# xsession through a replace to this binding (nothing is downloaded: GOPROXY=off), builds
# cmd/agentloop's program there against the installed library found through pkg-config only,
# runs it and compares its output.
#
# Usage: downstream_test.sh BUILD_DIR BINDING_DIR GO WORK_DIR
# (WORK_DIR keeps the prefix and Go's caches; the module itself goes under $TMPDIR.)
set -eu
build=$1 binding=$2 go=$3 work=$4

rm -rf "$work/prefix"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
pc=$(find "$work/prefix" -name xsession.pc)
[ "$(printf '%s\n' "$pc" | wc -l)" = 1 ] || { echo "expected one installed xsession.pc, found: $pc"; exit 1; }
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")

module=$(mktemp -d "${TMPDIR:-/tmp}/xs-go-downstream.XXXXXX")
trap 'rm -rf "$module"' EXIT
case "$module" in "$(cd "$binding/../.." && pwd)"/*) echo "the module must be outside the repository"; exit 1 ;; esac
cp "$binding/cmd/agentloop/main.go" "$module/main.go"
cat >"$module/go.mod" <<MOD
module example.com/agentloop

go 1.19

require xsession v0.0.0

replace xsession => $binding
MOD

# The installed xsession.pc names the configured prefix; --define-prefix makes pkg-config take
# the prefix the file is installed under, as for any relocated install.
cat >"$module/pkg-config" <<'PC'
#!/bin/sh
exec pkg-config --define-prefix "$@"
PC
chmod +x "$module/pkg-config"

cd "$module"
env -u CGO_LDFLAGS -u CGO_CFLAGS PKG_CONFIG="$module/pkg-config" PKG_CONFIG_PATH="$pcdir" \
  CGO_ENABLED=1 GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local GOTELEMETRY=off GOENV=off \
  GOCACHE="$work/cache" GOPATH="$work/gopath" "$go" build -o agentloop .

# The program must use the installed library: nothing else is on its search path.
env LD_LIBRARY_PATH="$libdir" DYLD_LIBRARY_PATH="$libdir" ./agentloop "$module/store" >out.txt
cat >want.txt <<'WANT'
user: Why does the build fail?
branchSummary: Tried the missing-include theory.
label "diagnosis": assistant "A missing include."
4 entries, dialect omp, persisted true
WANT
if ! cmp -s out.txt want.txt; then
  echo "agentloop printed:"; cat out.txt; echo "want:"; cat want.txt
  exit 1
fi
echo "downstream module built against $libdir and ran"
