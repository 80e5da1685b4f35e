#!/usr/bin/env bash
# Prints the commit a kfeed built here names in `kfeed --version` (git's short id, as Package.swift reads it, with
# -dirty for a changed tree), or "unknown" outside a checkout. Used by scripts/package.sh and package-test.sh.
set -euo pipefail
if git rev-parse --git-dir >/dev/null 2>&1; then
  dirty=""
  [ -z "$(git status --porcelain 2>/dev/null)" ] || dirty="-dirty"
  echo "$(git rev-parse --short=7 HEAD)$dirty"
else
  echo unknown
fi
