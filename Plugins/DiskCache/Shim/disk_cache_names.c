/* File names of entries: the hex SHA-256 of the key (OpenSSL) plus the key's path extension. */
#include <limits.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <string.h>

#include "disk_cache_internal.h"

enum { digest_hex_length = 64 };

/* SHA-256 fetched once: EVP_sha256() makes every EVP_Digest fetch the implementation again. */
static EVP_MD *sha256;
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;

static void fetch_sha256(void) { sha256 = EVP_MD_fetch(NULL, "SHA256", NULL); }

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/** Length of a URL scheme followed by ':' at the start of `key`, or 0. */
static size_t scheme_length(const char *key, size_t length) {
    if (length == 0 || !is_alpha(key[0])) return 0;
    for (size_t i = 1; i < length; i++) {
        char c = key[i];
        if (c == ':') return i;
        if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.') return 0;
    }
    return 0;
}

/** True when every byte may appear in a URL, so the key parses as a (relative) URL. */
static bool is_url_text(const char *key, size_t length) {
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)key[i];
        if (c <= 0x20 || c >= 0x7f || strchr("\"<>\\^`{|}", c)) return false;
    }
    return true;
}

/**
 * The path extension of `key` by SDWebImage's rule: a key that parses as a URL gives its
 * path's extension (query and fragment excluded), any other key its own last component's.
 */
static void path_extension(const char *key, size_t length, const char **extension, size_t *extension_length) {
    const char *path = key;
    size_t path_length = length;
    if (is_url_text(key, length)) {
        size_t scheme = scheme_length(key, length);
        if (scheme > 0) {
            path = key + scheme + 1;
            path_length = length - scheme - 1;
            if (path_length >= 2 && path[0] == '/' && path[1] == '/') {
                size_t i = 2;
                while (i < path_length && path[i] != '/' && path[i] != '?' && path[i] != '#') i++;
                path += i;
                path_length -= i;
            }
        }
        for (size_t i = 0; i < path_length; i++) {
            if (path[i] == '?' || path[i] == '#') {
                path_length = i;
                break;
            }
        }
    }
    while (path_length > 0 && path[path_length - 1] == '/') path_length--;
    size_t start = path_length;
    while (start > 0 && path[start - 1] != '/') start--;
    *extension = NULL;
    *extension_length = 0;
    for (size_t i = path_length; i > start + 1; i--) {
        if (path[i - 1] == '.') {
            *extension = path + i;
            *extension_length = path_length - i;
            return;
        }
    }
}

static bool is_safe_extension(const char *extension, size_t length) {
    for (size_t i = 0; i < length; i++) {
        char c = extension[i];
        if (!is_alpha(c) && !is_digit(c) && c != '-' && c != '_') return false;
    }
    return true;
}

webimage_status disk_cache_file_name(const char *key, size_t key_length, char *name, size_t capacity,
                                     webimage_error *error) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_length = 0;
    if (capacity < DISK_CACHE_NAME_CAPACITY)
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "file name buffer too small");
    pthread_once(&sha256_once, fetch_sha256);
    if (!sha256 || !EVP_Digest(key, key_length, digest, &digest_length, sha256, NULL) || digest_length != 32)
        return webimage_fail(error, WEBIMAGE_STATUS_INTERNAL_ERROR, "SHA-256 of the key failed");
    static const char hex[] = "0123456789abcdef";
    for (unsigned int i = 0; i < digest_length; i++) {
        name[2 * i] = hex[digest[i] >> 4];
        name[2 * i + 1] = hex[digest[i] & 15];
    }
    size_t length = digest_hex_length;
    const char *extension = NULL;
    size_t extension_length = 0;
    path_extension(key, key_length, &extension, &extension_length);
    if (extension_length > 0 && length + 1 + extension_length <= NAME_MAX &&
        is_safe_extension(extension, extension_length)) {
        name[length++] = '.';
        memcpy(name + length, extension, extension_length);
        length += extension_length;
    }
    name[length] = '\0';
    return WEBIMAGE_STATUS_OK;
}

bool disk_cache_is_entry_name(const char *name) {
    for (int i = 0; i < digest_hex_length; i++) {
        char c = name[i];
        if (!is_digit(c) && !(c >= 'a' && c <= 'f')) return false;
    }
    return name[digest_hex_length] == '\0' || name[digest_hex_length] == '.';
}
