#!/usr/bin/env python3
"""Writes the small PNG fixtures of the PNG coder tests, byte by byte with zlib.

Every image is 13 x 7 pixels (odd, so Adam7 passes have ragged edges). Sample c of pixel
(x, y) is (x * 31 + y * 17 + c * 67) % (maxval + 1) where maxval = 2**bit_depth - 1; a
palette image uses that formula for its index and has palette entry i = (i, 255 - i,
(i * 7) % 256) with tRNS alpha (i * 50) % 256 for the first min(5, entries) entries. Tests compute the
same values to check every decoded pixel. Run from this folder: python3 make-fixtures.py
"""
import struct
import zlib

from png_writing import chunk, pack_row

WIDTH, HEIGHT = 13, 7
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]



def sample(x, y, c, depth):
    return (x * 31 + y * 17 + c * 67) % (1 << depth)



def raw_rows(channels, depth, xs, ys):
    data = bytearray()
    for y in ys:
        values = [sample(x, y, c, depth) for x in xs for c in range(channels)]
        data += b"\x00" + pack_row(values, depth)
    return data


def png(name, color_type, depth, interlaced=False, extra=b""):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    if interlaced:
        data = bytearray()
        for x0, y0, dx, dy in ADAM7:
            xs, ys = list(range(x0, WIDTH, dx)), list(range(y0, HEIGHT, dy))
            if xs and ys:
                data += raw_rows(channels, depth, xs, ys)
    else:
        data = raw_rows(channels, depth, range(WIDTH), range(HEIGHT))
    ihdr = struct.pack(">IIBBBBB", WIDTH, HEIGHT, depth, color_type, 0, 0, 1 if interlaced else 0)
    body = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
    body += chunk(b"IDAT", zlib.compress(bytes(data), 9)) + chunk(b"IEND", b"")
    with open(name, "wb") as f:
        f.write(body)
    return body


def palette_chunks(depth):
    count = 1 << depth
    plte = b"".join(bytes([i % 256, 255 - i % 256, (i * 7) % 256]) for i in range(count))
    trns = bytes((i * 50) % 256 for i in range(min(5, count)))
    return chunk(b"PLTE", plte) + chunk(b"tRNS", trns)


for depth in (1, 2, 4, 8, 16):
    png(f"gray{depth}.png", 0, depth)
png("gray8-trns.png", 0, 8, extra=chunk(b"tRNS", struct.pack(">H", sample(0, 0, 0, 8))))
png("gray16-adam7.png", 0, 16, interlaced=True)
png("graya8.png", 4, 8)
png("graya16.png", 4, 16)
png("rgb8.png", 2, 8)
png("rgb16.png", 2, 16)
png("rgb8-trns.png", 2, 8, extra=chunk(b"tRNS", struct.pack(">HHH", *(sample(0, 0, c, 8) for c in range(3)))))
good = png("rgba8.png", 6, 8)
png("rgba16.png", 6, 16)
png("rgba8-adam7.png", 6, 8, interlaced=True)
for depth in (1, 2, 4, 8):
    png(f"palette{depth}.png", 3, depth, extra=palette_chunks(depth))
png("palette8-adam7.png", 3, 8, interlaced=True, extra=palette_chunks(8))

with open("bad-truncated.png", "wb") as f:
    f.write(good[: len(good) // 2])
corrupt = bytearray(good)
corrupt[-30] ^= 0xFF
with open("bad-crc.png", "wb") as f:
    f.write(bytes(corrupt))
with open("bad-zero-width.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 0, 7, 8, 6, 0, 0, 0)) + chunk(b"IEND", b""))
huge = chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 6, 0, 0, 0))
with open("bad-huge.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + huge + chunk(b"IDAT", zlib.compress(b"\x00" * 1024)) + chunk(b"IEND", b""))

# 12000 x 10000 1-bit gray (120 megapixels, over the default limit) that compresses to a
# few kilobytes: a black image with a white 2000-pixel square at (4000, 2000).
big_width, big_height = 12000, 10000
row_bytes = big_width // 8
plain = b"\x00" + b"\x00" * row_bytes
square = b"\x00" + b"\x00" * (4000 // 8) + b"\xff" * (2000 // 8) + b"\x00" * (row_bytes - 6000 // 8)
compressor = zlib.compressobj(9)
stream = bytearray()
for y in range(big_height):
    stream += compressor.compress(square if 2000 <= y < 4000 else plain)
stream += compressor.flush()
ihdr = struct.pack(">IIBBBBB", big_width, big_height, 1, 0, 0, 0, 0)
with open("large-120mp.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", bytes(stream)) + chunk(b"IEND", b""))
