#!/usr/bin/env bash
# Builds kfeed's Debian package: the release binary (the Swift runtime linked in, stripped), the systemd units, the
# feeds file, man pages and completions made by the binary itself, Depends computed from it. No debhelper: the
# layout is small and packaging/README.md says where each file goes and why.
# Usage: scripts/package.sh [--binary PATH] [--out DIR]
#   --binary PATH  package this kfeed instead of building one (scripts/package-test.sh packages the test build's)
#   --out DIR      where the .deb goes (default: .build/deb); its path is the last line printed
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
out=".build/deb"
while [ $# -gt 0 ]; do
  case $1 in
    --binary) binary="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: scripts/package.sh [--binary PATH] [--out DIR]" >&2; exit 64 ;;
  esac
done
bash scripts/deps.sh dpkg-dev

expected_commit() { bash scripts/expected-commit.sh; }

if [ -z "$binary" ]; then
  build=(swift build -c release --static-swift-stdlib --product kfeed)
  "${build[@]}" >&2
  binary=".build/release/kfeed"
  # SwiftPM caches what Package.swift said, the commit included: in a working tree with a newer commit than the
  # last build read, read it again (a fresh clone never needs this).
  if ! "$binary" --version | grep -qF "(commit $(expected_commit))"; then
    echo "package.sh: $("$binary" --version) is not $(expected_commit); reading Package.swift again" >&2
    touch Package.swift
    "${build[@]}" --manifest-cache none >&2
  fi
fi
[ -x "$binary" ] || { echo "package.sh: no kfeed at $binary" >&2; exit 66; }

version="$("$binary" --version | awk '{ print $2 }')"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "package.sh: unexpected version '$version'" >&2; exit 65; }
arch="$(dpkg --print-architecture)"
# File dates in the package: the commit's, so that the same commit makes the same package.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/root"
doc="$root/usr/share/doc/kfeed"
install -d -m 0755 "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/etc/kfeed" \
  "$root/usr/share/kfeed" "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
  "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d" "$doc"

install -m 0755 "$binary" "$root/usr/bin/kfeed"
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/kfeed"
install -m 0644 packaging/kfeed.service packaging/kfeed.timer packaging/kfeed-serve.service "$root/lib/systemd/system/"
install -m 0644 packaging/kfeed.toml "$root/etc/kfeed/kfeed.toml"
# The template postinst copies to /etc/kfeed/env (root:kfeed 0640: the group exists only once postinst has run).
install -m 0644 packaging/env "$root/usr/share/kfeed/env"
install -m 0644 packaging/copyright "$doc/copyright"
gzip -9nc packaging/changelog >"$doc/changelog.gz"

# Man pages from the commands' own help: kfeed(1) and kfeed.COMMAND(1), by swift-argument-parser's generate-manual
# (the tool its GenerateManual plugin runs; built on its own, as the plugin would rebuild every product first).
parser=".build/checkouts/swift-argument-parser"
[ -d "$parser" ] || swift package resolve >&2
tools=".build/tools"
swift build --package-path "$parser" --scratch-path "$tools" --product generate-manual >&2
manual_date="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)"
"$tools/debug/generate-manual" "$binary" --multi-page --section 1 --date "$manual_date" \
  --output-directory "$work" >&2
# `help` is argument-parser's own subcommand (kfeed help COMMAND), not worth a page. A subcommand's page names itself
# kfeed.COMMAND in NAME, as its file is named, so that man-db's whatis finds it (it cannot read the quoted
# "kfeed COMMAND" there); its SYNOPSIS still reads `kfeed COMMAND`.
rm -f "$work/kfeed.help.1"
for page in "$work"/*.1; do
  name="$(basename "$page" .1)"
  words="${name//./ }"
  sed -i -e "0,/^\.Nm \"$words\"\$/s//.Nm $name/" -e "s/^\.Nm\$/.Nm \"$words\"/" \
    -e 's/^\.Nd "\(.*\)"$/.Nd \1/' "$page"
  gzip -9nc "$page" >"$root/usr/share/man/man1/$name.1.gz"
done
[ -f "$root/usr/share/man/man1/kfeed.1.gz" ] || { echo "package.sh: generate-manual made no kfeed.1" >&2; exit 70; }

# Completions from the binary, where Debian's bash-completion, zsh and fish look for them.
# bash-completion sources its files: no #! line.
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/kfeed"
"$binary" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_kfeed"
"$binary" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/kfeed.fish"

install -m 0644 packaging/conffiles "$root/DEBIAN/conffiles"
install -m 0755 packaging/postinst packaging/prerm packaging/postrm "$root/DEBIAN/"

# Depends: what the binary links (dpkg-shlibdeps reads its NEEDED entries: libc, libstdc++, libturbojpeg…), and the
# libraries kfeed opens with dlopen, which no tool can see in the binary:
#   libcurl4 (libcurl.so.4): every request to X and every picture download;
#   libjpeg62-turbo (libjpeg.so.62): decoding every picture;
#   libssl3 (libcrypto.so.3): the server's signed picture URLs (HMAC-SHA-256);
#   adduser: postinst makes the kfeed user with it.
# Recommends: what only display renders open (--profile, TRMNL), each named by kfeed when missing:
#   libspng0 (libspng.so.0): PNG renders; libfontconfig1, libfreetype6, libharfbuzz0b: the caption band;
#   fonts-dejavu-core: a font for captions (a render without a font says which package to install).
mkdir -p "$work/shlibs/debian"
printf 'Source: kfeed\n\nPackage: kfeed\nArchitecture: any\n' >"$work/shlibs/debian/control"
linked="$(cd "$work/shlibs" && dpkg-shlibdeps -O -e"$root/usr/bin/kfeed" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[ -n "$linked" ] || { echo "package.sh: dpkg-shlibdeps found no dependencies in $binary" >&2; exit 70; }
opened="libcurl4, libjpeg62-turbo, libssl3, adduser"
recommends="libspng0, libfontconfig1, libfreetype6, libharfbuzz0b, fonts-dejavu-core"
# Each opened library is where the package names say on this machine (the names above are not guessed).
for pair in libcurl.so.4:libcurl4 libjpeg.so.62:libjpeg62-turbo libcrypto.so.3:libssl3 libspng.so.0:libspng0 \
  libfontconfig.so.1:libfontconfig1 libfreetype.so.6:libfreetype6 libharfbuzz.so.0:libharfbuzz0b; do
  owner="$(dpkg-query -S "*/${pair%%:*}" 2>/dev/null | head -n 1 | cut -d: -f1)"
  [ "$owner" = "${pair##*:}" ] || { echo "package.sh: ${pair%%:*} is in '$owner', not ${pair##*:}" >&2; exit 70; }
done

installed_size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
  -e "s/@DEPENDS@/$linked, $opened/" -e "s/@RECOMMENDS@/$recommends/" packaging/control >"$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -printf '%P\0' | sort -z \
  | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control" "$root/DEBIAN/conffiles"

mkdir -p "$out"
deb="$out/kfeed_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "$deb"
