/*
 * webimage_plugin.h — the WebImage plugin ABI.
 *
 * This header is the only contract between a WebImage host and a plugin shared
 * object. A plugin exports one function, WEBIMAGE_PLUGIN_ENTRY_NAME, that returns a
 * descriptor. Rules that keep old plugins loading in new hosts and the reverse:
 *
 *  - Every struct that crosses the boundary starts with `struct_size` (and the
 *    descriptor with `abi_version` before it). Fields are only ever appended; a
 *    reader uses only the fields that `struct_size` covers and treats missing
 *    trailing fields as zero / NULL.
 *  - Functions return a webimage_status and write a human-readable reason into the
 *    caller's webimage_error buffer on failure.
 *  - Memory that outlives a call (decoded pixels, encoded bytes) is allocated with
 *    the host's allocator (webimage_host.allocate) so the host owns it without a copy.
 *  - All integers are fixed-width; enumerations are plain uint32_t constants.
 */
#ifndef WEBIMAGE_PLUGIN_H
#define WEBIMAGE_PLUGIN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(__clang__) && !defined(_Nonnull)
#define _Nonnull
#define _Nullable
#endif

/** ABI version this header describes. Hosts accept descriptors with a version they support. */
#define WEBIMAGE_PLUGIN_ABI_VERSION 1u
/** Name of the function every plugin exports (see webimage_plugin_entry_fn). */
#define WEBIMAGE_PLUGIN_ENTRY_NAME "webimage_plugin_entry"

/* ------------------------------------------------------------------ status codes */
typedef int32_t webimage_status;
#define WEBIMAGE_STATUS_OK 0
/** An argument or option is out of range. */
#define WEBIMAGE_STATUS_INVALID_ARGUMENT 1
/** The bytes are not in a format this coder handles. */
#define WEBIMAGE_STATUS_UNSUPPORTED_FORMAT 2
/** The bytes are in the right format but corrupt. */
#define WEBIMAGE_STATUS_CORRUPT_DATA 3
/** The bytes end before the image is complete. */
#define WEBIMAGE_STATUS_TRUNCATED_DATA 4
/** The output would exceed webimage_decode_options.max_pixel_count. */
#define WEBIMAGE_STATUS_TOO_LARGE 5
/** An allocation failed. */
#define WEBIMAGE_STATUS_OUT_OF_MEMORY 6
/** Incremental decoding: nothing can be shown yet; append more bytes. */
#define WEBIMAGE_STATUS_NEED_MORE_DATA 7
/** The operation is not provided by this plugin (for example encoding). */
#define WEBIMAGE_STATUS_UNSUPPORTED_OPERATION 8
/** Any other failure inside the plugin. */
#define WEBIMAGE_STATUS_INTERNAL_ERROR 9
/** The operation was cancelled by the caller before it finished. */
#define WEBIMAGE_STATUS_CANCELLED 10
/** What was asked for does not exist (for example a key a cache does not hold, or a missing file). */
#define WEBIMAGE_STATUS_NOT_FOUND 11
/** Reading or writing a file, socket or other resource failed. */
#define WEBIMAGE_STATUS_IO_ERROR 12
/** The operation did not finish within its time limit. */
#define WEBIMAGE_STATUS_TIMED_OUT 13
/** A policy refused the operation (for a loader: a destination the request may not reach). */
#define WEBIMAGE_STATUS_REFUSED 14

/** Where a plugin writes the reason for a failure: a NUL-terminated string, truncated to fit. */
typedef struct webimage_error {
    char *_Nonnull message;
    size_t message_capacity;
} webimage_error;

/* ------------------------------------------------------------------ kinds */
/** Bits of webimage_plugin_descriptor.kinds. */
#define WEBIMAGE_KIND_CODER (1u << 0)
/** Network or file loaders (webimage_loader). */
#define WEBIMAGE_KIND_LOADER (1u << 1)
/** Memory caches of decoded images (webimage_memory_cache; the bundled `memory` plugin). */
#define WEBIMAGE_KIND_MEMORY_CACHE (1u << 2)
/** Disk caches of encoded bytes (webimage_disk_cache; the bundled `disk` and `redis` plugins). */
#define WEBIMAGE_KIND_DISK_CACHE (1u << 3)
/** Image transformers (webimage_transformer; Examples/ThirdPartyTransformer). */
#define WEBIMAGE_KIND_TRANSFORMER (1u << 4)

/* ------------------------------------------------------------------ host services */
/** Log levels for webimage_host.log. */
#define WEBIMAGE_LOG_DEBUG 0
#define WEBIMAGE_LOG_INFO 1
#define WEBIMAGE_LOG_WARNING 2
#define WEBIMAGE_LOG_ERROR 3

/**
 * Services the host gives the plugin. The pointer passed to the entry function stays
 * valid for the life of the process; a plugin may keep it.
 */
typedef struct webimage_host {
    uint32_t abi_version;
    uint32_t struct_size;
    /** Opaque host state passed back to every callback. */
    void *_Nullable context;
    /** Allocates `size` bytes aligned to `alignment` (a power of two); NULL on failure. */
    void *_Nullable (*_Nonnull allocate)(void *_Nullable context, size_t size, size_t alignment);
    /** Frees memory from `allocate`; NULL is ignored. */
    void (*_Nonnull deallocate)(void *_Nullable context, void *_Nullable pointer);
    /** Writes a diagnostic line to the host's log. */
    void (*_Nonnull log)(void *_Nullable context, int32_t level, const char *_Nonnull message);
} webimage_host;

/* ------------------------------------------------------------------ pixels */
/** 8 bits per channel, R G B A byte order, straight (not premultiplied) alpha. */
#define WEBIMAGE_PIXEL_RGBA8 1u
/** 16 bits per channel in native byte order, R G B A, straight alpha. */
#define WEBIMAGE_PIXEL_RGBA16 2u

