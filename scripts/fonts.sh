#!/usr/bin/env bash
# Rebuilds the PDF fonts in src/assets/fonts/ (committed; run only to change the character ranges
# or the Noto version). Sources: the Noto Sans, Noto Sans Devanagari and Noto Sans Tamil TTFs of the
# pinned @expo-google-fonts devDependencies (SIL Open Font License 1.1, src/assets/fonts/OFL.txt).
# Each font is cut down to its script with fontTools' pyftsubset (Debian: apt-get install fonttools),
# keeping every OpenType layout feature, which Indic shaping needs; hinting is dropped (PDF viewers
# do not use it). The Worker then embeds only the glyphs a document draws.
set -euo pipefail
cd "$(dirname "$0")/.."
N=node_modules/@expo-google-fonts
OUT=src/assets/fonts
LATIN="U+0020-007E,U+00A0-017F,U+0218-021B,U+02C6-02DD,U+2010-2027,U+2030,U+2039-203A,U+20B9,U+2122,U+2212,U+25CC,U+FEFF"
DEVANAGARI="U+0020,U+002D,U+002E,U+0900-097F,U+A8E0-A8FF,U+1CD0-1CFF,U+200B-200D,U+25CC"
TAMIL="U+0020,U+002D,U+002E,U+0964-0965,U+0B80-0BFF,U+11FC0-11FFF,U+200B-200D,U+25CC"
subset() { pyftsubset "$1" --unicodes="$2" --layout-features='*' --name-IDs='*' --no-hinting --output-file="$3"; }
for weight in 400Regular:Regular 700Bold:Bold; do
  src=${weight%%:*} dst=${weight##*:}
  subset "$N/noto-sans/$src/NotoSans_$src.ttf" "$LATIN" "$OUT/NotoSans-$dst.ttf"
  subset "$N/noto-sans-devanagari/$src/NotoSansDevanagari_$src.ttf" "$DEVANAGARI" "$OUT/NotoSansDevanagari-$dst.ttf"
  subset "$N/noto-sans-tamil/$src/NotoSansTamil_$src.ttf" "$TAMIL" "$OUT/NotoSansTamil-$dst.ttf"
done
ls -l "$OUT"
