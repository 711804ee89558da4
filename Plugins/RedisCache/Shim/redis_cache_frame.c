/*
 * The value stored for an entry: a 32-byte header, the extended data, then the bytes.
 *
 * Header (little endian): the magic "WIMR", the format version (1), flags (0: none defined),
 * two reserved bytes (0), the extended data's length (64 bits), the bytes' length (64 bits),
 * the XXH3-64 of everything after the header (the extended data and the bytes as stored).
 * A read checks every field and the checksum, so a truncated, extended, bit-flipped or
 * foreign value is found before any byte of it is served.
 *
 * The unversioned frame of earlier releases ("WIR1", the extended data's length in 32 bits,
 * no checksum) cannot be verified: it counts as corrupt and is removed, costing one download.
 * A version above ours is a newer release's entry on a shared server: a miss left in place.
 */
#define _GNU_SOURCE
#include <string.h>
#include <xxhash.h>

#include "redis_cache_internal.h"

enum { frame_version = 1 };
static const char frame_magic[4] = {'W', 'I', 'M', 'R'};
static const char unversioned_magic[4] = {'W', 'I', 'R', '1'};

static void put_u64(char *out, uint64_t value) {
    for (int byte = 0; byte < 8; byte++) out[byte] = (char)(value >> (8 * byte) & 255);
}

static uint64_t get_u64(const char *in) {
    uint64_t value = 0;
    for (int byte = 7; byte >= 0; byte--) value = value << 8 | (unsigned char)in[byte];
    return value;
}

void redis_cache_frame_write(char *frame, const uint8_t *bytes, size_t size, const uint8_t *extended,
                             size_t extended_size) {
    memset(frame, 0, REDIS_CACHE_FRAME_HEADER_SIZE);
    memcpy(frame, frame_magic, sizeof(frame_magic));
    frame[4] = frame_version;
    put_u64(frame + 8, extended_size);
    put_u64(frame + 16, size);
    char *body = frame + REDIS_CACHE_FRAME_HEADER_SIZE;
    if (extended_size) memcpy(body, extended, extended_size);
    if (size) memcpy(body + extended_size, bytes, size);
    put_u64(frame + 24, XXH3_64bits(body, extended_size + size));
}

redis_cache_frame_check redis_cache_frame_read(const char *value, size_t length, redis_cache_frame *frame) {
    *frame = (redis_cache_frame){0};
    if (length >= sizeof(unversioned_magic) && memcmp(value, unversioned_magic, sizeof(unversioned_magic)) == 0)
        return (redis_cache_frame_check){"an entry of the unversioned format WIR1, which has no checksum", 0};
    if (length < REDIS_CACHE_FRAME_HEADER_SIZE) return (redis_cache_frame_check){"shorter than its header", 0};
    if (memcmp(value, frame_magic, sizeof(frame_magic)) != 0) return (redis_cache_frame_check){"no entry header", 0};
    if ((unsigned char)value[4] > frame_version)
        return (redis_cache_frame_check){"an entry of a newer format", (unsigned char)value[4]};
    if (value[4] != frame_version || value[5] != 0 || value[6] != 0 || value[7] != 0)
        return (redis_cache_frame_check){"unknown header version or flags", 0};
    uint64_t extended_size = get_u64(value + 8), size = get_u64(value + 16);
    size_t stored = length - REDIS_CACHE_FRAME_HEADER_SIZE;
    if (extended_size > stored || size != stored - extended_size)
        return (redis_cache_frame_check){"length does not match the header", 0};
    const char *body = value + REDIS_CACHE_FRAME_HEADER_SIZE;
    if (XXH3_64bits(body, stored) != get_u64(value + 24)) return (redis_cache_frame_check){"checksum mismatch", 0};
    *frame = (redis_cache_frame){(const uint8_t *)body, (size_t)extended_size, (const uint8_t *)body + extended_size,
                                 (size_t)size};
    return (redis_cache_frame_check){NULL, 0};
}
