#!/usr/bin/env python3
"""Draw the artwork of the sample pass templates in PassTemplates/.

Standard library only. Every image is described as vector shapes in points and
rasterised at 1x, 2x and 3x with exact-area anti-aliasing (the accumulation
rasteriser popularised by font-rs), then written as 8-bit RGBA PNG files.
Sizes follow the HIG table (Apple's Human Interface Guidelines, "Wallet"; also in
the library article "The pass format, key by key"): icon 38x38 pt, logo 160x50,
strip 375x144 (coupon, store card) or 375x98 (event ticket), background 180x220,
thumbnail 90x90, footer 286x15, and for poster event tickets artwork 358x448,
primaryLogo 126x30 and secondaryLogo 135x12. Localized images go into
<lang>.lproj/ folders (the Festival template's logos). The output is deterministic: no timestamps, no randomness
beyond a fixed-seed generator, no ancillary PNG chunks.

Usage: python3 scripts/make-template-images.py [--out DIR] [--only NAME] [--jobs N]
"""

import argparse
import math
import os
import struct
import sys
import zlib
from itertools import accumulate

SCALES = (1, 2, 3)
# Curves are flattened finely enough for the largest scale (chord error <= 0.05 px at 3x).
MAX_SCALE = 3.0

# ---------------------------------------------------------------------------
# Geometry helpers (all coordinates in points, y pointing down)
# ---------------------------------------------------------------------------


def signed_area(poly):
    a = 0.0
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        a += x0 * y1 - x1 * y0
    return a * 0.5


def orient(poly, hole=False):
    """Positive polygons add coverage, holes (opposite winding) remove it."""
    a = signed_area(poly)
    if (a < 0) != hole:
        return list(reversed(poly))
    return list(poly)


def segments_for(radius):
    r = max(radius * MAX_SCALE, 0.5)
    return max(12, int(math.ceil(math.pi / math.acos(max(-1.0, 1.0 - 0.05 / r)))))


def ellipse(cx, cy, rx, ry=None, angle=0.0, hole=False):
    ry = rx if ry is None else ry
    n = segments_for(max(rx, ry))
    ca, sa = math.cos(angle), math.sin(angle)
    pts = []
    for i in range(n):
        t = 2.0 * math.pi * i / n
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
    return orient(pts, hole)


def circle(cx, cy, r, hole=False):
    return ellipse(cx, cy, r, r, 0.0, hole)


def ring(cx, cy, r_outer, r_inner):
    return [circle(cx, cy, r_outer), circle(cx, cy, r_inner, hole=True)]


def arc_points(cx, cy, r, a0, a1, n=None):
    n = n or max(4, int(segments_for(r) * abs(a1 - a0) / (2 * math.pi)) + 1)
    return [(cx + r * math.cos(a0 + (a1 - a0) * i / n), cy + r * math.sin(a0 + (a1 - a0) * i / n))
            for i in range(n + 1)]


def rrect(x, y, w, h, r, hole=False):
    r = max(0.0, min(r, w / 2.0, h / 2.0))
    if r == 0:
        return orient([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], hole)
    pts = []
    pts += arc_points(x + w - r, y + r, r, -math.pi / 2, 0)
    pts += arc_points(x + w - r, y + h - r, r, 0, math.pi / 2)
    pts += arc_points(x + r, y + h - r, r, math.pi / 2, math.pi)
    pts += arc_points(x + r, y + r, r, math.pi, 1.5 * math.pi)
    return orient(pts, hole)


def rect(x, y, w, h):
    return orient([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])


def cubic(p0, p1, p2, p3, n=48):
    pts = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        pts.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                    a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return pts


def stroke(pts, width):
    """Outline of a smooth open polyline with round caps (miter joins)."""
    h = width / 2.0
    clean = [pts[0]]
    for p in pts[1:]:
        if abs(p[0] - clean[-1][0]) + abs(p[1] - clean[-1][1]) > 1e-9:
            clean.append(p)
    pts = clean
    if len(pts) == 1:
        return circle(pts[0][0], pts[0][1], h)
    normals = []
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        normals.append((-(y1 - y0) / length, (x1 - x0) / length))
    left, right = [], []
    for i, (px, py) in enumerate(pts):
        if i == 0:
            nx, ny = normals[0]
            m = 1.0
        elif i == len(pts) - 1:
            nx, ny = normals[-1]
            m = 1.0
        else:
            ax, ay = normals[i - 1]
            bx, by = normals[i]
            nx, ny = ax + bx, ay + by
            ln = math.hypot(nx, ny) or 1.0
            nx, ny = nx / ln, ny / ln
            m = 1.0 / max(0.35, nx * bx + ny * by)
        left.append((px + nx * h * m, py + ny * h * m))
        right.append((px - nx * h * m, py - ny * h * m))
    ex, ey = pts[-1]
    phi = math.atan2(normals[-1][1], normals[-1][0])
    end_cap = arc_points(ex, ey, h, phi, phi - math.pi)[1:-1]
    sx, sy = pts[0]
    phi = math.atan2(normals[0][1], normals[0][0])
    start_cap = arc_points(sx, sy, h, phi + math.pi, phi)[1:-1]
    return orient(left + end_cap + list(reversed(right)) + start_cap)


def line(x0, y0, x1, y1, width):
    return stroke([(x0, y0), (x1, y1)], width)


def transform(poly, dx=0.0, dy=0.0, scale=1.0, angle=0.0, sx=None, sy=None):
    sx = scale if sx is None else sx
    sy = scale if sy is None else sy
    ca, sa = math.cos(angle), math.sin(angle)
    out = [(dx + (x * sx) * ca - (y * sy) * sa, dy + (x * sx) * sa + (y * sy) * ca) for x, y in poly]
    return orient(out, signed_area(poly) < 0)


def star4(cx, cy, r, inner=0.28):
    pts = []
    for i in range(8):
        a = -math.pi / 2 + i * math.pi / 4
        rr = r if i % 2 == 0 else r * inner
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return orient(pts)


