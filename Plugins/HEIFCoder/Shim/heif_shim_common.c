#include "heif_shim_internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

heif_shim_status heif_shim_fail(heif_shim_error *error, heif_shim_status status, const char *format, ...) {
    if (error->capacity > 0) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error->message, error->capacity, format, arguments);
        va_end(arguments);
    }
    return status;
}

static heif_shim_status status_for(struct heif_error failure) {
    switch (failure.code) {
    case heif_error_Ok:
        return HEIF_SHIM_OK;
    case heif_error_Unsupported_filetype:
        return HEIF_SHIM_NOT_HEIF;
    case heif_error_Unsupported_feature:
        return HEIF_SHIM_UNSUPPORTED;
    case heif_error_Usage_error:
        return HEIF_SHIM_INVALID_ARGUMENT;
    case heif_error_Memory_allocation_error:
        return failure.subcode == heif_suberror_Security_limit_exceeded ? HEIF_SHIM_TOO_LARGE
                                                                         : HEIF_SHIM_OUT_OF_MEMORY;
    case heif_error_Encoder_plugin_error:
    case heif_error_Encoding_error:
        return HEIF_SHIM_INTERNAL;
    case heif_error_Invalid_input:
    case heif_error_Decoder_plugin_error:
        if (failure.subcode == heif_suberror_End_of_data) return HEIF_SHIM_TRUNCATED;
        if (failure.subcode == heif_suberror_No_ftyp_box) return HEIF_SHIM_NOT_HEIF;
        return HEIF_SHIM_CORRUPT;
    default:
        return HEIF_SHIM_CORRUPT;
    }
}

heif_shim_status heif_shim_fail_heif(heif_shim_error *error, struct heif_error failure, const char *context) {
    const char *message = failure.message && failure.message[0] ? failure.message : "libheif failed";
    return heif_shim_fail(error, status_for(failure), "%s: %s", context, message);
}

static pthread_once_t initialization = PTHREAD_ONCE_INIT;

static void initialize_once(void) {
    heif_init(NULL);
    heif_shim_register_hevc_decoder();
}

void heif_shim_initialize(void) { pthread_once(&initialization, initialize_once); }

void heif_shim_free(void *pointer) { free(pointer); }