/** Bits of webimage_image_info.flags and webimage_image.flags. */
#define WEBIMAGE_IMAGE_HAS_ALPHA (1u << 0)
#define WEBIMAGE_IMAGE_ANIMATED (1u << 1)
#define WEBIMAGE_IMAGE_PROGRESSIVE (1u << 2)
#define WEBIMAGE_IMAGE_INTERLACED (1u << 3)
/** The pixels are an incomplete image (incremental decoding). */
#define WEBIMAGE_IMAGE_PARTIAL (1u << 4)
#define WEBIMAGE_IMAGE_GRAYSCALE (1u << 5)
#define WEBIMAGE_IMAGE_INDEXED (1u << 6)
#define WEBIMAGE_IMAGE_CMYK (1u << 7)

/** What a header says about an image, without decoding pixels. */
typedef struct webimage_image_info {
    uint32_t struct_size;
    /** Index into webimage_coder.formats. */
    uint32_t format_index;
    /** Stored size in pixels, before any EXIF orientation. */
    uint32_t width;
    uint32_t height;
    /** 1 for a still image. */
    uint32_t frame_count;
    /** 0 = loop forever; meaningful for animations only. */
    uint32_t loop_count;
    /** EXIF orientation 1...8 as stored in the file; 1 when absent. */
    uint32_t orientation;
    /** Bits per colour channel in the file (1, 2, 4, 8, 12 or 16). */
    uint32_t bits_per_component;
    /** WEBIMAGE_IMAGE_* bits. */
    uint32_t flags;
} webimage_image_info;

/** Bits of webimage_decode_options.flags. */
#define WEBIMAGE_DECODE_FIRST_FRAME_ONLY (1u << 0)

/** How to decode. Zeroed fields mean the default. */
typedef struct webimage_decode_options {
    uint32_t struct_size;
    /** WEBIMAGE_PIXEL_RGBA8 (default when 0) or WEBIMAGE_PIXEL_RGBA16. A plugin returns
     *  RGBA16 only when asked and the source has more than 8 bits per channel. */
    uint32_t pixel_format;
    /** Thumbnail box in stored pixels (0 × 0 = full size). The plugin may return any
     *  size between the box's fit and the full size (for example a DCT-scaled image);
     *  the host finishes the resize. */
    uint32_t thumbnail_width;
    uint32_t thumbnail_height;
    /** Most pixels (width × height) the plugin may allocate for the output; it fails
     *  with WEBIMAGE_STATUS_TOO_LARGE before allocating more. 0 = no limit. */
    uint64_t max_pixel_count;
    /** WEBIMAGE_DECODE_* bits. */
    uint32_t flags;
    uint32_t reserved;
    /** Appended: the most bytes one decode may allocate in total (the output plus the
     *  decoder's own buffers: rows, coefficient planes, canvases); a header that needs more
     *  fails with WEBIMAGE_STATUS_TOO_LARGE before the allocation. 0 = no limit. Read it
     *  only when struct_size covers it. */
    uint64_t max_byte_count;
    /** Appended: when the work must stop, in CLOCK_MONOTONIC nanoseconds (the same clock in
     *  every process of the machine); a plugin that passes it (checked in its row and frame
     *  loops, webimage_deadline_passed) fails with WEBIMAGE_STATUS_TIMED_OUT. 0 = none. */
    uint64_t deadline_ns;
} webimage_decode_options;

/** A decoded image. `pixels` is allocated with webimage_host.allocate and owned by the host. */
typedef struct webimage_image {
    uint32_t struct_size;
    uint32_t width;
    uint32_t height;
    /** WEBIMAGE_PIXEL_*. */
    uint32_t pixel_format;
    /** Bytes from one row to the next (at least width × bytes per pixel). */
    size_t stride;
    void *_Nullable pixels;
    /** EXIF orientation 1...8 of the source; the pixels are NOT rotated. */
    uint32_t orientation;
    /** WEBIMAGE_IMAGE_* bits. */
    uint32_t flags;
    /** Stored size of the whole source image, before thumbnail scaling. */
    uint32_t source_width;
    uint32_t source_height;
    /** Index into webimage_coder.formats of the image's format (appended in ABI 1: a plugin
     *  built before it leaves 0, the first format). Plugins write only the fields the
     *  host's struct_size covers. */
    uint32_t format_index;
    uint32_t reserved;
} webimage_image;

/** Pixels the host lends to an encoder for the length of one call. */
typedef struct webimage_image_view {
    uint32_t width;
    uint32_t height;
    uint32_t pixel_format;
    uint32_t reserved;
    size_t stride;
    const void *_Nonnull pixels;
} webimage_image_view;

/** One frame of an animation to encode. */
typedef struct webimage_frame_view {
    webimage_image_view image;
    /** How long the frame shows, in milliseconds. */
    uint32_t duration_ms;
    uint32_t reserved;
} webimage_frame_view;

/** Bits of webimage_encode_options.flags. */
#define WEBIMAGE_ENCODE_LOSSLESS (1u << 0)

/** How to encode. Resizing to a maximum pixel size is done by the host before the call. */
typedef struct webimage_encode_options {
    uint32_t struct_size;
    /** Index into webimage_coder.formats. */
    uint32_t format_index;
    /** 0.0 (smallest) ... 1.0 (best); formats without a quality setting ignore it. */
    float quality;
    /** Colour under transparent pixels for formats without alpha, 0xRRGGBBAA. */
    uint32_t background_rgba;
    /** WEBIMAGE_ENCODE_* bits. */
    uint32_t flags;
    /** Animations: 0 = loop forever. */
    uint32_t loop_count;
} webimage_encode_options;

/** Encoded bytes, allocated with webimage_host.allocate and owned by the host. */
typedef struct webimage_buffer {
    uint8_t *_Nullable bytes;
    size_t size;
} webimage_buffer;

/* ------------------------------------------------------------------ coder kind */
/** Bits of webimage_format.capabilities. */
#define WEBIMAGE_CAN_DECODE (1u << 0)
#define WEBIMAGE_CAN_ENCODE (1u << 1)
#define WEBIMAGE_CAN_DECODE_INCREMENTALLY (1u << 2)
#define WEBIMAGE_CAN_DECODE_ANIMATION (1u << 3)
#define WEBIMAGE_CAN_ENCODE_ANIMATION (1u << 4)
/** The decoder has a cheaper path for thumbnails than a full decode. */
#define WEBIMAGE_CAN_SCALE_WHILE_DECODING (1u << 5)

