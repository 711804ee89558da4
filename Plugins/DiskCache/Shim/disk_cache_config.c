/* Parsing the disk cache's key/value configuration, with the defaults of the bundled plugin. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "disk_cache_internal.h"

/** One week, SDWebImage's default maxDiskAge. */
static const uint64_t default_max_age = 7 * 24 * 60 * 60;

static bool parse_unsigned(const char *text, uint64_t *value) {
    char *end = NULL;
    if (text[0] < '0' || text[0] > '9') return false;
    errno = 0;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0') return false;
    *value = parsed;
    return true;
}

static char *join_path(const char *directory, const char *leaf) {
    char *path = NULL;
    if (asprintf(&path, "%s/%s", directory, leaf) < 0) return NULL;
    return path;
}

/** $WEBIMAGE_CACHE_DIR, else $XDG_CACHE_HOME/webimage, else ~/.cache/webimage. */
static char *default_root(void) {
    const char *explicit_directory = getenv("WEBIMAGE_CACHE_DIR");
    if (explicit_directory && explicit_directory[0]) return strdup(explicit_directory);
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/') return join_path(xdg, "webimage");
    const char *home = getenv("HOME");
    if (!home || !home[0]) home = "/tmp";
    char *path = NULL;
    if (asprintf(&path, "%s/.cache/webimage", home) < 0) return NULL;
    return path;
}

static bool valid_namespace(const char *name) {
    if (!name[0] || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) return false;
    for (const char *c = name; *c; c++)
        if (*c == '/') return false;
    return strlen(name) <= 200;
}

static webimage_status add_read_only_paths(disk_cache_config *parsed, const char *value, webimage_error *error) {
    char *copy = strdup(value);
    if (!copy) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    char *save = NULL;
    for (char *part = strtok_r(copy, ":", &save); part; part = strtok_r(NULL, ":", &save)) {
        char **grown = realloc(parsed->read_only_paths, (parsed->read_only_count + 1) * sizeof(char *));
        if (!grown) {
            free(copy);
            return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        }
        parsed->read_only_paths = grown;
        parsed->read_only_paths[parsed->read_only_count++] = strdup(part);
    }
    free(copy);
    return WEBIMAGE_STATUS_OK;
}

webimage_status disk_cache_config_parse(const webimage_config *config, disk_cache_config *parsed,
                                        webimage_error *error) {
    memset(parsed, 0, sizeof(*parsed));
    parsed->max_age = default_max_age;
    parsed->trim_ratio = 0.5;
    parsed->use_xattr = true;
    parsed->expire_type = DISK_CACHE_EXPIRE_MODIFICATION;
    uint32_t count = config->struct_size >= sizeof(webimage_config) ? config->count : 0;
    for (uint32_t i = 0; i < count; i++) {
        const char *key = config->entries[i].key;
        const char *value = config->entries[i].value;
        uint64_t number = 0;
        if (strcmp(key, "directory") == 0) {
            if (!value[0]) return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "directory: empty path");
            free(parsed->root);
            parsed->root = strdup(value);
        } else if (strcmp(key, "namespace") == 0) {
            if (!valid_namespace(value))
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                      "namespace: '%s' is not a folder name (no '/', not empty, '.' or '..')", value);
            free(parsed->namespace_name);
            parsed->namespace_name = strdup(value);
        } else if (strcmp(key, "max-size") == 0 || strcmp(key, "max-count") == 0 || strcmp(key, "max-age") == 0) {
            if (!parse_unsigned(value, &number))
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                      "%s: '%s' is not a whole number (0 means no limit)", key, value);
            if (key[4] == 's') parsed->max_size = number;
            else if (key[4] == 'c') parsed->max_count = number;
            else parsed->max_age = number;
        } else if (strcmp(key, "expire-type") == 0) {
            if (strcmp(value, "access") == 0) parsed->expire_type = DISK_CACHE_EXPIRE_ACCESS;
            else if (strcmp(value, "modification") == 0) parsed->expire_type = DISK_CACHE_EXPIRE_MODIFICATION;
            else if (strcmp(value, "creation") == 0) parsed->expire_type = DISK_CACHE_EXPIRE_CREATION;
            else
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                      "expire-type: '%s' is not access, modification or creation", value);
        } else if (strcmp(key, "trim-ratio") == 0) {
            char *end = NULL;
            double ratio = strtod(value, &end);
            if (!value[0] || *end != '\0' || !(ratio >= 0.0 && ratio <= 1.0))
                return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                      "trim-ratio: '%s' is not a number from 0 to 1", value);
            parsed->trim_ratio = ratio;
        } else if (strcmp(key, "read-only-paths") == 0) {
            webimage_status status = add_read_only_paths(parsed, value, error);
            if (status != WEBIMAGE_STATUS_OK) return status;
        } else if (strcmp(key, "migrate-from") == 0) {
            free(parsed->migrate_from);
            parsed->migrate_from = strdup(value);
        } else if (strcmp(key, "xattr") == 0) {
            if (strcmp(value, "on") == 0) parsed->use_xattr = true;
            else if (strcmp(value, "off") == 0) parsed->use_xattr = false;
            else return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "xattr: '%s' is not on or off", value);
        } else {
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT,
                                  "unknown option '%s' (the disk cache takes directory, namespace, max-size, "
                                  "max-count, max-age, expire-type, trim-ratio, read-only-paths, migrate-from, xattr)",
                                  key);
        }
    }
    if (!parsed->root) parsed->root = default_root();
    if (!parsed->namespace_name) parsed->namespace_name = strdup("default");
    if (!parsed->root || !parsed->namespace_name)
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    return WEBIMAGE_STATUS_OK;
}

void disk_cache_config_free(disk_cache_config *config) {
    free(config->root);
    free(config->namespace_name);
    for (size_t i = 0; i < config->read_only_count; i++) free(config->read_only_paths[i]);
    free(config->read_only_paths);
    free(config->migrate_from);
    memset(config, 0, sizeof(*config));
}
