#!/usr/bin/env bash
# Installs the Debian packages kfeed builds against, and the fonts its tests draw captions with, when missing.
# As root: apt-get update, then apt-get install. As another user: prints the exact command and stops.
# Usage: scripts/deps.sh [extra packages…]
set -euo pipefail
packages=(
  libcurl4-openssl-dev libturbojpeg0-dev libjpeg62-turbo-dev pkg-config
  # Display renders (docs/renders.md): opened with dlopen on the first render, headers at build time.
  libspng-dev libfontconfig-dev libharfbuzz-dev libfreetype6
  # Caption fonts: Latin, Greek, Cyrillic, Arabic, Hebrew; Hangul, kana, Han; colour emoji.
  fonts-dejavu-core fonts-wqy-microhei fonts-noto-color-emoji
  # kfeed serve behind a real caching proxy (CachingProxyTests, docs/serve.md "Behind a cache or a CDN").
  nginx-light
  # Feeds read back by real parsers (FeedDocumentTests, DashboardClientsTests): feedparser for RSS, as Home
  # Assistant's feedreader uses it; pip for jsonfeed-util (JSON Feed 1.1, below), which Debian does not package.
  python3-feedparser python3-pip
  "$@"
)
missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
# jsonfeed-util for /usr/bin/python3, in a directory of its own (Fixtures/tools/read-feed.py puts it on PYTHONPATH).
jsonfeed_dir=/usr/local/lib/kfeed-python
install_jsonfeed() {
  [ -d "$jsonfeed_dir/jsonfeed" ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "kfeed's tests need jsonfeed-util: sudo /usr/bin/python3 -m pip install --target $jsonfeed_dir jsonfeed-util==1.2.0" >&2
    return 1
  fi
  /usr/bin/python3 -m pip install -q --disable-pip-version-check --target "$jsonfeed_dir" jsonfeed-util==1.2.0 >/dev/null
}
if [ ${#missing[@]} -eq 0 ]; then
  install_jsonfeed
  exit $?
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "kfeed needs these Debian packages: ${missing[*]}" >&2
  echo "run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_jsonfeed
