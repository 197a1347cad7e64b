#!/usr/bin/env python3
"""Prints, as JSON, the barcodes zxing-cpp finds in an image file (PNG, PGM, …): [{"format": …, "text": …}, …]."""
import json
import sys

import zxingcpp
from PIL import Image

if len(sys.argv) != 2:
    sys.exit("usage: decode_barcodes.py IMAGE")
print(json.dumps([{"format": str(b.format), "text": b.text} for b in zxingcpp.read_barcodes(Image.open(sys.argv[1]))]))
