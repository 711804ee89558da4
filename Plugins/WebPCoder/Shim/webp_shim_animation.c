/*
 * Animations: frames decoded forward on demand and composited the way libwebp's
 * WebPAnimDecoder composites them (transparent canvas, straight-alpha blending, disposal
 * to transparent), but written straight into the caller's buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "webp_shim_internal.h"

/** What compositing the next frame needs to know about the last one. */
typedef struct previous_frame {
    int x, y, width, height;
    WebPMuxAnimDispose dispose;
    int was_key_frame;
} previous_frame;

struct webp_shim_animation {
    uint8_t *data;
    size_t size;
    WebPDemuxer *demux;
    uint32_t width;
    uint32_t height;
    uint32_t frame_count;
    uint32_t *durations;
    /** The canvas after the last decoded frame and its disposal; NULL until the first render. */
    uint8_t *canvas;
    /** Index of the frame the canvas is ready for. */
    uint32_t next;
    previous_frame previous;
};

static size_t canvas_stride(const webp_shim_animation *animation) {
    return (size_t)animation->width * WEBP_SHIM_CHANNELS;
}

webimage_status webp_shim_animation_open(const uint8_t *bytes, size_t size, uint64_t max_pixel_count,
                                         webp_shim_animation **out, webp_shim_header *header, webimage_error *error) {
    *out = NULL;
    webimage_status status = webp_shim_read_header(bytes, size, 0, header, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    status = webimage_check_pixel_limit(header->width, header->height, max_pixel_count, error);
    if (status != WEBIMAGE_STATUS_OK) return status;
    webp_shim_animation *animation = calloc(1, sizeof *animation);
    if (animation == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    animation->data = malloc(size);
    if (animation->data == NULL) {
        webp_shim_animation_close(animation);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(animation->data, bytes, size);
    animation->size = size;
    status = webp_shim_open_demux(animation->data, size, &animation->demux, error);
    if (status != WEBIMAGE_STATUS_OK) {
        webp_shim_animation_close(animation);
        return status;
    }
    animation->width = WebPDemuxGetI(animation->demux, WEBP_FF_CANVAS_WIDTH);
    animation->height = WebPDemuxGetI(animation->demux, WEBP_FF_CANVAS_HEIGHT);
    animation->frame_count = WebPDemuxGetI(animation->demux, WEBP_FF_FRAME_COUNT);
    if (animation->frame_count == 0 || animation->width != header->width || animation->height != header->height) {
        webp_shim_animation_close(animation);
        return webimage_fail(error, WEBIMAGE_STATUS_CORRUPT_DATA,
                             "the container has no frames or disagrees on the canvas");
    }
    animation->durations = calloc(animation->frame_count, sizeof *animation->durations);
    if (animation->durations == NULL) {
        webp_shim_animation_close(animation);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    WebPIterator frame;
    for (uint32_t i = 0; i < animation->frame_count; i++) {
        if (!WebPDemuxGetFrame(animation->demux, (int)i + 1, &frame)) continue;
        animation->durations[i] = frame.duration > 0 ? (uint32_t)frame.duration : 0;
        WebPDemuxReleaseIterator(&frame);
    }
    header->frame_count = animation->frame_count;
    header->loop_count = WebPDemuxGetI(animation->demux, WEBP_FF_LOOP_COUNT);
    *out = animation;
    return WEBIMAGE_STATUS_OK;
}

uint32_t webp_shim_animation_duration(const webp_shim_animation *animation, uint32_t index) {
    return index < animation->frame_count ? animation->durations[index] : 0;
}

void webp_shim_animation_close(webp_shim_animation *animation) {
    if (animation == NULL) return;
    WebPDemuxDelete(animation->demux);
    free(animation->durations);
    free(animation->canvas);
    free(animation->data);
    free(animation);
}

static int covers_canvas(const webp_shim_animation *animation, int width, int height) {
    return width == (int)animation->width && height == (int)animation->height;
}

/** Whether `frame` starts from a transparent canvas instead of the previous one. */
static int is_key_frame(const webp_shim_animation *animation, const WebPIterator *frame) {
    const previous_frame *previous = &animation->previous;
    if (frame->frame_num == 1) return 1;
    if ((!frame->has_alpha || frame->blend_method == WEBP_MUX_NO_BLEND) &&
        covers_canvas(animation, frame->width, frame->height)) {
        return 1;
    }
    return previous->dispose == WEBP_MUX_DISPOSE_BACKGROUND &&
           (covers_canvas(animation, previous->width, previous->height) || previous->was_key_frame);
}

/** Blends `count` straight-alpha pixels of `top` (in place) over `bottom`, as libwebp does. */
static void blend_pixels(uint8_t *top, const uint8_t *bottom, int count) {
    for (int i = 0; i < count; i++, top += 4, bottom += 4) {
        uint32_t top_alpha = top[3];
        if (top_alpha == 255) continue;
        if (top_alpha == 0) {
            memcpy(top, bottom, 4);
            continue;
        }
        uint32_t bottom_weight = (bottom[3] * (256 - top_alpha)) >> 8;
        uint32_t alpha = top_alpha + bottom_weight;
        uint32_t scale = (1u << 24) / alpha;
        for (int c = 0; c < 3; c++) {
            top[c] = (uint8_t)(((top[c] * top_alpha + bottom[c] * bottom_weight) * scale) >> 24);
        }
        top[3] = (uint8_t)alpha;
    }
}

/**
 * Blends row `y` of the frame over the canvas. After a disposal to transparent, pixels
 * inside the disposed rectangle are left as decoded (blending over transparency is a no-op
 * there in libwebp's compositor, which skips them).
 */
static void blend_row(const webp_shim_animation *animation, const WebPIterator *frame, int y, uint8_t *row,
                      const uint8_t *canvas_row) {
    const previous_frame *previous = &animation->previous;
    int left = frame->x_offset;
    int right = frame->x_offset + frame->width;
    int overlaps = previous->dispose == WEBP_MUX_DISPOSE_BACKGROUND && y >= previous->y &&
                   y < previous->y + previous->height && left < previous->x + previous->width && right > previous->x;
    if (!overlaps) {
        blend_pixels(row + left * 4, canvas_row + left * 4, right - left);
        return;
    }
    if (left < previous->x) blend_pixels(row + left * 4, canvas_row + left * 4, previous->x - left);
    int previous_right = previous->x + previous->width;
    if (right > previous_right) {
        blend_pixels(row + previous_right * 4, canvas_row + previous_right * 4, right - previous_right);
    }
}

/** Composites frame `index` into `target` and advances the canvas past it. */
static webimage_status render_frame(webp_shim_animation *animation, uint32_t index, uint8_t *target, size_t stride,
                                    webimage_error *error) {
    WebPIterator frame;
    animation->next = index + 1;
    if (!WebPDemuxGetFrame(animation->demux, (int)index + 1, &frame)) {
        return webimage_fail(error, WEBIMAGE_STATUS_CORRUPT_DATA, "the frame is missing from the container");
    }
    size_t row_bytes = canvas_stride(animation);
    int key_frame = is_key_frame(animation, &frame);
    if (key_frame) {
        if (!covers_canvas(animation, frame.width, frame.height)) {
            for (uint32_t y = 0; y < animation->height; y++) memset(target + y * stride, 0, row_bytes);
        }
    } else {
        for (uint32_t y = 0; y < animation->height; y++) {
            memcpy(target + y * stride, animation->canvas + y * row_bytes, row_bytes);
        }
    }
    size_t left = (size_t)frame.x_offset * WEBP_SHIM_CHANNELS;
    VP8StatusCode code = webp_shim_decode_frame(&frame, target + (size_t)frame.y_offset * stride + left, stride);
    if (code != VP8_STATUS_OK) {
        WebPDemuxReleaseIterator(&frame);
        return webp_shim_fail_frame(error, code);
    }
    if (frame.frame_num > 1 && frame.blend_method == WEBP_MUX_BLEND && !key_frame) {
        for (int y = frame.y_offset; y < frame.y_offset + frame.height; y++) {
            blend_row(animation, &frame, y, target + (size_t)y * stride, animation->canvas + (size_t)y * row_bytes);
        }
    }
    if (key_frame) {
        for (uint32_t y = 0; y < animation->height; y++) {
            memcpy(animation->canvas + y * row_bytes, target + y * stride, row_bytes);
        }
    } else {
        size_t frame_bytes = (size_t)frame.width * WEBP_SHIM_CHANNELS;
        for (int y = frame.y_offset; y < frame.y_offset + frame.height; y++) {
            memcpy(animation->canvas + (size_t)y * row_bytes + left, target + (size_t)y * stride + left, frame_bytes);
        }
    }
    if (frame.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND) {
        for (int y = frame.y_offset; y < frame.y_offset + frame.height; y++) {
            memset(animation->canvas + (size_t)y * row_bytes + left, 0, (size_t)frame.width * WEBP_SHIM_CHANNELS);
        }
    }
    animation->previous =
        (previous_frame){frame.x_offset, frame.y_offset, frame.width, frame.height, frame.dispose_method, key_frame};
    WebPDemuxReleaseIterator(&frame);
    return WEBIMAGE_STATUS_OK;
}

webimage_status webp_shim_animation_render(webp_shim_animation *animation, uint32_t index, void *pixels, size_t stride,
                                           webimage_error *error) {
    if (index >= animation->frame_count) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "no frame with that index");
    }
    if (stride < canvas_stride(animation)) {
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "rows are shorter than the canvas");
    }
    size_t canvas_bytes = canvas_stride(animation) * animation->height;
    if (animation->canvas == NULL) {
        animation->canvas = calloc(1, canvas_bytes);
        if (animation->canvas == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        animation->next = 0;
    }
    if (index < animation->next) {
        memset(animation->canvas, 0, canvas_bytes);
        memset(&animation->previous, 0, sizeof animation->previous);
        animation->next = 0;
    }
    if (index > animation->next) {
        uint8_t *scratch = malloc(canvas_bytes);
        if (scratch == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        while (animation->next < index) {
            /* A frame that fails is skipped: the canvas stays as it was before it. */
            render_frame(animation, animation->next, scratch, canvas_stride(animation), error);
        }
        free(scratch);
    }
    return render_frame(animation, index, pixels, stride, error);
}
