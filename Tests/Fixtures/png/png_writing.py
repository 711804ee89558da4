"""PNG-writing helpers shared by the fixture scripts of this folder."""

import struct
import zlib


def chunk(kind, data):
    """A PNG chunk: length, type, data and CRC."""
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(values, depth):
    """Samples packed at `depth` bits (1, 2, 4, 8 or 16; 16-bit big-endian), as PNG rows hold them."""
    if depth == 16:
        return b"".join(struct.pack(">H", v) for v in values)
    if depth == 8:
        return bytes(values)
    out, acc, bits = bytearray(), 0, 0
    for v in values:
        acc = (acc << depth) | v
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)
