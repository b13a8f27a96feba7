#!/usr/bin/env bash
# The lint works wherever a bundle lives (issue 30): docs/OPERATIONS.md has an author edit
# a copy of the scripts outside the repository, and .luacheckrc once limited luacheck to
# scripts/**, so `luacheck /tmp/hotfix` checked 0 files and passed anything. Here a copy
# in a temporary folder is checked from the repository root: clean, it passes with every
# file counted; with a global planted in a card file, it fails and names the line.
set -euo pipefail
cd "${DECKHAND_SOURCE_DIR:-$(dirname "${BASH_SOURCE[0]}")/../..}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -r scripts/deckbuilder scripts/dominion "$dir/"
files=$(find "$dir" -name '*.lua' | wc -l)
out=$(luacheck --no-color -q "$dir") || { echo "a clean copy failed: $out"; exit 1; }
grep -q "in $files files" <<<"$out" || { echo "not every file checked ($files): $out"; exit 1; }
sed -i '1i leaked_global = 1' "$dir/dominion/cards.lua"
if out=$(luacheck --no-color -q "$dir"); then
    echo "a global in a copy outside scripts/ passed: $out"
    exit 1
fi
grep -q "dominion/cards.lua:1:1: setting non-standard global variable 'leaked_global'" <<<"$out" ||
    { echo "the planted global is not named: $out"; exit 1; }
echo "luacheck checks a bundle outside scripts/: $files files, the planted global found"
