"""Colour vision for the picture tests: how a colour-blind player sees a picture, and how far
apart two colours are.

- ``simulate``: a picture as seen with protanopia, deuteranopia or tritanopia, after Machado,
  Oliveira and Fernandes (2009), "A physiologically-based model for simulation of color vision
  deficiency", severity 1.0 (dichromacy): a matrix on linear sRGB; or in grey (no colour
  vision at all: relative luminance).
- ``ciede2000``: the CIEDE2000 colour difference (Sharma, Wu and Dalal 2005) of two sRGB
  colours, via CIELAB (D65): about 2 is just noticeable side by side.

Also used by ``tools/card_pictures.py --docs`` to show the suits as colour-blind players see
them.
"""

from __future__ import annotations

import math
from typing import cast

from PIL import Image

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]

CVD: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
#: Every vision ``simulate`` knows.
VISIONS = ("normal", *CVD, "grey")


def to_linear(v: float) -> float:
    x = v / 255
    return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4


def to_srgb(x: float) -> int:
    x = min(1.0, max(0.0, x))
    return round(255 * (12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055))


def seen(c: RGB, vision: str) -> RGB:
    """The colour ``c`` as seen with ``vision`` (one of ``VISIONS``)."""
    if vision == "normal":
        return c
    lin = [to_linear(v) for v in c]
    if vision == "grey":
        y = to_srgb(0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2])
        return (y, y, y)
    r, g, b = (to_srgb(sum(row[i] * lin[i] for i in range(3))) for row in CVD[vision])
    return (r, g, b)


def simulate(img: Image.Image, vision: str) -> Image.Image:
    """``img`` (RGB) as seen with ``vision``, pixel by pixel."""
    out = img.convert("RGB")
    px = out.load()
    assert px is not None
    known: dict[RGB, RGB] = {}
    for x in range(out.width):
        for y in range(out.height):
            c = cast(RGB, px[x, y])
            if c not in known:
                known[c] = seen(c, vision)
            px[x, y] = known[c]
    return out


def lab(c: RGB) -> Lab:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (to_linear(v) for v in c)
    xyz = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
           0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
           0.0193339 * r + 0.1191920 * g + 0.9503041 * b)
    white = (0.95047, 1.0, 1.08883)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, white, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(c1: RGB, c2: RGB) -> float:
    """The CIEDE2000 colour difference of two sRGB colours: about 2 is just noticeable side
    by side."""
    return delta_e00(lab(c1), lab(c2))


def delta_e00(first: Lab, second: Lab) -> float:
    """CIEDE2000 of two CIELAB colours (Sharma, Wu and Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    ch1, ch2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if ch1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if ch2 else 0.0
    dh = h2 - h1
    if ch1 * ch2 == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    d_l, d_c = l2 - l1, ch2 - ch1
    d_h = 2 * math.sqrt(ch1 * ch2) * math.sin(math.radians(dh / 2))
    l_mean, ch_mean = (l1 + l2) / 2, (ch1 + ch2) / 2
    if ch1 * ch2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * ch_mean
    s_h = 1 + 0.015 * ch_mean * t
    r_c = 2 * math.sqrt(ch_mean ** 7 / (ch_mean ** 7 + 25 ** 7))
    r_t = -math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2
                     + r_t * (d_c / s_c) * (d_h / s_h))
