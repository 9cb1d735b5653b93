#!/bin/bash
# Fails unless every dynamic symbol libporter.so defines is a porter_* entry point of porter.h
# (global or weak symbols of nm -D --defined-only; the local ones the linker keeps in .dynsym
# cannot be bound from outside), and counts them.
set -euo pipefail
lib="$1"
defined=$(nm -D --defined-only "$lib" | awk '$2 ~ /[A-Z]/ {print $3}' | sort)
others=$(grep -v '^porter_' <<<"$defined" || true)
if [ -n "$others" ]; then
  echo "$lib exports names other than porter_*:" >&2
  echo "$others" | head -20 >&2
  exit 1
fi
declared=$(grep -o '\bporter_[a-z_]*(' "$(dirname "$0")/include/porter.h" | tr -d '(' | sort -u)
if [ "$declared" != "$defined" ]; then
  echo "$lib's porter_* symbols differ from porter.h's functions:" >&2
  diff <(echo "$declared") <(echo "$defined") >&2 || true
  exit 1
fi
echo "$lib exports $(wc -l <<<"$defined") symbols, all porter_* functions of porter.h"