class Lcg:
    """Tiny deterministic pseudo-random generator (same sequence everywhere)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def next(self):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return self.state / 4294967296.0

    def uniform(self, a, b):
        return a + (b - a) * self.next()


# ---------------------------------------------------------------------------
# Paints
# ---------------------------------------------------------------------------

_LUT_CACHE = {}


def _lut(stops, steps):
    """stops: [(t, (r, g, b, a))] -> premultiplied lookup table (4 lists).

    Gradients are deliberately quantised to `steps` bands (a few pixels wide,
    about one level apart): all channels then change at the same places,
    which keeps the PNG filters' residuals sparse and the files small, with
    no visible banding."""
    key = (tuple(stops), steps)
    hit = _LUT_CACHE.get(key)
    if hit:
        return hit
    lr, lg, lb, la = [], [], [], []
    for i in range(steps):
        t = i / (steps - 1)
        if t <= stops[0][0]:
            c = stops[0][1]
        elif t >= stops[-1][0]:
            c = stops[-1][1]
        else:
            for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
                if t0 <= t <= t1:
                    u = (t - t0) / (t1 - t0) if t1 > t0 else 0.0
                    u = u * u * (3 - 2 * u) * 0.35 + u * 0.65  # slightly eased
                    c = tuple(a + (b - a) * u for a, b in zip(c0, c1))
                    break
        a = c[3]
        lr.append((c[0] + 0.5) * a)  # same 0.5 bias as Solid
        lg.append((c[1] + 0.5) * a)
        lb.append((c[2] + 0.5) * a)
        la.append(a)
    _LUT_CACHE[key] = (lr, lg, lb, la)
    return _LUT_CACHE[key]


def _steps(length_px, stops):
    """Number of gradient bands: bands >= ~3 px and colour steps <= ~1 level."""
    spread = 0.0
    for (_, c0), (_, c1) in zip(stops, stops[1:]):
        spread += max(abs(a - b) for a, b in zip(c0[:3], c1[:3])) + 255.0 * abs(c0[3] - c1[3])
    return int(max(16, min(256, length_px / 3.0, spread / 0.9)))


def _norm_stops(stops, alpha):
    return [(float(t), tuple(float(v) for v in c[:3]) + (float(c[3] if len(c) > 3 else 1.0) * alpha,))
            for t, c in stops]


class Solid:
    def __init__(self, color, alpha=1.0):
        # Premultiplied, plus 0.5 * alpha: the canvas then always holds
        # colour + 0.5 * coverage, and plain int() rounds correctly at the end.
        a = (color[3] if len(color) > 3 else 1.0) * alpha
        self.rgba = ((color[0] + 0.5) * a, (color[1] + 0.5) * a, (color[2] + 0.5) * a, a)


class Linear:
    def __init__(self, p0, p1, stops, alpha=1.0):
        self.p0, self.p1 = p0, p1
        self.stops = _norm_stops(stops, alpha)

    def row(self, s, yc, x0, n):
        (ax, ay), (bx, by) = self.p0, self.p1
        ax, ay, bx, by = ax * s, ay * s, bx * s, by * s
        dx, dy = bx - ax, by - ay
        l2 = dx * dx + dy * dy
        steps = _steps(math.sqrt(l2), self.stops)
        top = steps - 1
        k = top * dx / l2
        c0 = top * ((x0 + 0.5 - ax) * dx + (yc - ay) * dy) / l2 + 0.5
        idx = [int(c0 + k * i) for i in range(n)]
        if idx and (min(idx[0], idx[-1]) < 0 or max(idx[0], idx[-1]) > top):
            idx = [0 if v < 0 else (top if v > top else v) for v in idx]
        lr, lg, lb, la = _lut(self.stops, steps)
        return [lr[i] for i in idx], [lg[i] for i in idx], [lb[i] for i in idx], [la[i] for i in idx]


class Radial:
    def __init__(self, center, radius, stops, alpha=1.0, sy=1.0):
        self.c, self.r, self.sy = center, radius, sy
        self.stops = _norm_stops(stops, alpha)

    def row(self, s, yc, x0, n):
        cx, cy, r = self.c[0] * s, self.c[1] * s, self.r * s
        steps = _steps(r, self.stops)
        top = steps - 1
        k = top / r
        dy = (yc - cy) / self.sy
        dy2 = dy * dy
        sq = math.sqrt
        idx = [int(sq((x0 + i + 0.5 - cx) ** 2 + dy2) * k) for i in range(n)]
        idx = [v if v < top else top for v in idx]
        lr, lg, lb, la = _lut(self.stops, steps)
        return [lr[i] for i in idx], [lg[i] for i in idx], [lb[i] for i in idx], [la[i] for i in idx]


# ---------------------------------------------------------------------------
# Canvas and rasteriser
# ---------------------------------------------------------------------------


class Canvas:
    """Premultiplied float canvas: colour channels 0..255, alpha 0..1."""

    def __init__(self, w_pt, h_pt, scale, background=None):
        self.s = float(scale)
        self.w = int(round(w_pt * scale))
        self.h = int(round(h_pt * scale))
        w, h = self.w, self.h
        self.opaque = background is not None
        self.R = [[0.0] * w for _ in range(h)]
        self.G = [[0.0] * w for _ in range(h)]
        self.B = [[0.0] * w for _ in range(h)]
        self.A = [[0.0] * w for _ in range(h)]
        if background is not None:
            self.paint_all(background)

    def paint_all(self, paint):
        """Replace every pixel with the paint (no blending); a horizontal
        gradient is computed once and copied to every row."""
        flat = isinstance(paint, Linear) and paint.p0[1] == paint.p1[1]
        first = paint.row(self.s, 0.5, 0, self.w) if flat else None
        for y in range(self.h):
            if flat:
                self.R[y], self.G[y], self.B[y], self.A[y] = (list(ch) for ch in first)
            elif isinstance(paint, Solid):
                r, g, b, a = paint.rgba
                self.R[y] = [r] * self.w
                self.G[y] = [g] * self.w
                self.B[y] = [b] * self.w
                self.A[y] = [a] * self.w
            else:
                r, g, b, a = paint.row(self.s, y + 0.5, 0, self.w)
                self.R[y], self.G[y], self.B[y], self.A[y] = r, g, b, a

    # -- rasterisation -----------------------------------------------------

    def fill(self, shapes, paint, opacity=1.0, erase=False):
        """Fill polygons given in points. Overlapping polygons form a union,
        polygons wound the other way (see orient(hole=True)) cut holes.
        erase=True clears the covered pixels instead (destination-out)."""
        if shapes and isinstance(shapes[0], tuple):
            shapes = [shapes]
        s = self.s
        polys = [[(x * s, y * s) for x, y in p] for p in shapes if len(p) >= 3]
        # Rasterise far-apart groups separately so that scattered small shapes
        # (stars, dashes, confetti) do not composite the empty space between them.
        boxes = [(min(x for x, _ in p) - 1, min(y for _, y in p) - 1,
                  max(x for x, _ in p) + 1, max(y for _, y in p) + 1) for p in polys]
        parent = list(range(len(polys)))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in range(len(polys)):
            ax0, ay0, ax1, ay1 = boxes[i]
            for j in range(i):
                bx0, by0, bx1, by1 = boxes[j]
                if ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1:
                    ri, rj = find(i), find(j)
                    if ri != rj:
                        parent[max(ri, rj)] = min(ri, rj)
        groups = {}
        for i in range(len(polys)):
            groups.setdefault(find(i), []).append(polys[i])
        for key in sorted(groups):
            self._fill_group(groups[key], paint, opacity, erase)

    def _fill_group(self, polys, paint, opacity, erase):
        W, H = self.w, self.h
        minx = min(x for p in polys for x, _ in p)
        maxx = max(x for p in polys for x, _ in p)
        miny = min(y for p in polys for _, y in p)
        maxy = max(y for p in polys for _, y in p)
        cx0 = max(0, int(math.floor(minx)))
        cx1 = min(W, int(math.ceil(maxx)))
        ry0 = max(0, int(math.floor(miny)))
        ry1 = min(H, int(math.ceil(maxy)))
        if cx0 >= cx1 or ry0 >= ry1:
            return
        bw = cx1 - cx0 + 3
        nrows = ry1 - ry0
        buf = [[0.0] * bw for _ in range(nrows)]
        rmin = [bw] * nrows
        rmax = [-1] * nrows
        lo_x, hi_x = float(cx0), float(cx1)
        for p in polys:
            n = len(p)
            for i in range(n):
                x0, y0 = p[i]
                x1, y1 = p[(i + 1) % n]
                if y0 == y1:
                    continue
                # Clamp horizontally to the canvas: parts left of it act as a
                # vertical edge on its left border, parts right of it are invisible.
                pieces = [(x0, y0, x1, y1)]
                for bound in (lo_x, hi_x):
                    nxt = []
                    for (a0, b0, a1, b1) in pieces:
                        if (a0 - bound) * (a1 - bound) < 0:
                            t = (bound - a0) / (a1 - a0)
                            ym = b0 + (b1 - b0) * t
                            nxt.append((a0, b0, bound, ym))
                            nxt.append((bound, ym, a1, b1))
                        else:
                            nxt.append((a0, b0, a1, b1))
                    pieces = nxt
                for (a0, b0, a1, b1) in pieces:
                    a0 = lo_x if a0 < lo_x else (hi_x if a0 > hi_x else a0)
                    a1 = lo_x if a1 < lo_x else (hi_x if a1 > hi_x else a1)
                    _edge(buf, rmin, rmax, ry0, nrows, a0 - cx0, b0, a1 - cx0, b1)
        self._composite(buf, rmin, rmax, ry0, cx0, paint, opacity, erase)

    def _composite(self, buf, rmin, rmax, ry0, cx0, paint, opacity, erase):
        W = self.w
        solid = isinstance(paint, Solid)
        if solid:
            pr, pg, pb, pa = paint.rgba
        # A vertical linear gradient is one colour per row: use the solid path.
        per_row = isinstance(paint, Linear) and paint.p0[0] == paint.p1[0]
        top = opacity  # coverage value of fully covered pixels
        for r, row in enumerate(buf):
            lo, hi = rmin[r], rmax[r]
            if hi < lo:
                continue
            x0 = cx0 + lo
            x1 = min(W, cx0 + hi + 1)
            if x1 <= x0:
                continue
            n = x1 - x0
            acc = accumulate(row[lo:lo + n])
            if opacity == 1.0:
                cov = [1.0 if (v >= 1.0 or v <= -1.0) else (v if v >= 0.0 else -v) for v in acc]
            else:
                o = opacity
                cov = [o if (v >= 1.0 or v <= -1.0) else (v * o if v >= 0.0 else -v * o) for v in acc]
            y = ry0 + r
            chans = (self.R[y], self.G[y], self.B[y], self.A[y])
            if per_row:
                (pr,), (pg,), (pb,), (pa,) = paint.row(self.s, y + 0.5, x0, 1)
            elif not solid and not erase:
                cr, cg, cb, ca = paint.row(self.s, y + 0.5, x0, n)
                m = [1.0 - a * k for a, k in zip(ca, cov)]
                for ch, col in zip(chans if not self.opaque else chans[:3], (cr, cg, cb, ca)):
                    ch[x0:x1] = [d * q + c * k for d, q, c, k in zip(ch[x0:x1], m, col, cov)]
                continue
            # Solid paint or erase: fully covered runs take a fast path.
            segments = ((0, n),)
            full = cov.count(top) if n > 12 else 0
            if full > 6:
                i0 = cov.index(top)
                i1 = n - cov[::-1].index(top)
                if i1 - i0 == full:
                    segments = ((0, i0), (i1, n))
                    a, b = x0 + i0, x0 + i1
                    if erase:
                        keep = 1.0 - top
                        for ch in chans:
                            ch[a:b] = [0.0] * full if keep == 0.0 else [d * keep for d in ch[a:b]]
                    else:
                        q0 = 1.0 - pa * top
                        targets = chans if not self.opaque else chans[:3]
                        for ch, pc in zip(targets, (pr, pg, pb, pa)):
                            v = pc * top
                            ch[a:b] = [v] * full if q0 == 0.0 else [d * q0 + v for d in ch[a:b]]
            for i0, i1 in segments:
                if i1 <= i0:
                    continue
                a, b = x0 + i0, x0 + i1
                c = cov[i0:i1]
                if erase:
                    m = [1.0 - k for k in c]
                    for ch in chans:
                        ch[a:b] = [d * q for d, q in zip(ch[a:b], m)]
                else:
                    m = [1.0 - pa * k for k in c]
                    targets = chans if not self.opaque else chans[:3]
                    for ch, pc in zip(targets, (pr, pg, pb, pa)):
                        ch[a:b] = [d * q + pc * k for d, q, k in zip(ch[a:b], m, c)]

    # -- output ------------------------------------------------------------

    def rgba_rows(self):
        """8-bit RGBA rows. Every paint adds 0.5 * alpha to its premultiplied
        colour (see Solid), so int() truncation here rounds to nearest."""
        w = self.w
        for y in range(self.h):
            out = bytearray(4 * w)
            R, G, B, A = self.R[y], self.G[y], self.B[y], self.A[y]
            if self.opaque:
                out[0::4] = bytes(map(int, R))
                out[1::4] = bytes(map(int, G))
                out[2::4] = bytes(map(int, B))
                out[3::4] = b"\xff" * w
            else:
                alpha = bytes([int(a * 255.0 + 0.5) for a in A])
                i0 = w - len(alpha.lstrip(b"\0"))  # only the visible part needs unpremultiplying
                i1 = len(alpha.rstrip(b"\0"))
                if i1 > i0:
                    inv = [(1.0 / a if q else 0.0) for a, q in zip(A[i0:i1], alpha[i0:i1])]
                    for off, ch in ((0, R), (1, G), (2, B)):
                        vals = [int(v * i) for v, i in zip(ch[i0:i1], inv)]
                        if max(vals) > 255:  # float noise only; clamp to be safe
                            vals = [v if v < 255 else 255 for v in vals]
                        out[4 * i0 + off:4 * i1:4] = bytes(vals)
                out[3::4] = alpha
            yield bytes(out)


def _edge(buf, rmin, rmax, ry0, nrows, x0, y0, x1, y1):
    """Accumulate the signed area of one line segment (font-rs algorithm)."""
    if y0 == y1:
        return
    if y0 < y1:
        d = 1.0
    else:
        d = -1.0
        x0, y0, x1, y1 = x1, y1, x0, y0
    dxdy = (x1 - x0) / (y1 - y0)
    ys = max(int(math.floor(y0)), ry0)
    ye = min(int(math.ceil(y1)), ry0 + nrows)
    if ys >= ye:
        return
    top = y0 if y0 > ys else float(ys)
    x = x0 + (top - y0) * dxdy
    floor, ceil = math.floor, math.ceil
    for y in range(ys, ye):
        r = y - ry0
        row = buf[r]
        t = y0 if y0 > y else y
        b = y1 if y1 < y + 1 else y + 1
        dy = b - t
        xn = x + dxdy * dy
        dd = dy * d
        if x < xn:
            xa, xb = x, xn
        else:
            xa, xb = xn, x
        if xa < 0.0:  # float noise just left of the clamped border
            xa = 0.0
            if xb < 0.0:
                xb = 0.0
        xaf = floor(xa)
        xai = int(xaf)
        xbi = int(ceil(xb))
        if xbi <= xai + 1:
            xmf = 0.5 * (x + xn) - xaf
            row[xai] += dd - dd * xmf
            row[xai + 1] += dd * xmf
            hi = xai + 1
        else:
            sc = 1.0 / (xb - xa)
            f0 = xa - xaf
            a0 = 0.5 * sc * (1.0 - f0) * (1.0 - f0)
            f1 = xb - xbi + 1.0
            am = 0.5 * sc * f1 * f1
            row[xai] += dd * a0
            if xbi == xai + 2:
                row[xai + 1] += dd * (1.0 - a0 - am)
            else:
                a1 = sc * (1.5 - f0)
                row[xai + 1] += dd * (a1 - a0)
                step = dd * sc
                for xi in range(xai + 2, xbi - 1):
                    row[xi] += step
                a2 = a1 + (xbi - xai - 3) * sc
                row[xbi - 1] += dd * (1.0 - a2 - am)
            row[xbi] += dd * am
            hi = xbi
        if xai < rmin[r]:
            rmin[r] = xai
        if hi > rmax[r]:
            rmax[r] = hi
        x = xn


# ---------------------------------------------------------------------------
# PNG writer
# ---------------------------------------------------------------------------

_ABS = bytes(min(i, 256 - i) for i in range(256))


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(width, height, rows):
    """8-bit RGBA, per-row choice of filter None/Sub/Up (computed with
    byte-parallel big-integer arithmetic), zlib level 9."""
    n = width * 4
    hi_mask = int.from_bytes(b"\x80" * n, "big")
    lo_mask = int.from_bytes(b"\x7f" * n, "big")
    full = (1 << (8 * n)) - 1

    def sub_bytes(a, b):  # (a - b) mod 256 for every byte lane
        return (((a | hi_mask) - (b & lo_mask)) ^ ((a ^ b ^ full) & hi_mask)).to_bytes(n, "big")

    raw = bytearray()
    prev = 0
    for row in rows:
        cur = int.from_bytes(row, "big")
        cands = [(0, row), (1, sub_bytes(cur, cur >> 32))]
        if prev is not None:
            cands.append((2, sub_bytes(cur, prev)))
        best = None
        for ftype, data in cands:
            cost = sum(data[::3].translate(_ABS))
            if best is None or cost < best[0]:
                best = (cost, ftype, data)
        raw.append(best[1])
        raw += best[2]
        prev = cur
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + _png_chunk(b"IEND", b""))


# ---------------------------------------------------------------------------
# Palettes
# ---------------------------------------------------------------------------

PALETTES = {
    # Mintair boarding pass: night-sky navy with mint accents.
    "BoardingPass": dict(bg0=(34, 86, 150), bg1=(14, 36, 74), leaf0=(170, 244, 210), leaf1=(58, 182, 138),
                         vein=(14, 46, 84), ink=(255, 255, 255), accent=(134, 224, 190), glow=(110, 190, 255),
                         wordmark="mintair"),
    # Mint & Crumb bakery coupon: warm coral.
    "Coupon": dict(bg0=(255, 150, 96), bg1=(222, 70, 78), leaf0=(196, 250, 222), leaf1=(64, 178, 132),
                   vein=(160, 48, 58), ink=(255, 248, 238), accent=(255, 226, 170), glow=(255, 236, 190),
                   wordmark="mint+crumb"),
    # Spearmint Hall concerts: deep violet and neon pink.
    "EventTicket": dict(bg0=(120, 52, 170), bg1=(34, 12, 66), leaf0=(190, 255, 226), leaf1=(60, 200, 160),
                        vein=(40, 16, 76), ink=(255, 255, 255), accent=(255, 120, 200), glow=(255, 110, 210),
                        wordmark="spearmint"),
    # Passmint Coworking membership: teal.
    "Generic": dict(bg0=(34, 150, 132), bg1=(8, 78, 72), leaf0=(200, 255, 228), leaf1=(70, 196, 150),
                    vein=(10, 80, 72), ink=(255, 255, 255), accent=(170, 240, 214), glow=(190, 255, 230),
                    wordmark="passmint"),
    # Peppermint Market gift card: fresh green and candy red.
    "StoreCard": dict(bg0=(46, 176, 112), bg1=(10, 98, 70), leaf0=(214, 255, 232), leaf1=(74, 200, 146),
                      vein=(12, 96, 70), ink=(255, 255, 255), accent=(230, 58, 72), glow=(220, 255, 236),
                      wordmark="peppermint"),
    # Mint Leaf Coffee rewards: roasted brown and mint.
    "Loyalty": dict(bg0=(140, 92, 62), bg1=(58, 34, 24), leaf0=(178, 246, 208), leaf1=(54, 176, 128),
                    vein=(58, 36, 26), ink=(255, 246, 232), accent=(152, 232, 196), glow=(255, 214, 160),
                    wordmark="mintleaf"),
    # Mint Festival (localized logos): sunset orange, magenta and mint.
    "Festival": dict(bg0=(255, 170, 90), bg1=(120, 40, 110), leaf0=(200, 255, 225), leaf1=(60, 190, 140),
                     vein=(70, 30, 80), ink=(255, 255, 255), accent=(255, 90, 140), glow=(255, 210, 140),
                     wordmark="mintfest"),
    # Aurora Nights poster event ticket: midnight blue, ice and amber.
    "PosterEventTicket": dict(bg0=(24, 70, 136), bg1=(8, 16, 48), leaf0=(190, 255, 226), leaf1=(60, 200, 160),
                              vein=(10, 20, 60), ink=(255, 255, 255), accent=(120, 220, 255), glow=(255, 200, 120),
                              wordmark="aurora"),
    # Mintair semantic boarding pass: daytime teal and amber.
    "SemanticBoardingPass": dict(bg0=(0, 120, 140), bg1=(4, 50, 70), leaf0=(200, 255, 235), leaf1=(60, 190, 150),
                                 vein=(4, 48, 66), ink=(255, 255, 255), accent=(255, 196, 90), glow=(140, 230, 255),
                                 wordmark="mintair"),
}

# The personalizable rewards card is the same coffee brand.
PALETTES["Rewards"] = PALETTES["Loyalty"]

# ---------------------------------------------------------------------------
# Artwork
# ---------------------------------------------------------------------------


def leaf_shape(base, tip, half_width, bend=0.0, teeth=0, n=96):
    """A mint leaf: curved midrib, widest below the middle, optional serration.
    Returns (outline, midline function)."""
    bx, by = base
    tx, ty = tip
    lx, ly = tx - bx, ty - by
    length = math.hypot(lx, ly)
    ux, uy = lx / length, ly / length
    nx, ny = -uy, ux
    cx, cy = bx + lx * 0.5 + nx * bend * length, by + ly * 0.5 + ny * bend * length

    def mid(t):
        u = 1 - t
        return (u * u * bx + 2 * u * t * cx + t * t * tx, u * u * by + 2 * u * t * cy + t * t * ty)

    def tangent_normal(t):
        dx = 2 * (1 - t) * (cx - bx) + 2 * t * (tx - cx)
        dy = 2 * (1 - t) * (cy - by) + 2 * t * (ty - cy)
        ln = math.hypot(dx, dy)
        return -dy / ln, dx / ln

    def width(t):
        w = math.sin(math.pi * (t ** 0.82)) ** 0.9
        if teeth:
            # small forward-pointing teeth: slow rise, quick (but not vertical) fall
            saw = (t * teeth) % 1.0
            tooth = saw / 0.75 if saw < 0.75 else (1.0 - saw) / 0.25
            w *= 1.0 - 0.06 * (1.0 - tooth) * (0.3 + 0.7 * math.sin(math.pi * t))
        return half_width * length * w

    side_a, side_b = [], []
    for i in range(n + 1):
        t = i / n
        mx, my = mid(t)
        qx, qy = tangent_normal(t)
        w = width(t)
        side_a.append((mx + qx * w, my + qy * w))
        side_b.append((mx - qx * w, my - qy * w))
    outline = orient(side_a + list(reversed(side_b[1:-1])))
    return outline, mid, tangent_normal, width


def draw_leaf(c, base, tip, half_width, pal, bend=0.0, teeth=0, veins=True, vein_paint=None,
              erase_veins=False, opacity=1.0, vein_width=None):
    outline, mid, tn, width = leaf_shape(base, tip, half_width, bend, teeth)
    c.fill(outline, Linear(tip, base, [(0.0, pal["leaf0"]), (1.0, pal["leaf1"])]), opacity)
    if not veins:
        return
    length = math.hypot(tip[0] - base[0], tip[1] - base[1])
    vw = vein_width or max(0.6, length * 0.035)
    shapes = [stroke([mid(0.04 + 0.8 * i / 24) for i in range(25)], vw)]
    for t in (0.26, 0.44, 0.62):
        mx, my = mid(t)
        ex, ey = mid(min(0.97, t + 0.2))
        for sgn in (1, -1):
            qx, qy = tn(t + 0.18)
            w = width(t + 0.18) * 0.72
            px, py = ex + sgn * qx * w - (ex - mx) * 0.3, ey + sgn * qy * w - (ey - my) * 0.3
            mx2, my2 = (mx + px) / 2 + (ex - mx) * 0.12, (my + py) / 2 + (ey - my) * 0.12
            shapes.append(stroke(cubic((mx, my), (mx2, my2), (mx2, my2), (px, py), 12), vw * 0.7))
    if erase_veins:
        c.fill(shapes, Solid((0, 0, 0)), 0.85 * opacity, erase=True)
    else:
        dark = tuple(v * 0.5 for v in pal["leaf1"])
        c.fill(shapes, vein_paint or Solid(dark, 0.55), opacity)


def draw_mark(c, x, y, size, pal, erase_veins=False, vein_paint=None, shadow=None, veins=True):
    """The Passmint sprig: one large serrated leaf, one small leaf, a stem."""
    def P(u, v):
        return (x + u * size, y + v * size)

    if shadow:
        off = size * 0.035
        sh, _, _, _ = leaf_shape(P(0.40, 0.80), P(0.90, 0.14), 0.22, 0.035, 0)
        sm, _, _, _ = leaf_shape(P(0.40, 0.80), P(0.08, 0.44), 0.24, -0.05, 0)
        c.fill([transform(sh, off, off * 1.4), transform(sm, off, off * 1.4)], Solid(shadow[0], shadow[1]))
    c.fill(stroke(cubic(P(0.40, 0.80), P(0.36, 0.88), P(0.30, 0.93), P(0.20, 0.97), 16), size * 0.055),
           Solid(pal["leaf1"]))
    vein_paint = vein_paint or Solid(pal["vein"], 0.55)
    draw_leaf(c, P(0.40, 0.80), P(0.08, 0.44), 0.24, pal, bend=-0.05, teeth=5,
              erase_veins=erase_veins, vein_paint=vein_paint, veins=veins)
    draw_leaf(c, P(0.40, 0.80), P(0.90, 0.14), 0.22, pal, bend=0.035, teeth=7,
              erase_veins=erase_veins, vein_paint=vein_paint, veins=veins)


def draw_icon(c, pal):
    W = H = 38.0
    c.paint_all(Linear((0, 0), (W, H), [(0, pal["bg0"]), (1, pal["bg1"])]))
    c.fill(circle(19, 19, 17.5), Radial((19, 17), 17.5, [(0, pal["glow"] + (0.30,)), (1, pal["glow"] + (0.0,))]))
    c.fill(ring(19, 19, 16.6, 15.6), Solid(pal["ink"], 0.22))
    draw_mark(c, 5.0, 4.2, 28.5, pal, shadow=((0, 0, 0), 0.22))


GLYPH_WIDTH = {"i": 3.9, "j": 3.9, "l": 3.9, "t": 6.6, "f": 6.6, "r": 6.4, "m": 12.6, "w": 12.6, "+": 8.0}
ASCENDERS = set("bdhkl")
DESCENDERS = {"p": 0.0, "g": 1.0, "q": 1.0, "y": 1.0}  # which side the descender stem sits on
COUNTERS = set("abdegopqc")
NOTCH_BOTTOM = set("hmnr")
NOTCH_TOP = set("uvwy")


def glyph(ch, x, base, xh, asc, sx):
    """A chunky geometric letter built from rounded blocks, counters and notches.
    Returns (advance, filled polygons, polygons to erase afterwards)."""
    w = GLYPH_WIDTH.get(ch, 8.6) * sx
    r = 2.3 * min(1.0, sx)
    fill, erase = [], []
    if ch == "+":
        bar = 3.2
        fill.append(rrect(x, base - xh / 2.0 - bar / 2.0, w, bar, 1.2))
        fill.append(rrect(x + (w - bar) / 2.0, base - xh / 2.0 - w / 2.0, bar, w, 1.2))
        return w, fill, erase
    if ch in "ij":
        fill.append(rrect(x, base - xh, w, xh, r))
        fill.append(rrect(x, base - xh - 1.8 - w, w, w, w / 2.0))
        return w, fill, erase
    if ch in "tf":
        top = base - (xh + (asc - xh) * (0.6 if ch == "t" else 1.0))
        stem = w * 0.5
        fill.append(rrect(x + w * 0.22, top, stem, base - top, r))
        fill.append(rrect(x, base - xh, w, 3.0, 1.2))
        if ch == "f":
            fill.append(rrect(x + w * 0.22, top, w * 0.78, 3.0, 1.2))
        return w, fill, erase
    h = asc if ch in ASCENDERS else xh
    fill.append(rrect(x, base - h, w, h, r))
    if ch in DESCENDERS:
        side = DESCENDERS[ch]
        fill.append(rrect(x + side * w * 0.55, base - 3.0, w * 0.45, 7.5, r))
    if ch in COUNTERS:
        cw = max(1.6, w * 0.36)
        fill.append(rrect(x + (w - cw) / 2.0, base - xh * 0.70, cw, xh * 0.40, cw / 2.0, hole=True))
        if ch == "e":
            erase.append(rrect(x + w * 0.55, base - xh * 0.36, w, xh * 0.15, 0.6))
        elif ch == "c":
            erase.append(rrect(x + w * 0.5, base - xh * 0.62, w, xh * 0.24, 0.6))
        elif ch == "a":
            erase.append(rrect(x - 1.0, base - xh - 1.0, w * 0.5, xh * 0.30 + 1.0, 0.6))
    if ch == "s":
        erase.append(rrect(x + w * 0.40, base - xh * 0.68, w, xh * 0.14, 0.6))
        erase.append(rrect(x - 1.0, base - xh * 0.46, w * 0.60, xh * 0.14, 0.6))
    if ch in NOTCH_BOTTOM:
        if ch == "r":
            erase.append(rrect(x + w * 0.46, base - xh * 0.62, w, xh * 0.62 + 3.0, 0.8))
        elif ch == "m":
            for f in (0.22, 0.58):
                erase.append(rrect(x + w * f, base - xh * 0.62, w * 0.2, xh * 0.62 + 3.0, w * 0.1))
        else:
            erase.append(rrect(x + w * 0.33, base - xh * 0.62, w * 0.34, xh * 0.62 + 3.0, w * 0.17))
    if ch in NOTCH_TOP:
        if ch == "w":
            for f in (0.22, 0.58):
                erase.append(rrect(x + w * f, base - xh - 3.0, w * 0.2, xh * 0.62 + 3.0, w * 0.1))
        else:
            erase.append(rrect(x + w * 0.33, base - xh - 3.0, w * 0.34, xh * 0.62 + 3.0, w * 0.17))
    return w, fill, erase


def draw_logo(c, pal):
    """Mark on the left, a chunky wordmark and a tagline bar; transparent background."""
    draw_mark(c, 1.0, 2.0, 46.0, pal, erase_veins=True)
    x0, avail = 54.0, 104.0
    word = pal["wordmark"]
    gap = 2.2
    natural = sum(GLYPH_WIDTH.get(ch, 8.6) for ch in word) + gap * (len(word) - 1)
    sx = min(1.0, avail / natural)
    base, xh, asc = 29.0, 12.5, 17.5
    x = x0
    fills, erases = [], []
    for ch in word:
        w, f, e = glyph(ch, x, base, xh, asc, sx)
        fills += f
        erases += e
        x += w + gap * sx
    c.fill(fills, Solid(pal["ink"]))
    if erases:
        c.fill(erases, Solid((0, 0, 0)), erase=True)
    width = x - gap * sx - x0
    tag = min(width - 17.0, 70.0)
    c.fill(rrect(x0, 40.0, tag, 3.4, 1.7), Solid(pal["ink"], 0.55))
    c.fill(rrect(x0 + tag + 3.0, 40.0, 14.0, 3.4, 1.7), Solid(pal["accent"], 0.9))


def draw_thumbnail(c, pal, kind):
    cx, cy, r = 45.0, 45.0, 43.0
    c.fill(circle(cx, cy, r), Linear((12, 6), (80, 88), [(0, pal["glow"]), (0.55, pal["bg0"]), (1, pal["bg1"])]))
    c.fill(circle(cx + 14, cy - 20, 22), Solid((255, 255, 255), 0.10))
    body = pal["vein"]
    # shoulders and head, clipped to the circle afterwards
    c.fill([ellipse(cx, cy + 47, 34, 27), rrect(cx - 6.5, cy + 2, 13, 16, 5), ellipse(cx, cy - 7, 14.5, 17)],
           Solid(body))
    if kind == "event":
        # headphones band + cups
        c.fill(stroke(arc_points(cx, cy - 6, 19.5, math.pi * 1.05, math.pi * 1.95, 40), 3.6), Solid(pal["accent"]))
        c.fill(rrect(cx - 23, cy - 9, 8, 15, 3.5), Solid(pal["accent"]))
        c.fill(rrect(cx + 15, cy - 9, 8, 15, 3.5), Solid(pal["accent"]))
        for sx, sy, sr in ((20, 22, 4.5), (72, 30, 3.2), (16, 50, 2.5)):
            c.fill(star4(sx, sy, sr), Solid((255, 255, 255), 0.9))
    else:
        # a lanyard badge in the brand colour
        c.fill(stroke([(cx - 12, cy + 20), (cx, cy + 33), (cx + 12, cy + 20)], 2.2), Solid(pal["accent"], 0.9))
        c.fill(rrect(cx - 5.5, cy + 31, 11, 13, 2.2), Solid(pal["accent"]))
        draw_mark(c, cx - 4.5, cy + 33, 9.5, pal, veins=False)
    # clip to the avatar circle, then draw a rim
    c.fill([rect(-2, -2, 94, 94), circle(cx, cy, r, hole=True)], Solid((0, 0, 0)), erase=True)
    c.fill(ring(cx, cy, r + 1.5, r - 0.8), Solid(pal["ink"], 0.95))


def airplane(cx, cy, length, angle=0.0):
    """Top view airliner pointing along +x, unit length, as union of polygons."""
    parts = [
        stroke([(-0.46, 0.0), (0.40, 0.0)], 0.13),
        orient([(0.47, 0.0), (0.38, -0.06), (0.38, 0.06)]),
        orient([(0.12, -0.05), (-0.12, -0.50), (-0.22, -0.50), (-0.10, -0.05)]),
        orient([(0.12, 0.05), (-0.12, 0.50), (-0.22, 0.50), (-0.10, 0.05)]),
        orient([(-0.30, -0.04), (-0.42, -0.21), (-0.49, -0.21), (-0.43, -0.04)]),
        orient([(-0.30, 0.04), (-0.42, 0.21), (-0.49, 0.21), (-0.43, 0.04)]),
    ]
    return [transform(p, cx, cy, length, angle) for p in parts]


def draw_footer(c, pal):
    y = 7.5
    dashes = []
    for x0, x1 in ((12.0, 126.0), (160.0, 272.0)):
        x = x0
        while x + 3.5 <= x1:
            dashes.append(line(x, y, x + 3.5, y, 1.6))
            x += 6.5
    c.fill(dashes, Solid(pal["ink"], 0.55))
    c.fill(ring(6.0, y, 3.6, 2.0), Solid(pal["ink"], 0.9))
    c.fill(circle(280.0, y, 3.6), Solid(pal["accent"]))
    c.fill(airplane(143.0, y + 0.4, 16.0), Solid((0, 0, 0), 0.25))
    c.fill(airplane(143.0, y, 16.0), Solid(pal["accent"]))


def draw_coupon_strip(c, pal):
    W, H = 375.0, 144.0
    rnd = Lcg(7)
    c.paint_all(Linear((0, 0), (W, 0), [(0, pal["bg0"]), (1, pal["bg1"])]))
    stripes = [orient([(x, 0), (x + 34, 0), (x - 54, H), (x - 88, H)]) for x in (40, 150, 260, 370)]
    c.fill(stripes, Solid((255, 255, 255), 0.07))
    for r, a in ((124, 0.08), (92, 0.08), (60, 0.10)):
        c.fill(circle(300, 12, r), Solid((255, 240, 200), a))
    c.fill(circle(36, 150, 80), Solid((255, 255, 255), 0.07))
    # confetti on the right half
    conf = []
    for _ in range(26):
        x, y = rnd.uniform(200, 372), rnd.uniform(6, 138)
        conf.append(circle(x, y, rnd.uniform(1.2, 3.2)))
    c.fill(conf, Solid(pal["accent"], 0.75))
    # leaves behind the percent sign
    draw_leaf(c, (262, 120), (222, 62), 0.26, pal, bend=-0.06, teeth=6)
    draw_leaf(c, (262, 120), (330, 134), 0.24, pal, bend=0.05, teeth=6)
    # big "%" with a soft shadow
    pct = ring(292, 50, 19, 11) + ring(348, 104, 19, 11) + [line(354, 26, 286, 128, 11)]
    c.fill([transform(p, 3.5, 4.5) for p in pct], Solid((90, 20, 30), 0.22))
    c.fill(pct, Linear((280, 26), (360, 128), [(0, (255, 252, 244)), (1, pal["accent"])]))
    for x, y, r in ((236, 24, 6), (364, 20, 4.5), (214, 118, 4)):
        c.fill(star4(x, y, r), Solid((255, 255, 255), 0.9))


def peppermint(c, cx, cy, r, pal, twist=0.9):
    red = pal["accent"]
    # cellophane wrapper ends
    for sgn in (-1, 1):
        fan = orient([(cx + sgn * r * 0.85, cy - 7), (cx + sgn * (r + 30), cy - 26), (cx + sgn * (r + 24), cy),
                      (cx + sgn * (r + 30), cy + 26), (cx + sgn * r * 0.85, cy + 7)])
        c.fill(fan, Solid((255, 255, 255), 0.30))
        c.fill(ellipse(cx + sgn * (r + 2), cy, 5, 9), Solid((255, 255, 255), 0.55))
    c.fill(circle(cx + 4, cy + 6, r), Solid((0, 40, 20), 0.28))
    c.fill(circle(cx, cy, r), Solid((255, 253, 250)))
    wedges = []
    n = 8
    for k in range(n):
        a0 = 2 * math.pi * k / n
        a1 = a0 + math.pi / n
        side0 = [(cx + rr * math.cos(a0 + twist * rr / r), cy + rr * math.sin(a0 + twist * rr / r))
                 for rr in [r * i / 24 for i in range(25)]]
        outer = arc_points(cx, cy, r, a0 + twist, a1 + twist, 12)[1:-1]
        side1 = [(cx + rr * math.cos(a1 + twist * rr / r), cy + rr * math.sin(a1 + twist * rr / r))
                 for rr in [r * i / 24 for i in range(24, -1, -1)]]
        wedges.append(orient(side0 + outer + side1))
    c.fill(wedges, Solid(red))
    c.fill(circle(cx, cy, r * 0.16), Solid((255, 253, 250)))
    c.fill(ring(cx, cy, r, r - 2.5), Solid((230, 232, 236), 0.9))
    c.fill(ellipse(cx - r * 0.35, cy - r * 0.42, r * 0.38, r * 0.16, -0.6), Solid((255, 255, 255), 0.55))


def draw_store_strip(c, pal):
    W, H = 375.0, 144.0
    rnd = Lcg(11)
    c.paint_all(Linear((0, 0), (W, 0), [(0, pal["bg0"]), (1, pal["bg1"])]))
    c.fill(circle(70, -30, 110), Solid((255, 255, 255), 0.06))
    c.fill(circle(190, 170, 70), Solid((255, 255, 255), 0.05))
    # faint leaf pattern on the left, keeps the primary field readable
    for i in range(9):
        x, y = rnd.uniform(10, 200), rnd.uniform(10, 134)
        a = rnd.uniform(0, 2 * math.pi)
        ln = rnd.uniform(14, 22)
        outline, _, _, _ = leaf_shape((x, y), (x + ln * math.cos(a), y + ln * math.sin(a)), 0.26, 0.05, 0)
        c.fill(outline, Solid((255, 255, 255), 0.07))
    draw_leaf(c, (300, 80), (232, 22), 0.24, pal, bend=-0.05, teeth=7)
    draw_leaf(c, (300, 80), (366, 136), 0.22, pal, bend=-0.05, teeth=6)
    peppermint(c, 300, 72, 44, pal)
    for x, y, r in ((224, 110, 5.5), (360, 22, 4.5), (250, 16, 3.0)):
        c.fill(star4(x, y, r), Solid((255, 255, 255), 0.9))


def coffee_bean(cx, cy, r, angle):
    body = ellipse(cx, cy, r, r * 0.68, angle)
    ca, sa = math.cos(angle), math.sin(angle)

    def P(u, v):
        return (cx + u * r * ca - v * r * sa, cy + u * r * sa + v * r * ca)

    crease = stroke(cubic(P(-0.8, 0.0), P(-0.3, 0.35), P(0.3, -0.35), P(0.8, 0.0), 16), r * 0.16)
    return body, crease


def draw_loyalty_strip(c, pal):
    W, H = 375.0, 144.0
    rnd = Lcg(23)
    c.paint_all(Linear((0, 0), (W, 0), [(0, pal["bg0"]), (1, pal["bg1"])]))
    for r, a in ((112, 0.07), (84, 0.07), (58, 0.08)):
        c.fill(circle(300, 70, r), Solid(pal["glow"], a))
    # scattered beans
    for i in range(14):
        x, y = rnd.uniform(8, 230), rnd.uniform(6, 140)
        body, crease = coffee_bean(x, y, rnd.uniform(5, 8), rnd.uniform(0, math.pi))
        c.fill(body, Solid((40, 22, 14), 0.35))
        c.fill(crease, Solid((20, 10, 6), 0.35))
    cream = (250, 240, 226)
    # saucer
    c.fill(ellipse(304, 128, 70, 13), Solid((0, 0, 0), 0.25))
    c.fill(ellipse(300, 123, 68, 13), Solid(cream))
    c.fill(ellipse(300, 121, 46, 7), Solid((214, 198, 180)))
    # handle (behind the cup)
    c.fill(ring(338, 80, 17, 10.5), Solid(pal["leaf1"]))
    # cup body with a rounded bottom
    top_y, bot_y = 50.0, 120.0
    left = cubic((254, top_y), (254, 92), (264, bot_y), (290, bot_y), 32)
    right = cubic((310, bot_y), (336, bot_y), (346, 92), (346, top_y), 32)
    cup = orient(left + right)
    c.fill(cup, Linear((254, 0), (346, 0), [(0, pal["leaf0"]), (0.6, pal["accent"]), (1, pal["leaf1"])]))
    c.fill(ellipse(300, top_y, 46, 9), Solid(cream))
    c.fill(ellipse(300, top_y + 0.8, 41, 7), Solid((104, 62, 38)))
    # latte-art leaf
    art, _, _, _ = leaf_shape((281, top_y + 2), (320, top_y - 1), 0.18, 0.0, 0)
    c.fill(art, Solid((232, 206, 176)))
    # brand mark on the cup
    draw_mark(c, 286, 66, 30, pal, vein_paint=Solid(pal["vein"], 0.5))
    # highlight
    c.fill(stroke(cubic((262, 60), (262, 86), (268, 104), (280, 112), 20), 3.0), Solid((255, 255, 255), 0.35))
    # steam
    steam = []
    for sx in (284, 300, 316):
        steam.append(stroke([(sx + 4.5 * math.sin(t / 5.0 + sx), top_y - 8 - t) for t in range(0, 30)], 3.4))
    c.fill(steam, Linear((0, 10), (0, 42), [(0, (255, 255, 255, 0.0)), (1, (255, 255, 255, 0.55))]))
    for x, y, r in ((230, 30, 4.5), (364, 26, 3.5)):
        c.fill(star4(x, y, r), Solid(pal["glow"], 0.9))


def draw_event_background(c, pal):
    W, H = 180.0, 220.0
    rnd = Lcg(5)
    c.paint_all(Linear((0, 0), (0, H), [(0, pal["bg0"]), (0.7, pal["bg1"]), (1, (14, 6, 28))]))
    # spotlight beams
    beams = (((30, -6), (-40, 230), (70, 230), (255, 120, 200)),
             ((150, -6), (100, 230), (210, 230), (120, 220, 255)),
             ((92, -6), (50, 230), (140, 230), (255, 230, 160)))
    for apex, b0, b1, col in beams:
        tri = orient([(apex[0] - 3, apex[1]), (apex[0] + 3, apex[1]), b1, b0])
        c.fill(tri, Linear(apex, (apex[0], 210), [(0, col + (0.42,)), (1, col + (0.0,))]))
    # flat stage glow
    for rx, ry, a in ((130, 70, 0.16), (96, 50, 0.18), (62, 32, 0.22)):
        c.fill(ellipse(90, 186, rx, ry), Solid(pal["glow"], a))
    # stars
    stars = []
    for _ in range(22):
        x, y = rnd.uniform(4, 176), rnd.uniform(4, 120)
        stars.append(star4(x, y, rnd.uniform(1.0, 2.8)))
    c.fill(stars, Solid((255, 255, 255), 0.75))
    # neon sign: a glowing ring around the mint sprig
    cx, cy = 90.0, 86.0
    c.fill(ring(cx, cy, 50, 38), Solid(pal["accent"], 0.16))
    c.fill(ring(cx, cy, 47, 41), Solid(pal["accent"], 0.30))
    c.fill(ring(cx, cy, 45.4, 42.6), Solid((255, 214, 240)))
    c.fill(circle(cx, cy, 40), Solid((20, 6, 40), 0.35))
    draw_mark(c, cx - 30, cy - 31, 60, pal, shadow=((0, 0, 0), 0.35))
    # stage edge and crowd silhouettes
    c.fill(rect(0, 176, W, 4), Solid(pal["accent"], 0.8))
    crowd = []
    x = -6.0
    while x < W + 10:
        hr = rnd.uniform(6.0, 8.5)
        hy = rnd.uniform(190, 198)
        crowd.append(circle(x, hy, hr))
        crowd.append(rrect(x - hr * 1.7, hy + hr * 0.8, hr * 3.4, 40, hr * 1.2))
        if rnd.next() < 0.3:
            side = 1 if rnd.next() < 0.5 else -1
            crowd.append(stroke([(x + side * hr * 1.2, hy + hr * 1.4), (x + side * hr * 1.6, hy - hr * 1.2),
                                 (x + side * hr * 1.3, hy - hr * 2.6)], 3.4))
        x += rnd.uniform(13, 19)
    c.fill(crowd, Solid((10, 4, 20)))


def wordmark(word, x0, avail):
    """The chunky wordmark of draw_logo as polygons: (fills, erases, width), baseline at y = 29 pt."""
    gap = 2.2
    natural = sum(GLYPH_WIDTH.get(ch, 8.6) for ch in word) + gap * (len(word) - 1)
    sx = min(1.0, avail / natural)
    base, xh, asc = 29.0, 12.5, 17.5
    x = x0
    fills, erases = [], []
    for ch in word:
        w, f, e = glyph(ch, x, base, xh, asc, sx)
        fills += f
        erases += e
        x += w + gap * sx
    return fills, erases, x - gap * sx - x0


def draw_word_and_tag(c, pal, word, x0, avail):
    fills, erases, width = wordmark(word, x0, avail)
    c.fill(fills, Solid(pal["ink"]))
    if erases:
        c.fill(erases, Solid((0, 0, 0)), erase=True)
    tag = min(width - 17.0, 70.0)
    c.fill(rrect(x0, 40.0, tag, 3.4, 1.7), Solid(pal["ink"], 0.55))
    c.fill(rrect(x0 + tag + 3.0, 40.0, 14.0, 3.4, 1.7), Solid(pal["accent"], 0.9))


def draw_logo_word(c, pal, word):
    """draw_logo with another wordmark: the localized logos of the Festival template."""
    draw_mark(c, 1.0, 2.0, 46.0, pal, erase_veins=True)
    draw_word_and_tag(c, pal, word, 54.0, 104.0)


def draw_logo_zh(c, pal):
    """Simplified Chinese logo: the mark, the character jie (festival) drawn in strokes, then "mint"."""
    draw_mark(c, 1.0, 2.0, 46.0, pal, erase_veins=True)
    w = 4.0
    strokes = [
        line(55.0, 13.0, 91.0, 13.0, w),                       # grass radical: the bar
        line(66.0, 6.0, 66.0, 19.5, w), line(80.0, 6.0, 80.0, 19.5, w),  # and its two short verticals
        stroke([(58.0, 25.0), (88.0, 25.0), (88.0, 37.5), (84.0, 35.0)], w),  # horizontal, turn down, hook
        line(70.0, 25.0, 70.0, 46.0, w),                       # the long vertical
    ]
    c.fill(strokes, Solid(pal["ink"]))
    draw_word_and_tag(c, pal, "mint", 99.0, 58.0)


def draw_festival_strip(c, pal):
    """Event ticket strip (375 x 98 pt): sunset over hills, bunting, a stage tent."""
    W, H = 375.0, 98.0
    rnd = Lcg(31)
    c.paint_all(Linear((0, 0), (0, H), [(0, pal["bg1"]), (0.55, pal["accent"]), (1, pal["bg0"])]))
    for r, a in ((64, 0.10), (48, 0.14)):
        c.fill(circle(292, 76, r), Solid(pal["glow"], a))
    c.fill(circle(292, 76, 32), Solid((255, 236, 186)))
    far = orient([(0.0, H)] + [(float(x), 70 - 9 * math.sin(x / 37.0) - 5 * math.sin(x / 13.0)) for x in range(0, 380, 5)] + [(W, H)])
    c.fill(far, Solid(pal["leaf1"], 0.75))
    near = orient([(0.0, H)] + [(float(x), 84 - 7 * math.sin(x / 29.0 + 1.3)) for x in range(0, 380, 5)] + [(W, H)])
    c.fill(near, Solid(pal["vein"]))
    # stage tent
    tent = [orient([(30.0, 86.0), (62.0, 50.0), (94.0, 86.0)]), rect(60.8, 42.0, 2.4, 10.0)]
    c.fill(tent, Solid(pal["ink"], 0.92))
    c.fill(orient([(63.2, 42.0), (73.0, 45.0), (63.2, 48.0)]), Solid(pal["accent"]))
    c.fill(orient([(52.0, 86.0), (62.0, 64.0), (72.0, 86.0)]), Solid(pal["vein"]))
    # bunting
    rope = cubic((0.0, 6.0), (120.0, 34.0), (250.0, 34.0), (375.0, 6.0), 60)
    c.fill(stroke(rope, 1.2), Solid(pal["ink"], 0.8))
    flags = ([], [])
    for i in range(2, 60, 3):
        x, y = rope[i]
        flags[(i // 3) % 2].append(orient([(x - 5.0, y), (x + 5.0, y), (x, y + 11.0)]))
    c.fill(flags[0], Solid(pal["glow"]))
    c.fill(flags[1], Solid(pal["leaf0"]))
    stars = []
    for _ in range(12):
        stars.append(star4(rnd.uniform(110, 250), rnd.uniform(40, 64), rnd.uniform(1.2, 2.6)))
    c.fill(stars, Solid((255, 255, 255), 0.85))
    draw_leaf(c, (352, 96), (330, 58), 0.24, pal, bend=-0.05, teeth=6)
    draw_leaf(c, (352, 96), (372, 62), 0.22, pal, bend=0.05, teeth=5)


def draw_poster_artwork(c, pal):
    """Poster event ticket artwork (358 x 448 pt): a glowing sun with the mark, aurora ribbons, a crowd."""
    W, H = 358.0, 448.0
    rnd = Lcg(41)
    c.paint_all(Linear((0, 0), (0, H), [(0, pal["bg0"]), (0.6, pal["bg1"]), (1, (6, 8, 26))]))
    # aurora ribbons
    for k, (col, a) in enumerate(((pal["leaf0"], 0.22), (pal["accent"], 0.20), (pal["glow"], 0.14))):
        top = [(float(x), 60 + 28 * k + 22 * math.sin(x / 55.0 + k)) for x in range(-10, 372, 6)]
        bottom = [(x, y + 30 + 10 * math.sin(x / 23.0 + 2 * k)) for x, y in reversed(top)]
        c.fill(orient(top + bottom), Solid(col, a))
    stars = []
    for _ in range(40):
        stars.append(star4(rnd.uniform(6, 352), rnd.uniform(6, 300), rnd.uniform(0.8, 2.6)))
    c.fill(stars, Solid((255, 255, 255), 0.8))
    cx, cy = 179.0, 236.0
    for r, a in ((128, 0.07), (104, 0.09), (84, 0.12)):
        c.fill(circle(cx, cy, r), Solid(pal["glow"], a))
    c.fill(circle(cx, cy, 66), Radial((cx, cy - 24), 90, [(0, (255, 244, 214)), (1, pal["glow"])]))
    draw_mark(c, cx - 48, cy - 52, 96, pal, shadow=((0, 0, 0), 0.3))
    # crowd
    crowd = []
    x = -6.0
    while x < W + 10:
        hr = rnd.uniform(8.0, 11.0)
        hy = rnd.uniform(388, 398)
        crowd.append(circle(x, hy, hr))
        crowd.append(rrect(x - hr * 1.7, hy + hr * 0.8, hr * 3.4, 60, hr * 1.2))
        if rnd.next() < 0.35:
            side = 1 if rnd.next() < 0.5 else -1
            crowd.append(stroke([(x + side * hr * 1.2, hy + hr * 1.4), (x + side * hr * 1.6, hy - hr * 1.2),
                                 (x + side * hr * 1.3, hy - hr * 2.6)], 4.4))
        x += rnd.uniform(17, 25)
    c.fill(rect(0, 372, W, 3), Solid(pal["accent"], 0.8))
    c.fill(crowd, Solid((4, 4, 16)))


def draw_scaled_word(c, pal, word, dx, dy, scale, paint):
    fills, erases, width = wordmark(word, 0.0, 400.0)
    c.fill([transform(p, dx, dy, scale) for p in fills], paint)
    if erases:
        c.fill([transform(p, dx, dy, scale) for p in erases], Solid((0, 0, 0)), erase=True)
    return width * scale


def draw_primary_logo(c, pal):
    """Poster primary logo (at most 126 x 30 pt): the mark and the wordmark, transparent background."""
    draw_mark(c, 0.5, 0.5, 29.0, pal, erase_veins=True)
    draw_scaled_word(c, pal, pal["wordmark"], 33.0, 1.0, 0.62, Solid(pal["ink"]))


def draw_personalization_logo(c, pal):
    """Rewards sign-up sheet logo (150 x 40 pt): the mark and the wordmark in the dark brand colour, for the
    sheet's light background; transparent background."""
    draw_mark(c, 1.0, 1.0, 38.0, pal, erase_veins=True)
    width = draw_scaled_word(c, pal, pal["wordmark"], 42.0, -3.0, 0.85, Solid(pal["bg1"]))
    c.fill(rrect(42.0, 31.0, min(width, 96.0) - 18.0, 3.0, 1.5), Solid(pal["bg0"], 0.7))
    c.fill(rrect(42.0 + min(width, 96.0) - 15.0, 31.0, 15.0, 3.0, 1.5), Solid(pal["leaf1"], 0.9))


