#!/usr/bin/env python3
"""Writes the PNG fixtures of the libdeflate fast-path tests (PNGFastPathTests).

filtered-<kind>.png: every colour type and bit depth, 37 x 12 pixels of deterministic noise
(a linear congruential generator), rows filtered in turn with Paeth, Average, Up, Sub and
None starting at a different filter for each file (so each filter also meets the first
row), the zlib stream split into IDAT chunks of 29 bytes (into three when shorter than 87).
The -trns files put their tRNS key on every fifth pixel and near misses (one low byte off)
on others; gray2-trns and gray8-trns store keys out of range for their depth (libpng masks
them). palette files have fewer PLTE entries than their depth allows, so some indices
point past the palette.
filtered-<kind>-1x6.png: one pixel wide.

fast-*.png: files the fast path must hand back to libpng (or read the same way):
bad-filter-type (a row with filter type 5), small-window (zlib window of 512 bytes),
lying-window (a stream made with a 32 KiB window whose header declares 512 bytes: zlib
rejects its far matches, libdeflate would not), extra-data (one row too many), short-data
(one row missing), split-by-text (a tEXt chunk between two IDAT chunks),
junk-idat-after-end (a complete stream, then an IDAT of junk).
Run from this folder: python3 make-filter-fixtures.py
"""
import struct
import zlib

from png_writing import chunk, pack_row

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
FILTER_ORDER = [4, 3, 2, 1, 0]



class Noise:
    def __init__(self, seed):
        self.state = seed

    def next(self, limit):
        self.state = (self.state * 1664525 + 1013904223) % (1 << 32)
        return (self.state >> 8) % limit


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, prev, bpp):
    out = bytearray([kind])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((x - predictor) % 256)
    return bytes(out)



def pixel_rows(color_type, depth, width, height, seed, key=None, limit=None):
    """Noise samples; with `key` (one value per channel) every fifth pixel is the key and
    every seventh a near miss (the last channel one off)."""
    channels = CHANNELS[color_type]
    noise = Noise(seed)
    top = limit if limit is not None else 1 << depth
    rows = []
    for y in range(height):
        values = []
        for x in range(width):
            pixel = [noise.next(top) for _ in range(channels)]
            if key is not None and (x + y) % 5 == 0:
                pixel = list(key)
            elif key is not None and (x + y) % 7 == 0:
                pixel = list(key[:-1]) + [key[-1] ^ 1]
            values += pixel
        rows.append(pack_row(values, depth))
    return rows


def filtered_stream(rows, color_type, depth, first_filter):
    bpp = max(1, CHANNELS[color_type] * depth // 8)
    prev = bytes(len(rows[0]))
    data = bytearray()
    for y, row in enumerate(rows):
        data += filter_row(FILTER_ORDER[(y + first_filter) % 5], row, prev, bpp)
        prev = row
    return bytes(data)


def write_png(name, width, height, color_type, depth, idat_chunks, extra=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    body = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
    body += b"".join(chunk(b"IDAT", part) for part in idat_chunks) + chunk(b"IEND", b"")
    with open(name, "wb") as f:
        f.write(body)


def split(stream, size):
    return [stream[i : i + size] for i in range(0, len(stream), size)]


def palette_chunks(depth):
    count = (1 << depth) - (1 if depth < 8 else 40)
    plte = b"".join(bytes([(i * 37) % 256, (i * 91 + 7) % 256, (255 - i) % 256]) for i in range(count))
    trns = bytes((i * 29) % 256 for i in range(min(count, 9)))
    return chunk(b"PLTE", plte) + chunk(b"tRNS", trns)


def key_chunk(key):
    return chunk(b"tRNS", struct.pack(">" + "H" * len(key), *key))


# (name, colour type, depth, tRNS key as stored or None)
KINDS = [
    ("gray1", 0, 1, None), ("gray2", 0, 2, None), ("gray4", 0, 4, None), ("gray8", 0, 8, None),
    ("gray16", 0, 16, None), ("gray1-trns", 0, 1, (1,)), ("gray2-trns", 0, 2, (6,)), ("gray4-trns", 0, 4, (9,)),
    ("gray8-trns", 0, 8, (0x142,)), ("gray16-trns", 0, 16, (0x1234,)), ("graya8", 4, 8, None),
    ("graya16", 4, 16, None), ("rgb8", 2, 8, None), ("rgb16", 2, 16, None), ("rgb8-trns", 2, 8, (12, 200, 77)),
    ("rgb16-trns", 2, 16, (0x1234, 0x5678, 0x9ABC)), ("palette1", 3, 1, None), ("palette2", 3, 2, None),
    ("palette4", 3, 4, None), ("palette8", 3, 8, None), ("rgba8", 6, 8, None), ("rgba16", 6, 16, None),
]

for index, (name, color_type, depth, key) in enumerate(KINDS):
    extra = palette_chunks(depth) if color_type == 3 else (key_chunk(key) if key else b"")
    for width, height, suffix in ((37, 12, ""), (1, 6, "-1x6")):
        mask = (1 << depth) - 1
        pixel_key = tuple(k & mask for k in key) if key else None
        rows = pixel_rows(color_type, depth, width, height, seed=index * 2 + len(suffix), key=pixel_key)
        stream = zlib.compress(filtered_stream(rows, color_type, depth, index), 9)
        parts = split(stream, min(29, len(stream) // 3))
        write_png(f"filtered-{name}{suffix}.png", width, height, color_type, depth, parts, extra)

# Files for the fallback cases, all RGB 8-bit 37 x 12 (a row is 112 bytes with its filter byte).
rows = pixel_rows(2, 8, 37, 12, seed=99)
good = filtered_stream(rows, 2, 8, 0)
row_size = len(good) // 12

bad_filter = bytearray(good)
bad_filter[3 * row_size] = 5
write_png("fast-bad-filter-type.png", 37, 12, 2, 8, [zlib.compress(bytes(bad_filter), 9)])

small = zlib.compressobj(9, zlib.DEFLATED, 9)
write_png("fast-small-window.png", 37, 12, 2, 8, [small.compress(good) + small.flush()])

# Rows repeat every 10 rows (1120 bytes back), farther than the declared 512-byte window.
repeating = b"".join(good[(y % 10) * row_size : (y % 10 + 1) * row_size] for y in range(12))
lying = bytearray(zlib.compress(repeating, 9))
lying[0] = 0x18
lying[1] = (lying[1] & 0xE0) | (31 - (0x18 * 256 + (lying[1] & 0xE0)) % 31) % 31
write_png("fast-lying-window.png", 37, 12, 2, 8, [bytes(lying)])

write_png("fast-extra-data.png", 37, 12, 2, 8, [zlib.compress(good + good[:row_size], 9)])
write_png("fast-short-data.png", 37, 12, 2, 8, [zlib.compress(good[:-row_size], 9)])

stream = zlib.compress(good, 9)
half = len(stream) // 2
text = chunk(b"tEXt", b"Comment\x00between the image data")
ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", 37, 12, 8, 2, 0, 0, 0))
with open("fast-split-by-text.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + ihdr + chunk(b"IDAT", stream[:half]) + text + chunk(b"IDAT", stream[half:]))
    f.write(chunk(b"IEND", b""))

write_png("fast-junk-idat-after-end.png", 37, 12, 2, 8, [stream, b"\xde\xad\xbe\xef" * 8])
