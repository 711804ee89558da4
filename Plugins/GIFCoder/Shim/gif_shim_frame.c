/*
 * Decoding one frame and compositing it: giflib reads a small stream made of the file's
 * header and the frame's own bytes; rows (de-interlaced) are drawn onto the canvas with
 * the frame's transparency, after the previous frame's disposal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gif_shim_internal.h"

static const GifByteType trailer[1] = {0x3B};

/** Clears the part of the canvas a frame covered (DISPOSE_BACKGROUND: to transparent, as browsers do). */
static void clear_rect(gif_shim_animation *animation, const gif_frame_record *frame) {
    int canvas_width = (int)animation->info.width, canvas_height = (int)animation->info.height;
    int left = frame->left < canvas_width ? frame->left : canvas_width;
    int right = frame->left + frame->width < canvas_width ? frame->left + frame->width : canvas_width;
    for (int y = frame->top; y < frame->top + frame->height && y < canvas_height; y++) {
        if (right > left) memset(animation->canvas + ((size_t)y * canvas_width + left) * 4, 0, (size_t)(right - left) * 4);
    }
}

/** Draws one row of colour indices at canvas row `y`. */
static void draw_row(gif_shim_animation *animation, const gif_frame_record *frame, const ColorMapObject *colors,
                     const GifPixelType *indices, int y) {
    int canvas_width = (int)animation->info.width;
    if (y < 0 || y >= (int)animation->info.height) return;
    uint8_t *out = animation->canvas + (size_t)y * canvas_width * 4;
    for (int x = 0; x < frame->width; x++) {
        int canvas_x = frame->left + x;
        if (canvas_x >= canvas_width) break;
        int index = indices[x];
        if (index == frame->transparent_index) continue;
        uint8_t *pixel = out + (size_t)canvas_x * 4;
        if (index < colors->ColorCount) {
            pixel[0] = colors->Colors[index].Red;
            pixel[1] = colors->Colors[index].Green;
            pixel[2] = colors->Colors[index].Blue;
        } else {
            pixel[0] = pixel[1] = pixel[2] = 0;
        }
        pixel[3] = 255;
    }
}

/** The canvas row of the `row`-th stored row of an interlaced frame of `height` rows. */
static int interlaced_row(int row, int height) {
    static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    for (int pass = 0; pass < 4; pass++) {
        int rows = starts[pass] < height ? (height - starts[pass] + steps[pass] - 1) / steps[pass] : 0;
        if (row < rows) return starts[pass] + row * steps[pass];
        row -= rows;
    }
    return height;
}

/** Decodes frame `index`'s pixels onto the canvas. */
static gif_shim_status draw_frame(gif_shim_animation *animation, uint32_t index, gif_shim_error *error) {
    const gif_frame_record *frame = &animation->frames[index];
    char context[64];
    snprintf(context, sizeof context, "frame %u", index);
    if (frame->broken) {
        char message[96];
        snprintf(message, sizeof message, "%s cannot be decoded (no colour table or corrupt data)", context);
        return gif_shim_fail(error, GIF_SHIM_CORRUPT, message);
    }
    gif_segment_reader reader = {
        .segments = {animation->bytes, animation->bytes + frame->descriptor_offset, trailer},
        .lengths = {animation->screen_end, frame->data_end - frame->descriptor_offset, 1},
        .count = 3,
    };
    int code = 0;
    GifFileType *gif = DGifOpen(&reader, gif_read_segments, &code);
    if (gif == NULL) return gif_shim_giflib_error(error, code, 0, context);
    gif_shim_status status = GIF_SHIM_OK;
    GifRecordType type;
    GifPixelType *indices = malloc((size_t)frame->width + 1);
    if (indices == NULL) {
        status = gif_shim_fail(error, GIF_SHIM_OUT_OF_MEMORY, "out of memory");
    } else if (DGifGetRecordType(gif, &type) == GIF_ERROR || type != IMAGE_DESC_RECORD_TYPE ||
               DGifGetImageDesc(gif) == GIF_ERROR) {
        status = gif_shim_giflib_error(error, gif->Error, 0, context);
    } else {
        const ColorMapObject *colors = gif->Image.ColorMap != NULL ? gif->Image.ColorMap : gif->SColorMap;
        for (int row = 0; row < frame->height && status == GIF_SHIM_OK; row++) {
            if (DGifGetLine(gif, indices, frame->width) == GIF_ERROR) {
                status = gif_shim_giflib_error(error, gif->Error, 0, context);
                break;
            }
            int y = gif->Image.Interlace ? interlaced_row(row, frame->height) : row;
            draw_row(animation, frame, colors, indices, frame->top + y);
        }
    }
    free(indices);
    DGifCloseFile(gif, &code);
    return status;
}

/** Applies the disposal of the frame last drawn, before the next one is drawn. */
static void dispose(gif_shim_animation *animation) {
    const gif_frame_record *frame = &animation->frames[animation->drawn];
    size_t canvas_bytes = (size_t)animation->info.width * animation->info.height * 4;
    if (frame->disposal == DISPOSE_BACKGROUND) clear_rect(animation, frame);
    else if (frame->disposal == DISPOSE_PREVIOUS && animation->saved != NULL) memcpy(animation->canvas, animation->saved, canvas_bytes);
}

gif_shim_status gif_shim_decode_frame(gif_shim_animation *animation, uint32_t index, void *pixels, size_t stride,
                                      gif_shim_error *error) {
    if (index >= animation->info.frame_count) return gif_shim_fail(error, GIF_SHIM_INVALID_ARGUMENT, "no such frame");
    size_t row_bytes = (size_t)animation->info.width * 4;
    size_t canvas_bytes = row_bytes * animation->info.height;
    if (index == 0 && animation->canvas == NULL && stride == row_bytes) {
        /* The first frame of a fresh animation (a still image, or a poster frame) is drawn
           straight into the caller's pixels: no canvas to allocate and copy. */
        memset(pixels, 0, canvas_bytes);
        animation->canvas = pixels;
        gif_shim_status status = draw_frame(animation, 0, error);
        animation->canvas = NULL;
        return status;
    }
    if (animation->canvas == NULL) {
        animation->canvas = calloc(1, canvas_bytes);
        if (animation->canvas == NULL) return gif_shim_fail(error, GIF_SHIM_OUT_OF_MEMORY, "out of memory for the canvas");
    }
    if ((int)index < animation->drawn) {
        memset(animation->canvas, 0, canvas_bytes);
        animation->drawn = -1;
    }
    while (animation->drawn < (int)index) {
        if (animation->drawn >= 0) dispose(animation);
        uint32_t next = (uint32_t)(animation->drawn + 1);
        if (animation->frames[next].disposal == DISPOSE_PREVIOUS) {
            if (animation->saved == NULL) animation->saved = malloc(canvas_bytes);
            if (animation->saved == NULL) return gif_shim_fail(error, GIF_SHIM_OUT_OF_MEMORY, "out of memory");
            memcpy(animation->saved, animation->canvas, canvas_bytes);
        }
        gif_shim_status status = draw_frame(animation, next, error);
        animation->drawn = (int)next;
        if (status != GIF_SHIM_OK) {
            animation->frames[next].broken = 1;
            if (next == index) return status;
        }
    }
    if (animation->frames[index].broken) return draw_frame(animation, index, error);
    for (uint32_t y = 0; y < animation->info.height; y++) {
        memcpy((uint8_t *)pixels + (size_t)y * stride, animation->canvas + (size_t)y * row_bytes, row_bytes);
    }
    return GIF_SHIM_OK;
}
