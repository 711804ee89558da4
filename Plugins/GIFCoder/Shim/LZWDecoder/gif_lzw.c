/*
 * The GIF variant of LZW decompression, written for speed, in two forms:
 *
 * - a whole frame at once (gif_lzw_decode_all): every table entry's string already appears
 *   in the output (the previous code's string followed by one more byte), so an entry is
 *   just an offset and a length and a code is a short forward copy in 16-byte chunks;
 * - a few pixels at a time (gif_lzw_decode), for frames too big to hold: each entry keeps
 *   its prefix code, last byte, first byte and length, and a string is written back to
 *   front straight into the caller's buffer (no reversed stack to copy out of).
 *
 * Both follow giflib: codes grow to 12 bits, one bit at most per code read; once the table
 * is full it stays as it is until the next clear code (the "deferred clear" browsers and
 * giflib accept). A code above the one being defined is an error, as in browsers (giflib
 * 5.2 instead outputs a guessed string).
 */
#include <string.h>

#include "../gif_shim_internal.h"

/** `previous` before the first code after a clear code. */
#define NO_CODE 0xFFFF

static void reset_table(gif_lzw *lzw) {
    lzw->code_bits = lzw->min_code_size + 1;
    lzw->code_limit = 1 << lzw->code_bits;
    lzw->next_code = (1 << lzw->min_code_size) + 2;
    lzw->previous = NO_CODE;
}

void gif_lzw_init(gif_lzw *lzw, int min_code_size, const uint8_t *data, size_t size) {
    lzw->data = data;
    lzw->bit_position = 0;
    lzw->bit_end = (uint64_t)size * 8;
    lzw->min_code_size = min_code_size;
    lzw->pending_offset = lzw->pending_length = 0;
    for (uint32_t literal = 0; literal < (1u << min_code_size); literal++) {
        lzw->links[literal] = literal << 16;
        lzw->lengths[literal] = 1;
        lzw->firsts[literal] = (uint8_t)literal;
        lzw->offsets[literal] = literal;
    }
    reset_table(lzw);
}

/** Writes the `length` bytes of `code`'s string ending just before `end`, last byte first. */
static inline void write_string(const uint32_t *restrict links, uint32_t code, uint32_t length, uint8_t *restrict end) {
    for (uint32_t left = length; left > 1; left--) {
        uint32_t link = links[code];
        *--end = (uint8_t)(link >> 16);
        code = link & 0xFFFF;
    }
    end[-1] = (uint8_t)code;
}

/** Little-endian 64-bit load (the data is followed by GIF_LZW_PADDING readable bytes). */
static inline uint64_t load64(const uint8_t *bytes) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; i--) value = value << 8 | bytes[i];
    return value;
}

gif_lzw_status gif_lzw_decode(gif_lzw *lzw, uint8_t *restrict out, size_t count) {
    size_t done = 0;
    if (lzw->pending_length > 0) {
        size_t chunk = lzw->pending_length < count ? lzw->pending_length : count;
        memcpy(out, lzw->pending + lzw->pending_offset, chunk);
        lzw->pending_offset += (uint32_t)chunk;
        lzw->pending_length -= (uint32_t)chunk;
        done = chunk;
    }
    /* Locals and restrict pointers: stores to `out` cannot change the table or the state. */
    const uint8_t *restrict data = lzw->data;
    uint32_t *restrict links = lzw->links;
    uint16_t *restrict lengths = lzw->lengths;
    uint8_t *restrict firsts = lzw->firsts;
    uint64_t position = lzw->bit_position, end = lzw->bit_end;
    uint32_t clear = 1u << lzw->min_code_size, bits = (uint32_t)lzw->code_bits;
    uint32_t limit = (uint32_t)lzw->code_limit, next = (uint32_t)lzw->next_code, previous = lzw->previous;
    gif_lzw_status status = GIF_LZW_OK;
    while (done < count) {
        if (position + bits > end) {
            status = GIF_LZW_OUT_OF_DATA;
            break;
        }
        uint32_t code = (uint32_t)(load64(data + (position >> 3)) >> (position & 7)) & ((1u << bits) - 1);
        position += bits;
        if (code == clear) {
            bits = (uint32_t)lzw->min_code_size + 1;
            limit = 1u << bits;
            next = clear + 2;
            previous = NO_CODE;
            continue;
        }
        if (code == clear + 1) {
            status = GIF_LZW_END_TOO_SOON;
            break;
        }
        if (code < next) {
            /* A literal or a code already in the table: defines previous + its first byte. */
            if (previous != NO_CODE && next < GIF_LZW_CODES) {
                links[next] = previous | (uint32_t)firsts[code] << 16;
                lengths[next] = (uint16_t)(lengths[previous] + 1);
                firsts[next] = firsts[previous];
                next++;
            }
        } else if (code == next && previous != NO_CODE) {
            /* The code being defined (KwKwK): the previous string plus its own first byte. */
            links[next] = previous | (uint32_t)firsts[previous] << 16;
            lengths[next] = (uint16_t)(lengths[previous] + 1);
            firsts[next] = firsts[previous];
            next++;
        } else {
            status = GIF_LZW_BAD_CODE;
            break;
        }
        previous = code;
        if (next >= limit && bits < 12) {
            bits++;
            limit <<= 1;
        }
        uint32_t length = lengths[code];
        if (length <= count - done) {
            write_string(links, code, length, out + done + length);
            done += length;
        } else {
            /* The string runs past this call's end: keep the rest for the next call. */
            write_string(links, code, length, lzw->pending + length);
            size_t chunk = count - done;
            memcpy(out + done, lzw->pending, chunk);
            lzw->pending_offset = (uint32_t)chunk;
            lzw->pending_length = length - (uint32_t)chunk;
            done = count;
        }
    }
    lzw->bit_position = position;
    lzw->code_bits = (int)bits;
    lzw->code_limit = (int)limit;
    lzw->next_code = (int)next;
    lzw->previous = previous;
    return status;
}

