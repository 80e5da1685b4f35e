#!/usr/bin/env bash
# kfeed as a user installs it: makes the .deb (scripts/package.sh), checks it with lintian, installs it on this
# machine with apt-get, and checks what was installed: the user, the files and their modes, `kfeed --version`, the
# bundled sample refreshed and shown through the shipped feeds file as the units run it (user kfeed, /etc/kfeed,
# /var/cache/kfeed), the same with the Swift toolchain hidden, the units (systemd-analyze verify), the man pages
# and bash completion; then purges it and checks what stays. Needs root (it installs); scripts/test.sh runs it.
# Usage: scripts/package-test.sh [--binary PATH]
#   Without --binary it packages the test build's binary (.build/debug/kfeed, built by scripts/test.sh with -O),
#   relinked with the Swift runtime inside (seconds, where a release build of everything takes minutes);
#   scripts/package.sh alone makes the release package.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
if [ "$(id -u)" -ne 0 ]; then
  echo "package-test.sh: installs a package, so it runs as root; skipped" >&2
  exit 0
fi
binary=""
case "${1:-}" in
  --binary) binary="$2" ;;
  "") ;;
  *) echo "usage: scripts/package-test.sh [--binary PATH]" >&2; exit 64 ;;
esac
# lintian checks the package, bash-completion runs completions as an interactive shell would, man-db shows pages.
bash scripts/deps.sh dpkg-dev lintian bash-completion man-db
work="$(mktemp -d)"
installed=0
cleanup() {
  if [ "$installed" = 1 ]; then
    apt-get purge -y -qq -o DPkg::Lock::Timeout=300 kfeed >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "package-test.sh: FAIL: $*" >&2; exit 1; }
step() { echo "package-test.sh: [${SECONDS}s] $*" >&2; }

expected_commit() { bash scripts/expected-commit.sh; }

if [ -z "$binary" ]; then
  # SwiftPM caches what Package.swift said, the commit included, by the manifest's path and text: a working tree at
  # a newer commit, or a new clone where an older one was, builds the older commit into --version until the manifest
  # is read again. Then read it again, with scripts/test.sh's build command (only the commit's C file recompiles).
  if ! .build/debug/kfeed --version 2>/dev/null | grep -qF "(commit $(expected_commit))"; then
    step "the test build names another commit than $(expected_commit): reading Package.swift again"
    touch Package.swift
    swift build --build-tests -Xswiftc -O -Xswiftc -warnings-as-errors --manifest-cache none >&2
  fi
  # The test build's kfeed, linked again with -static-stdlib: SwiftPM's own link command for it (from the build
  # description), plus one object compiled with -static-stdlib that names the static runtime's libraries (Foundation's
  # ICU, collections, shims…), which objects compiled against the shared runtime do not ask for.
  description=".build/debug.yaml"
  [ -f "$description" ] && [ -x .build/debug/kfeed ] || fail "no test build: run scripts/test.sh (or swift build)"
  printf 'import Dispatch\nimport Foundation\n' >"$work/runtime.swift"
  swiftc -static-stdlib -parse-as-library -c "$work/runtime.swift" -o "$work/runtime.o"
  binary="$work/kfeed"
  python3 - "$description" "$binary" "$work/runtime.o" >"$work/link.args" <<'PY'
import json, re, sys
description, output, runtime = sys.argv[1:]
text = open(description).read()
match = re.search(r'description: "Linking [^"]*/debug/kfeed"\n\s*args: (\[.*\])', text)
args = json.loads(match.group(1))
args[args.index("-o") + 1] = output
print("\n".join(args + ["-static-stdlib", runtime]))
PY
  mapfile -t link <"$work/link.args"
  "${link[@]}" 2>"$work/link.log" || { cat "$work/link.log" >&2; fail "relinking the test build statically"; }
fi
if ldd "$binary" | grep -q 'libswift\|libFoundation\|libdispatch'; then
  fail "$binary links the Swift runtime dynamically: $(ldd "$binary" | grep -o 'lib[a-zA-Z_]*swift[^ ]*' | head -3)"
fi

step "building the package"
deb="$(bash scripts/package.sh --binary "$binary" --out "$work/out" | tail -n 1)"
[ -f "$deb" ] || fail "scripts/package.sh made no package"

step "lintian"
# Tags below warning (info, pedantic) are shown, not failed; packaging/lintian-overrides explains each override.
lintian --fail-on error,warning --display-info "$deb" >&2 || fail "lintian: see above"

step "installing $deb"
export DEBIAN_FRONTEND=noninteractive
if dpkg-query -W -f='${Status}' kfeed 2>/dev/null | grep -q 'install ok installed'; then
  fail "kfeed is already installed here; this test installs and purges its own (dpkg --purge kfeed first)"
fi
installed=1
apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 "$deb" >"$work/apt.log" 2>&1 ||
  { cat "$work/apt.log" >&2; fail "apt-get install"; }

# The user, the directories and the token file, as postinst leaves them.
getent passwd kfeed | grep -q ':/var/cache/kfeed:/usr/sbin/nologin$' || fail "no system user kfeed"
[ "$(stat -c '%U:%G %a' /var/cache/kfeed)" = "kfeed:kfeed 755" ] || fail "/var/cache/kfeed: $(stat -c '%U:%G %a' /var/cache/kfeed)"
[ "$(stat -c '%U:%G %a' /etc/kfeed/env)" = "root:kfeed 640" ] || fail "/etc/kfeed/env: $(stat -c '%U:%G %a' /etc/kfeed/env)"
grep -qx '/etc/kfeed/kfeed.toml' /var/lib/dpkg/info/kfeed.conffiles || fail "kfeed.toml is not a conffile"
[ "$(command -v kfeed)" = /usr/bin/kfeed ] || fail "kfeed is not /usr/bin/kfeed on PATH"

