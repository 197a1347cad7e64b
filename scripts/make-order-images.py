#!/usr/bin/env python3
"""Draw the images of the sample order templates in OrderTemplates/.

Standard library only, deterministic (no timestamps, no ancillary chunks). Every image is square, 40 x 40 pt,
written at 1x, 2x and 3x (40, 80 and 120 px) as 8-bit RGBA PNG: a rounded tile in the merchant's or the item's
colour with a light disc, supersampled 4 x 4 for smooth edges.

Usage: python3 scripts/make-order-images.py [--out DIR]
"""

import argparse
import os
import struct
import zlib

SIZE_PT = 40
SCALES = (1, 2, 3)
SUPERSAMPLE = 4

# template folder -> image name -> (tile colour, disc colour, disc radius as a fraction of the side)
IMAGES = {
    "Shipment.order": {
        "logo": ((27, 94, 32), (232, 245, 233), 0.28),
        "item-headphones": ((38, 50, 56), (176, 190, 197), 0.34),
        "item-case": ((121, 85, 72), (215, 204, 200), 0.22),
    },
    "StorePickup.order": {
        "logo": ((183, 28, 28), (255, 235, 238), 0.28),
        "item-espresso": ((62, 39, 35), (188, 170, 164), 0.30),
        "item-grinder": ((69, 90, 100), (207, 216, 220), 0.26),
    },
}


def coverage(x, y, side, radius_fraction):
    """Fraction of pixel (x, y) covered by the disc, and whether it lies inside the rounded tile."""
    corner = side * 0.18
    inside_tile = 0
    inside_disc = 0
    centre = side / 2
    radius = side * radius_fraction
    for sy in range(SUPERSAMPLE):
        for sx in range(SUPERSAMPLE):
            px = x + (sx + 0.5) / SUPERSAMPLE
            py = y + (sy + 0.5) / SUPERSAMPLE
            dx = max(corner - px, 0, px - (side - corner))
            dy = max(corner - py, 0, py - (side - corner))
            if dx * dx + dy * dy <= corner * corner:
                inside_tile += 1
                if (px - centre) ** 2 + (py - centre) ** 2 <= radius * radius:
                    inside_disc += 1
    total = SUPERSAMPLE * SUPERSAMPLE
    return inside_tile / total, inside_disc / total


def draw(side, tile, disc, radius_fraction):
    rows = []
    for y in range(side):
        row = bytearray([0])
        for x in range(side):
            alpha, mix = coverage(x, y, side, radius_fraction)
            weight = mix / alpha if alpha else 0
            colour = [round(t * (1 - weight) + d * weight) for t, d in zip(tile, disc)]
            row += bytes(colour + [round(alpha * 255)])
        rows.append(bytes(row))
    return b"".join(rows)


def png(side, pixels):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(pixels, 9)) + chunk(b"IEND", b"")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "OrderTemplates"))
    args = parser.parse_args()
    for folder, images in IMAGES.items():
        os.makedirs(os.path.join(args.out, folder), exist_ok=True)
        for name, (tile, disc, radius) in images.items():
            for scale in SCALES:
                side = SIZE_PT * scale
                suffix = "" if scale == 1 else f"@{scale}x"
                path = os.path.join(args.out, folder, f"{name}{suffix}.png")
                with open(path, "wb") as handle:
                    handle.write(png(side, draw(side, tile, disc, radius)))


if __name__ == "__main__":
    main()
