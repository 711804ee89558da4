/*
 * Allowed source prefixes (webimage_load_request.allowed_url_prefixes): parsing a prefix, and
 * matching a URL against the list on the parts libcurl's own URL parser finds in it (scheme,
 * host, port, path), so the URL checked is the URL connected to, never a string prefix that
 * `https://example.com.evil.net/` or `https://example.com@evil.net/` would pass.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "curl_shim_internal.h"

/** Most bytes of a URL a message shows. */
#define CURL_SHIM_URL_SHOWN 200

void curl_shim_describe_url(char *buffer, size_t capacity, const char *url) {
    size_t length = strlen(url);
    if (length <= CURL_SHIM_URL_SHOWN) snprintf(buffer, capacity, "%s", url);
    else snprintf(buffer, capacity, "%.*s…(%zu bytes)", CURL_SHIM_URL_SHOWN, url, length);
}

static long default_port(const char *scheme) { return strcmp(scheme, "https") == 0 ? 443 : 80; }

/** Lowercases `length` bytes of `text` into a new string; NULL when out of memory. */
static char *lowercase_copy(const char *text, size_t length) {
    char *copy = malloc(length + 1);
    if (copy == NULL) return NULL;
    for (size_t i = 0; i < length; i++) copy[i] = (char)tolower((unsigned char)text[i]);
    copy[length] = '\0';
    return copy;
}

/** True when `host` (a prefix's, lowercase) is a name of labels of letters, digits, `-` and `_`,
 * each `*` a whole label, or an IPv6 address in brackets. */
static bool valid_prefix_host(const char *host) {
    if (host[0] == '[')
        return strspn(host + 1, "0123456789abcdef:.") == strlen(host) - 2 && host[strlen(host) - 1] == ']';
    size_t label = 0;
    bool wildcard = false;
    for (const char *c = host;; c++) {
        if (*c == '.' || *c == '\0') {
            if (label == 0 || (wildcard && label != 1)) return false;
            if (*c == '\0') return true;
            label = 0, wildcard = false;
            continue;
        }
        if (*c == '*') wildcard = true;
        else if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') return false;
        label++;
    }
}

/** `host` as libcurl's URL parser writes it (`[FD00:0::1]` → `[fd00::1]`, `127.1` → `127.0.0.1`),
 * lowercase, in a new string; NULL when the parser refuses it or out of memory. */
static char *parsed_host(const char *host) {
    char url[512];
    if ((size_t)snprintf(url, sizeof url, "http://%s/", host) >= sizeof url) return NULL;
    CURLU *parsed = curl_url();
    char *part = NULL, *copy = NULL;
    if (parsed != NULL && curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(parsed, CURLUPART_HOST, &part, 0) == CURLUE_OK)
        copy = lowercase_copy(part, strlen(part));
    curl_free(part);
    curl_url_cleanup(parsed);
    return copy;
}

webimage_status curl_shim_prefix_parse(const char *text, curl_shim_prefix *prefix, webimage_error *error) {
    memset(prefix, 0, sizeof *prefix);
    const char *rest = NULL;
    if (strncasecmp(text, "http://", 7) == 0) strcpy(prefix->scheme, "http"), rest = text + 7;
    else if (strncasecmp(text, "https://", 8) == 0) strcpy(prefix->scheme, "https"), rest = text + 8;
    else
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                              "invalid allowed source prefix '%.200s': not an http:// or https:// URL", text);
    size_t authority = strcspn(rest, "/");
    const char *path = rest + authority;
    if (strpbrk(path, "?#\\") != NULL || memchr(rest, '@', authority) != NULL)
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                              "invalid allowed source prefix '%.200s': a user, query or fragment in it", text);
    const char *port = NULL;
    size_t host_length = authority;
    if (rest[0] == '[') {
        const char *close = memchr(rest, ']', authority);
        if (close != NULL) host_length = (size_t)(close - rest) + 1;
    } else {
        const char *colon = memchr(rest, ':', authority);
        if (colon != NULL) host_length = (size_t)(colon - rest);
    }
    if (host_length < authority) {
        if (rest[host_length] != ':') host_length = 0; /* junk after "]" */
        else port = rest + host_length + 1;
    }
    prefix->port = default_port(prefix->scheme);
    if (port != NULL) {
        size_t digits = (size_t)(rest + authority - port);
        long value = 0;
        for (size_t i = 0; i < digits && value <= 65535; i++)
            value = isdigit((unsigned char)port[i]) ? value * 10 + (port[i] - '0') : 65536;
        if (digits == 0 || value == 0 || value > 65535)
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                  "invalid allowed source prefix '%.200s': a bad port", text);
        prefix->port = value;
    }
    prefix->host = lowercase_copy(rest, host_length);
    prefix->path = strdup(path[0] != '\0' ? path : "/");
    if (prefix->host == NULL || prefix->path == NULL) {
        curl_shim_prefix_clear(prefix);
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if (valid_prefix_host(prefix->host) && strchr(prefix->host, '*') == NULL) {
        char *host = parsed_host(prefix->host);
        free(prefix->host);
        prefix->host = host;
    }
    if (prefix->host == NULL || !valid_prefix_host(prefix->host)) {
        curl_shim_prefix_clear(prefix);
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                              "invalid allowed source prefix '%.200s': a bad host (letters, digits, '-', '_' and "
                              "'*' labels, or an IPv6 address in brackets)",
                              text);
    }
    return WEBIMAGE_STATUS_OK;
}

