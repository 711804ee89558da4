/*
 * reference_png.c — PNG decoding with libpng's low-level read API, reading from memory.
 *
 * Errors: libpng calls our error handler, which records the message and longjmps back
 * to the setjmp in the calling function. Nothing changed after setjmp is read after the
 * jump, so no local needs to be volatile.
 */
#include <png.h>
#include <string.h>

#include "reference_decoders.h"
#include "reference_error.h"

/** The input and what went wrong, shared with libpng's callbacks. */
typedef struct png_source {
    const uint8_t *bytes;
    size_t size;
    size_t position;
    int truncated;
    char message[200];
} png_source;

static void on_error(png_structp png, png_const_charp message) {
    png_source *source = png_get_error_ptr(png);
    snprintf(source->message, sizeof source->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png; /* warnings (bad ancillary chunks, ...) do not fail a decode */
    (void)message;
}

/** libpng's read callback: copies from memory; running out is an error. */
static void read_from_memory(png_structp png, png_bytep data, size_t length) {
    png_source *source = png_get_io_ptr(png);
    if (length > source->size - source->position) {
        source->truncated = 1;
        png_error(png, "the data ends before the PNG is complete");
    }
    memcpy(data, source->bytes + source->position, length);
    source->position += length;
}

static int is_little_endian(void) {
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/** Creates the read structs; REFERENCE_OK or an error code. */
static int open_png(png_source *source, png_structp *png, png_infop *info) {
    if (source->bytes == NULL || source->size == 0) {
        return reference_fail(REFERENCE_ERROR_ARGUMENT, "libpng", "no input bytes");
    }
    if (source->size < 8 || png_sig_cmp(source->bytes, 0, 8) != 0) {
        return reference_fail(source->size < 8 ? REFERENCE_ERROR_TRUNCATED : REFERENCE_ERROR_NOT_THIS_FORMAT, "libpng",
                              "no PNG signature");
    }
    *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, source, on_error, on_warning);
    *info = *png ? png_create_info_struct(*png) : NULL;
    if (*info == NULL) {
        png_destroy_read_struct(png, NULL, NULL);
        return reference_fail(REFERENCE_ERROR_DECODE, "libpng", "cannot create the read structures");
    }
    png_set_read_fn(*png, source, read_from_memory);
    return REFERENCE_OK;
}

/** The code and message for a longjmp out of libpng. */
static int failure(const png_source *source) {
    return reference_fail(source->truncated ? REFERENCE_ERROR_TRUNCATED : REFERENCE_ERROR_DECODE, "libpng",
                          source->message);
}

int reference_png_probe(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height, int *bit_depth) {
    png_source source = {.bytes = bytes, .size = size};
    png_structp png = NULL;
    png_infop info = NULL;
    int status = open_png(&source, &png, &info);
    if (status != REFERENCE_OK) return status;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return failure(&source);
    }
    png_read_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    if (bit_depth != NULL) *bit_depth = png_get_bit_depth(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    return REFERENCE_OK;
}

int reference_png_decode(const uint8_t *bytes, size_t size, int sixteen_bit, void *out, size_t out_size) {
    if (out == NULL) return reference_fail(REFERENCE_ERROR_ARGUMENT, "libpng", "no output buffer");
    png_source source = {.bytes = bytes, .size = size};
    png_structp png = NULL;
    png_infop info = NULL;
    int status = open_png(&source, &png, &info);
    if (status != REFERENCE_OK) return status;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return failure(&source);
    }
    png_read_info(png, info);
    const png_uint_32 width = png_get_image_width(png, info);
    const png_uint_32 height = png_get_image_height(png, info);
    const size_t pixel_bytes = sixteen_bit ? 8 : 4;
    if ((size_t)width > SIZE_MAX / pixel_bytes / height || out_size < (size_t)width * height * pixel_bytes) {
        png_destroy_read_struct(&png, &info, NULL);
        return reference_fail(REFERENCE_ERROR_BUFFER_TOO_SMALL, "libpng", "the output buffer is too small");
    }

    /* Everything becomes RGBA at the requested depth. */
    png_set_expand(png); /* palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha */
    png_set_gray_to_rgb(png); /* gray (+alpha) -> RGB (+alpha) */
    if (sixteen_bit) {
        png_set_expand_16(png); /* 8-bit samples -> 16-bit (v * 257) */
        png_set_filler(png, 0xffff, PNG_FILLER_AFTER);
        if (is_little_endian()) png_set_swap(png); /* PNG is big-endian */
    } else {
        png_set_scale_16(png); /* 16 -> 8 bits, rounded */
        png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    }
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    const size_t stride = (size_t)width * pixel_bytes;
    if (png_get_rowbytes(png, info) != stride) {
        png_error(png, "unexpected row size after the transforms");
    }

    /* With interlacing, each pass fills in more pixels of every row. */
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, (png_bytep)out + (size_t)y * stride, NULL);
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    return REFERENCE_OK;
}