/** A format a coder handles. The name and MIME type must match the plugin's manifest. */
typedef struct webimage_format {
    const char *_Nonnull name;
    const char *_Nonnull mime_type;
    uint32_t capabilities;
    uint32_t reserved;
} webimage_format;

/** Bits of webimage_coder.flags. */
/** All functions may be called from several threads at once; else the host serialises them. */
#define WEBIMAGE_CODER_THREAD_SAFE (1u << 0)

/** State of an incremental decode, defined by the plugin. */
typedef struct webimage_incremental_decoder webimage_incremental_decoder;
/** An open animated image, defined by the plugin. */
typedef struct webimage_animation webimage_animation;
/** An animation being encoded frame by frame, defined by the plugin. */
typedef struct webimage_animation_encoder webimage_animation_encoder;

/** The coder kind: decoding and encoding images. */
typedef struct webimage_coder {
    uint32_t struct_size;
    /** WEBIMAGE_CODER_* bits. */
    uint32_t flags;
    const webimage_format *_Nonnull formats;
    uint32_t format_count;
    uint32_t reserved;

    /** True when the first `size` bytes look like a format of this coder. Never fails. */
    bool (*_Nonnull can_decode)(const uint8_t *_Nonnull bytes, size_t size);

    /** Reads the header only. */
    webimage_status (*_Nonnull probe)(const uint8_t *_Nonnull bytes, size_t size, webimage_image_info *_Nonnull info,
                                      webimage_error *_Nonnull error);

    /** Decodes the whole file (the first frame of an animation) into host memory. */
    webimage_status (*_Nonnull decode)(const uint8_t *_Nonnull bytes, size_t size,
                                       const webimage_decode_options *_Nonnull options, webimage_image *_Nonnull image,
                                       webimage_error *_Nonnull error);

    /** Encodes one image; NULL when the plugin cannot encode. */
    webimage_status (*_Nullable encode)(const webimage_image_view *_Nonnull image,
                                        const webimage_encode_options *_Nonnull options,
                                        webimage_buffer *_Nonnull output, webimage_error *_Nonnull error);

    /** Incremental decoding; all four are NULL or all four are set. */
    webimage_status (*_Nullable incremental_create)(const webimage_decode_options *_Nonnull options,
                                                    webimage_incremental_decoder *_Nullable *_Nonnull decoder,
                                                    webimage_error *_Nonnull error);
    /** Appends bytes as they arrive; `is_final` says no more will come. */
    webimage_status (*_Nullable incremental_append)(webimage_incremental_decoder *_Nonnull decoder,
                                                    const uint8_t *_Nullable bytes, size_t size, bool is_final,
                                                    webimage_error *_Nonnull error);
    /** The best image so far (flag WEBIMAGE_IMAGE_PARTIAL until complete), or NEED_MORE_DATA. */
    webimage_status (*_Nullable incremental_copy_image)(webimage_incremental_decoder *_Nonnull decoder,
                                                        webimage_image *_Nonnull image, webimage_error *_Nonnull error);
    void (*_Nullable incremental_destroy)(webimage_incremental_decoder *_Nullable decoder);

    /** Animated images; all four are NULL or all four are set. `bytes` stay valid until close. */
    webimage_status (*_Nullable animation_open)(const uint8_t *_Nonnull bytes, size_t size,
                                                webimage_animation *_Nullable *_Nonnull animation,
                                                webimage_image_info *_Nonnull info, webimage_error *_Nonnull error);
    /** Duration of frame `index` in milliseconds. */
    uint32_t (*_Nullable animation_frame_duration)(webimage_animation *_Nonnull animation, uint32_t index);
    /** Decodes the fully composited canvas of frame `index`. */
    webimage_status (*_Nullable animation_decode_frame)(webimage_animation *_Nonnull animation, uint32_t index,
                                                        const webimage_decode_options *_Nonnull options,
                                                        webimage_image *_Nonnull image, webimage_error *_Nonnull error);
    void (*_Nullable animation_close)(webimage_animation *_Nullable animation);

    /** Encodes an animation; NULL when the plugin cannot. */
    webimage_status (*_Nullable encode_animation)(const webimage_frame_view *_Nonnull frames, uint32_t frame_count,
                                                  const webimage_encode_options *_Nonnull options,
                                                  webimage_buffer *_Nonnull output, webimage_error *_Nonnull error);

    /**
     * Appended: an animation encoded one frame at a time, so that the host never holds every
     * frame (a conversion decodes one frame, hands it over, decodes the next). All four are
     * NULL or all four are set; read them only when struct_size covers them. `create` gets
     * the canvas size every frame has and how many frames will be added; `add` takes one
     * frame (the plugin copies what it keeps); `finish` writes the file into `output` after
     * the last frame; `destroy` frees the encoder, finished or not.
     */
    webimage_status (*_Nullable animation_encoder_create)(uint32_t width, uint32_t height, uint32_t frame_count,
                                                          const webimage_encode_options *_Nonnull options,
                                                          webimage_animation_encoder *_Nullable *_Nonnull encoder,
                                                          webimage_error *_Nonnull error);
    webimage_status (*_Nullable animation_encoder_add)(webimage_animation_encoder *_Nonnull encoder,
                                                       const webimage_frame_view *_Nonnull frame,
                                                       webimage_error *_Nonnull error);
    webimage_status (*_Nullable animation_encoder_finish)(webimage_animation_encoder *_Nonnull encoder,
                                                          webimage_buffer *_Nonnull output,
                                                          webimage_error *_Nonnull error);
    void (*_Nullable animation_encoder_destroy)(webimage_animation_encoder *_Nullable encoder);
} webimage_coder;

/* ------------------------------------------------------------------ loader kind */
/** Values of webimage_load_request.method. */
#define WEBIMAGE_LOAD_METHOD_GET 0u
#define WEBIMAGE_LOAD_METHOD_HEAD 1u

/** Bits of webimage_load_request.flags. */
/** Accept TLS certificates that do not verify (self-signed, wrong host name,
 * expired). */
