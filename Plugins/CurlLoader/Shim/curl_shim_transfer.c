/*
 * One transfer's easy handle: its options, the header and body callbacks
 * libcurl calls on the I/O thread, and turning libcurl's result into the ABI's
 * completion.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "curl_shim_internal.h"

/** Connect timeout when the request gives none, in milliseconds. */
#define CURL_SHIM_DEFAULT_CONNECT_MS 10000u
/** Idle (low-speed) timeout when the request gives none, in milliseconds. */
#define CURL_SHIM_DEFAULT_IDLE_MS 15000u
/** Most redirects followed; one more is an error (this also ends redirect
 * loops). */
#define CURL_SHIM_MAX_REDIRECTS 10L
/** Receive buffer per transfer in bytes (libcurl's default is 16 KB, the curl tool's 100 KB):
 *  fewer, larger body callbacks. */
#define CURL_SHIM_BUFFER_SIZE (128L * 1024L)
/** Most body bytes gathered before one on_data call (below glibc's mmap threshold). */
#define CURL_SHIM_GATHER_SIZE ((size_t)64 * 1024)

bool curl_shim_has_scheme(const char *url, const char *scheme) {
    size_t length = strlen(scheme);
    for (size_t i = 0; i < length; i++) {
        if (url[i] == '\0' || tolower((unsigned char)url[i]) != scheme[i]) return false;
    }
    return url[length] == ':';
}

void curl_shim_headers_clear(curl_shim_headers *headers) {
    for (size_t i = 0; i < headers->count; i++) free(headers->items[i].name);
    free(headers->items);
    headers->items = NULL;
    headers->count = headers->capacity = 0;
}

static void headers_reset(curl_shim_headers *headers) {
    for (size_t i = 0; i < headers->count; i++) free(headers->items[i].name);
    headers->count = 0;
}

/** Adds "name: value" (trimmed); false when out of memory. */
static bool headers_add(curl_shim_headers *headers, const char *line, size_t length) {
    const char *colon = memchr(line, ':', length);
    if (colon == NULL || colon == line) return true; /* not a header line: ignored */
    size_t name_length = (size_t)(colon - line);
    const char *value = colon + 1;
    size_t value_length = length - name_length - 1;
    while (value_length > 0 && (*value == ' ' || *value == '\t')) value++, value_length--;
    while (value_length > 0 && isspace((unsigned char)value[value_length - 1])) value_length--;
    if (headers->count == headers->capacity) {
        size_t capacity = headers->capacity == 0 ? 16 : headers->capacity * 2;
        curl_shim_header *items = realloc(headers->items, capacity * sizeof *items);
        if (items == NULL) return false;
        headers->items = items;
        headers->capacity = capacity;
    }
    char *storage = malloc(name_length + value_length + 2);
    if (storage == NULL) return false;
    memcpy(storage, line, name_length);
    storage[name_length] = '\0';
    memcpy(storage + name_length + 1, value, value_length);
    storage[name_length + 1 + value_length] = '\0';
    headers->items[headers->count++] = (curl_shim_header){storage, storage + name_length + 1};
    return true;
}

static uint32_t http_version_of(CURL *easy) {
    long version = 0;
    curl_easy_getinfo(easy, CURLINFO_HTTP_VERSION, &version);
    switch (version) {
    case CURL_HTTP_VERSION_1_0:
        return WEBIMAGE_HTTP_VERSION_1_0;
    case CURL_HTTP_VERSION_1_1:
        return WEBIMAGE_HTTP_VERSION_1_1;
    case CURL_HTTP_VERSION_2_0:
        return WEBIMAGE_HTTP_VERSION_2;
    case CURL_HTTP_VERSION_3:
        return WEBIMAGE_HTTP_VERSION_3;
    default:
        return WEBIMAGE_HTTP_VERSION_NONE;
    }
}

