#include "heif_shim_internal.h"

#include <pthread.h>
#include <stdlib.h>

static webimage_status status_for(struct heif_error failure) {
    switch (failure.code) {
    case heif_error_Ok:
        return WEBIMAGE_STATUS_OK;
    case heif_error_Unsupported_filetype:
        return WEBIMAGE_STATUS_UNSUPPORTED_FORMAT;
    case heif_error_Unsupported_feature:
        return WEBIMAGE_STATUS_UNSUPPORTED_FORMAT;
    case heif_error_Usage_error:
        return WEBIMAGE_STATUS_INVALID_ARGUMENT;
    case heif_error_Memory_allocation_error:
        return failure.subcode == heif_suberror_Security_limit_exceeded ? WEBIMAGE_STATUS_TOO_LARGE
                                                                        : WEBIMAGE_STATUS_OUT_OF_MEMORY;
    case heif_error_Encoder_plugin_error:
    case heif_error_Encoding_error:
        return WEBIMAGE_STATUS_INTERNAL_ERROR;
    case heif_error_Invalid_input:
    case heif_error_Decoder_plugin_error:
        if (failure.subcode == heif_suberror_End_of_data) return WEBIMAGE_STATUS_TRUNCATED_DATA;
        if (failure.subcode == heif_suberror_No_ftyp_box) return WEBIMAGE_STATUS_UNSUPPORTED_FORMAT;
        return WEBIMAGE_STATUS_CORRUPT_DATA;
    default:
        return WEBIMAGE_STATUS_CORRUPT_DATA;
    }
}

/**
 * The wording a message for `status` starts with: a file libheif does not recognise, a
 * feature it lacks, and encoder failures say so; other statuses get theirs from the caller.
 */
static const char *wording_for(webimage_status status, struct heif_error failure) {
    switch (status) {
    case WEBIMAGE_STATUS_UNSUPPORTED_FORMAT:
        if (failure.code == heif_error_Unsupported_filetype || failure.subcode == heif_suberror_No_ftyp_box) {
            return HEIF_SHIM_NOT_HEIF_WORDING;
        }
        return "unsupported HEIF: ";
    case WEBIMAGE_STATUS_INTERNAL_ERROR:
        return "HEIF encoder: ";
    default:
        return "";
    }
}

webimage_status heif_shim_fail_heif_as(webimage_error *error, webimage_status status, struct heif_error failure,
                                       const char *context) {
    const char *message = failure.message && failure.message[0] ? failure.message : "libheif failed";
    return webimage_failf(error, status, "%s%s: %s", wording_for(status, failure), context, message);
}

webimage_status heif_shim_fail_heif(webimage_error *error, struct heif_error failure, const char *context) {
    return heif_shim_fail_heif_as(error, status_for(failure), failure, context);
}

static pthread_once_t initialization = PTHREAD_ONCE_INIT;

static void initialize_once(void) {
    heif_init(NULL);
    heif_shim_register_hevc_decoder();
}

void heif_shim_initialize(void) { pthread_once(&initialization, initialize_once); }