def draw_secondary_logo(c, pal):
    """Poster secondary logo (at most 135 x 12 pt): a small mark, "passmint" and a rule."""
    draw_mark(c, 0.0, 0.0, 12.0, pal, veins=False)
    width = draw_scaled_word(c, pal, "passmint", 15.0, -0.4, 0.34, Solid(pal["ink"], 0.9))
    c.fill(rrect(15.0 + width + 4.0, 5.0, 135.0 - (15.0 + width + 4.0) - 1.0, 2.0, 1.0), Solid(pal["accent"], 0.8))


# ---------------------------------------------------------------------------
# Templates
# ---------------------------------------------------------------------------

TEMPLATES = {
    "BoardingPass": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
                     ("footer", 286, 15, False, draw_footer)],
    "Coupon": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
               ("strip", 375, 144, True, draw_coupon_strip)],
    "EventTicket": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
                    ("background", 180, 220, True, draw_event_background),
                    ("thumbnail", 90, 90, False, lambda c, p: draw_thumbnail(c, p, "event"))],
    "Generic": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
                ("thumbnail", 90, 90, False, lambda c, p: draw_thumbnail(c, p, "member"))],
    "StoreCard": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
                  ("strip", 375, 144, True, draw_store_strip)],
    "Loyalty": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
                ("strip", 375, 144, True, draw_loyalty_strip)],
    # Localized logos only: a top-level logo would override them (see the article "Templates and placeholders").
    "Festival": [("icon", 38, 38, True, draw_icon), ("strip", 375, 98, True, draw_festival_strip),
                 ("en.lproj/logo", 160, 50, False, lambda c, p: draw_logo_word(c, p, "mintfest")),
                 ("fr.lproj/logo", 160, 50, False, lambda c, p: draw_logo_word(c, p, "menthe")),
                 ("zh-Hans.lproj/logo", 160, 50, False, draw_logo_zh)],
    # Poster images (artwork 358x448, primaryLogo 126x30, secondaryLogo 135x12) plus the classic fallback's.
    "PosterEventTicket": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
                          ("background", 180, 220, True, draw_event_background),
                          ("artwork", 358, 448, True, draw_poster_artwork),
                          ("primaryLogo", 126, 30, False, draw_primary_logo),
                          ("secondaryLogo", 135, 12, False, draw_secondary_logo)],
    "SemanticBoardingPass": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
                             ("footer", 286, 15, False, draw_footer)],
    # Personalizable rewards card: the Loyalty card's images plus the sign-up sheet's logo (150 x 40).
    "Rewards": [("icon", 38, 38, True, draw_icon), ("logo", 160, 50, False, draw_logo),
                ("strip", 375, 144, True, draw_loyalty_strip),
                ("personalizationLogo", 150, 40, False, draw_personalization_logo)],
}


