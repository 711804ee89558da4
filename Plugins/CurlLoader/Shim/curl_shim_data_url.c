/*
 * `data:` URLs (RFC 2397): `data:[<media type>][;base64],<data>`,
 * percent-decoded, then base64-decoded when marked. Served on the I/O thread
 * like any transfer.
 */
#include <stdlib.h>
#include <string.h>

#include "curl_shim_internal.h"

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int base64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/** Percent-decodes `text` into `output` (as long as `text`); returns the length
 * or -1. */
static long percent_decode(const char *text, uint8_t *output) {
    long length = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '%') {
            int high = hex_value(p[1]), low = high < 0 ? -1 : hex_value(p[2]);
            if (high < 0 || low < 0) return -1;
            output[length++] = (uint8_t)(high * 16 + low);
            p += 2;
        } else {
            output[length++] = (uint8_t)*p;
        }
    }
    return length;
}

/** Decodes base64 in place (whitespace skipped, padding optional); returns the
 * length or -1. */
static long base64_decode(uint8_t *bytes, long length) {
    long out = 0;
    uint32_t accumulator = 0;
    int bits = 0;
    bool padding = false;
    for (long i = 0; i < length; i++) {
        unsigned char c = bytes[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        if (c == '=') {
            padding = true;
            continue;
        }
        int value = base64_value(c);
        if (value < 0 || padding) return -1;
        accumulator = (accumulator << 6) | (uint32_t)value;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes[out++] = (uint8_t)(accumulator >> bits);
        }
    }
    return bits >= 6 ? -1 : out;
}

static void fail(webimage_load_task *task, webimage_status status, const char *message) {
    curl_shim_complete(task, status, 0, message, NULL);
}

void curl_shim_serve_data_url(webimage_load_task *task) {
    const char *header = task->url + 5;
    const char *comma = strchr(header, ',');
    if (comma == NULL) {
        fail(task, WEBIMAGE_STATUS_INVALID_ARGUMENT, "invalid data: URL: no ',' before the data");
        return;
    }
    size_t header_length = (size_t)(comma - header);
    bool is_base64 = header_length >= 7 && strncmp(comma - 7, ";base64", 7) == 0;
    size_t type_length = is_base64 ? header_length - 7 : header_length;
    char content_type[256];
    if (type_length == 0) snprintf(content_type, sizeof content_type, "text/plain;charset=US-ASCII");
    else snprintf(content_type, sizeof content_type, "%.*s", (int)type_length, header);

    uint8_t *body = malloc(strlen(comma + 1) + 1);
    if (body == NULL) {
        fail(task, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory decoding a data: URL");
        return;
    }
    long length = percent_decode(comma + 1, body);
    if (length >= 0 && is_base64) length = base64_decode(body, length);
    if (length < 0) {
        free(body);
        fail(task, WEBIMAGE_STATUS_INVALID_ARGUMENT,
             is_base64 ? "invalid data: URL: bad base64" : "invalid data: URL: bad percent escape");
        return;
    }
    if (task->max_body_size != 0 && (uint64_t)length > task->max_body_size) {
        free(body);
        char message[128];
        snprintf(message, sizeof message, "the body exceeds the limit of %" PRIu64 " bytes", task->max_body_size);
        fail(task, WEBIMAGE_STATUS_TOO_LARGE, message);
        return;
    }
    curl_shim_respond_locally(task, content_type, (uint64_t)length);
    if (length > 0 && !atomic_load(&task->cancel_requested) && task->method != WEBIMAGE_LOAD_METHOD_HEAD) {
        task->callbacks.on_data(task->callbacks.context, body, (size_t)length);
        task->bytes_received = (uint64_t)length;
    }
    free(body);
    if (atomic_load(&task->cancel_requested)) fail(task, WEBIMAGE_STATUS_CANCELLED, "cancelled");
    else curl_shim_complete(task, WEBIMAGE_STATUS_OK, 0, "", NULL);
}
