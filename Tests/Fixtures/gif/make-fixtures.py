#!/usr/bin/env python3
"""Writes the GIF fixtures of the GIF coder tests byte by byte, and the composited frames
ImageMagick (`convert FILE -coalesce`) makes of them, the reference the tests compare with.

Canvas 8 x 6. anim.gif: NETSCAPE loop count 3 and four frames exercising a local colour
table, transparency, frames smaller than the canvas at an offset, the three disposal
methods, short delays and interlacing. compressed.gif: one 64 x 96 frame with real LZW compression (codes growing to
12 bits, the KwKwK case, a full table kept without a clear code). Run from this folder:
python3 make-fixtures.py
"""
import struct
import subprocess

GLOBAL = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]
LOCAL = [(255, 255, 0), (0, 255, 255), (255, 0, 255), (128, 128, 128)]


def lzw(indices, min_code_size):
    """Uncompressed LZW: a clear code before the table would grow past min_code_size + 1 bits."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    width = min_code_size + 1
    codes, run = [clear], 0
    for index in indices:
        if run == (1 << min_code_size) - 2:
            codes.append(clear)
            run = 0
        codes.append(index)
        run += 1
    codes.append(end)
    out, acc, bits = bytearray(), 0, 0
    for code in codes:
        acc |= code << bits
        bits += width
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8
    if bits:
        out.append(acc)
    return bytes(out)


def lzw_compressed(indices, min_code_size):
    """LZW with a growing table; once it holds 4096 codes it is kept (no clear code)."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    table = {(i,): i for i in range(clear)}
    next_code, width = end + 1, min_code_size + 1
    out, acc, bits = bytearray(), 0, 0

    def emit(code):
        nonlocal acc, bits
        acc |= code << bits
        bits += width
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8

    emit(clear)
    string = ()
    for index in indices:
        if string + (index,) in table:
            string += (index,)
            continue
        emit(table[string])
        if next_code < 4096:
            table[string + (index,)] = next_code
            next_code += 1
            if next_code > (1 << width) and width < 12:
                width += 1
        string = (index,)
    emit(table[string])
    emit(end)
    if bits:
        out.append(acc)
    return bytes(out)


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i : i + 255]
        out += bytes([len(chunk)]) + chunk
    return bytes(out) + b"\x00"


def palette(colors):
    return b"".join(bytes(c) for c in colors)


def control(delay, disposal, transparent=None):
    flags = (disposal << 2) | (1 if transparent is not None else 0)
    return b"\x21\xf9\x04" + struct.pack("<BHB", flags, delay, transparent or 0) + b"\x00"


def image(left, top, width, height, pixels, local=None, interlaced=False):
    rows = [pixels[y * width : (y + 1) * width] for y in range(height)]
    if interlaced:
        order = [y for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)) for y in range(start, height, step)]
        rows = [rows[y] for y in order]
    flags = (0x80 | 1 if local else 0) | (0x40 if interlaced else 0)
    out = b"\x2c" + struct.pack("<HHHHB", left, top, width, height, flags)
    if local:
        out += palette(local)
    return out + b"\x02" + sub_blocks(lzw([i for row in rows for i in row], 2))


def header(width, height, loop=None):
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x81, 0, 0) + palette(GLOBAL)
    if loop is not None:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    return out


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


frame0 = control(5, 1) + image(0, 0, 8, 6, [(x + y) % 4 for y in range(6) for x in range(8)])
frame1 = control(0, 2, transparent=3) + image(2, 1, 4, 3, [0, 1, 2, 3, 3, 2, 1, 0, 0, 3, 3, 1], local=LOCAL)
frame2 = control(1, 3) + image(5, 3, 3, 3, [2] * 9)
frame3 = control(20, 1, transparent=0) + image(0, 0, 8, 6, [(x * y) % 4 for y in range(6) for x in range(8)], interlaced=True)
anim = header(8, 6, loop=3) + frame0 + frame1 + frame2 + frame3 + b"\x3b"
write("anim.gif", anim)
write("static.gif", header(8, 6) + image(0, 0, 8, 6, [(x + 2 * y) % 4 for y in range(6) for x in range(8)]) + b"\x3b")
write("loop-forever.gif", header(8, 6, loop=0) + frame0 + frame0 + b"\x3b")
write("no-trailer.gif", header(8, 6) + frame0)
cut = len(header(8, 6, loop=3) + frame0 + frame1) + 12
write("bad-truncated.gif", anim[:cut])
broken1 = bytearray(frame1)
broken1[-8:-1] = b"\xff" * 7
write("bad-corrupt-frame1.gif", header(8, 6, loop=3) + frame0 + bytes(broken1) + frame2 + frame3 + b"\x3b")
state = 7
noise = []
for _ in range(64 * 64):
    state = (state * 1103515245 + 12345) % (1 << 31)
    noise.append(state >> 23)
runs = [(x // 9 + y // 5) % 256 for y in range(32) for x in range(64)]
gray = b"".join(bytes([i, 255 - i, (i * 7) % 256]) for i in range(256))
compressed = (
    b"GIF89a" + struct.pack("<HHBBB", 64, 96, 0xF7, 0, 0) + gray
    + b"\x2c" + struct.pack("<HHHHB", 0, 0, 64, 96, 0) + b"\x08" + sub_blocks(lzw_compressed(runs + noise, 8)) + b"\x3b"
)
write("compressed.gif", compressed)
write("bad-huge-canvas.gif", header(65535, 65535) + image(0, 0, 1, 1, [1]) + b"\x3b")

for name in ("anim", "static", "loop-forever", "compressed"):
    rgba = subprocess.run(["convert", f"{name}.gif", "-coalesce", "-depth", "8", "rgba:-"], check=True, capture_output=True).stdout
    write(f"{name}.coalesced.rgba", rgba)