void curl_shim_transfer_send_response(webimage_load_task *task) {
    if (task->response_sent) return;
    task->response_sent = true;
    long code = 0;
    curl_easy_getinfo(task->easy, CURLINFO_RESPONSE_CODE, &code);
    char *effective_url = NULL;
    curl_easy_getinfo(task->easy, CURLINFO_EFFECTIVE_URL, &effective_url);
    webimage_load_header *headers = NULL;
    if (task->response_headers.count > 0) {
        headers = calloc(task->response_headers.count, sizeof *headers);
        if (headers == NULL) return;
        for (size_t i = 0; i < task->response_headers.count; i++)
            headers[i] =
                (webimage_load_header){task->response_headers.items[i].name, task->response_headers.items[i].value};
    }
    webimage_load_response response = {
        .struct_size = sizeof(webimage_load_response),
        .status_code = (uint32_t)code,
        .headers = headers,
        .header_count = (uint32_t)task->response_headers.count,
        .http_version = http_version_of(task->easy),
        .effective_url = effective_url != NULL ? effective_url : task->url,
    };
    task->callbacks.on_response(task->callbacks.context, &response);
    free(headers);
}

static size_t on_header(char *buffer, size_t size, size_t count, void *context) {
    webimage_load_task *task = context;
    size_t length = size * count;
    if (atomic_load(&task->cancel_requested)) return 0;
    if (length >= 5 && memcmp(buffer, "HTTP/", 5) == 0) {
        /* A new status line: the headers of an earlier response (redirect, 100,
     * 401) go. */
        headers_reset(&task->response_headers);
        task->headers_complete = false;
        return length;
    }
    if (length <= 2 && (length == 0 || buffer[0] == '\r' || buffer[0] == '\n')) {
        task->headers_complete = true;
        return length;
    }
    size_t trimmed = length;
    while (trimmed > 0 && (buffer[trimmed - 1] == '\r' || buffer[trimmed - 1] == '\n')) trimmed--;
    if (!headers_add(&task->response_headers, buffer, trimmed)) {
        task->failure = WEBIMAGE_STATUS_OUT_OF_MEMORY;
        snprintf(task->failure_message, sizeof task->failure_message, "out of memory storing response headers");
        return 0;
    }
    return length;
}

static size_t on_body(char *buffer, size_t size, size_t count, void *context) {
    webimage_load_task *task = context;
    size_t length = size * count;
    if (atomic_load(&task->cancel_requested)) return 0;
    curl_shim_transfer_send_response(task);
    if (task->max_body_size != 0 && task->bytes_received + length > task->max_body_size) {
        task->failure = WEBIMAGE_STATUS_TOO_LARGE;
        snprintf(task->failure_message, sizeof task->failure_message, "the body exceeds the limit of %" PRIu64 " bytes",
                 task->max_body_size);
        return 0;
    }
    task->bytes_received += length;
    if (length == 0) return 0;
    if (task->pending_length + length > task->pending_capacity) {
        curl_shim_transfer_flush(task);
        if (task->pending_body == NULL && length < CURL_SHIM_GATHER_SIZE) {
            /* The gathering buffer: as large as the body when it is known to be smaller. */
            curl_off_t expected = -1;
            curl_easy_getinfo(task->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected);
            size_t capacity = CURL_SHIM_GATHER_SIZE;
            if (expected > 0 && (uint64_t)expected < (uint64_t)capacity) capacity = (size_t)expected;
            if (capacity > length) {
                task->pending_body = malloc(capacity);
                if (task->pending_body != NULL) task->pending_capacity = capacity;
            }
        }
        if (length > task->pending_capacity) {
            /* A chunk larger than the buffer goes straight through. */
            task->callbacks.on_data(task->callbacks.context, (const uint8_t *)buffer, length);
            return length;
        }
    }
    memcpy(task->pending_body + task->pending_length, buffer, length);
    task->pending_length += length;
    return length;
}

void curl_shim_transfer_flush(webimage_load_task *task) {
    if (task->pending_length == 0) return;
    size_t length = task->pending_length;
    task->pending_length = 0;
    task->callbacks.on_data(task->callbacks.context, task->pending_body, length);
}

