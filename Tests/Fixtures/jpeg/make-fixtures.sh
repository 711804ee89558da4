#!/bin/sh
# Writes the small JPEG fixtures of the JPEG coder tests (needs cjpeg from
# libjpeg-turbo-progs, ImageMagick's convert and python3). Run from this folder.
# The source is a 61 x 43 RGB pattern: pixel (x, y) = (x * 4, y * 5, (x + y) * 2 + 40).
set -eu
python3 - <<'PY'
width, height = 61, 43
pixels = bytearray()
for y in range(height):
    for x in range(width):
        pixels += bytes([x * 4 % 256, y * 5 % 256, ((x + y) * 2 + 40) % 256])
with open("/tmp/webimage-pattern.ppm", "wb") as f:
    f.write(b"P6\n%d %d\n255\n" % (width, height) + pixels)
PY
cjpeg -quality 90 -outfile baseline.jpg /tmp/webimage-pattern.ppm
cjpeg -quality 90 -progressive -outfile progressive.jpg /tmp/webimage-pattern.ppm
cjpeg -quality 90 -grayscale -outfile gray.jpg /tmp/webimage-pattern.ppm
convert baseline.jpg -colorspace CMYK -quality 95 cmyk.jpg
rm /tmp/webimage-pattern.ppm
python3 - <<'PY'
import struct

def exif(orientation, little_endian=False):
    order = "<" if little_endian else ">"
    tiff = (b"II*\x00" if little_endian else b"MM\x00*") + struct.pack(order + "I", 8)
    tiff += struct.pack(order + "H", 1) + struct.pack(order + "HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(order + "I", 0)
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload

base = open("baseline.jpg", "rb").read()
for orientation in range(1, 9):
    open(f"orientation-{orientation}.jpg", "wb").write(base[:2] + exif(orientation) + base[2:])
open("orientation-6-le.jpg", "wb").write(base[:2] + exif(6, little_endian=True) + base[2:])
progressive = open("progressive.jpg", "rb").read()
open("bad-truncated-baseline.jpg", "wb").write(base[: len(base) * 6 // 10])
open("bad-truncated-progressive.jpg", "wb").write(progressive[: len(progressive) * 6 // 10])
open("bad-truncated-header.jpg", "wb").write(base[:100])
sof = base.index(b"\xff\xc0")
zero_height = bytearray(base)
zero_height[sof + 5 : sof + 7] = b"\x00\x00"
open("bad-zero-height.jpg", "wb").write(bytes(zero_height))
huge = bytearray(base)
huge[sof + 5 : sof + 9] = struct.pack(">HH", 60000, 60000)
open("bad-huge.jpg", "wb").write(bytes(huge))
PY
