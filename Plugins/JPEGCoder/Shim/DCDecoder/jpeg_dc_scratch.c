/*
 * Scratch memory of the 1/8-scale fast path, kept between decodes.
 *
 * A decode of a 12-megapixel file needs about 6 MB of scratch (the unstuffed data and the
 * MCU records of both threads). Fresh memory from malloc at that size is new pages each
 * time, and the kernel mapping and zeroing them cost about as much as a fifth of the
 * decode, so the last block used is kept (one per process, up to JPEG_DC_KEPT_SCRATCH_BYTES)
 * for the next decode. Concurrent decodes each get their own block.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "jpeg_dc_internal.h"

/** Larger scratch blocks are freed after use instead of being kept (bytes). */
#define JPEG_DC_KEPT_SCRATCH_BYTES ((size_t)64 << 20)

/** A scratch block: its capacity, then the memory handed out (64-byte aligned). */
typedef struct scratch_header {
    size_t capacity;
    unsigned char padding[56];
} scratch_header;

static _Atomic(scratch_header *) kept_block = NULL;

void *_Nullable jpeg_dc_take_scratch(size_t size) {
    scratch_header *block = atomic_exchange(&kept_block, NULL);
    if (block != NULL && block->capacity >= size) return block + 1;
    free(block);
    block = aligned_alloc(64, sizeof *block + ((size + 63) & ~(size_t)63));
    if (block == NULL) return NULL;
    block->capacity = size;
    return block + 1;
}

void jpeg_dc_return_scratch(void *memory) {
    if (memory == NULL) return;
    scratch_header *block = (scratch_header *)memory - 1;
    if (block->capacity > JPEG_DC_KEPT_SCRATCH_BYTES) {
        free(block);
        return;
    }
    free(atomic_exchange(&kept_block, block));
}
