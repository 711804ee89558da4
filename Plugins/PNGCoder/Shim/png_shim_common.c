/* Error plumbing, the memory source and the RGBA transforms shared by all PNG shim paths. */
#include <stdio.h>
#include <string.h>

#include "png_shim_internal.h"

webimage_status png_shim_caught(const png_shim_session *session, webimage_error *error) {
    webimage_status status = WEBIMAGE_STATUS_CORRUPT_DATA;
    if (session->forced_status != WEBIMAGE_STATUS_OK) status = session->forced_status;
    else if (session->truncated) status = WEBIMAGE_STATUS_TRUNCATED_DATA;
    return webimage_fail(error, status, session->message);
}

static void on_error(png_structp png, png_const_charp message) {
    png_shim_session *session = png_get_error_ptr(png);
    /* A header over the user limits: keep the reason on_warning wrote, not "Invalid IHDR data". */
    if (session->forced_status == WEBIMAGE_STATUS_TOO_LARGE && session->message[0] != '\0') png_longjmp(png, 1);
    size_t length = strlen(message);
    if (length >= PNG_SHIM_MESSAGE_SIZE) length = PNG_SHIM_MESSAGE_SIZE - 1;
    memcpy(session->message, message, length);
    session->message[length] = '\0';
    png_longjmp(png, 1);
}

/** libpng warns "Image width (or height) exceeds user limit in IHDR" just before its error. */
static void on_warning(png_structp png, png_const_charp message) {
    png_shim_session *session = png_get_error_ptr(png);
    if (strstr(message, "exceeds user limit") == NULL) return;
    session->forced_status = WEBIMAGE_STATUS_TOO_LARGE;
    snprintf(session->message, sizeof session->message, "image too large: the %s exceeds the limit of %u pixels a side",
             strstr(message, "height") != NULL ? "height" : "width", PNG_SHIM_MAX_SIDE);
}

png_structp png_shim_create_read(png_shim_session *session) {
    memset(session->message, 0, sizeof session->message);
    session->truncated = 0;
    session->forced_status = WEBIMAGE_STATUS_OK;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, session, on_error, on_warning);
    if (png != NULL) png_set_user_limits(png, PNG_SHIM_MAX_SIDE, PNG_SHIM_MAX_SIDE);
    return png;
}

static void read_from_memory(png_structp png, png_bytep out, size_t count) {
    png_shim_session *session = png_get_io_ptr(png);
    if (count > session->size - session->offset) {
        session->truncated = 1;
        png_error(png, "the file ends before the image is complete");
    }
    memcpy(out, session->bytes + session->offset, count);
    session->offset += count;
}

void png_shim_use_memory_source(png_structp png, png_shim_session *session) {
    png_set_read_fn(png, session, read_from_memory);
}

void png_shim_fill_header(png_structp png, png_infop info, png_shim_header *header) {
    header->width = png_get_image_width(png, info);
    header->height = png_get_image_height(png, info);
    header->bit_depth = png_get_bit_depth(png, info);
    header->color_type = png_get_color_type(png, info);
    header->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    header->has_alpha =
        (header->color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
}

void png_shim_palette_table(png_structp png, png_infop info, uint32_t table[256]) {
    uint8_t entries[256][4];
    memset(entries, 0, sizeof entries);
    for (int i = 0; i < 256; i++) entries[i][3] = 0xFF;
    png_colorp palette = NULL;
    int palette_count = 0;
    if (png_get_PLTE(png, info, &palette, &palette_count) != 0) {
        for (int i = 0; i < palette_count && i < 256; i++) {
            entries[i][0] = palette[i].red;
            entries[i][1] = palette[i].green;
            entries[i][2] = palette[i].blue;
        }
    }
    png_bytep alpha = NULL;
    int alpha_count = 0;
    if (png_get_tRNS(png, info, &alpha, &alpha_count, NULL) != 0 && alpha != NULL) {
        for (int i = 0; i < alpha_count && i < 256; i++) entries[i][3] = alpha[i];
    }
    memcpy(table, entries, sizeof entries);
}

int png_shim_set_rgba_transforms(png_structp png, const png_shim_header *header, int sixteen_bit, int palette_indices) {
    if (palette_indices && header->color_type == PNG_COLOR_TYPE_PALETTE) {
        if (header->bit_depth < 8) png_set_packing(png);
        return 0;
    }
    int sixteen_output = sixteen_bit && header->bit_depth == 16;
    png_set_expand(png);
    if (header->bit_depth == 16) {
        if (sixteen_output) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            png_set_swap(png);
#endif
        } else {
            png_set_scale_16(png);
        }
    }
    if ((header->color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    if (!header->has_alpha) png_set_filler(png, sixteen_output ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    return sixteen_output;
}

void png_shim_expand_indices(const uint8_t *indices, uint32_t count, const uint32_t table[256], uint8_t *rgba) {
    for (uint32_t i = 0; i < count; i++) {
        uint32_t value = table[indices[i]];
        memcpy(rgba + (size_t)i * 4, &value, 4);
    }
}
