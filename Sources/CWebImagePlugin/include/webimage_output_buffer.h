/*
 * A growable byte buffer in memory from a caller-chosen allocator, for encoders whose
 * library writes its output through a callback (libpng, giflib, libheif, libwebp, libjpeg).
 *
 * The bundled shims write encoded bytes straight into it, so that when the allocator is the
 * host's (webimage_host.allocate) the bytes reach the host without a copy. Growing allocates
 * a larger block (at least twice as large), copies what was written so far and frees the
 * old block; the finished output is not copied again.
 */
#ifndef WEBIMAGE_OUTPUT_BUFFER_H
#define WEBIMAGE_OUTPUT_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(__clang__) && !defined(_Nonnull)
#define _Nonnull
#define _Nullable
#endif

/** Alignment of every block a webimage_output_buffer allocates, in bytes. */
#define WEBIMAGE_OUTPUT_BUFFER_ALIGNMENT 16u
/** Capacity of a buffer's first block when nothing larger is asked for, in bytes. */
#define WEBIMAGE_OUTPUT_BUFFER_MINIMUM_CAPACITY 4096u

/** An allocate/deallocate pair with its context; the same shape as webimage_host's. */
typedef struct webimage_allocator {
    /** Opaque state passed back to both functions. */
    void *_Nullable context;
    /** Allocates `size` bytes aligned to `alignment` (a power of two); NULL on failure. */
    void *_Nullable (*_Nonnull allocate)(void *_Nullable context, size_t size, size_t alignment);
    /** Frees memory from `allocate`; NULL is ignored. */
    void (*_Nonnull deallocate)(void *_Nullable context, void *_Nullable pointer);
} webimage_allocator;

/**
 * Bytes written so far (`size`) in a block of `capacity` bytes from `allocator`. Start with
 * `bytes` NULL and `size`, `capacity` 0. Whoever holds a non-NULL `bytes` frees it with
 * `allocator.deallocate` (webimage_output_buffer_discard does).
 */
typedef struct webimage_output_buffer {
    webimage_allocator allocator;
    uint8_t *_Nullable bytes;
    size_t size;
    size_t capacity;
} webimage_output_buffer;

/** An empty buffer that will allocate from `allocator`. */
static inline webimage_output_buffer webimage_output_buffer_make(webimage_allocator allocator) {
    webimage_output_buffer buffer = {allocator, NULL, 0, 0};
    return buffer;
}

/**
 * Makes room for `count` more bytes: a block of the largest of `size + count` bytes, twice
 * the capacity, and WEBIMAGE_OUTPUT_BUFFER_MINIMUM_CAPACITY (so a library that writes its
 * whole output in one call gets a block of exactly that size). False when the allocator
 * fails or the size overflows; the buffer is then unchanged.
 */
static inline bool webimage_output_buffer_reserve(webimage_output_buffer *_Nonnull buffer, size_t count) {
    if (count <= buffer->capacity - buffer->size) return true;
    if (count > SIZE_MAX - buffer->size) return false;
    size_t needed = buffer->size + count;
    size_t doubled = buffer->capacity > SIZE_MAX / 2 ? SIZE_MAX : buffer->capacity * 2;
    size_t capacity = needed > doubled ? needed : doubled;
    if (capacity < WEBIMAGE_OUTPUT_BUFFER_MINIMUM_CAPACITY) capacity = WEBIMAGE_OUTPUT_BUFFER_MINIMUM_CAPACITY;
    uint8_t *grown =
        (uint8_t *)buffer->allocator.allocate(buffer->allocator.context, capacity, WEBIMAGE_OUTPUT_BUFFER_ALIGNMENT);
    if (grown == NULL) return false;
    if (buffer->size > 0) memcpy(grown, buffer->bytes, buffer->size);
    buffer->allocator.deallocate(buffer->allocator.context, buffer->bytes);
    buffer->bytes = grown;
    buffer->capacity = capacity;
    return true;
}

/** Appends `count` bytes from `data`; false (buffer unchanged) when it cannot grow. */
static inline bool webimage_output_buffer_append(webimage_output_buffer *_Nonnull buffer, const void *_Nullable data,
                                                 size_t count) {
    if (count == 0) return true;
    if (data == NULL || !webimage_output_buffer_reserve(buffer, count)) return false;
    memcpy(buffer->bytes + buffer->size, data, count);
    buffer->size += count;
    return true;
}

/** Frees the block (if any) and empties the buffer; it can be used again. */
static inline void webimage_output_buffer_discard(webimage_output_buffer *_Nonnull buffer) {
    buffer->allocator.deallocate(buffer->allocator.context, buffer->bytes);
    buffer->bytes = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

#ifdef __cplusplus
}
#endif

#endif