#define WEBIMAGE_LOAD_ALLOW_INVALID_CERTIFICATES (1u << 0)
/** Send and store cookies (shared by every transfer of the loader). Off: no
 * cookie engine. */
#define WEBIMAGE_LOAD_SEND_COOKIES (1u << 1)
/** Negotiate HTTP/2 over TLS (ALPN); off: HTTP/1.1 only. */
#define WEBIMAGE_LOAD_ALLOW_HTTP2 (1u << 2)

/** Bits of webimage_load_request.destination_flags: where a request may go. */
/** Refuse every connection (the first and each redirect's, checked on the address actually
 * connected to, after name resolution) to a loopback, private (RFC 1918, CGNAT 100.64/10),
 * link-local, unique local (fc00::/7), multicast, unspecified or reserved address, also in
 * IPv4-mapped or embedded IPv6 forms: the transfer fails with WEBIMAGE_STATUS_REFUSED and no
 * request is sent. Proxies from the environment are not used. */
#define WEBIMAGE_DESTINATION_DENY_PRIVATE (1u << 0)
/** Serve `file:` URLs (regular files only); without it they fail with WEBIMAGE_STATUS_REFUSED. */
#define WEBIMAGE_DESTINATION_ALLOW_FILE (1u << 1)

/** An IP network of webimage_load_request's network lists: the first `prefix_length` bits of
 * `address` and one port or all. Addresses connected to in IPv4-mapped IPv6 form
 * (::ffff:a.b.c.d) are matched as IPv4, and the unspecified addresses (0.0.0.0, ::), which
 * reach the machine itself, as loopback (127.0.0.1, ::1). */
typedef struct webimage_ip_network {
    /** Network byte order; an IPv4 address in the first 4 bytes, the rest 0. */
    uint8_t address[16];
    /** 4 or 6. */
    uint32_t ip_version;
    /** 0...32 for IPv4, 0...128 for IPv6. */
    uint32_t prefix_length;
    /** The TCP port, 1...65535; 0 = every port. */
    uint32_t port;
    uint32_t reserved;
} webimage_ip_network;

/** One header line, name and value without the colon or line end. */
typedef struct webimage_load_header {
    const char *_Nonnull name;
    const char *_Nonnull value;
} webimage_load_header;

/** What to fetch. The plugin copies everything it needs before start returns.
 */
typedef struct webimage_load_request {
    uint32_t struct_size;
    /** WEBIMAGE_LOAD_METHOD_*. */
    uint32_t method;
    /** The absolute URL, NUL-terminated. */
    const char *_Nonnull url;
    /** Request headers sent as given (the host has already applied defaults and
   * modifiers). */
    const webimage_load_header *_Nullable headers;
    uint32_t header_count;
    /** WEBIMAGE_LOAD_* bits. */
    uint32_t flags;
    /** Most milliseconds to set up a connection; 0 = the plugin's default (10
   * 000). */
    uint32_t connect_timeout_ms;
    /** Most milliseconds without receiving a byte once connected (a low-speed
   * limit, not a limit on the whole transfer); 0 = the plugin's default (15
   * 000). */
    uint32_t idle_timeout_ms;
    /** Credentials for basic or digest authentication; both NULL = none. */
    const char *_Nullable user;
    const char *_Nullable password;
    /** Most body bytes (after content decoding) the plugin delivers; it fails
   * with WEBIMAGE_STATUS_TOO_LARGE beyond it, and before the body when
   * Content-Length says so. 0 = no limit. */
    uint64_t max_body_size;
    /** Byte offset to resume from: the plugin asks for bytes from it on (HTTP `Range: bytes=N-`;
     *  the host adds If-Range); 0 = the whole body. */
    uint64_t range_start;
    /** Most connections open at once to one host (name and port); 0 = the
     * plugin's default (6). Appended: read it only when struct_size covers it.
     * A plugin may apply it to all its transfers (libcurl's limit is one value
     * per multi handle: the curl plugin uses the latest request's). */
    uint32_t max_host_connections;
    /** Appended (read only when struct_size covers them): the low-speed limit and
     * the total deadline. The transfer fails with WEBIMAGE_STATUS_TIMED_OUT when
     * fewer than low_speed_bytes_per_second bytes arrive per second on average
     * over idle_timeout_ms ("slower than 1024 B/s for 15 s"); 0 = 1 byte/s, the
     * idle timeout alone. */
    uint32_t low_speed_bytes_per_second;
    /** Most milliseconds for the whole transfer, from start to the last byte
     * ("transfer took longer than 60 s (--max-time)"); 0 = none. */
    uint32_t max_time_ms;
    /** WEBIMAGE_DESTINATION_* bits; 0 (also when struct_size does not cover it) = any host,
     * no `file:`. Appended. */
    uint32_t destination_flags;
    /** Appended (read only when struct_size covers them), the source guard's lists; a count of 0
     * (also when struct_size does not cover it) means the list is empty.
     *
     * URL prefixes (`https://images.example.com/`, or with a `*` label in the host): when there
     * are any, the URL and every redirect target must fall under one, else the transfer fails
     * with WEBIMAGE_STATUS_REFUSED before a connection to that URL is made. A prefix is an http
     * or https URL with no user, query or fragment; it matches a URL with the same scheme, host
     * (ASCII case-insensitive; a `*` label stands for one or more labels), port (the scheme's
     * default when absent) and a path that starts with the prefix's path, all compared on the
     * URL as the loader parses it (dot segments removed; a path with an encoded `.`, `/` or `\`
     * matches only a prefix whose path is `/`). A malformed prefix fails start with
     * WEBIMAGE_STATUS_INVALID_ARGUMENT. */
    const char *_Nonnull const *_Nullable allowed_url_prefixes;
    /** Networks never connected to, whatever destination_flags say (an image server's own
     * listen address): WEBIMAGE_STATUS_REFUSED. */
    const webimage_ip_network *_Nullable denied_networks;
    /** Networks connected to even with WEBIMAGE_DESTINATION_DENY_PRIVATE (an origin on a
     * private network). denied_networks wins over it. */
    const webimage_ip_network *_Nullable allowed_networks;
    uint32_t allowed_url_prefix_count;
    uint32_t denied_network_count;
    uint32_t allowed_network_count;
    uint32_t reserved2;
} webimage_load_request;

