/*
 * pnm_header.c — parses the text header of PGM and PPM files.
 *
 * A header is: the magic number ("P2", "P3", "P5" or "P6"), then width, height and
 * maxval as decimal numbers separated by whitespace. "#" starts a comment that runs
 * to the end of the line. Exactly one whitespace byte separates maxval from a binary
 * raster. Reference: the Netpbm format pages (pgm(5), ppm(5)).
 */
#include "pnm.h"

/** A read position in the file. */
typedef struct cursor {
    const uint8_t *bytes;
    size_t size;
    size_t position;
} cursor;

static bool is_space(uint8_t byte) {
    return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r' || byte == '\v' || byte == '\f';
}

static bool at_end(const cursor *c) { return c->position >= c->size; }

/** Skips a comment that starts at the cursor, up to (not including) its line end. */
static void skip_comment(cursor *c) {
    while (!at_end(c) && c->bytes[c->position] != '\n' && c->bytes[c->position] != '\r') c->position++;
}

/** Skips whitespace and comments. */
static void skip_space(cursor *c) {
    while (!at_end(c)) {
        uint8_t byte = c->bytes[c->position];
        if (byte == '#') {
            skip_comment(c);
        } else if (is_space(byte)) {
            c->position++;
        } else {
            return;
        }
    }
}

/**
 * Reads one header number in 1...limit. `what` names the field in messages. After the
 * digits there must be whitespace or a comment: "12x" is corrupt, "12" at the end of
 * the data is truncated.
 */
static webimage_status read_number(cursor *c, const char *what, uint32_t limit, uint32_t *value,
                                   webimage_error *error) {
    skip_space(c);
    if (at_end(c)) {
        return pnm_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA,
                         "PNM header is truncated: the data ends before the %s (%zu bytes)", what, c->size);
    }
    uint8_t first = c->bytes[c->position];
    if (first < '0' || first > '9') {
        return pnm_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA,
                         "malformed PNM header: expected the %s at byte %zu, found 0x%02x", what, c->position, first);
    }
    uint64_t number = 0;
    while (!at_end(c) && c->bytes[c->position] >= '0' && c->bytes[c->position] <= '9') {
        number = number * 10 + (uint64_t)(c->bytes[c->position] - '0');
        if (number > limit) {
            return pnm_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA, "malformed PNM header: the %s exceeds %u", what,
                             limit);
        }
        c->position++;
    }
    if (number == 0) {
        return pnm_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA, "malformed PNM header: the %s is 0", what);
    }
    if (at_end(c)) {
        return pnm_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA,
                         "PNM header is truncated: the data ends right after the %s", what);
    }
    uint8_t next = c->bytes[c->position];
    if (!is_space(next) && next != '#') {
        return pnm_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA,
                         "malformed PNM header: unexpected byte 0x%02x after the %s", next, what);
    }
    *value = (uint32_t)number;
    return WEBIMAGE_STATUS_OK;
}

bool pnm_looks_like_pnm(const uint8_t *bytes, size_t size) {
    if (size < 2 || bytes[0] != 'P') return false;
    if (bytes[1] != '2' && bytes[1] != '3' && bytes[1] != '5' && bytes[1] != '6') return false;
    return size == 2 || is_space(bytes[2]) || bytes[2] == '#';
}

webimage_status pnm_read_header(const uint8_t *bytes, size_t size, pnm_header *header, webimage_error *error) {
    if (size == 0 || bytes[0] != 'P') {
        return pnm_failf(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT, "not a PNM file (no 'P' magic number)");
    }
    if (size < 3) {
        return pnm_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "PNM header is truncated: the data is only %zu byte(s)",
                         size);
    }
    switch (bytes[1]) {
    case '2':
        header->channels = 1;
        header->ascii = true;
        break;
    case '3':
        header->channels = 3;
        header->ascii = true;
        break;
    case '5':
        header->channels = 1;
        header->ascii = false;
        break;
    case '6':
        header->channels = 3;
        header->ascii = false;
        break;
    default:
        return pnm_failf(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT,
                         "unsupported Netpbm type 'P%c' (this plugin reads P2, P3, P5 and P6)",
                         bytes[1] >= 0x20 && bytes[1] < 0x7f ? bytes[1] : '?');
    }
    if (!is_space(bytes[2]) && bytes[2] != '#') {
        return pnm_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA,
                         "malformed PNM header: no whitespace after the magic number");
    }

    cursor c = {bytes, size, 2};
    webimage_status status;
    if ((status = read_number(&c, "width", UINT32_MAX, &header->width, error)) != WEBIMAGE_STATUS_OK) return status;
    if ((status = read_number(&c, "height", UINT32_MAX, &header->height, error)) != WEBIMAGE_STATUS_OK) return status;
    if ((status = read_number(&c, "maxval", 65535, &header->maxval, error)) != WEBIMAGE_STATUS_OK) return status;

    /* One whitespace byte ends the header; a comment may come before it. */
    if (c.bytes[c.position] == '#') skip_comment(&c);
    if (at_end(&c)) {
        return pnm_failf(error, WEBIMAGE_STATUS_TRUNCATED_DATA,
                         "PNM header is truncated: the data ends inside a comment after the maxval");
    }
    header->raster_offset = c.position + 1;
    return WEBIMAGE_STATUS_OK;
}
