#!/usr/bin/env python3
"""Writes the regression seeds of the fuzz harnesses into Tests/Fuzz/<harness>/seeds/.

Each file is an input that once broke (or could break) a decoder, kept so that
`make fuzz-smoke` starts from it:

- PNG (PNGFastFuzz, APNGFuzz): a 69-byte PNG declaring 2147483647 x 135 pixels.
- GIF (GIFFuzz): 100 frames on a 9999 x 9999 screen, and the same file cut in its 10th frame.
- WebP (WebPFuzz): 1,000 frames of 1 x 1 pixel on a 9999 x 9999 canvas.
- JPEG (JPEGDCFuzz): a Huffman table with an all-ones code, chroma quantisers of 16, and a
  progressive file with a restart marker where none is due (the three differences found
  by the DC fuzzer), all from `cjpeg -quality 95` of a 203 x 157 noisy picture.
- HEIF (HEIFFuzz): an ftyp box with nothing after it, and one whose meta box claims more
  bytes than the file has.

Run from the repository root: python3 Tests/Fuzz/make-seeds.py (needs cjpeg).
"""
import os
import random
import struct
import subprocess
import tempfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)))


def write(harness, name, data):
    folder = os.path.join(ROOT, harness, "seeds")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as file:
        file.write(data)


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def huge_png():
    header = struct.pack(">IIBBBBB", 2147483647, 135, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(b"\0")) + png_chunk(b"IEND", b"")


def gif_frame():
    control = b"\x21\xf9\x04\x00\x0a\x00\x00\x00"
    descriptor = b"\x2c" + struct.pack("<HHHH", 0, 0, 1, 1) + b"\x00"
    return control + descriptor + b"\x02\x02\x44\x01\x00"


def many_frame_gif(frames):
    screen = b"GIF89a" + struct.pack("<HH", 9999, 9999) + b"\x80\x00\x00" + b"\x00\x00\x00\xff\xff\xff"
    loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    return screen + loop + gif_frame() * frames + b"\x3b"


def webp_chunk(kind, body):
    return kind + struct.pack("<I", len(body)) + body + (b"\0" if len(body) & 1 else b"")


# A 1 x 1 lossless bitstream (one opaque pixel), as libwebp's WebPEncodeLosslessRGBA writes it.
ONE_PIXEL_VP8L = bytes.fromhex("2f000000000750b22257a6ff8188e87f00")


def many_frame_webp(frames):
    frame = b"\0" * 6 + b"\0" * 6 + (100).to_bytes(3, "little") + b"\0" + webp_chunk(b"VP8L", ONE_PIXEL_VP8L)
    canvas = (9998).to_bytes(3, "little") * 2
    vp8x = webp_chunk(b"VP8X", bytes([0x12, 0, 0, 0]) + canvas)
    anim = webp_chunk(b"ANIM", b"\0\0\0\0\0\0")
    body = b"WEBP" + vp8x + anim + webp_chunk(b"ANMF", frame) * frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


def noisy_jpeg(options=()):
    generator = random.Random(1)
    width, height = 203, 157
    pixels = bytearray(b"P6\n%d %d\n255\n" % (width, height))
    for y in range(height):
        for x in range(width):
            pixels += bytes(
                ((x * 255 // width + generator.randrange(64)) % 256,
                 (y * 255 // height + generator.randrange(64)) % 256,
                 ((x + y) % 256 + generator.randrange(64)) % 256))
    with tempfile.NamedTemporaryFile(suffix=".ppm") as picture:
        picture.write(pixels)
        picture.flush()
        return bytearray(subprocess.run(["cjpeg", "-quality", "95", *options, picture.name], check=True, capture_output=True).stdout)


def jpeg_segments(data):
    index = 2
    while index + 4 <= len(data) and data[index] == 0xFF:
        yield data[index + 1], index + 4
        index += 2 + (data[index + 2] << 8 | data[index + 3])


def bogus_huffman_jpeg():
    data = noisy_jpeg()
    table = next(start for marker, start in jpeg_segments(data) if marker == 0xC4)
    counts = table + 1
    donor = next(index for index in range(counts + 1, counts + 16) if data[index] >= 2)
    data[counts] += 2
    data[donor] -= 2
    return bytes(data)


def strong_chroma_jpeg():
    data = noisy_jpeg()
    for marker, start in jpeg_segments(data):
        if marker != 0xDB:
            continue
        length = data[start - 2] << 8 | data[start - 1]
        index = start
        while index < start + length - 2:
            precision, identifier = data[index] >> 4, data[index] & 15
            if identifier == 1 and precision == 0:
                data[index + 1:index + 65] = b"\x10" * 64
            index += 1 + 64 * (2 if precision else 1)
    return bytes(data)


def stray_restart_jpeg():
    """A progressive 4:2:0 file with a restart marker every 3 MCUs, and one more marker at the start
    of the last interval of its Cb AC refinement (the 9th scan, the last the 1/8 scale reads)."""
    data = noisy_jpeg(["-progressive", "-sample", "2x2", "-restart", "3B"])
    scans = [index for index in range(len(data) - 1) if data[index] == 0xFF and data[index + 1] == 0xDA]
    start = scans[8] + 2 + (data[scans[8] + 2] << 8 | data[scans[8] + 3])
    restarts = [index for index in range(start, scans[9] - 1) if data[index] == 0xFF and 0xD0 <= data[index + 1] <= 0xD7]
    position = restarts[-1] + 2
    data[position:position] = bytes([0xFF, 0xD0 + len(restarts) % 8])
    return bytes(data)


def heif_box(kind, body, claimed=None):
    return struct.pack(">I", claimed if claimed is not None else 8 + len(body)) + kind + body


def main():
    write("PNGFastFuzz", "huge-2147483647x135.png", huge_png())
    write("APNGFuzz", "huge-2147483647x135.png", huge_png())
    whole = many_frame_gif(100)
    write("GIFFuzz", "screen-9999x9999-100-frames.gif", whole)
    cut = len(many_frame_gif(9)) - 1 + len(gif_frame()) // 2
    write("GIFFuzz", "screen-9999x9999-truncated-in-frame-10.gif", whole[:cut])
    write("WebPFuzz", "canvas-9999x9999-1000-frames.webp", many_frame_webp(1000))
    write("JPEGDCFuzz", "huffman-all-ones-code.jpg", bogus_huffman_jpeg())
    write("JPEGDCFuzz", "chroma-quantisers-16.jpg", strong_chroma_jpeg())
    write("JPEGDCFuzz", "progressive-420-stray-restart-marker.jpg", stray_restart_jpeg())
    ftyp = heif_box(b"ftyp", b"heic\0\0\0\0mif1heic")
    write("HEIFFuzz", "ftyp-only.heic", ftyp)
    write("HEIFFuzz", "meta-longer-than-file.heic", ftyp + heif_box(b"meta", b"\0\0\0\0", claimed=4096))


main()
