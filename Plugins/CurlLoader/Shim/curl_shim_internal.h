/* Internal declarations shared by the curl shim's files. */
#ifndef CURL_SHIM_INTERNAL_H
#define CURL_SHIM_INTERNAL_H

#include <curl/curl.h>
#include <stdatomic.h>

#include "curl_shim.h"

/* Hidden, as the public header's declarations are. */
#pragma GCC visibility push(hidden)

/** One response header kept as "name\0value\0" in one allocation. */
typedef struct curl_shim_header {
    char *_Nonnull name;
    char *_Nonnull value;
} curl_shim_header;

/** A growable list of response headers. */
typedef struct curl_shim_headers {
    curl_shim_header *_Nullable items;
    size_t count;
    size_t capacity;
} curl_shim_headers;

/** An allowed source prefix, parsed (webimage_load_request.allowed_url_prefixes). */
typedef struct curl_shim_prefix {
    /** "http" or "https". */
    char scheme[8];
    /** Lowercase; `*` labels stand for one or more labels; an IPv6 address in brackets. */
    char *_Nullable host;
    /** The scheme's default when the prefix has none. */
    long port;
    /** "/" when the prefix has no path. */
    char *_Nullable path;
} curl_shim_prefix;

/** One transfer. Owned by two references: the host's (dropped by release) and
 * the I/O thread's (dropped after on_complete); a queued cancel holds a third.
 */
struct webimage_load_task {
    atomic_int references;
    /** Set by cancel on any thread; the I/O thread acts on it. */
    atomic_bool cancel_requested;
    webimage_load_callbacks callbacks;

    /* The request, copied by start. */
    char *_Nonnull url;
    uint32_t method;
    uint32_t flags;
    uint32_t connect_timeout_ms;
    uint32_t idle_timeout_ms;
    char *_Nullable user;
    char *_Nullable password;
    uint64_t max_body_size;
    uint64_t range_start;
    /** 0 = the default. */
    uint32_t max_host_connections;
    /** The low-speed limit over idle_timeout_ms; 0 = 1 byte/s (idle alone). */
    uint32_t low_speed_bytes_per_second;
    /** The total deadline; 0 = none. */
    uint32_t max_time_ms;
    struct curl_slist *_Nullable request_headers;
    /** WEBIMAGE_DESTINATION_* bits. */
    uint32_t destination_flags;
    /** Why the destination guard refused an address ("10.0.0.5 is a private address") or a redirect
     * target; "" when it did not. The transfer fails with it unless another address of the host
     * connected. */
    char refusal[512];
    /** The allowed source prefixes; none = any URL. */
    curl_shim_prefix *_Nullable prefixes;
    size_t prefix_count;
    /** Networks refused whatever the flags say, and networks allowed despite DENY_PRIVATE (copies). */
    webimage_ip_network *_Nullable denied_networks;
    uint32_t denied_network_count;
    webimage_ip_network *_Nullable allowed_networks;
    uint32_t allowed_network_count;

    /* I/O thread state. */
    CURL *_Nullable easy;
    bool in_multi;
    bool completed;
    bool response_sent;
    bool headers_complete;
    curl_shim_headers response_headers;
    uint64_t bytes_received;
    /** Body bytes not yet passed to on_data: the small chunks of one
     * curl_multi_perform pass (HTTP/2 delivers at most a TLS record, 16 KB, at
     * a time) are gathered into one callback at the end of the pass. */
    uint8_t *_Nullable pending_body;
    size_t pending_length;
    size_t pending_capacity;
    /** A failure the callbacks decided (too large); OK when none. */
    webimage_status failure;
    char failure_message[256];
    char curl_message[CURL_ERROR_SIZE];

    /* Guarded by the engine lock. */
    bool in_cancel_queue;
    struct webimage_load_task *_Nullable next_pending;
    struct webimage_load_task *_Nullable next_cancel;
    /* I/O thread only: the list of transfers in the multi handle. */
    struct webimage_load_task *_Nullable previous_active;
    struct webimage_load_task *_Nullable next_active;
};

/** Drops one reference; frees the task with the last. */
void curl_shim_task_unref(webimage_load_task *_Nonnull task);

/** Sets up the easy handle of `task`; on failure fills `message` and returns
 * the status. */
webimage_status curl_shim_transfer_prepare(webimage_load_task *_Nonnull task, CURLSH *_Nonnull share,
                                           char *_Nonnull message, size_t capacity);

/** Passes the gathered body bytes, if any, to on_data. */
void curl_shim_transfer_flush(webimage_load_task *_Nonnull task);

/** Calls on_response (once) with the headers so far, if any arrived. */
void curl_shim_transfer_send_response(webimage_load_task *_Nonnull task);

/** Completes `task` from libcurl's result: on_response if still due, then
 * on_complete. */
void curl_shim_transfer_finish(webimage_load_task *_Nonnull task, CURLcode result);

/** Completes `task` with `status` and `message` without libcurl's result
 * (cancel, refusal). */
void curl_shim_complete(webimage_load_task *_Nonnull task, webimage_status status, int32_t native_code,
                        const char *_Nonnull message, const webimage_load_metrics *_Nullable metrics);

/** Calls on_response (once) for a URL the shim serves itself (`data:`, `file:`): status 200,
 * Content-Length `length`, and Content-Type when `content_type` is not NULL. */
void curl_shim_respond_locally(webimage_load_task *_Nonnull task, const char *_Nullable content_type, uint64_t length);

/** Frees a header list's contents. */
void curl_shim_headers_clear(curl_shim_headers *_Nonnull headers);

/** True when `url` starts with `scheme:` (ASCII case-insensitive). */
bool curl_shim_has_scheme(const char *_Nonnull url, const char *_Nonnull scheme);

/** Serves a `data:` URL on the I/O thread: on_response, on_data, on_complete.
 */
void curl_shim_serve_data_url(webimage_load_task *_Nonnull task);

/** Parses allowed source prefix `text`; INVALID_ARGUMENT naming it when it is malformed. */
webimage_status curl_shim_prefix_parse(const char *_Nonnull text, curl_shim_prefix *_Nonnull prefix,
                                       webimage_error *_Nonnull error);

/** Frees a parsed prefix's strings. */
void curl_shim_prefix_clear(curl_shim_prefix *_Nonnull prefix);

/** True when `task` has no allowed source prefixes or `url` falls under one of them. */
bool curl_shim_url_allowed(const webimage_load_task *_Nonnull task, const char *_Nonnull url);

/** True when `task`'s transfer has followed a redirect: the hop under way is a redirect target
 * (libcurl counts a redirect before it looks the target up). */
bool curl_shim_redirected(webimage_load_task *_Nonnull task);

/** Bytes a URL written by curl_shim_describe_url may take, its NUL included. */
#define CURL_SHIM_URL_TEXT_SIZE 256

/** Writes `url` for a message: whole up to 200 bytes, else its first 200 bytes and "…(N bytes)". */
void curl_shim_describe_url(char *_Nonnull buffer, size_t capacity, const char *_Nonnull url);

/** Installs the destination guard on `task`'s easy handle when its flags ask for it. */
CURLcode curl_shim_destination_prepare(webimage_load_task *_Nonnull task);

/** Serves a `file:` URL on the I/O thread (regular files only, when the request's
 * destination flags allow `file:`): on_response, on_data, on_complete. */
void curl_shim_serve_file_url(webimage_load_task *_Nonnull task);

#pragma GCC visibility pop

#endif /* CURL_SHIM_INTERNAL_H */