def render(job):
    """Render one image; job = (template, image index, scale). Returns (path parts, PNG bytes)."""
    template, index, scale = job
    name, w_pt, h_pt, opaque, draw = TEMPLATES[template][index]
    pal = PALETTES[template]
    c = Canvas(w_pt, h_pt, scale, background=Solid(pal["bg1"]) if opaque else None)
    draw(c, pal)
    suffix = "" if scale == 1 else "@%dx" % scale
    return template + ".pass", "%s%s.png" % (name, suffix), encode_png(c.w, c.h, c.rgba_rows())


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(here, os.pardir, "PassTemplates"),
                        help="folder holding the <Name>.pass template folders (default: PassTemplates/)")
    parser.add_argument("--only", help="render just one template (e.g. Coupon)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: CPU count; output is identical for any value)")
    args = parser.parse_args(argv)
    out_root = os.path.normpath(args.out)
    jobs = [(t, i, s) for t, images in TEMPLATES.items() if not args.only or t == args.only
            for i in range(len(images)) for s in SCALES]
    if not jobs:
        parser.error("unknown template %r (known: %s)" % (args.only, ", ".join(TEMPLATES)))
    jobs.sort(key=lambda j: -(TEMPLATES[j[0]][j[1]][1] * TEMPLATES[j[0]][j[1]][2] * j[2] * j[2]))
    results = None
    if args.jobs > 1:
        try:
            from concurrent.futures import ProcessPoolExecutor
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                results = list(pool.map(render, jobs))
        except (ImportError, OSError, NotImplementedError):
            results = None  # no multiprocessing here: fall back to one process
    if results is None:
        results = [render(j) for j in jobs]
    for folder, filename, data in sorted(results):
        path = os.path.join(out_root, folder, filename)  # filename may name a <lang>.lproj sub-folder
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
    print("wrote %d images under %s" % (len(results), out_root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
