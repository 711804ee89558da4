/* Parsing the redis cache's key/value configuration. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redis_cache_internal.h"

static bool parse_unsigned(const char *text, uint64_t *value) {
    char *end = NULL;
    if (text[0] < '0' || text[0] > '9') return false;
    errno = 0;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0') return false;
    *value = parsed;
    return true;
}

/** redis://HOST:PORT[/DB] (port and database optional: 6379 and 0). */
static webimage_status parse_url(const char *url, redis_cache_config *parsed, webimage_error *error) {
    const char *prefix = "redis://";
    if (strncmp(url, prefix, strlen(prefix)) != 0)
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "url: '%s' is not redis://HOST:PORT[/DB]", url);
    const char *host = url + strlen(prefix);
    size_t host_length = strcspn(host, ":/");
    if (host_length == 0) return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "url: '%s' has no host", url);
    const char *rest = host + host_length;
    uint64_t port = 6379, database = 0;
    char number[32];
    if (*rest == ':') {
        size_t length = strcspn(rest + 1, "/");
        if (length == 0 || length >= sizeof(number))
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "url: '%s' has a bad port", url);
        memcpy(number, rest + 1, length);
        number[length] = '\0';
        if (!parse_unsigned(number, &port) || port == 0 || port > 65535)
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "url: '%s' has a bad port", url);
        rest += 1 + length;
    }
    if (*rest == '/' && rest[1] != '\0') {
        if (!parse_unsigned(rest + 1, &database) || database > 1000000)
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "url: '%s' has a bad database number", url);
    } else if (*rest != '\0' && strcmp(rest, "/") != 0) {
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "url: '%s' is not redis://HOST:PORT[/DB]", url);
    }
    free(parsed->host);
    parsed->host = strndup(host, host_length);
    parsed->port = (int)port;
    parsed->database = (int)database;
    return WEBIMAGE_STATUS_OK;
}

webimage_status redis_cache_config_parse(const webimage_config *config, redis_cache_config *parsed,
                                         webimage_error *error) {
    memset(parsed, 0, sizeof(*parsed));
    parsed->port = 6379;
    parsed->timeout_ms = 50;
    parsed->max_value_size = 1024 * 1024;
    parsed->max_age = 7 * 24 * 60 * 60;
    uint32_t count = config->struct_size >= sizeof(webimage_config) ? config->count : 0;
    for (uint32_t i = 0; i < count; i++) {
        const char *key = config->entries[i].key;
        const char *value = config->entries[i].value;
        uint64_t number = 0;
        if (strcmp(key, "url") == 0) {
            webimage_status status = parse_url(value, parsed, error);
            if (status != WEBIMAGE_STATUS_OK) return status;
        } else if (strcmp(key, "namespace") == 0) {
            if (!value[0]) return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "namespace: empty");
            free(parsed->namespace_name);
            parsed->namespace_name = strdup(value);
        } else if (strcmp(key, "timeout-ms") == 0) {
            if (!parse_unsigned(value, &number) || number == 0 || number > 600000)
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                      "timeout-ms: '%s' is not a number of milliseconds from 1 to 600000", value);
            parsed->timeout_ms = (uint32_t)number;
        } else if (strcmp(key, "max-value-size") == 0 || strcmp(key, "max-age") == 0) {
            if (!parse_unsigned(value, &number))
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                      "%s: '%s' is not a whole number (0 means no limit)", key, value);
            if (key[4] == 'v') parsed->max_value_size = number;
            else parsed->max_age = number;
        } else {
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                  "unknown option '%s' (the redis cache takes url, namespace, timeout-ms, "
                                  "max-value-size, max-age)",
                                  key);
        }
    }
    if (!parsed->host) parsed->host = strdup("127.0.0.1");
    if (!parsed->namespace_name) parsed->namespace_name = strdup("default");
    if (!parsed->host || !parsed->namespace_name)
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    return WEBIMAGE_STATUS_OK;
}

void redis_cache_config_free(redis_cache_config *config) {
    free(config->host);
    free(config->namespace_name);
    memset(config, 0, sizeof(*config));
}