/**
 * Copies `length` bytes forward in 16-byte chunks, each read whole before it is written
 * (`from` may be less than 16 bytes before `to`); may write up to 15 bytes past `to + length`.
 */
static inline void copy_chunks(uint8_t *to, const uint8_t *from, uint32_t length) {
    for (uint32_t copied = 0; copied < length; copied += 16) memmove(to + copied, from + copied, 16);
}

gif_lzw_status gif_lzw_decode_all(gif_lzw *lzw, uint8_t *buffer, size_t count, size_t *decoded) {
    for (uint32_t literal = 0; literal < GIF_LZW_LITERALS; literal++) buffer[literal] = (uint8_t)literal;
    const uint8_t *restrict data = lzw->data;
    uint32_t *restrict offsets = lzw->offsets;
    uint16_t *restrict lengths = lzw->lengths;
    uint64_t position = lzw->bit_position, end = lzw->bit_end;
    uint32_t clear = 1u << lzw->min_code_size, bits = (uint32_t)lzw->code_bits;
    uint32_t limit = (uint32_t)lzw->code_limit, next = (uint32_t)lzw->next_code;
    /* Where the previous code's string was written and its length (0: none since the clear code). */
    uint32_t previous_offset = 0, previous_length = 0;
    uint32_t written = GIF_LZW_LITERALS, stop = (uint32_t)(GIF_LZW_LITERALS + count);
    gif_lzw_status status = GIF_LZW_OK;
    while (written < stop) {
        if (position + bits > end) {
            status = GIF_LZW_OUT_OF_DATA;
            break;
        }
        uint32_t code = (uint32_t)(load64(data + (position >> 3)) >> (position & 7)) & ((1u << bits) - 1);
        position += bits;
        if (code == clear) {
            bits = (uint32_t)lzw->min_code_size + 1;
            limit = 1u << bits;
            next = clear + 2;
            previous_length = 0;
            continue;
        }
        if (code == clear + 1) {
            status = GIF_LZW_END_TOO_SOON;
            break;
        }
        uint32_t defined = next;
        if (code <= next && previous_length != 0) {
            /* previous + the first byte of this code's string: already in the output. */
            if (next < GIF_LZW_CODES) {
                offsets[next] = previous_offset;
                lengths[next] = (uint16_t)(previous_length + 1);
                next++;
            }
        } else if (code >= next) {
            status = GIF_LZW_BAD_CODE;
            break;
        }
        if (next >= limit && bits < 12) {
            bits++;
            limit <<= 1;
        }
        uint32_t length = lengths[code];
        copy_chunks(buffer + written, buffer + offsets[code], length);
        /* KwKwK: the code being defined ends with its own first byte, not yet written when copied. */
        if (code == defined) buffer[written + length - 1] = buffer[written];
        previous_offset = written;
        previous_length = length;
        written += length;
    }
    *decoded = written - GIF_LZW_LITERALS < count ? written - GIF_LZW_LITERALS : count;
    return status;
}
