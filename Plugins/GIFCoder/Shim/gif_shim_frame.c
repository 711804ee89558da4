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

webimage_status gif_shim_decode_frame(gif_shim_animation *animation, uint32_t index, void *pixels, size_t stride,
                                      webimage_error *error) {
    if (index >= animation->info.frame_count)
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "no such frame");
    size_t row_bytes = (size_t)animation->info.width * 4;
    size_t canvas_bytes = row_bytes * animation->info.height;
    if (index == 0 && animation->canvas == NULL && stride == row_bytes) {
        /* The first frame of a fresh animation (a still image, or a poster frame) is drawn
           straight into the caller's pixels: no canvas to allocate and copy. An opaque frame
           covering the canvas writes every pixel, so clearing first is only needed otherwise
           (on failure the caller's pixels are not used). */
        const gif_frame_record *first = &animation->frames[0];
        if (first->left != 0 || first->top != 0 || first->width < (int)animation->info.width ||
            first->height < (int)animation->info.height || first->transparent_index >= 0) {
            memset(pixels, 0, canvas_bytes);
        }
        animation->canvas = pixels;
        webimage_status status = gif_shim_draw_frame(animation, 0, error);
        animation->canvas = NULL;
        return status;
    }
    if (animation->canvas == NULL) {
        animation->canvas = calloc(1, canvas_bytes);
        if (animation->canvas == NULL)
            return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory for the canvas");
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
            if (animation->saved == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
            memcpy(animation->saved, animation->canvas, canvas_bytes);
        }
        webimage_status status = gif_shim_draw_frame(animation, next, error);
        animation->drawn = (int)next;
        if (status != WEBIMAGE_STATUS_OK) {
            animation->frames[next].broken = 1;
            if (next == index) return status;
        }
    }
    if (animation->frames[index].broken) return gif_shim_draw_frame(animation, index, error);
    for (uint32_t y = 0; y < animation->info.height; y++) {
        memcpy((uint8_t *)pixels + (size_t)y * stride, animation->canvas + (size_t)y * row_bytes, row_bytes);
    }
    return WEBIMAGE_STATUS_OK;
}
