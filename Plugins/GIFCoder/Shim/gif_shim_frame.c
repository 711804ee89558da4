/*
 * Compositing frames the way browsers do: each frame is drawn (gif_shim_draw.c) onto the
 * canvas after the previous frame's disposal (none, background, previous).
 */
#include <stdlib.h>
#include <string.h>

#include "gif_shim_internal.h"

/** Clears the part of the canvas a frame covered (DISPOSE_BACKGROUND: to transparent, as browsers do). */
static void clear_rect(gif_shim_animation *animation, const gif_frame_record *frame) {
    int canvas_width = (int)animation->info.width, canvas_height = (int)animation->info.height;
    int left = frame->left < canvas_width ? frame->left : canvas_width;
    int right = frame->left + frame->width < canvas_width ? frame->left + frame->width : canvas_width;
    for (int y = frame->top; y < frame->top + frame->height && y < canvas_height; y++) {
        if (right > left)
            memset(animation->canvas + ((size_t)y * canvas_width + left) * 4, 0, (size_t)(right - left) * 4);
    }
}

/** Applies the disposal of the frame last drawn, before the next one is drawn. */
static void dispose(gif_shim_animation *animation) {
    const gif_frame_record *frame = &animation->frames[animation->drawn];
    size_t canvas_bytes = (size_t)animation->info.width * animation->info.height * 4;
    if (frame->disposal == DISPOSE_BACKGROUND) clear_rect(animation, frame);
    else if (frame->disposal == DISPOSE_PREVIOUS && animation->saved != NULL)
        memcpy(animation->canvas, animation->saved, canvas_bytes);
}

/**
 * Whether frame `index` alone decides every pixel of its canvas: it covers the whole canvas,
 * has no transparent colour, has not failed, and does not bring back the canvas before it
 * afterwards (DISPOSE_PREVIOUS). It can be drawn straight into the caller's pixels.
 */
static int is_key_frame(const gif_shim_animation *animation, uint32_t index) {
    const gif_frame_record *frame = &animation->frames[index];
    return frame->left == 0 && frame->top == 0 && frame->width >= (int)animation->info.width &&
           frame->height >= (int)animation->info.height && frame->transparent_index < 0 && !frame->broken &&
           frame->disposal != DISPOSE_PREVIOUS;
}

/** The last key frame before `index` already drawn whole once (so drawing it again cannot fail), or -1. */
static int last_drawn_key_frame(const gif_shim_animation *animation, uint32_t index) {
    for (int key = (int)index - 1; key >= 0; key--) {
        if (animation->frames[key].drawn_whole && is_key_frame(animation, (uint32_t)key)) return key;
    }
    return -1;
}

/**
 * Brings the canvas to frame `index`: on from the frame drawn last, or, when the canvas is
 * past `index` or was not kept, again from the last key frame before it (whose drawing
 * replaces every pixel) or from a cleared canvas. A frame that fails is marked broken.
 */
static webimage_status compose_on_canvas(gif_shim_animation *animation, uint32_t index, webimage_error *error) {
    size_t row_bytes = (size_t)animation->info.width * 4;
    size_t canvas_bytes = row_bytes * animation->info.height;
    if (animation->canvas == NULL) {
        animation->canvas = calloc(1, canvas_bytes);
        if (animation->canvas == NULL)
            return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory for the canvas");
        animation->canvas_skipped = 1;
    }
    if (animation->canvas_skipped || (int)index < animation->drawn) {
        int key = last_drawn_key_frame(animation, index);
        if (key < 0) {
            memset(animation->canvas, 0, canvas_bytes);
            animation->drawn = -1;
        } else {
            animation->drawn = key - 1;
        }
        animation->canvas_skipped = 0;
    }
    while (animation->drawn < (int)index) {
        if (animation->drawn >= 0) dispose(animation);
        uint32_t next = (uint32_t)(animation->drawn + 1);
        if (animation->frames[next].disposal == DISPOSE_PREVIOUS) {
            if (animation->saved == NULL) animation->saved = malloc(canvas_bytes);
            if (animation->saved == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
            memcpy(animation->saved, animation->canvas, canvas_bytes);
        }
        webimage_status status = gif_shim_draw_frame(animation, next, animation->canvas, row_bytes, error);
        animation->drawn = (int)next;
        if (status != WEBIMAGE_STATUS_OK) {
            animation->frames[next].broken = 1;
            if (next == index) return status;
        } else {
            animation->frames[next].drawn_whole = 1;
        }
    }
    if (animation->frames[index].broken)
        return gif_shim_draw_frame(animation, index, animation->canvas, row_bytes, error);
    return WEBIMAGE_STATUS_OK;
}

/**
 * Draws key frame `index` straight into the caller's pixels; the canvas is brought up to
 * date from them only when the next frame draws over it (the next frame is not a key frame).
 * Returns non-zero on success; on failure nothing is changed but the caller's pixels.
 */
static int draw_key_frame(gif_shim_animation *animation, uint32_t index, uint8_t *pixels, size_t stride,
                          webimage_error *error) {
    if (gif_shim_draw_frame(animation, index, pixels, stride, error) != WEBIMAGE_STATUS_OK) return 0;
    animation->frames[index].drawn_whole = 1;
    size_t row_bytes = (size_t)animation->info.width * 4;
    int next_needs_canvas = index + 1 < animation->info.frame_count && !is_key_frame(animation, index + 1);
    if (next_needs_canvas && animation->canvas == NULL) animation->canvas = malloc(row_bytes * animation->info.height);
    if (next_needs_canvas && animation->canvas != NULL) {
        for (uint32_t y = 0; y < animation->info.height; y++)
            memcpy(animation->canvas + (size_t)y * row_bytes, pixels + (size_t)y * stride, row_bytes);
        animation->canvas_skipped = 0;
    } else {
        /* Not needed (or no memory for it now): composing the next frame onto the canvas starts again from a key frame. */
        animation->canvas_skipped = 1;
    }
    animation->drawn = (int)index;
    return 1;
}

webimage_status gif_shim_decode_frame(gif_shim_animation *animation, uint32_t index, void *pixels, size_t stride,
                                      webimage_error *error) {
    if (index >= animation->info.frame_count)
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "no such frame");
    size_t row_bytes = (size_t)animation->info.width * 4;
    if (is_key_frame(animation, index)) {
        if (draw_key_frame(animation, index, pixels, stride, error)) return WEBIMAGE_STATUS_OK;
        /* The frame fails: draw it again onto the composed canvas, so the rows it does have
           land where they would have, for the frames after it. */
    } else if (index == 0 && animation->canvas == NULL && stride == row_bytes) {
        /* The first frame of a fresh animation (a still image, or a poster frame) is drawn
           straight into the caller's pixels, cleared first: no canvas to allocate and copy
           (on failure the caller's pixels are not used). */
        memset(pixels, 0, row_bytes * animation->info.height);
        return gif_shim_draw_frame(animation, 0, pixels, stride, error);
    }
    webimage_status status = compose_on_canvas(animation, index, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    for (uint32_t y = 0; y < animation->info.height; y++) {
        memcpy((uint8_t *)pixels + (size_t)y * stride, animation->canvas + (size_t)y * row_bytes, row_bytes);
    }
    return WEBIMAGE_STATUS_OK;
}
