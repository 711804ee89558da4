/*
 * Opening a GIF: one pass over its records with giflib, skipping the LZW data, to build the
 * frame table (offsets, geometry, delay, disposal, transparency) and read the loop count.
 */
#include <stdlib.h>
#include <string.h>

#include "gif_shim_internal.h"

/** The Graphic Control Extension that applies to the next image. */
typedef struct pending_control {
    int delay;
    int disposal;
    int transparent_index;
} pending_control;

static const pending_control no_control = {0, DISPOSE_DO_NOT, -1};

/** Reads one extension record; updates the pending control block and the loop count. */
static int read_extension(GifFileType *gif, pending_control *control, gif_shim_info *info) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return GIF_ERROR;
    int netscape = 0;
    if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4) {
        GraphicsControlBlock gcb;
        if (DGifExtensionToGCB(block[0], block + 1, &gcb) == GIF_OK) {
            control->delay = gcb.DelayTime;
            control->disposal = gcb.DisposalMode;
            control->transparent_index = gcb.TransparentColor;
        }
    } else if (code == APPLICATION_EXT_FUNC_CODE && block != NULL && block[0] == 11 &&
               (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0)) {
        netscape = 1;
    }
    while (block != NULL) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return GIF_ERROR;
        if (netscape && block != NULL && block[0] >= 3 && block[1] == 1) {
            info->loop_count = (uint32_t)block[2] | (uint32_t)block[3] << 8;
            netscape = 0;
        }
    }
    return GIF_OK;
}

/** Appends a frame record, growing the table. */
static int add_frame(gif_shim_animation *animation, size_t *capacity, const gif_frame_record *frame) {
    if (animation->info.frame_count == *capacity) {
        size_t grown = *capacity == 0 ? 16 : *capacity * 2;
        gif_frame_record *frames = realloc(animation->frames, grown * sizeof *frames);
        if (frames == NULL) return 0;
        animation->frames = frames;
        *capacity = grown;
    }
    animation->frames[animation->info.frame_count++] = *frame;
    return 1;
}

/** Walks the records after the screen descriptor. Returns OK, or the failure for the caller. */
static webimage_status scan_records(GifFileType *gif, gif_segment_reader *reader, gif_shim_animation *animation,
                                    webimage_error *error) {
    pending_control control = no_control;
    size_t capacity = 0;
    for (;;) {
        size_t record_start = reader->position;
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            if (reader->hit_end && record_start == animation->size) {
                animation->info.complete = 1;
                return WEBIMAGE_STATUS_OK;
            }
            return gif_shim_giflib_error(error, gif->Error, reader->hit_end, "between frames");
        }
        if (type == TERMINATE_RECORD_TYPE) {
            animation->info.complete = 1;
            return WEBIMAGE_STATUS_OK;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            if (read_extension(gif, &control, &animation->info) == GIF_ERROR) {
                return gif_shim_giflib_error(error, gif->Error, reader->hit_end, "inside an extension");
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE)
            return webimage_fail(error, WEBIMAGE_STATUS_CORRUPT_DATA, "unknown record type");
        if (DGifGetImageDesc(gif) == GIF_ERROR) {
            return gif_shim_giflib_error(error, gif->Error, reader->hit_end, "inside an image descriptor");
        }
        int code_size = 0;
        GifByteType *block = NULL;
        if (DGifGetCode(gif, &code_size, &block) == GIF_ERROR) {
            return gif_shim_giflib_error(error, gif->Error, reader->hit_end, "inside a frame");
        }
        while (block != NULL) {
            if (DGifGetCodeNext(gif, &block) == GIF_ERROR) {
                return gif_shim_giflib_error(error, gif->Error, reader->hit_end, "inside a frame");
            }
        }
        GifImageDesc *image = &gif->Image;
        gif_frame_record frame = {
            .descriptor_offset = record_start,
            .data_end = reader->position,
            .left = image->Left,
            .top = image->Top,
            .width = image->Width,
            .height = image->Height,
            .delay = control.delay,
            .disposal = control.disposal,
            .transparent_index = control.transparent_index,
            .broken = 0,
        };
        if (image->ColorMap == NULL && gif->SColorMap == NULL) frame.broken = 1;
        if (control.transparent_index >= 0) animation->info.has_transparency = 1;
        if (!add_frame(animation, &capacity, &frame))
            return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        control = no_control;
    }
}

webimage_status gif_shim_open(const uint8_t *bytes, size_t size, bool allow_partial, uint64_t max_pixel_count,
                              gif_shim_animation **out, gif_shim_info *info, webimage_error *error) {
    *out = NULL;
    if (size < 6 || (memcmp(bytes, "GIF87a", 6) != 0 && memcmp(bytes, "GIF89a", 6) != 0)) {
        if (size < 6 && memcmp(bytes, "GIF89a", size) == 0) {
            return webimage_fail(error, WEBIMAGE_STATUS_TRUNCATED_DATA, "the file ends inside the GIF signature");
        }
        return webimage_fail(error, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT,
                             "not a GIF file (no GIF87a or GIF89a signature)");
    }
    gif_shim_animation *animation = calloc(1, sizeof *animation);
    if (animation == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    animation->bytes = bytes;
    animation->size = size;
    animation->drawn = -1;
    animation->info.loop_count = 1;
    gif_segment_reader reader = {.segments = {bytes}, .lengths = {size}, .count = 1};
    int code = 0;
    GifFileType *gif = DGifOpen(&reader, gif_read_segments, &code);
    if (gif == NULL) {
        gif_shim_close(animation);
        return gif_shim_giflib_error(error, code, reader.hit_end, "inside the screen descriptor");
    }
    animation->screen_end = reader.position;
    animation->info.width = (uint32_t)gif->SWidth;
    animation->info.height = (uint32_t)gif->SHeight;
    uint64_t pixels = (uint64_t)animation->info.width * animation->info.height;
    webimage_status status = WEBIMAGE_STATUS_OK;
    if (pixels == 0) {
        status = webimage_fail(error, WEBIMAGE_STATUS_CORRUPT_DATA, "the logical screen has a zero size");
    } else if (max_pixel_count != 0 && pixels > max_pixel_count) {
        status = webimage_fail(error, WEBIMAGE_STATUS_TOO_LARGE, "the canvas has more pixels than the limit");
    } else {
        status = scan_records(gif, &reader, animation, error);
        if (status == WEBIMAGE_STATUS_TRUNCATED_DATA && allow_partial) status = WEBIMAGE_STATUS_OK;
        if (status == WEBIMAGE_STATUS_OK && animation->info.frame_count == 0 && !allow_partial) {
            status = webimage_fail(
                error, animation->info.complete ? WEBIMAGE_STATUS_CORRUPT_DATA : WEBIMAGE_STATUS_TRUNCATED_DATA,
                "the file has no complete frame");
        }
    }
    DGifCloseFile(gif, &code);
    if (status != WEBIMAGE_STATUS_OK) {
        gif_shim_close(animation);
        return status;
    }
    *info = animation->info;
    *out = animation;
    return WEBIMAGE_STATUS_OK;
}

uint32_t gif_shim_frame_duration(const gif_shim_animation *animation, uint32_t index) {
    if (index >= animation->info.frame_count) return 0;
    int delay = animation->frames[index].delay;
    return delay <= 1 ? 100 : (uint32_t)delay * 10;
}

void gif_shim_close(gif_shim_animation *animation) {
    if (animation == NULL) return;
    free(animation->frames);
    free(animation->canvas);
    free(animation->saved);
    free(animation);
}
