#!/bin/sh
# Writes the small WebP fixtures of the WebP coder tests (needs cwebp and webpmux from the
# Debian package webp, and python3). Run from this folder.
#
# Patterns (the tests compute the same formulas):
#   rgb  61 x 43: pixel (x, y) = (x * 4, y * 5, (x + y) * 2 + 40)
#   rgba 61 x 43: the rgb pattern with alpha (x * 3 + y * 2) % 256
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import sys

work = sys.argv[1]

def ppm(path, width, height, pixel):
    data = bytearray()
    for y in range(height):
        for x in range(width):
            data += bytes(pixel(x, y)[:3])
    open(path, "wb").write(b"P6\n%d %d\n255\n" % (width, height) + data)

def pam(path, width, height, pixel):
    data = bytearray()
    for y in range(height):
        for x in range(width):
            data += bytes(pixel(x, y))
    header = b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (width, height)
    open(path, "wb").write(header + data)

rgb = lambda x, y: (x * 4 % 256, y * 5 % 256, ((x + y) * 2 + 40) % 256, 255)
rgba = lambda x, y: rgb(x, y)[:3] + ((x * 3 + y * 2) % 256,)
ppm(f"{work}/rgb.ppm", 61, 43, rgb)
pam(f"{work}/rgba.pam", 61, 43, rgba)
# Animation frames: an opaque background, translucent sprites, an opaque patch.
pam(f"{work}/f1.pam", 40, 30, lambda x, y: (x * 6, y * 8, 128, 255))
pam(f"{work}/f2.pam", 16, 12, lambda x, y: (250, x * 15, y * 20, 40 + x * 12))
pam(f"{work}/f3.pam", 20, 10, lambda x, y: (x * 12, 200, y * 25, 0 if x < 3 else 30 + y * 20))
pam(f"{work}/f4.pam", 40, 30, lambda x, y: (y * 8, 90, x * 6, 255 if (x // 5 + y // 5) % 2 else 70))
pam(f"{work}/f5.pam", 12, 12, lambda x, y: (20, x * 20, y * 20, 255))
pam(f"{work}/f6.pam", 8, 8, lambda x, y: (255, 255, 255, x * 30))
# A 3-frame animation whose middle frame is broken later.
for i in range(3):
    pam(f"{work}/c{i}.pam", 24, 16, lambda x, y, i=i: ((x * 10 + i * 60) % 256, y * 15, i * 100, 255))
PY
cwebp -quiet -q 80 "$work/rgb.ppm" -o lossy.webp
cwebp -quiet -lossless -exact "$work/rgb.ppm" -o lossless.webp
cwebp -quiet -lossless -exact "$work/rgba.pam" -o lossless-alpha.webp
cwebp -quiet -q 80 -alpha_q 100 "$work/rgba.pam" -o lossy-alpha.webp
for f in f1 f5 c0 c1 c2; do cwebp -quiet -q 90 "$work/$f.pam" -o "$work/$f.webp"; done
for f in f2 f3 f4 f6; do cwebp -quiet -lossless -exact "$work/$f.pam" -o "$work/$f.webp"; done
# Frame options: +duration+x+y+dispose(0 none, 1 background)+blend(+b) or -b.
webpmux -frame "$work/f1.webp" +100+0+0+0-b \
    -frame "$work/f2.webp" +50+4+6+1+b \
    -frame "$work/f3.webp" +70+10+8+0+b \
    -frame "$work/f4.webp" +30+0+0+0+b \
    -frame "$work/f5.webp" +120+20+16+1-b \
    -frame "$work/f6.webp" +40+0+0+0+b \
    -loop 3 -bgcolor 255,255,0,0 -o animated.webp
webpmux -frame "$work/c0.webp" +80 -frame "$work/c1.webp" +90 -frame "$work/c2.webp" +100 \
    -loop 0 -o anim-forever.webp
python3 <<'PY'
import struct

def chunks(data, start, end):
    """(fourcc, payload offset, payload size) of the chunks in data[start:end]."""
    offset = start
    while offset + 8 <= end:
        fourcc, size = data[offset : offset + 4], struct.unpack("<I", data[offset + 4 : offset + 8])[0]
        yield fourcc, offset + 8, size
        offset += 8 + size + (size & 1)

lossy = open("lossy.webp", "rb").read()
open("bad-truncated.webp", "wb").write(lossy[: len(lossy) * 6 // 10])
open("bad-truncated-header.webp", "wb").write(lossy[:20])
lossless = open("lossless.webp", "rb").read()
open("bad-truncated-lossless.webp", "wb").write(lossless[: len(lossless) * 6 // 10])

# The second frame's VP8 key-frame data after its 10-byte header replaced by 0xFF bytes.
forever = bytearray(open("anim-forever.webp", "rb").read())
frames = [c for c in chunks(forever, 12, len(forever)) if c[0] == b"ANMF"]
_, payload, size = frames[1]
inner = list(chunks(forever, payload + 16, payload + size))
vp8 = next(c for c in inner if c[0] == b"VP8 ")
forever[vp8[1] + 10 : vp8[1] + vp8[2]] = b"\xff" * (vp8[2] - 10)
open("bad-corrupt-frame.webp", "wb").write(bytes(forever))

# A lossless still whose header claims 16383 x 16383 (WebP's maximum).
huge = bytearray(lossless)
vp8l = next(c for c in chunks(huge, 12, len(huge)) if c[0] == b"VP8L")
bits = struct.unpack("<I", huge[vp8l[1] + 1 : vp8l[1] + 5])[0]
bits = (bits & ~((1 << 28) - 1)) | 16382 | (16382 << 14)
huge[vp8l[1] + 1 : vp8l[1] + 5] = struct.pack("<I", bits)
open("bad-huge.webp", "wb").write(bytes(huge))

# An animation whose canvas claims 16383 x 16383.
animation = bytearray(open("animated.webp", "rb").read())
vp8x = next(c for c in chunks(animation, 12, len(animation)) if c[0] == b"VP8X")
animation[vp8x[1] + 4 : vp8x[1] + 10] = struct.pack("<I", 16382)[:3] + struct.pack("<I", 16382)[:3]
open("bad-huge-animation.webp", "wb").write(bytes(animation))
PY
