#!/bin/sh
# Makes the Urdu font the console serves, static/fonts/naskh-regular.woff2: Noto
# Naskh Arabic (SIL Open Font License 1.1, Debian's fonts-noto-core), cut
# down to the letters of static/fonts/urdu-chars.txt, which are every
# Arabic-script letter of the catalogue (i18n/catalog/*ur*.json) and of the
# built-in scenarios (TestUrduFontCovers checks it). Run it from web/ after
# adding Urdu text with new letters:
#
#	apt-get install fonts-noto-core python3-fonttools python3-brotli
#	sh fontsubset.sh
set -eu
cd "$(dirname "$0")"
python3 - <<'PY'
import glob
chars = set()
for f in glob.glob("../i18n/catalog/*ur*.json") + glob.glob("../scenarios/**/*.lua", recursive=True):
    chars |= {c for c in open(f, encoding="utf-8").read() if 0x0600 <= ord(c) <= 0x06FF}
open("static/fonts/urdu-chars.txt", "w", encoding="utf-8").write("".join(sorted(chars)) + "\n")
PY
for w in Regular; do
	/usr/bin/python3 -m fontTools.subset "/usr/share/fonts/truetype/noto/NotoNaskhArabic-$w.ttf" \
		--text-file=static/fonts/urdu-chars.txt --unicodes=U+200C-200F,U+2066-2069 \
		--layout-features='*' --flavor=woff2 --no-hinting --desubroutinize \
		--output-file="static/fonts/naskh-$(echo $w | tr A-Z a-z).woff2"
done
ls -l static/fonts
