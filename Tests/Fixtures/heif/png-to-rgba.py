#!/usr/bin/env python3
"""Prints a PNG from heif-convert as "WIDTH HEIGHT DEPTH\n" and raw RGBA samples (8-bit, or 16-bit
big-endian), for the HEIF coder's parity tests. Handles colour types 2 and 6, bit depths 8 and 16,
no interlacing (what heif-convert writes). Standard library only."""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
position, idat = 8, b""
while position < len(data):
    length, kind = struct.unpack(">I4s", data[position:position + 8])
    body = data[position + 8:position + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    position += 12 + length
assert colour in (2, 6) and depth in (8, 16) and interlace == 0, "unsupported PNG layout"
channels = 4 if colour == 6 else 3
sample = depth // 8
pixel = channels * sample
stride = width * pixel
raw = zlib.decompress(idat)
previous = bytearray(stride)
out = bytearray()
for y in range(height):
    kind = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        left = line[i - pixel] if i >= pixel else 0
        up = previous[i]
        corner = previous[i - pixel] if i >= pixel else 0
        if kind == 1:
            line[i] = (line[i] + left) & 255
        elif kind == 2:
            line[i] = (line[i] + up) & 255
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 255
        elif kind == 4:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
    previous = line
    if channels == 4:
        out += line
    else:
        opaque = b"\xff" * sample
        for x in range(width):
            out += line[x * pixel:(x + 1) * pixel] + opaque
sys.stdout.buffer.write(b"%d %d %d\n" % (width, height, depth) + bytes(out))