/** Values of webimage_load_response.http_version and
 * webimage_load_metrics.http_version. */
#define WEBIMAGE_HTTP_VERSION_NONE 0u
#define WEBIMAGE_HTTP_VERSION_1_0 10u
#define WEBIMAGE_HTTP_VERSION_1_1 11u
#define WEBIMAGE_HTTP_VERSION_2 20u
#define WEBIMAGE_HTTP_VERSION_3 30u

/** The final response's head (after redirects). Valid during the callback only.
 */
typedef struct webimage_load_response {
    uint32_t struct_size;
    /** The HTTP status; 200 for a `file:` or `data:` URL that was read. */
    uint32_t status_code;
    const webimage_load_header *_Nullable headers;
    uint32_t header_count;
    /** WEBIMAGE_HTTP_VERSION_*. */
    uint32_t http_version;
    /** The URL after redirects. */
    const char *_Nonnull effective_url;
} webimage_load_response;

/** Timings of one transfer in microseconds from its start (0 = did not happen).
 */
typedef struct webimage_load_metrics {
    uint32_t struct_size;
    /** WEBIMAGE_HTTP_VERSION_*. */
    uint32_t http_version;
    uint64_t dns_us;
    uint64_t connect_us;
    uint64_t tls_us;
    uint64_t first_byte_us;
    uint64_t total_us;
    /** Body bytes delivered through on_data. */
    uint64_t bytes_received;
    uint32_t redirect_count;
    uint32_t reserved;
} webimage_load_metrics;

/** How a transfer ended. Valid during the callback only. */
typedef struct webimage_load_completion {
    uint32_t struct_size;
    /** OK, CANCELLED, TIMED_OUT, TOO_LARGE, TRUNCATED_DATA (the body ended before
   * its Content-Length: its bytes are not a complete body), CORRUPT_DATA
   * (undecodable content encoding), INVALID_ARGUMENT (bad URL), NOT_FOUND
   * (missing file), UNSUPPORTED_OPERATION (scheme), IO_ERROR (any other network
   * failure). */
    webimage_status status;
    /** The native library's code (for the curl plugin a CURLcode); 0 when none.
   */
    int32_t native_code;
    uint32_t reserved;
    /** Why it failed; "" on success. */
    const char *_Nonnull message;
    const webimage_load_metrics *_Nonnull metrics;
} webimage_load_completion;

/**
 * Where a transfer reports. All three are called on the plugin's I/O thread, in
 * order: on_response at most once, then on_data zero or more times, then
 * on_complete exactly once (also after a cancel, or when start's request fails
 * later). The host must not block in them; it may call start, cancel and
 * release from inside them.
 */
typedef struct webimage_load_callbacks {
    uint32_t struct_size;
    uint32_t reserved;
    /** Passed back to every callback. */
    void *_Nullable context;
    void (*_Nonnull on_response)(void *_Nullable context, const webimage_load_response *_Nonnull response);
    /** One chunk of the body as it arrives (content encoding already undone). */
    void (*_Nonnull on_data)(void *_Nullable context, const uint8_t *_Nonnull bytes, size_t size);
    void (*_Nonnull on_complete)(void *_Nullable context, const webimage_load_completion *_Nonnull completion);
} webimage_load_callbacks;

/** One transfer, defined by the plugin. */
typedef struct webimage_load_task webimage_load_task;

/** The loader kind: fetching the bytes of URLs asynchronously on the plugin's
 * I/O thread. */
typedef struct webimage_loader {
    uint32_t struct_size;
    uint32_t reserved;
    /** The URL schemes served, lowercase; must equal the manifest's
   * `loader.schemes`. */
    const char *_Nonnull const *_Nonnull schemes;
    uint32_t scheme_count;
    uint32_t reserved2;
    /** Queues a transfer and returns at once. On OK `*task` is set and
   * on_complete will be called exactly once; on failure (for example a
   * malformed request) no callback is. */
    webimage_status (*_Nonnull start)(const webimage_load_request *_Nonnull request,
                                      const webimage_load_callbacks *_Nonnull callbacks,
                                      webimage_load_task *_Nullable *_Nonnull task, webimage_error *_Nonnull error);
    /** Stops a transfer: it completes with CANCELLED unless it already completed.
   * Idempotent, from any thread, until the task is released. */
    void (*_Nonnull cancel)(webimage_load_task *_Nonnull task);
    /** The host's last use of `task`; the plugin frees it once it has also
   * completed. */
    void (*_Nonnull release)(webimage_load_task *_Nonnull task);
    /** Cancels every transfer (each completes with CANCELLED), waits for the I/O
   * thread to end and frees its resources; a later start starts afresh. Not
   * from a callback. */
    void (*_Nonnull shutdown)(void);
} webimage_loader;

/* Kinds whose tables are defined further down (memory and disk caches, transformers). */
typedef struct webimage_memory_cache webimage_memory_cache;
typedef struct webimage_disk_cache webimage_disk_cache;
typedef struct webimage_transformer webimage_transformer;

/* ------------------------------------------------------------------ transformer kind */
/** One parameter of a transformer: a key and its value, NUL-terminated UTF-8. */
typedef struct webimage_parameter {
    const char *_Nonnull key;
    const char *_Nonnull value;
} webimage_parameter;

/** A transformer made by webimage_transformer.create, defined by the plugin. */
typedef struct webimage_transformer_instance webimage_transformer_instance;

/** Bits of webimage_transformer.flags. */
/** `transform` may run on several threads at once (one instance or several); else the host serialises calls. */
#define WEBIMAGE_TRANSFORMER_THREAD_SAFE (1u << 0)
/** `transform` takes RGBA16 input (and returns RGBA16 for it); else the host hands it RGBA8. */
#define WEBIMAGE_TRANSFORMER_RGBA16 (1u << 1)

/**
 * The transformer kind: turns one decoded image into another, after decoding and before
 * caching (round corners, filters, watermarks). The host makes an instance per set of
 * parameters and appends its key to cache keys, so a key must be stable across runs and
 * differ whenever the output would.
 */
