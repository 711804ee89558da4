#!/bin/sh
# Writes the small HEIF/AVIF fixtures of the HEIF coder tests. Run from this folder.
# Needs heif-enc (libheif-examples, with x265 and aom) and python3 (standard library only).
#
# Sources are 96 x 64 patterns (x265 needs at least 64 x 64, or libheif wraps the image in a one-tile grid):
# pixel (x, y) = (x * 2, y * 4, 96) and, with alpha, alpha = x * 2 + 3.
# The 16-bit source is the same pattern times 257. The thumbnail source is 256 x 192 with a 64 x 48 thumbnail (same formula, wrapped).
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import struct, sys, zlib

def png(path, width, height, channels, depth, pixel):
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            for value in pixel(x, y)[:channels]:
                raw += struct.pack(">H", value) if depth == 16 else bytes([value])
    colour_type = {3: 2, 4: 6}[channels]
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw)))
                + chunk(b"IEND", b""))

pattern = lambda x, y: ((x * 2) % 256, (y * 4) % 256, 96, (x * 2 + 3) % 256)
out = sys.argv[1]
png(f"{out}/rgb.png", 96, 64, 3, 8, pattern)
png(f"{out}/rgba.png", 96, 64, 4, 8, pattern)
png(f"{out}/rgb16.png", 96, 64, 3, 16, lambda x, y: tuple(v * 257 for v in pattern(x, y)))
png(f"{out}/large.png", 256, 192, 3, 8, pattern)
png(f"{out}/small.png", 64, 64, 3, 8, lambda x, y: (200, 40, 40))
PY

heif-enc -q 90 -o rgb.heic "$work/rgb.png" >/dev/null
heif-enc -q 90 -o alpha.heic "$work/rgba.png" >/dev/null
heif-enc -q 90 -b 10 -o deep10.heic "$work/rgb16.png" >/dev/null
heif-enc -q 90 -t 64 -o thumbnail.heic "$work/large.png" >/dev/null
heif-enc -q 90 -o multi.heic "$work/rgb.png" "$work/small.png" >/dev/null
heif-enc -q 90 -A -o rgb.avif "$work/rgb.png" >/dev/null
heif-enc -q 90 -A -o alpha.avif "$work/rgba.png" >/dev/null
heif-enc -q 90 -A -b 12 -o deep12.avif "$work/rgb16.png" >/dev/null

# Derived files: rotation and mirroring properties added to rgb.heic, lying or huge 'ispe'
# sizes, and a truncated file.
python3 - <<'PY'
import struct

def boxes(data, start, end):
    """(type, start, header size, end) of each box in data[start:end]."""
    result = []
    while start < end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        result.append((kind.decode(), start, 8, start + size))
        start += size
    return result

def child(data, start, end, kind):
    return next(b for b in boxes(data, start, end) if b[0] == kind)

def with_properties(source, new_properties):
    """Appends properties (type, payload) to ipco and associates them (essential) with the primary item."""
    data = bytearray(open(source, "rb").read())
    _, meta_start, _, meta_end = child(data, 0, len(data), "meta")
    _, pitm_start, _, _ = child(data, meta_start + 12, meta_end, "pitm")
    primary = struct.unpack(">H", data[pitm_start + 12:pitm_start + 14])[0]
    _, iprp_start, _, iprp_end = child(data, meta_start + 12, meta_end, "iprp")
    _, ipco_start, _, ipco_end = child(data, iprp_start + 8, iprp_end, "ipco")
    _, ipma_start, _, ipma_end = child(data, iprp_start + 8, iprp_end, "ipma")
    first_index = len(boxes(data, ipco_start + 8, ipco_end)) + 1
    added = b"".join(struct.pack(">I4s", 8 + len(p), k.encode()) + p for k, p in new_properties)
    # ipma, version 0 and flags 0: item ID (16 bits), count (8 bits), then (essential << 7 | index) each.
    version_flags = struct.unpack(">I", data[ipma_start + 8:ipma_start + 12])[0]
    assert version_flags == 0, "ipma version/flags"
    entries = bytearray(data[ipma_start + 16:ipma_end])
    position = 0
    while position < len(entries):
        item, count = struct.unpack(">HB", entries[position:position + 3])
        if item == primary:
            entries[position + 2] = count + len(new_properties)
            insert = position + 3 + count
            entries[insert:insert] = bytes(0x80 | (first_index + i) for i in range(len(new_properties)))
            break
        position += 3 + count
    ipma = struct.pack(">I4sII", 16 + len(entries), b"ipma", 0,
                       struct.unpack(">I", data[ipma_start + 12:ipma_start + 16])[0]) + bytes(entries)
    growth = len(added) + len(ipma) - (ipma_end - ipma_start)
    data[ipma_start:ipma_end] = ipma
    data[ipco_end:ipco_end] = added
    for start in (meta_start, iprp_start, ipco_start):
        size = struct.unpack(">I", data[start:start + 4])[0]
        data[start:start + 4] = struct.pack(">I", size + (growth if start != ipco_start else len(added)))
    shift_iloc(data, meta_start, growth)
    return data

def shift_iloc(data, meta_start, growth):
    """Moves every file offset in iloc by `growth` bytes (mdat follows meta)."""
    meta_end = meta_start + struct.unpack(">I", data[meta_start:meta_start + 4])[0]
    _, start, _, _ = child(data, meta_start + 12, meta_end, "iloc")
    version = data[start + 8]
    sizes = struct.unpack(">H", data[start + 12:start + 14])[0]
    offset_size, length_size, base_size, index_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15, sizes & 15
    position = start + 14
    count_size = 4 if version == 2 else 2
    count = int.from_bytes(data[position:position + count_size], "big")
    position += count_size
    def shift(at, size):
        if size:
            value = int.from_bytes(data[at:at + size], "big")
            data[at:at + size] = (value + growth).to_bytes(size, "big")
    for _ in range(count):
        position += count_size + (2 if version in (1, 2) else 0) + 2
        base_at = position
        shift(base_at, base_size)
        position += base_size
        extents = struct.unpack(">H", data[position:position + 2])[0]
        position += 2
        for _ in range(extents):
            if version in (1, 2) and index_size:
                position += index_size
            if not base_size:
                shift(position, offset_size)
            position += offset_size + length_size

def with_ispe(source, width, height):
    data = bytearray(open(source, "rb").read())
    at = data.index(b"ispe")
    data[at + 8:at + 16] = struct.pack(">II", width, height)
    return data

# irot angle 1 = 90 degrees anti-clockwise; imir axis 0 = mirror about a vertical axis (left and right swap).
open("rotated.heic", "wb").write(with_properties("rgb.heic", [("irot", b"\x01")]))
open("rotated-mirrored.heic", "wb").write(with_properties("rgb.heic", [("irot", b"\x01"), ("imir", b"\x00")]))
open("bad-ispe-bigger.heic", "wb").write(with_ispe("rgb.heic", 128, 96))
open("bad-ispe-huge.heic", "wb").write(with_ispe("rgb.heic", 60000, 60000))
whole = open("rgb.heic", "rb").read()
open("bad-truncated.heic", "wb").write(whole[: len(whole) * 6 // 10])
open("bad-truncated-header.heic", "wb").write(whole[:40])
PY

# bad-overlay-canvas.heic and bad-overlay-primary.heic are not made here: they are inputs the
# libFuzzer harness (Tests/Fuzz/HEIFFuzz) derived from alpha.heic, kept as they were found. In
# each, an item's type became 'iovl' (overlay), whose data then declares a canvas of hundreds of
# megapixels that libheif 1.15 would allocate without checking it.
