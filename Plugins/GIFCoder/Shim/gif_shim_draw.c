/*
 * Drawing one frame onto the canvas: its image descriptor and colour table are read from the
 * bytes the scan recorded, its data sub-blocks joined and LZW-decoded (LZWDecoder/gif_lzw.c), and
 * each row (de-interlaced, clipped to the canvas) drawn through a 256-entry RGBA table,
 * leaving the transparent index's pixels as they were.
 */
#include <stdlib.h>
#include <string.h>

#include "gif_shim_internal.h"

/** A frame's image descriptor fields the drawing needs, read from its recorded bytes. */
typedef struct frame_layout {
    /** Colour table entries (RGB triplets) and their count. */
    const uint8_t *colors;
    int color_count;
    int interlaced;
    int min_code_size;
    /** Offset of the first data sub-block within the frame's bytes. */
    size_t data_offset;
} frame_layout;

/** Reads the descriptor at the start of the frame's `bytes`; 0 when they are malformed. */
static int read_layout(const gif_shim_animation *animation, const uint8_t *bytes, size_t size, frame_layout *layout) {
    if (size < 11 || bytes[0] != 0x2C) return 0;
    uint8_t flags = bytes[9];
    size_t offset = 10;
    layout->interlaced = (flags & 0x40) != 0;
    if (flags & 0x80) {
        layout->color_count = 2 << (flags & 7);
        layout->colors = bytes + offset;
        offset += (size_t)layout->color_count * 3;
    } else if (animation->screen_end >= 13 && (animation->bytes[10] & 0x80)) {
        layout->color_count = 2 << (animation->bytes[10] & 7);
        layout->colors = animation->bytes + 13;
        if (13 + (size_t)layout->color_count * 3 > animation->screen_end) return 0;
    } else {
        return 0;
    }
    if (offset >= size || bytes[offset] > 8) return 0;
    layout->min_code_size = bytes[offset];
    layout->data_offset = offset + 1;
    return 1;
}

/** Joins the data sub-blocks of `bytes[offset..<size]`, adding GIF_LZW_PADDING zero bytes; NULL without memory. */
static uint8_t *join_blocks(const uint8_t *bytes, size_t offset, size_t size, size_t *joined_size) {
    uint8_t *joined = malloc(size - offset + GIF_LZW_PADDING);
    if (joined == NULL) return NULL;
    size_t length = 0;
    while (offset < size && bytes[offset] != 0) {
        size_t block = bytes[offset++];
        if (block > size - offset) block = size - offset;
        memcpy(joined + length, bytes + offset, block);
        length += block;
        offset += block;
    }
    memset(joined + length, 0, GIF_LZW_PADDING);
    *joined_size = length;
    return joined;
}

/** RGBA for each colour index: the colour table, then opaque black past its end. */
static void make_palette(const frame_layout *layout, uint32_t palette[256]) {
    for (int index = 0; index < 256; index++) {
        uint8_t rgba[4] = {0, 0, 0, 255};
        if (index < layout->color_count) memcpy(rgba, layout->colors + index * 3, 3);
        memcpy(&palette[index], rgba, 4);
    }
}

/** Draws `count` colour indices at `out` (RGBA8), leaving the transparent index (or -1) untouched. */
static void draw_row(uint8_t *out, const uint8_t *indices, int count, const uint32_t palette[256], int transparent) {
    if (transparent < 0) {
        for (int x = 0; x < count; x++) memcpy(out + (size_t)x * 4, &palette[indices[x]], 4);
    } else {
        for (int x = 0; x < count; x++) {
            if (indices[x] != transparent) memcpy(out + (size_t)x * 4, &palette[indices[x]], 4);
        }
    }
}

/** Rows of an interlaced frame are stored in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
static const int pass_starts[4] = {0, 4, 2, 1}, pass_steps[4] = {8, 8, 4, 2};

/** The message for a decoding failure of frame `index`. */
static webimage_status lzw_failure(webimage_error *error, uint32_t index, gif_lzw_status status) {
    const char *reason = status == GIF_LZW_BAD_CODE       ? "an LZW code that is not in the table"
                         : status == GIF_LZW_END_TOO_SOON ? "the LZW end code comes before the last pixel"
                                                          : "the image data ends before the last pixel";
    return webimage_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA, "frame %u: %s", index, reason);
}

/** Largest frame (in pixels) decoded whole by gif_lzw_decode_all; bigger ones go row by row. */
#define WHOLE_FRAME_LIMIT ((uint64_t)1 << 30)

