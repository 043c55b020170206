#!/usr/bin/env python3
"""Builds src/referee/board_glyphs.woff2: the few Chinese glyphs the referee's boards draw, cut
from Noto Serif CJK TC Bold (SIL Open Font License 1.1) and renamed, so that a report or page
renders its pieces on a machine without a CJK font.

Needs Debian's fonts-noto-cjk and `pip install fonttools brotli`. Run from the repository root:

    python3 tools/board_glyphs.py
"""

import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

SOURCE = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
# The collection's traditional Chinese face.
FACE = "Noto Serif CJK TC"
# Red's pieces, Black's pieces, and the river's words.
TEXT = "帥仕相傌俥炮兵" + "將士象馬車砲卒" + "楚河漢界"
OUTPUT = "src/referee/board_glyphs.woff2"
FAMILY = "xq board glyphs"


def main() -> int:
    fonts = TTCollection(SOURCE).fonts
    font = next((f for f in fonts if f["name"].getDebugName(1) == FACE), None)
    if font is None:
        print(f"{SOURCE}: no face named {FACE!r}", file=sys.stderr)
        return 1
    options = subset.Options()
    options.flavor = "woff2"
    options.desubroutinize = True
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=TEXT)
    subsetter.subset(font)
    names = font["name"]
    for record in list(names.names):
        new = {1: FAMILY, 16: FAMILY, 4: FAMILY + " Bold", 3: "xqBoardGlyphs-Bold", 6: "xqBoardGlyphs-Bold"}
        if record.nameID in new:
            names.setName(new[record.nameID], record.nameID, record.platformID, record.platEncID, record.langID)
    font.flavor = "woff2"
    font.save(OUTPUT)
    missing = [c for c in TEXT if ord(c) not in font.getBestCmap()]
    if missing:
        print(f"missing glyphs: {''.join(missing)}", file=sys.stderr)
        return 1
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
