#!/usr/bin/env python3
"""Draws the Gatehouse app icon (a gatehouse arch with a portcullis on an indigo tile) into
icons/ at the sizes Tauri needs. Pure Python, so it runs anywhere the repo builds."""
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "icons")


def inside_rounded(x, y, size, radius):
    cx = min(max(x, radius), size - radius)
    cy = min(max(y, radius), size - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def pixel(x, y, s):
    """Colour of one pixel in a unit design scaled to s."""
    u, v = x / s, y / s
    if not inside_rounded(x + 0.5, y + 0.5, s, s * 0.22):
        return (0, 0, 0, 0)
    top, bottom = (79, 70, 229), (49, 46, 129)
    bg = tuple(int(top[i] + (bottom[i] - top[i]) * v) for i in range(3)) + (255,)
    white = (248, 250, 252, 255)
    # Towers and wall.
    left_tower = 0.2 <= u <= 0.34 and 0.22 <= v <= 0.8
    right_tower = 0.66 <= u <= 0.8 and 0.22 <= v <= 0.8
    wall = 0.2 <= u <= 0.8 and 0.36 <= v <= 0.8
    crenel = 0.22 >= v - 0.0 >= 0.16 and (0.2 <= u <= 0.25 or 0.29 <= u <= 0.34 or 0.66 <= u <= 0.71 or 0.75 <= u <= 0.8)
    # Arch opening with portcullis bars.
    in_arch = 0.4 <= u <= 0.6 and v <= 0.8 and (v >= 0.56 or (u - 0.5) ** 2 + (v - 0.56) ** 2 <= 0.1 ** 2)
    if in_arch:
        bar = abs(((u - 0.4) / 0.2) * 4 - round(((u - 0.4) / 0.2) * 4)) < 0.12 or abs(((v - 0.46) / 0.34) * 4 - round(((v - 0.46) / 0.34) * 4)) < 0.1
        return white if bar else bg
    if left_tower or right_tower or wall or crenel:
        return white
    return bg


def png(size):
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            rows.extend(pixel(x, y, size))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")


def main():
    os.makedirs(ROOT, exist_ok=True)
    for name, size in [("32x32.png", 32), ("128x128.png", 128), ("128x128@2x.png", 256), ("icon.png", 512)]:
        with open(os.path.join(ROOT, name), "wb") as f:
            f.write(png(size))


if __name__ == "__main__":
    main()