struct webimage_transformer {
    uint32_t struct_size;
    /** WEBIMAGE_TRANSFORMER_* bits. */
    uint32_t flags;
    /** The names `create` accepts; the same set as the manifest's `transformer.names`. */
    const char *_Nonnull const *_Nonnull names;
    uint32_t name_count;
    uint32_t reserved;

    /** Makes transformer `name` with `parameters`: INVALID_ARGUMENT with the reason for a
     *  missing, unknown or out-of-range parameter; NOT_FOUND for a name it does not make. */
    webimage_status (*_Nonnull create)(const char *_Nonnull name, const webimage_parameter *_Nullable parameters,
                                       uint32_t parameter_count,
                                       webimage_transformer_instance *_Nullable *_Nonnull instance,
                                       webimage_error *_Nonnull error);

    /** The instance's key, for example "sepia(0.80)"; valid until `destroy`. */
    const char *_Nonnull (*_Nonnull key)(const webimage_transformer_instance *_Nonnull instance);

    /** Transforms `input` into `output`: pixels from the host allocator, in the input's pixel
     *  format, of any size. Never modifies `input`. */
    webimage_status (*_Nonnull transform)(const webimage_transformer_instance *_Nonnull instance,
                                          const webimage_image_view *_Nonnull input, webimage_image *_Nonnull output,
                                          webimage_error *_Nonnull error);

    /** Frees an instance; NULL is ignored. */
    void (*_Nonnull destroy)(webimage_transformer_instance *_Nullable instance);
};

/* ------------------------------------------------------------------ descriptor */
/** What a plugin is. Lives as long as the process (plugins are never unloaded). */
typedef struct webimage_plugin_descriptor {
    uint32_t abi_version;
    uint32_t struct_size;
    /** Must equal the manifest's name and version. */
    const char *_Nonnull name;
    const char *_Nonnull version;
    /** WEBIMAGE_KIND_* bits; each set bit has its table below. */
    uint32_t kinds;
    uint32_t reserved;
    const webimage_coder *_Nullable coder;
    const webimage_loader *_Nullable loader;
    const webimage_memory_cache *_Nullable memory_cache;
    const webimage_disk_cache *_Nullable disk_cache;
    const webimage_transformer *_Nullable transformer;
} webimage_plugin_descriptor;

/** The entry function. Returns NULL when the plugin cannot run with this host. */
typedef const webimage_plugin_descriptor *_Nullable (*webimage_plugin_entry_fn)(const webimage_host *_Nonnull host);

/** Copies `message` into `error` (truncated to fit, never overflows). Returns `status`. */
static inline webimage_status webimage_fail(webimage_error *_Nonnull error, webimage_status status,
                                            const char *_Nonnull message) {
    size_t i = 0;
    if (error->message_capacity == 0) return status;
    for (; message[i] != '\0' && i + 1 < error->message_capacity; i++) error->message[i] = message[i];
    error->message[i] = '\0';
    return status;
}

#if defined(__GNUC__) || defined(__clang__)
#define WEBIMAGE_PRINTF_FORMAT(format_index, first_argument) \
    __attribute__((format(printf, format_index, first_argument)))
#else
#define WEBIMAGE_PRINTF_FORMAT(format_index, first_argument)
#endif

/**
 * webimage_fail with a printf-style reason: formats `format` and the arguments into
 * `error` with vsnprintf (truncated to fit, never overflows). Returns `status`.
 */
static inline webimage_status webimage_failf(webimage_error *_Nonnull error, webimage_status status,
                                             const char *_Nonnull format, ...) WEBIMAGE_PRINTF_FORMAT(3, 4);

static inline webimage_status webimage_failf(webimage_error *_Nonnull error, webimage_status status,
                                             const char *_Nonnull format, ...) {
    va_list arguments;
    if (error->message_capacity == 0) return status;
    va_start(arguments, format);
    vsnprintf(error->message, error->message_capacity, format, arguments);
    va_end(arguments);
    return status;
}

/**
 * Checks a `width` × `height` output against `max_pixel_count` (the most pixels allowed,
 * webimage_decode_options.max_pixel_count; 0 = no limit), in 64-bit arithmetic so the
 * product never overflows. Returns WEBIMAGE_STATUS_OK when the image fits, else
 * WEBIMAGE_STATUS_TOO_LARGE with the reason the host gives for the same check in `error`:
 * "image too large: <width>×<height> pixels exceed the limit of <max_pixel_count> pixels".
 */
static inline webimage_status webimage_check_pixel_limit(uint32_t width, uint32_t height, uint64_t max_pixel_count,
                                                         webimage_error *_Nonnull error) {
    if (max_pixel_count == 0 || (uint64_t)width * (uint64_t)height <= max_pixel_count) return WEBIMAGE_STATUS_OK;
    return webimage_failf(error, WEBIMAGE_STATUS_TOO_LARGE,
                          "image too large: %" PRIu32 "×%" PRIu32 " pixels exceed the limit of %" PRIu64 " pixels",
                          width, height, max_pixel_count);
}

/**
 * Checks that a decode needing `byte_count` bytes in total stays within `max_byte_count`
 * (webimage_decode_options.max_byte_count; 0 = no limit). Returns WEBIMAGE_STATUS_OK when it
 * fits, else WEBIMAGE_STATUS_TOO_LARGE with the host's wording in `error`: "image too large:
 * decoding <what> needs <byte_count> bytes, over the limit of <max_byte_count> bytes".
 */
static inline webimage_status webimage_check_byte_limit(uint64_t byte_count, uint64_t max_byte_count,
                                                        const char *_Nonnull what, webimage_error *_Nonnull error) {
    if (max_byte_count == 0 || byte_count <= max_byte_count) return WEBIMAGE_STATUS_OK;
    return webimage_failf(error, WEBIMAGE_STATUS_TOO_LARGE,
                          "image too large: decoding %s needs %" PRIu64 " bytes, over the limit of %" PRIu64 " bytes",
                          what, byte_count, max_byte_count);
}