# The version names the release and the commit.
version="$(kfeed --version)"
step "$version"
[[ "$version" =~ ^kfeed\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ (.*)\)$ ]] && [ "${BASH_REMATCH[1]}" = "$(expected_commit)" ] ||
  fail "kfeed --version says '$version'; the tree is at $(expected_commit)"

# The sample, as the units run kfeed: user kfeed, the shipped feeds file, the cache in /var/cache/kfeed. The feeds
# file's one feed answered from the recorded responses, with a TRMNL render (libspng, fontconfig, HarfBuzz opened).
sample="$repo/Fixtures/replay/sample"
as_unit() {
  runuser -u kfeed -- env -i PATH=/usr/bin:/bin KFEED_CONFIG=/etc/kfeed/kfeed.toml KFEED_CACHE_DIR=/var/cache/kfeed \
    "$@"
}
step "the sample through the installed kfeed"
as_unit kfeed refresh --replay "$sample" --cache /var/cache/kfeed --now 2026-11-22T09:00:00Z --profile trmnl \
  2>"$work/refresh.err" || { cat "$work/refresh.err" >&2; fail "kfeed refresh --replay"; }
as_unit kfeed timeline --cache /var/cache/kfeed --now 2026-11-22T09:30:00Z >"$work/timeline.out" ||
  fail "kfeed timeline"
grep -q '^entries  24, every 1h' "$work/timeline.out" || { cat "$work/timeline.out" >&2; fail "no 24-entry timeline"; }
grep -q '@concert_diary' "$work/timeline.out" || fail "the timeline lacks the sample's first post"
render="$(as_unit kfeed current --cache /var/cache/kfeed --now 2026-11-22T09:30:00Z | python3 -c \
  'import json, sys; print(json.load(sys.stdin)["renders"]["trmnl"])')"
[ "$(head -c 8 "$render" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "no TRMNL render at $render"
[ -z "$(find /var/cache/kfeed ! -user kfeed)" ] || fail "files in /var/cache/kfeed not owned by kfeed"

# The Swift toolchain hidden (an empty directory over it, in a mount namespace of its own): kfeed still starts.
if [ -d /opt/swift ] && ! unshare -m true 2>/dev/null; then
  step "note: this machine allows no mount namespace; the toolchain is not hidden (ldd showed no Swift library)"
elif [ -d /opt/swift ]; then
  step "the same with /opt/swift hidden"
  unshare -m sh -c 'mount -t tmpfs -o ro tmpfs /opt/swift && [ -z "$(ls -A /opt/swift)" ] && exec "$@"' sh \
    runuser -u kfeed -- env -i KFEED_CONFIG=/etc/kfeed/kfeed.toml /usr/bin/kfeed timeline --cache /var/cache/kfeed/hidden \
    --replay "$sample" --now 2026-11-22T09:00:00Z >"$work/hidden.out" 2>"$work/hidden.err" ||
    { cat "$work/hidden.err" >&2; fail "kfeed with /opt/swift hidden"; }
  grep -q '^entries  24, every 1h' "$work/hidden.out" || fail "with /opt/swift hidden: $(head -3 "$work/hidden.out")"
fi

step "systemd-analyze verify"
systemd-analyze verify /lib/systemd/system/kfeed.service /lib/systemd/system/kfeed.timer \
  /lib/systemd/system/kfeed-serve.service 2>"$work/verify.log" || { cat "$work/verify.log" >&2; fail "verify"; }
# It prints problems without failing for some (an unknown key, a bad value): any line naming a kfeed unit fails.
if grep -i 'kfeed' "$work/verify.log"; then fail "systemd-analyze verify complained"; fi

step "man pages"
MANWIDTH=100 man -P cat kfeed 2>"$work/man.err" >"$work/man.out" || { cat "$work/man.err" >&2; fail "man kfeed"; }
grep -q 'SYNOPSIS' "$work/man.out" && grep -q 'timeline' "$work/man.out" || fail "man kfeed: $(head -5 "$work/man.out")"
MANWIDTH=100 man -P cat kfeed.refresh 2>/dev/null | grep -q -- '--force' || fail "man kfeed.refresh lacks --force"

step "bash completion"
completed="$(bash -c 'source /usr/share/bash-completion/bash_completion
  source /usr/share/bash-completion/completions/kfeed
  function="$(complete -p kfeed | sed -n "s/.* -F \\([^ ]*\\) .*/\\1/p")"
  COMP_WORDS=(kfeed ""); COMP_CWORD=1; COMP_LINE="kfeed "; COMP_POINT=6; "$function" kfeed "" kfeed
  echo "${COMPREPLY[*]}"')"
for command in timeline refresh current query preview serve status; do
  [[ " $completed " == *" $command "* ]] || fail "bash completes 'kfeed <TAB>' to '$completed', without $command"
done
[ -s /usr/share/zsh/vendor-completions/_kfeed ] && [ -s /usr/share/fish/vendor_completions.d/kfeed.fish ] ||
  fail "no zsh or fish completions"

step "purging"
apt-get purge -y -qq -o DPkg::Lock::Timeout=300 kfeed >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "purge"; }
installed=0
[ ! -e /usr/bin/kfeed ] && [ ! -e /etc/kfeed ] && [ ! -e /var/cache/kfeed ] || fail "purge left files behind"
getent passwd kfeed >/dev/null || fail "purge removed the kfeed user (it should stay)"
step "ok: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
