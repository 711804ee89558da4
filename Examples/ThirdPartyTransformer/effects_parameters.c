/*
 * effects_parameters.c — turns a transformer name and its key/value parameters into
 * settings, refusing anything unknown or out of range with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "effects.h"

/** Parses a whole decimal number in [minimum, maximum]; false for anything else. */
static bool parse_number(const char *text, uint32_t minimum, uint32_t maximum, uint32_t *value) {
    char *end = NULL;
    if (text[0] < '0' || text[0] > '9') return false;
    unsigned long parsed = strtoul(text, &end, 10);
    if (*end != '\0' || parsed < minimum || parsed > maximum) return false;
    *value = (uint32_t)parsed;
    return true;
}

webimage_status effects_parse(const char *name, const webimage_parameter *parameters, uint32_t parameter_count,
                              effects_settings *settings, webimage_error *error) {
    memset(settings, 0, sizeof *settings);
    const char *accepted = NULL;
    if (strcmp(name, "grayscale") == 0) {
        settings->kind = EFFECTS_GRAYSCALE;
    } else if (strcmp(name, "sepia") == 0) {
        settings->kind = EFFECTS_SEPIA;
        settings->percent = 100;
        accepted = "percent";
    } else if (strcmp(name, "pixelate") == 0) {
        settings->kind = EFFECTS_PIXELATE;
        settings->block = 8;
        accepted = "block";
    } else {
        return webimage_failf(error, WEBIMAGE_STATUS_NOT_FOUND, "no effect named '%s'", name);
    }
    for (uint32_t index = 0; index < parameter_count; index++) {
        const webimage_parameter *parameter = &parameters[index];
        if (accepted == NULL || strcmp(parameter->key, accepted) != 0) {
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "%s takes %s%s, not '%s'", name,
                                  accepted ? "only " : "no parameters", accepted ? accepted : "", parameter->key);
        }
        bool valid = settings->kind == EFFECTS_SEPIA ? parse_number(parameter->value, 0, 100, &settings->percent)
                                                     : parse_number(parameter->value, 1, 1024, &settings->block);
        if (!valid) {
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "%s=%s is not a whole number in %s",
                                  parameter->key, parameter->value,
                                  settings->kind == EFFECTS_SEPIA ? "0...100" : "1...1024");
        }
    }
    switch (settings->kind) {
    case EFFECTS_GRAYSCALE:
        snprintf(settings->key, sizeof settings->key, "grayscale");
        break;
    case EFFECTS_SEPIA:
        snprintf(settings->key, sizeof settings->key, "sepia(%u)", settings->percent);
        break;
    case EFFECTS_PIXELATE:
        snprintf(settings->key, sizeof settings->key, "pixelate(%u)", settings->block);
        break;
    }
    return WEBIMAGE_STATUS_OK;
}