webimage_status curl_shim_transfer_prepare(webimage_load_task *task, CURLSH *share, char *message, size_t capacity) {
    CURL *easy = curl_easy_init();
    if (easy == NULL) {
        snprintf(message, capacity, "cannot create a libcurl easy handle");
        return WEBIMAGE_STATUS_OUT_OF_MEMORY;
    }
    task->easy = easy;
    uint32_t connect_ms = task->connect_timeout_ms != 0 ? task->connect_timeout_ms : CURL_SHIM_DEFAULT_CONNECT_MS;
    uint32_t idle_ms = task->idle_timeout_ms != 0 ? task->idle_timeout_ms : CURL_SHIM_DEFAULT_IDLE_MS;
    uint32_t low_speed = task->low_speed_bytes_per_second != 0 ? task->low_speed_bytes_per_second : 1u;
    CURLcode code = CURLE_OK;
#define SET(option, value) \
    if (code == CURLE_OK) code = curl_easy_setopt(easy, option, value)
    SET(CURLOPT_URL, task->url);
    SET(CURLOPT_PRIVATE, (void *)task);
    SET(CURLOPT_ERRORBUFFER, task->curl_message);
    SET(CURLOPT_NOSIGNAL, 1L);
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_FOLLOWLOCATION, 1L);
    SET(CURLOPT_MAXREDIRS, CURL_SHIM_MAX_REDIRECTS);
    SET(CURLOPT_ACCEPT_ENCODING, "");
    SET(CURLOPT_CONNECTTIMEOUT_MS, (long)connect_ms);
    /* Low speed: fail when fewer than the limit (default 1 byte per second, the
   * idle timeout alone) arrive per second over the idle time (whole seconds). */
    SET(CURLOPT_LOW_SPEED_LIMIT, (long)low_speed);
    SET(CURLOPT_LOW_SPEED_TIME, (long)((idle_ms + 999) / 1000));
    /* The total deadline counts from the hand-over, so also time queued behind
   * the per-host connection limit (the downloader's default per-host share
   * keeps its transfers below it). */
    if (task->max_time_ms != 0) SET(CURLOPT_TIMEOUT_MS, (long)task->max_time_ms);
    /* Waiting for a connection that may turn out to multiplex pays only where HTTP/2 can come
     * (https with HTTP/2 allowed): a plain http:// connection is HTTP/1.1, and a transfer waiting
     * for it waits until the transfer on it ends (a second image held behind a slow first one
     * to the same host). */
    bool multiplexes = (task->flags & WEBIMAGE_LOAD_ALLOW_HTTP2) && strncasecmp(task->url, "https://", 8) == 0;
    SET(CURLOPT_PIPEWAIT, multiplexes ? 1L : 0L);
    SET(CURLOPT_BUFFERSIZE, CURL_SHIM_BUFFER_SIZE);
    SET(CURLOPT_HTTP_VERSION,
        (task->flags & WEBIMAGE_LOAD_ALLOW_HTTP2) ? (long)CURL_HTTP_VERSION_2TLS : (long)CURL_HTTP_VERSION_1_1);
    SET(CURLOPT_SHARE, share);
    SET(CURLOPT_HEADERFUNCTION, on_header);
    SET(CURLOPT_HEADERDATA, (void *)task);
    SET(CURLOPT_WRITEFUNCTION, on_body);
    SET(CURLOPT_WRITEDATA, (void *)task);
    SET(CURLOPT_HTTPHEADER, task->request_headers);
    if (task->method == WEBIMAGE_LOAD_METHOD_HEAD) SET(CURLOPT_NOBODY, 1L);
    if (task->max_body_size != 0) SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)task->max_body_size);
    if (task->flags & WEBIMAGE_LOAD_ALLOW_INVALID_CERTIFICATES) {
        SET(CURLOPT_SSL_VERIFYPEER, 0L);
        SET(CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (task->flags & WEBIMAGE_LOAD_SEND_COOKIES) SET(CURLOPT_COOKIEFILE, "");
    if (task->user != NULL || task->password != NULL) {
        SET(CURLOPT_HTTPAUTH, (long)(CURLAUTH_BASIC | CURLAUTH_DIGEST));
        SET(CURLOPT_USERNAME, task->user != NULL ? task->user : "");
        SET(CURLOPT_PASSWORD, task->password != NULL ? task->password : "");
    }
    char range[32];
    if (task->range_start != 0) {
        snprintf(range, sizeof range, "%" PRIu64 "-", task->range_start);
        SET(CURLOPT_RANGE, range);
    }
#undef SET
    if (code == CURLE_OK) code = curl_shim_destination_prepare(task);
    if (code != CURLE_OK) {
        snprintf(message, capacity, "curl_easy_setopt: %s", curl_easy_strerror(code));
        return WEBIMAGE_STATUS_INTERNAL_ERROR;
    }
    return WEBIMAGE_STATUS_OK;
}

static uint64_t time_of(CURL *easy, CURLINFO info) {
    curl_off_t value = 0;
    curl_easy_getinfo(easy, info, &value);
    return value > 0 ? (uint64_t)value : 0;
}

static webimage_status status_of(CURLcode result) {
    switch (result) {
    case CURLE_OK:
        return WEBIMAGE_STATUS_OK;
    case CURLE_OPERATION_TIMEDOUT:
        return WEBIMAGE_STATUS_TIMED_OUT;
    case CURLE_FILESIZE_EXCEEDED:
        return WEBIMAGE_STATUS_TOO_LARGE;
    case CURLE_PARTIAL_FILE:
        return WEBIMAGE_STATUS_TRUNCATED_DATA;
    case CURLE_BAD_CONTENT_ENCODING:
        return WEBIMAGE_STATUS_CORRUPT_DATA;
    case CURLE_URL_MALFORMAT:
        return WEBIMAGE_STATUS_INVALID_ARGUMENT;
    case CURLE_FILE_COULDNT_READ_FILE:
        return WEBIMAGE_STATUS_NOT_FOUND;
    case CURLE_OUT_OF_MEMORY:
        return WEBIMAGE_STATUS_OUT_OF_MEMORY;
    default:
        return WEBIMAGE_STATUS_IO_ERROR;
    }
}

/** Writes `milliseconds` as seconds without trailing zeros ("2", "1.5"). */
static void format_seconds(char *buffer, size_t capacity, uint32_t milliseconds) {
    uint32_t fraction = milliseconds % 1000u;
    if (fraction == 0) {
        snprintf(buffer, capacity, "%" PRIu32, milliseconds / 1000u);
        return;
    }
    int digits = 3;
    while (fraction % 10u == 0) fraction /= 10u, digits--;
    snprintf(buffer, capacity, "%" PRIu32 ".%0*" PRIu32, milliseconds / 1000u, digits, fraction);
}

/** Words a timeout that ended the body phase as the host's downloader does
 * (TransferLimits): the total deadline or the low-speed limit. Connect and
 * resolve timeouts keep libcurl's message. Returns false for those. */
static bool timeout_message(webimage_load_task *task, uint64_t total_us) {
    char seconds[32];
    bool past_deadline =
        total_us >= (uint64_t)task->max_time_ms * 1000u || strncmp(task->curl_message, "Operation timed out", 19) == 0;
    if (task->max_time_ms != 0 && past_deadline) {
        format_seconds(seconds, sizeof seconds, task->max_time_ms);
        snprintf(task->failure_message, sizeof task->failure_message, "transfer took longer than %s s (--max-time)",
                 seconds);
        return true;
    }
    if (strncmp(task->curl_message, "Operation too slow", 18) == 0) {
        uint32_t idle_ms = task->idle_timeout_ms != 0 ? task->idle_timeout_ms : CURL_SHIM_DEFAULT_IDLE_MS;
        format_seconds(seconds, sizeof seconds, idle_ms);
        snprintf(task->failure_message, sizeof task->failure_message, "slower than %" PRIu32 " B/s for %s s",
                 task->low_speed_bytes_per_second != 0 ? task->low_speed_bytes_per_second : 1u, seconds);
        return true;
    }
    return false;
}

bool curl_shim_redirected(webimage_load_task *task) {
    long redirects = 0;
    curl_easy_getinfo(task->easy, CURLINFO_REDIRECT_COUNT, &redirects);
    return redirects > 0;
}

/** Records a redirect to a scheme other than http and https (which libcurl does not follow,
 * CURLOPT_REDIR_PROTOCOLS_STR) as a refusal, as the destination guard's are. */
static void refuse_redirect_scheme(webimage_load_task *task, CURLcode result) {
    char *url = NULL;
    if (result != CURLE_UNSUPPORTED_PROTOCOL) return;
    curl_easy_getinfo(task->easy, CURLINFO_EFFECTIVE_URL, &url);
    if (url == NULL || !curl_shim_redirected(task) || curl_shim_has_scheme(url, "http") ||
        curl_shim_has_scheme(url, "https"))
        return;
    char shown[CURL_SHIM_URL_TEXT_SIZE];
    curl_shim_describe_url(shown, sizeof shown, url);
    snprintf(task->refusal, sizeof task->refusal, "the redirect to %s is not an http or https URL", shown);
}

void curl_shim_transfer_finish(webimage_load_task *task, CURLcode result) {
    refuse_redirect_scheme(task, result);
    /* A refused hop's earlier response (the redirect to it), or the redirect past the limit, is
     * not the answer: the transfer fails with the reason alone, whatever statuses the host accepts. */
    bool refused = task->refusal[0] != '\0' && result != CURLE_OK;
    bool redirect_loop = result == CURLE_TOO_MANY_REDIRECTS;
    if (task->headers_complete && !refused && !redirect_loop) curl_shim_transfer_send_response(task);
    if (task->failure == WEBIMAGE_STATUS_OK) curl_shim_transfer_flush(task);
    webimage_load_metrics metrics = {
        .struct_size = sizeof(webimage_load_metrics),
        .http_version = http_version_of(task->easy),
        .dns_us = time_of(task->easy, CURLINFO_NAMELOOKUP_TIME_T),
        .connect_us = time_of(task->easy, CURLINFO_CONNECT_TIME_T),
        .tls_us = time_of(task->easy, CURLINFO_APPCONNECT_TIME_T),
        .first_byte_us = time_of(task->easy, CURLINFO_STARTTRANSFER_TIME_T),
        .total_us = time_of(task->easy, CURLINFO_TOTAL_TIME_T),
        .bytes_received = task->bytes_received,
    };
    long redirects = 0;
    curl_easy_getinfo(task->easy, CURLINFO_REDIRECT_COUNT, &redirects);
    metrics.redirect_count = (uint32_t)redirects;
    if (task->failure != WEBIMAGE_STATUS_OK) {
        curl_shim_complete(task, task->failure, (int32_t)result, task->failure_message, &metrics);
        return;
    }
    if (result == CURLE_OK) {
        if (!task->response_sent) curl_shim_transfer_send_response(task);
        curl_shim_complete(task, WEBIMAGE_STATUS_OK, 0, "", &metrics);
        return;
    }
    if (refused) {
        curl_shim_complete(task, WEBIMAGE_STATUS_REFUSED, (int32_t)result, task->refusal, &metrics);
        return;
    }
    if (redirect_loop) {
        char loop[96];
        snprintf(loop, sizeof loop, "more than %ld redirects (a redirect loop) (curl error %d)",
                 CURL_SHIM_MAX_REDIRECTS, (int)result);
        curl_shim_complete(task, WEBIMAGE_STATUS_IO_ERROR, (int32_t)result, loop, &metrics);
        return;
    }
    if (result == CURLE_FILESIZE_EXCEEDED) {
        char limit[96];
        snprintf(limit, sizeof limit, "Content-Length exceeds the limit of %" PRIu64 " bytes", task->max_body_size);
        curl_shim_complete(task, WEBIMAGE_STATUS_TOO_LARGE, (int32_t)result, limit, &metrics);
        return;
    }
    if (result == CURLE_OPERATION_TIMEDOUT && timeout_message(task, metrics.total_us)) {
        curl_shim_complete(task, WEBIMAGE_STATUS_TIMED_OUT, (int32_t)result, task->failure_message, &metrics);
        return;
    }
    char message[CURL_ERROR_SIZE + 64];
    const char *detail = task->curl_message[0] != '\0' ? task->curl_message : curl_easy_strerror(result);
    snprintf(message, sizeof message, "%s (curl error %d)", detail, (int)result);
    curl_shim_complete(task, status_of(result), (int32_t)result, message, &metrics);
}