/** Draws a frame's decoded rows onto a canvas-sized target, in stored order (de-interlacing). */
typedef struct row_painter {
    gif_shim_animation *animation;
    /** The canvas-sized RGBA8 pixels drawn onto, and the bytes from one row to the next. */
    uint8_t *target;
    size_t stride;
    const gif_frame_record *frame;
    const frame_layout *layout;
    uint32_t palette[256];
    /** Pixels of each row that fall on the canvas. */
    int visible;
    /** Interlacing pass and frame row of the last row drawn. */
    int pass, y;
} row_painter;

/** Draws the frame's `row`-th stored row (rows come in order, starting at 0). */
static void paint_row(row_painter *painter, int row, const uint8_t *indices) {
    const gif_frame_record *frame = painter->frame;
    if (!painter->layout->interlaced) {
        painter->y = row;
    } else if (row > 0) {
        /* The pass row counts add up to the height, so pass stays below 4. */
        painter->y += pass_steps[painter->pass];
        while (painter->y >= frame->height) painter->y = pass_starts[++painter->pass];
    }
    int canvas_y = frame->top + painter->y;
    if (canvas_y >= (int)painter->animation->info.height || painter->visible <= 0) return;
    uint8_t *out = painter->target + (size_t)canvas_y * painter->stride + (size_t)frame->left * 4;
    draw_row(out, indices, painter->visible, painter->palette, frame->transparent_index);
}

/** Decodes the frame in one call into a frame-sized index buffer, then draws the rows decoded. */
static gif_lzw_status decode_whole(gif_lzw *lzw, row_painter *painter, uint8_t *buffer) {
    const gif_frame_record *frame = painter->frame;
    size_t decoded = 0;
    gif_lzw_status status = gif_lzw_decode_all(lzw, buffer, (size_t)frame->width * (size_t)frame->height, &decoded);
    const uint8_t *indices = buffer + GIF_LZW_LITERALS;
    int rows = frame->width > 0 ? (int)(decoded / (size_t)frame->width) : frame->height;
    for (int row = 0; row < rows; row++) paint_row(painter, row, indices + (size_t)row * (size_t)frame->width);
    return status;
}

/** Decodes and draws the frame one row at a time through `indices` (a row's worth). */
static gif_lzw_status decode_by_rows(gif_lzw *lzw, row_painter *painter, uint8_t *indices) {
    for (int row = 0; row < painter->frame->height; row++) {
        gif_lzw_status status = gif_lzw_decode(lzw, indices, (size_t)painter->frame->width);
        if (status != GIF_LZW_OK) return status;
        paint_row(painter, row, indices);
    }
    return GIF_LZW_OK;
}

webimage_status gif_shim_draw_frame(gif_shim_animation *animation, uint32_t index, uint8_t *target, size_t stride,
                                    webimage_error *error) {
    const gif_frame_record *frame = &animation->frames[index];
    const uint8_t *bytes = animation->bytes + frame->descriptor_offset;
    size_t size = frame->data_end - frame->descriptor_offset;
    frame_layout layout;
    if (frame->broken || !read_layout(animation, bytes, size, &layout)) {
        return webimage_failf(error, WEBIMAGE_STATUS_CORRUPT_DATA,
                              "frame %u cannot be decoded (no colour table or corrupt data)", index);
    }
    uint64_t pixels = (uint64_t)frame->width * (uint64_t)frame->height;
    int whole = pixels <= (uint64_t)animation->info.width * animation->info.height && pixels <= WHOLE_FRAME_LIMIT;
    size_t data_size = 0;
    uint8_t *data = join_blocks(bytes, layout.data_offset, size, &data_size);
    gif_lzw *lzw = malloc(sizeof *lzw);
    uint8_t *indices = malloc(whole ? GIF_LZW_LITERALS + (size_t)pixels + GIF_LZW_SLACK : (size_t)frame->width + 1);
    webimage_status status = WEBIMAGE_STATUS_OK;
    if (data == NULL || lzw == NULL || indices == NULL) {
        status = webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    } else {
        row_painter painter = {
            .animation = animation, .target = target, .stride = stride, .frame = frame, .layout = &layout};
        make_palette(&layout, painter.palette);
        int canvas_width = (int)animation->info.width;
        painter.visible = frame->left < canvas_width ? canvas_width - frame->left : 0;
        if (painter.visible > frame->width) painter.visible = frame->width;
        gif_lzw_init(lzw, layout.min_code_size, data, data_size);
        gif_lzw_status decoded = whole ? decode_whole(lzw, &painter, indices) : decode_by_rows(lzw, &painter, indices);
        if (decoded != GIF_LZW_OK) status = lzw_failure(error, index, decoded);
    }
    free(indices);
    free(lzw);
    free(data);
    return status;
}
