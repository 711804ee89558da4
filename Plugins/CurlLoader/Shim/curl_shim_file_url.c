/*
 * `file:` URLs, served on the I/O thread like any transfer when the request's destination
 * flags allow them: regular files only (a FIFO, device or socket is refused at once, opened
 * without blocking), read in chunks up to the body limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "curl_shim_internal.h"

/** Bytes read per on_data call. */
#define CURL_SHIM_FILE_CHUNK ((size_t)64 * 1024)

static void fail(webimage_load_task *task, webimage_status status, int32_t native_code, const char *message) {
    curl_shim_complete(task, status, native_code, message, NULL);
}

/** The percent-decoded local path of the task's `file:` URL (malloc'ed), or NULL with
 * `message` filled. */
static char *local_path(webimage_load_task *task, char *message, size_t capacity) {
    CURLU *url = curl_url();
    char *host = NULL, *path = NULL;
    if (url == NULL || curl_url_set(url, CURLUPART_URL, task->url, 0) != CURLUE_OK ||
        curl_url_get(url, CURLUPART_PATH, &path, CURLU_URLDECODE) != CURLUE_OK) {
        snprintf(message, capacity, "invalid file: URL");
    } else if (curl_url_get(url, CURLUPART_HOST, &host, 0) == CURLUE_OK && host[0] != '\0' &&
               strcasecmp(host, "localhost") != 0) {
        snprintf(message, capacity, "a file: URL names no other host than localhost");
        curl_free(path);
        path = NULL;
    }
    curl_free(host);
    curl_url_cleanup(url);
    char *copy = path != NULL ? strdup(path) : NULL;
    if (path != NULL && copy == NULL) snprintf(message, capacity, "out of memory");
    curl_free(path);
    return copy;
}

void curl_shim_serve_file_url(webimage_load_task *task) {
    if (!(task->destination_flags & WEBIMAGE_DESTINATION_ALLOW_FILE)) {
        fail(task, WEBIMAGE_STATUS_REFUSED, 0, "file: URLs are not allowed");
        return;
    }
    char message[512];
    char *path = local_path(task, message, sizeof message);
    if (path == NULL) {
        fail(task, WEBIMAGE_STATUS_INVALID_ARGUMENT, 0, message);
        return;
    }
    /* Non-blocking, so opening a FIFO with no writer returns at once to be refused. */
    int descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat status;
    if (descriptor < 0 || fstat(descriptor, &status) != 0) {
        int error = errno;
        if (descriptor >= 0) close(descriptor);
        snprintf(message, sizeof message, "Couldn't open file %.400s (curl error %d)", path,
                 (int)CURLE_FILE_COULDNT_READ_FILE);
        free(path);
        fail(task, error == ENOENT || error == ENOTDIR ? WEBIMAGE_STATUS_NOT_FOUND : WEBIMAGE_STATUS_IO_ERROR,
             CURLE_FILE_COULDNT_READ_FILE, message);
        return;
    }
    if (!S_ISREG(status.st_mode)) {
        snprintf(message, sizeof message, "%.400s is not a regular file", path);
        close(descriptor);
        free(path);
        fail(task, WEBIMAGE_STATUS_REFUSED, 0, message);
        return;
    }
    free(path);
    if (task->max_body_size != 0 && (uint64_t)status.st_size > task->max_body_size) {
        close(descriptor);
        snprintf(message, sizeof message, "the body exceeds the limit of %" PRIu64 " bytes", task->max_body_size);
        fail(task, WEBIMAGE_STATUS_TOO_LARGE, 0, message);
        return;
    }
    curl_shim_respond_locally(task, NULL, (uint64_t)status.st_size);
    uint8_t *buffer = task->method == WEBIMAGE_LOAD_METHOD_HEAD ? NULL : malloc(CURL_SHIM_FILE_CHUNK);
    webimage_status result = WEBIMAGE_STATUS_OK;
    snprintf(message, sizeof message, "%s", "");
    while (buffer != NULL && !atomic_load(&task->cancel_requested)) {
        ssize_t length = read(descriptor, buffer, CURL_SHIM_FILE_CHUNK);
        if (length < 0 && errno == EINTR) continue;
        if (length < 0) {
            result = WEBIMAGE_STATUS_IO_ERROR;
            snprintf(message, sizeof message, "cannot read the file: %s", strerror(errno));
            break;
        }
        if (length == 0) break;
        if (task->max_body_size != 0 && task->bytes_received + (uint64_t)length > task->max_body_size) {
            result = WEBIMAGE_STATUS_TOO_LARGE;
            snprintf(message, sizeof message, "the body exceeds the limit of %" PRIu64 " bytes", task->max_body_size);
            break;
        }
        task->bytes_received += (uint64_t)length;
        task->callbacks.on_data(task->callbacks.context, buffer, (size_t)length);
    }
    if (buffer == NULL && task->method != WEBIMAGE_LOAD_METHOD_HEAD) {
        result = WEBIMAGE_STATUS_OUT_OF_MEMORY;
        snprintf(message, sizeof message, "out of memory reading a file: URL");
    }
    free(buffer);
    close(descriptor);
    if (atomic_load(&task->cancel_requested)) fail(task, WEBIMAGE_STATUS_CANCELLED, 0, "cancelled");
    else fail(task, result, 0, message);
}