void curl_shim_prefix_clear(curl_shim_prefix *prefix) {
    free(prefix->host);
    free(prefix->path);
    prefix->host = prefix->path = NULL;
}

/** True when the labels of `host` (lowercase) match those of `pattern`, where a `*` label stands for
 * one or more labels. */
static bool labels_match(const char *pattern, const char *host) {
    for (;;) {
        size_t pattern_label = strcspn(pattern, "."), host_label = strcspn(host, ".");
        if (pattern_label == 1 && pattern[0] == '*') {
            if (pattern[1] == '\0') return host[0] != '\0' && host_label > 0; /* the rest of the host */
            /* One label here, then either more for the same `*` or the pattern's next label. */
            if (host_label == 0 || host[host_label] == '\0') return false;
            if (labels_match(pattern + 2, host + host_label + 1)) return true;
            host += host_label + 1;
            continue;
        }
        if (pattern_label != host_label || memcmp(pattern, host, host_label) != 0) return false;
        if (pattern[pattern_label] == '\0' || host[host_label] == '\0')
            return pattern[pattern_label] == host[host_label];
        pattern += pattern_label + 1, host += host_label + 1;
    }
}

/** True when `path` holds an encoded `.`, `/` or `\`, which a server may decode into a way out of a
 * prefix's path. */
static bool has_encoded_separator(const char *path) {
    for (const char *percent = strchr(path, '%'); percent != NULL; percent = strchr(percent + 1, '%')) {
        if (strncasecmp(percent, "%2e", 3) == 0 || strncasecmp(percent, "%2f", 3) == 0 ||
            strncasecmp(percent, "%5c", 3) == 0)
            return true;
    }
    return false;
}

static bool prefix_matches(const curl_shim_prefix *prefix, const char *scheme, const char *host, long port,
                           const char *path) {
    if (strcmp(prefix->scheme, scheme) != 0 || prefix->port != port || !labels_match(prefix->host, host)) return false;
    if (strcmp(prefix->path, "/") == 0) return true;
    return strncmp(path, prefix->path, strlen(prefix->path)) == 0 && !has_encoded_separator(path);
}

bool curl_shim_url_allowed(const webimage_load_task *task, const char *url) {
    if (task->prefix_count == 0) return true;
    CURLU *parsed = curl_url();
    if (parsed == NULL) return false;
    char *scheme = NULL, *host = NULL, *port = NULL, *path = NULL;
    bool allowed = false;
    if (curl_url_set(parsed, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
        curl_url_get(parsed, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
        curl_url_get(parsed, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        curl_url_get(parsed, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK &&
        curl_url_get(parsed, CURLUPART_PATH, &path, 0) == CURLUE_OK) {
        for (char *c = scheme; *c != '\0'; c++) *c = (char)tolower((unsigned char)*c);
        for (char *c = host; *c != '\0'; c++) *c = (char)tolower((unsigned char)*c);
        long port_number = strtol(port, NULL, 10);
        for (size_t i = 0; i < task->prefix_count && !allowed; i++)
            allowed = prefix_matches(&task->prefixes[i], scheme, host, port_number, path);
    }
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
    curl_free(path);
    curl_url_cleanup(parsed);
    return allowed;
}
