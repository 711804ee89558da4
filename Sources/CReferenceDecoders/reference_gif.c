/*
 * reference_gif.c — GIF decoding the plain giflib way: DGifSlurp reads every frame's
 * indices into memory, then the frames are composited onto an RGBA canvas.
 */
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

#include "reference_decoders.h"
#include "reference_error.h"

typedef struct memory_source {
    const uint8_t *bytes;
    size_t size;
    size_t position;
} memory_source;

static int read_memory(GifFileType *gif, GifByteType *buffer, int length) {
    memory_source *source = gif->UserData;
    size_t available = source->size - source->position;
    size_t count = (size_t)length < available ? (size_t)length : available;
    memcpy(buffer, source->bytes + source->position, count);
    source->position += count;
    return (int)count;
}

/** Opens and slurps `bytes`; NULL with the error recorded on failure. */
static GifFileType *slurp(const uint8_t *bytes, size_t size, memory_source *source, int *status) {
    source->bytes = bytes;
    source->size = size;
    source->position = 0;
    int code = 0;
    GifFileType *gif = DGifOpen(source, read_memory, &code);
    if (gif == NULL) {
        *status = reference_fail(REFERENCE_ERROR_NOT_THIS_FORMAT, "giflib", GifErrorString(code));
        return NULL;
    }
    if (DGifSlurp(gif) == GIF_ERROR) {
        *status = reference_fail(REFERENCE_ERROR_DECODE, "giflib", GifErrorString(gif->Error));
        DGifCloseFile(gif, &code);
        return NULL;
    }
    return gif;
}

int reference_gif_probe(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height, uint32_t *frames) {
    if (bytes == NULL || size == 0) return reference_fail(REFERENCE_ERROR_ARGUMENT, "giflib", "no input bytes");
    memory_source source;
    int status = REFERENCE_OK, code = 0;
    GifFileType *gif = slurp(bytes, size, &source, &status);
    if (gif == NULL) return status;
    *width = (uint32_t)gif->SWidth;
    *height = (uint32_t)gif->SHeight;
    *frames = (uint32_t)gif->ImageCount;
    DGifCloseFile(gif, &code);
    return REFERENCE_OK;
}

/** Draws saved image `index` onto the canvas, skipping its transparent index. */
static void draw(const GifFileType *gif, int index, int transparent, uint8_t *canvas) {
    const SavedImage *image = &gif->SavedImages[index];
    const GifImageDesc *desc = &image->ImageDesc;
    const ColorMapObject *colors = desc->ColorMap != NULL ? desc->ColorMap : gif->SColorMap;
    if (colors == NULL) return;
    for (int y = 0; y < desc->Height && desc->Top + y < gif->SHeight; y++) {
        const GifByteType *row = image->RasterBits + (size_t)y * desc->Width;
        uint8_t *out = canvas + ((size_t)(desc->Top + y) * gif->SWidth + desc->Left) * 4;
        for (int x = 0; x < desc->Width && desc->Left + x < gif->SWidth; x++, out += 4) {
            int value = row[x];
            if (value == transparent) continue;
            if (value < colors->ColorCount) {
                out[0] = colors->Colors[value].Red;
                out[1] = colors->Colors[value].Green;
                out[2] = colors->Colors[value].Blue;
            } else {
                out[0] = out[1] = out[2] = 0;
            }
            out[3] = 255;
        }
    }
}

int reference_gif_decode(const uint8_t *bytes, size_t size, uint32_t last_frame, void *out, size_t out_size) {
    if (bytes == NULL || size == 0 || out == NULL) {
        return reference_fail(REFERENCE_ERROR_ARGUMENT, "giflib", "no input bytes or no output buffer");
    }
    memory_source source;
    int status = REFERENCE_OK, code = 0;
    GifFileType *gif = slurp(bytes, size, &source, &status);
    if (gif == NULL) return status;
    size_t canvas_bytes = (size_t)gif->SWidth * gif->SHeight * 4;
    uint8_t *saved = NULL;
    if (canvas_bytes > out_size) {
        status = reference_fail(REFERENCE_ERROR_BUFFER_TOO_SMALL, "giflib", "the output buffer is too small");
    } else if (last_frame >= (uint32_t)gif->ImageCount) {
        status = reference_fail(REFERENCE_ERROR_ARGUMENT, "giflib", "no such frame");
    } else {
        uint8_t *canvas = out;
        memset(canvas, 0, canvas_bytes);
        for (int i = 0; i <= (int)last_frame; i++) {
            GraphicsControlBlock control = {.DisposalMode = DISPOSAL_UNSPECIFIED,
                                            .TransparentColor = NO_TRANSPARENT_COLOR};
            DGifSavedExtensionToGCB(gif, i, &control);
            if (control.DisposalMode == DISPOSE_PREVIOUS && i < (int)last_frame) {
                if (saved == NULL) saved = malloc(canvas_bytes);
                if (saved != NULL) memcpy(saved, canvas, canvas_bytes);
            }
            draw(gif, i, control.TransparentColor, canvas);
            if (i == (int)last_frame) break;
            const GifImageDesc *desc = &gif->SavedImages[i].ImageDesc;
            if (control.DisposalMode == DISPOSE_BACKGROUND) {
                for (int y = desc->Top; y < desc->Top + desc->Height && y < gif->SHeight; y++) {
                    int right = desc->Left + desc->Width < gif->SWidth ? desc->Left + desc->Width : gif->SWidth;
                    if (right > desc->Left) {
                        memset(canvas + ((size_t)y * gif->SWidth + desc->Left) * 4, 0,
                               (size_t)(right - desc->Left) * 4);
                    }
                }
            } else if (control.DisposalMode == DISPOSE_PREVIOUS && saved != NULL) {
                memcpy(canvas, saved, canvas_bytes);
            }
        }
    }
    free(saved);
    DGifCloseFile(gif, &code);
    return status;
}
