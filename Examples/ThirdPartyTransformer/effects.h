/*
 * effects.h — internals shared by the files of the example transformer plugin.
 *
 * Nothing here is part of the plugin ABI: every function is hidden so the shared object
 * exports only webimage_plugin_entry.
 */
#ifndef EFFECTS_H
#define EFFECTS_H

#include <stddef.h>
#include <stdint.h>

#include <webimage_plugin.h>

#if defined(__GNUC__)
#define EFFECTS_INTERNAL __attribute__((visibility("hidden")))
#else
#define EFFECTS_INTERNAL
#endif

/** The transformers this plugin makes (the names in effects.json). */
typedef enum effects_kind { EFFECTS_GRAYSCALE, EFFECTS_SEPIA, EFFECTS_PIXELATE } effects_kind;

/** One transformer with its parameters; the plugin's webimage_transformer_instance. */
typedef struct effects_settings {
    effects_kind kind;
    /** Sepia: how far each colour moves to its sepia tone, 0...100 percent (default 100). */
    uint32_t percent;
    /** Pixelate: the side of each square block in pixels, 1...1024 (default 8). */
    uint32_t block;
    /** The cache key, for example "sepia(80)": it names every parameter that changes the output. */
    char key[32];
} effects_settings;

/** Reads `name` and its parameters into `settings`: NOT_FOUND for another name,
 *  INVALID_ARGUMENT for an unknown key or a value out of range. */
EFFECTS_INTERNAL webimage_status effects_parse(const char *name, const webimage_parameter *parameters,
                                               uint32_t parameter_count, effects_settings *settings,
                                               webimage_error *error);

/** Writes the transformed RGBA8 pixels of `input` into `output` (same size, `output_stride`
 *  bytes per row). Straight alpha in and out; pixelate averages in premultiplied space. */
EFFECTS_INTERNAL void effects_apply(const effects_settings *settings, const webimage_image_view *input, uint8_t *output,
                                    size_t output_stride);

#endif /* EFFECTS_H */
