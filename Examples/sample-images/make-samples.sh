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
# - orbit.gif: 320 x 200, 8 frames of a gold dot circling on navy, 80 ms each, looping forever.
frames=""
for i in 0 1 2 3 4 5 6 7; do
  x=$(python3 -c "import math; print(int(160 + 70 * math.cos($i * math.pi / 4)))")
  y=$(python3 -c "import math; print(int(100 + 60 * math.sin($i * math.pi / 4)))")
  convert -size 320x200 xc:navy -fill gold -draw "circle $x,$y $((x + 18)),$y" "/tmp/orbit-$i.png"
  frames="$frames /tmp/orbit-$i.png"
done
convert -delay 8 -loop 0 $frames orbit.gif
rm -f /tmp/orbit-*.png
