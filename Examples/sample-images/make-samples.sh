#!/bin/sh
# Writes the demo's sample images (needs ImageMagick's convert, cjpeg and python3). Run from this folder.
#  - landscape.jpg: 1200 x 800 baseline JPEG of a synthetic "terrain" (plasma fractal, fixed seed);
#  - portrait-exif6.jpg: 800 x 600 stored pixels with EXIF orientation 6 (shown as 600 x 800);
#  - badge.png: 512 x 512 RGBA with a soft transparent edge.
set -eu
convert -seed 7 -size 1200x800 plasma:green-blue -blur 0x1 -quality 85 landscape.jpg
convert -seed 11 -size 800x600 plasma:orange-purple -blur 0x1 ppm:- | cjpeg -quality 85 -progressive >/tmp/portrait.jpg
python3 - <<'PY'
import struct
payload = b"Exif\x00\x00MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1)
payload += struct.pack(">HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack(">I", 0)
data = open("/tmp/portrait.jpg", "rb").read()
open("portrait-exif6.jpg", "wb").write(data[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + data[2:])
PY
rm /tmp/portrait.jpg
convert -size 512x512 radial-gradient:'rgba(255,200,40,1)-rgba(200,40,120,0)' \
  -define png:exclude-chunks=date,time -strip badge.png