#if defined(CLOCK_MONOTONIC)
#define WEBIMAGE_CLOCK_MONOTONIC CLOCK_MONOTONIC
#elif defined(__linux__)
/* Strict ISO C (`-std=c11` without `_POSIX_C_SOURCE`) hides the POSIX clocks that <time.h>
 * has. Linux's C library still exports clock_gettime, and CLOCK_MONOTONIC is 1 in the
 * kernel's ABI, so the deadline helpers below work under `-std=c11` too. */
extern int clock_gettime(int clock_id, struct timespec *_Nonnull now);
#define WEBIMAGE_CLOCK_MONOTONIC 1
#endif

/**
 * The CLOCK_MONOTONIC time in nanoseconds, the clock of webimage_decode_options.deadline_ns.
 * On Linux it works whatever the C dialect (`-std=c11` included); on a system without
 * CLOCK_MONOTONIC in the chosen dialect it returns 0, and the deadline checks never fire.
 */
static inline uint64_t webimage_monotonic_ns(void) {
#ifdef WEBIMAGE_CLOCK_MONOTONIC
    struct timespec now;
    clock_gettime(WEBIMAGE_CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#else
    return 0;
#endif
}

/** True when `deadline_ns` (webimage_decode_options.deadline_ns; 0 = none) has passed. */
static inline bool webimage_deadline_passed(uint64_t deadline_ns) {
    uint64_t now = deadline_ns != 0 ? webimage_monotonic_ns() : 0;
    return now != 0 && now >= deadline_ns;
}

/** The reason for a passed deadline: WEBIMAGE_STATUS_TIMED_OUT, "the decode passed its deadline". */
static inline webimage_status webimage_fail_deadline(webimage_error *_Nonnull error) {
    return webimage_fail(error, WEBIMAGE_STATUS_TIMED_OUT, "the decode passed its deadline");
}

/* ------------------------------------------------------------------ configuration (cache kinds) */
/** One configuration setting: a key and its value, both NUL-terminated UTF-8. */
typedef struct webimage_config_entry {
    const char *_Nonnull key;
    const char *_Nonnull value;
} webimage_config_entry;

/**
 * Settings for a plugin instance as key/value strings (a directory, a namespace, limits, a
 * server address), so a new backend needs no new ABI. A plugin fails with INVALID_ARGUMENT,
 * naming the key, for a key it does not know or a value it cannot parse.
 */
typedef struct webimage_config {
    uint32_t struct_size;
    uint32_t count;
    const webimage_config_entry *_Nullable entries;
} webimage_config;

/* ------------------------------------------------------------------ memory cache kind */
/**
 * Bit of webimage_memory_cache.flags and webimage_disk_cache.flags: all functions may be
 * called from several threads at once; else the host serialises them.
 */
#define WEBIMAGE_CACHE_THREAD_SAFE (1u << 0)

/** An instance of a memory cache, defined by the plugin. */
typedef struct webimage_memory_cache_instance webimage_memory_cache_instance;

/**
 * How a memory cache holds the host's values: opaque handles the plugin never reads. The
 * plugin calls `retain` for each handle it hands back from `get` and `release` once for
 * every handle `set` gave it when the entry leaves the cache (replaced, removed, evicted,
 * trimmed or destroyed). It should call `release` with no lock of its own held.
 */
typedef struct webimage_value_callbacks {
    uint32_t struct_size;
    uint32_t reserved;
    void *_Nullable context;
    void (*_Nonnull retain)(void *_Nullable context, void *_Nonnull handle);
    void (*_Nonnull release)(void *_Nullable context, void *_Nonnull handle);
} webimage_value_callbacks;

/** What a cache holds and may hold. A limit of 0 means none. */
typedef struct webimage_cache_totals {
    uint32_t struct_size;
    uint32_t reserved;
    /** Entries held. */
    uint64_t count;
    /** Memory caches: the sum of the entries' costs in bytes; disk caches: bytes stored. */
    uint64_t bytes;
    /** The cost or size limit in bytes. */
    uint64_t byte_limit;
    /** The count limit. */
    uint64_t count_limit;
    /** The age limit in seconds. */
    uint64_t age_limit_seconds;
} webimage_cache_totals;

/** The memory cache kind: decoded images (host handles) with a cost in bytes. */
struct webimage_memory_cache {
    uint32_t struct_size;
    /** WEBIMAGE_CACHE_* bits. */
    uint32_t flags;
    /** Creates an instance with `config`; `callbacks` stays valid for the life of the instance. */
    webimage_status (*_Nonnull create)(const webimage_config *_Nonnull config,
                                       const webimage_value_callbacks *_Nonnull callbacks,
                                       webimage_memory_cache_instance *_Nullable *_Nonnull cache,
                                       webimage_error *_Nonnull error);
    /** Releases every handle and frees the instance. */
    void (*_Nullable destroy)(webimage_memory_cache_instance *_Nullable cache);
    /**
     * Stores `handle` with `cost` bytes under the `key_length` bytes of `key`, replacing
     * (and releasing) an older value. TOO_LARGE when the plugin refuses the entry; the handle
     * is then not kept and not released.
     */
    webimage_status (*_Nonnull set)(webimage_memory_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                    size_t key_length, void *_Nonnull handle, uint64_t cost,
                                    webimage_error *_Nonnull error);
    /** The value of `key`, retained for the caller, or NULL on a miss. */
    void *_Nullable (*_Nonnull get)(webimage_memory_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                    size_t key_length);
    /** Removes `key`; true when it was there. */
    bool (*_Nonnull remove)(webimage_memory_cache_instance *_Nonnull cache, const char *_Nonnull key,
                            size_t key_length);
    void (*_Nonnull remove_all)(webimage_memory_cache_instance *_Nonnull cache);
    /** Evicts entries (least recently used first, or as the plugin's policy says) until the total cost is at most `cost`. */
    void (*_Nonnull trim_to_cost)(webimage_memory_cache_instance *_Nonnull cache, uint64_t cost);
    /** Evicts entries until at most `count` remain. */
    void (*_Nonnull trim_to_count)(webimage_memory_cache_instance *_Nonnull cache, uint64_t count);
    /** Fills `totals` (its struct_size set by the host). */
    void (*_Nonnull totals)(webimage_memory_cache_instance *_Nonnull cache, webimage_cache_totals *_Nonnull totals);
};

/* ------------------------------------------------------------------ disk cache kind */
/** An open disk cache, defined by the plugin. */
typedef struct webimage_disk_cache_instance webimage_disk_cache_instance;

/** One entry reported by webimage_disk_cache.list. */
typedef struct webimage_disk_cache_item {
    uint32_t struct_size;
    uint32_t reserved;
    /** The entry's name in the backend (a file name, a key); NUL-terminated. */
    const char *_Nonnull name;
    /** Bytes stored, extended data included. */
    uint64_t size;
    /** Seconds since the Unix epoch of the entry's last access, modification and creation. */
    int64_t access_time;
    int64_t modification_time;
    int64_t creation_time;
    /**
     * Appended: the entry's cache key, `key_length` bytes (not NUL-terminated), or NULL when
     * the backend does not know it (the `disk` plugin keeps it in an extended attribute of the
     * entry's file, which a file system without them, or `xattr=off`, does not keep).
     */
    const char *_Nullable key;
    size_t key_length;
} webimage_disk_cache_item;

/** Called once per entry by webimage_disk_cache.list; return false to stop. */
typedef bool (*webimage_disk_cache_visit_fn)(void *_Nullable context, const webimage_disk_cache_item *_Nonnull item);

/** The disk cache kind: encoded bytes plus optional extended data per key. */
struct webimage_disk_cache {
    uint32_t struct_size;
    /** WEBIMAGE_CACHE_* bits. */
    uint32_t flags;
    /** Opens (creating when needed) the cache `config` describes. */
    webimage_status (*_Nonnull open)(const webimage_config *_Nonnull config,
                                     webimage_disk_cache_instance *_Nullable *_Nonnull cache,
                                     webimage_error *_Nonnull error);
    void (*_Nullable close)(webimage_disk_cache_instance *_Nullable cache);
    /**
     * Reads the entry of `key` into host-allocated `data` and, when it has extended data,
     * `extended_data` (else size 0 and bytes NULL). NOT_FOUND on a miss; an entry that fails
     * its checks is removed and reported as NOT_FOUND.
     */
    webimage_status (*_Nonnull read)(webimage_disk_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                     size_t key_length, webimage_buffer *_Nonnull data,
                                     webimage_buffer *_Nonnull extended_data, webimage_error *_Nonnull error);
    /** Stores `size` bytes and `extended_size` bytes of extended data (`extended_data` may be NULL when 0). */
    webimage_status (*_Nonnull write)(webimage_disk_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                      size_t key_length, const uint8_t *_Nullable bytes, size_t size,
                                      const uint8_t *_Nullable extended_data, size_t extended_size,
                                      webimage_error *_Nonnull error);
    webimage_status (*_Nonnull contains)(webimage_disk_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                         size_t key_length, bool *_Nonnull contains, webimage_error *_Nonnull error);
    /** Removes `key`; OK when it was not there. */
    webimage_status (*_Nonnull remove)(webimage_disk_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                       size_t key_length, webimage_error *_Nonnull error);
    webimage_status (*_Nonnull remove_all)(webimage_disk_cache_instance *_Nonnull cache,
                                           webimage_error *_Nonnull error);
    /** Removes entries older than the age limit, then trims to the size and count limits. */
    webimage_status (*_Nonnull remove_expired)(webimage_disk_cache_instance *_Nonnull cache,
                                               webimage_error *_Nonnull error);
    webimage_status (*_Nonnull totals)(webimage_disk_cache_instance *_Nonnull cache,
                                       webimage_cache_totals *_Nonnull totals, webimage_error *_Nonnull error);
    /**
     * Writes the NUL-terminated path of `key`'s entry (where it is or would be) into `path`;
     * UNSUPPORTED_OPERATION when the backend has no files, INVALID_ARGUMENT when it does not fit.
     */
    webimage_status (*_Nullable path)(webimage_disk_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                      size_t key_length, char *_Nonnull path, size_t capacity,
                                      webimage_error *_Nonnull error);
    /** Calls `visit` for every entry. NULL when the backend cannot enumerate. */
    webimage_status (*_Nullable list)(webimage_disk_cache_instance *_Nonnull cache,
                                      webimage_disk_cache_visit_fn _Nonnull visit, void *_Nullable context,
                                      webimage_error *_Nonnull error);
    /**
     * Optional (appended in ABI 1; NULL, or outside `struct_size`, in a plugin built before it):
     * takes the lease of `key` for `ttl_ms` milliseconds (at least 1) when no one holds it, in
     * one atomic step for every process sharing the backend. `*claimed` is true when this call
     * took it, false when another holder has it (it ends when released or after its time).
     * Hosts use it to do identical work once across processes (`webimage serve` instances on
     * one Redis); without it they do not. Leases are not entries: `read`, `list` and `totals`
     * do not see them. The `redis` plugin: one `SET lease:<namespace>:<key> <token> NX PX ttl_ms`.
     */
    webimage_status (*_Nullable claim)(webimage_disk_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                       size_t key_length, uint64_t ttl_ms, bool *_Nonnull claimed,
                                       webimage_error *_Nonnull error);
    /**
     * Optional, given with `claim`: ends the lease of `key` when this cache instance still
     * holds it; OK (and nothing changed) when it does not (its time ran out and another took it).
     */
    webimage_status (*_Nullable release)(webimage_disk_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                         size_t key_length, webimage_error *_Nonnull error);
    /**
     * Optional (appended in ABI 1 after `release`), given with `claim`: makes the lease of `key`
     * end `ttl_ms` milliseconds (at least 1) from now when this cache instance still holds it;
     * `*held` false, and nothing changed, when it does not. A host doing long work under a
     * lease renews a short one, so that the lease of a holder that died ends soon. The `redis`
     * plugin: one `EVAL` that compares the token, then `PEXPIRE`.
     */
    webimage_status (*_Nullable renew)(webimage_disk_cache_instance *_Nonnull cache, const char *_Nonnull key,
                                       size_t key_length, uint64_t ttl_ms, bool *_Nonnull held,
                                       webimage_error *_Nonnull error);
};

#ifdef __cplusplus
}
#endif

#endif /* WEBIMAGE_PLUGIN_H */
