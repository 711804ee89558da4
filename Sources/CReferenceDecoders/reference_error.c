/*
 * reference_error.c — keeps the reason for the last failure, one message per thread.
 */
#include <stdio.h>

#include "reference_decoders.h"
#include "reference_error.h"

static _Thread_local char last_error[256];

const char *reference_last_error(void) { return last_error; }

int reference_fail(int code, const char *origin, const char *message) {
    snprintf(last_error, sizeof last_error, "%s: %s", origin, message);
    return code;
}
