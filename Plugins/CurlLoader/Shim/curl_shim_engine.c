/*
 * The I/O thread: one libcurl multi handle, driven by curl_multi_poll. Other
 * threads never touch the multi handle or an easy handle; they queue work (new
 * transfers, cancels) under the engine lock and wake the thread with
 * curl_multi_wakeup. Callbacks run on the thread with no lock held, so the host
 * may start, cancel or release from inside them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "curl_shim_internal.h"

/** Most connections to one host at once. */
#define CURL_SHIM_MAX_HOST_CONNECTIONS 6
/** Longest wait in curl_multi_poll when nothing happens, in milliseconds. */
#define CURL_SHIM_POLL_MS 1000

static struct {
    pthread_mutex_t lock;
    /** Guarded by lock. */
    bool running;
    bool stopping;
    pthread_t thread;
    CURLM *multi;
    webimage_load_task *pending_head;
    webimage_load_task *pending_tail;
    webimage_load_task *cancels;
    /** I/O thread only. */
    CURLSH *share;
    webimage_load_task *active;
    /** The multi handle's CURLMOPT_MAX_HOST_CONNECTIONS. */
    uint32_t max_host_connections;
} engine = {.lock = PTHREAD_MUTEX_INITIALIZER};

static atomic_uint_fast64_t transfers_in_flight;
static atomic_uint_fast64_t live_tasks;
static pthread_once_t global_init_once = PTHREAD_ONCE_INIT;
static CURLcode global_init_result;

static void global_init(void) { global_init_result = curl_global_init(CURL_GLOBAL_DEFAULT); }

uint64_t curl_shim_transfers_in_flight(void) { return atomic_load(&transfers_in_flight); }
uint64_t curl_shim_live_tasks(void) { return atomic_load(&live_tasks); }

void curl_shim_task_unref(webimage_load_task *task) {
    if (atomic_fetch_sub(&task->references, 1) != 1) return;
    if (task->easy != NULL) curl_easy_cleanup(task->easy);
    curl_slist_free_all(task->request_headers);
    curl_shim_headers_clear(&task->response_headers);
    free(task->pending_body);
    for (size_t i = 0; i < task->prefix_count; i++) curl_shim_prefix_clear(&task->prefixes[i]);
    free(task->prefixes);
    free(task->denied_networks);
    free(task->allowed_networks);
    free(task->url);
    free(task->user);
    free(task->password);
    free(task);
    atomic_fetch_sub(&live_tasks, 1);
}

void curl_shim_complete(webimage_load_task *task, webimage_status status, int32_t native_code, const char *message,
                        const webimage_load_metrics *metrics) {
    if (task->completed) return;
    task->completed = true;
    webimage_load_metrics empty = {.struct_size = sizeof(webimage_load_metrics)};
    empty.bytes_received = task->bytes_received;
    webimage_load_completion completion = {
        .struct_size = sizeof(webimage_load_completion),
        .status = status,
        .native_code = native_code,
        .message = message,
        .metrics = metrics != NULL ? metrics : &empty,
    };
    task->callbacks.on_complete(task->callbacks.context, &completion);
    atomic_fetch_sub(&transfers_in_flight, 1);
}

void curl_shim_respond_locally(webimage_load_task *task, const char *content_type, uint64_t length) {
    char length_text[32];
    snprintf(length_text, sizeof length_text, "%" PRIu64, length);
    webimage_load_header headers[] = {{"Content-Length", length_text}, {"Content-Type", ""}};
    if (content_type != NULL) headers[1].value = content_type;
    webimage_load_response response = {
        .struct_size = sizeof(webimage_load_response),
        .status_code = 200,
        .headers = headers,
        .header_count = content_type != NULL ? 2 : 1,
        .http_version = WEBIMAGE_HTTP_VERSION_NONE,
        .effective_url = task->url,
    };
    task->response_sent = true;
    task->callbacks.on_response(task->callbacks.context, &response);
}

static void active_insert(webimage_load_task *task) {
    task->previous_active = NULL;
    task->next_active = engine.active;
    if (engine.active != NULL) engine.active->previous_active = task;
    engine.active = task;
}

static void active_remove(webimage_load_task *task) {
    if (task->previous_active != NULL) task->previous_active->next_active = task->next_active;
    else engine.active = task->next_active;
    if (task->next_active != NULL) task->next_active->previous_active = task->previous_active;
    task->previous_active = task->next_active = NULL;
}

/** Takes `task` out of the multi handle (if in it) and drops the I/O thread's
 * reference. */
static void retire(webimage_load_task *task) {
    if (task->in_multi) {
        curl_multi_remove_handle(engine.multi, task->easy);
        task->in_multi = false;
        active_remove(task);
    }
    curl_shim_task_unref(task);
}

static void begin(webimage_load_task *task) {
    if (atomic_load(&task->cancel_requested)) {
        curl_shim_complete(task, WEBIMAGE_STATUS_CANCELLED, 0, "cancelled", NULL);
        retire(task);
        return;
    }
    if (curl_shim_has_scheme(task->url, "data")) {
        curl_shim_serve_data_url(task);
        retire(task);
        return;
    }
    if (curl_shim_has_scheme(task->url, "file")) {
        curl_shim_serve_file_url(task);
        retire(task);
        return;
    }
    /* libcurl's limit is one per multi handle: the latest request's applies. */
    uint32_t limit = task->max_host_connections != 0 ? task->max_host_connections : CURL_SHIM_MAX_HOST_CONNECTIONS;
    if (limit != engine.max_host_connections &&
        curl_multi_setopt(engine.multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)limit) == CURLM_OK)
        engine.max_host_connections = limit;
    char message[256] = "";
    webimage_status status = curl_shim_transfer_prepare(task, engine.share, message, sizeof message);
    if (status == WEBIMAGE_STATUS_OK) {
        CURLMcode added = curl_multi_add_handle(engine.multi, task->easy);
        if (added == CURLM_OK) {
            task->in_multi = true;
            active_insert(task);
            return;
        }
        status = WEBIMAGE_STATUS_INTERNAL_ERROR;
        snprintf(message, sizeof message, "curl_multi_add_handle: %s", curl_multi_strerror(added));
    }
    curl_shim_complete(task, status, 0, message, NULL);
    retire(task);
}

static void cancel_now(webimage_load_task *task) {
    if (task->completed) return;
    if (task->in_multi) {
        curl_multi_remove_handle(engine.multi, task->easy);
        task->in_multi = false;
        active_remove(task);
        curl_shim_complete(task, WEBIMAGE_STATUS_CANCELLED, 0, "cancelled", NULL);
        curl_shim_task_unref(task);
    }
    /* A task not yet begun is still in the pending list; begin sees
   * cancel_requested. */
}

static void finish_done_transfers(void) {
    CURLMsg *message;
    int left;
    while ((message = curl_multi_info_read(engine.multi, &left)) != NULL) {
        if (message->msg != CURLMSG_DONE) continue;
        webimage_load_task *task = NULL;
        curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&task);
        CURLcode result = message->data.result;
        curl_multi_remove_handle(engine.multi, task->easy);
        task->in_multi = false;
        active_remove(task);
        if (atomic_load(&task->cancel_requested))
            curl_shim_complete(task, WEBIMAGE_STATUS_CANCELLED, 0, "cancelled", NULL);
        else curl_shim_transfer_finish(task, result);
        curl_shim_task_unref(task);
    }
}

static void *io_thread_main(void *argument) {
    (void)argument;
    for (;;) {
        pthread_mutex_lock(&engine.lock);
        webimage_load_task *pending = engine.pending_head;
        webimage_load_task *cancels = engine.cancels;
        engine.pending_head = engine.pending_tail = NULL;
        engine.cancels = NULL;
        for (webimage_load_task *task = cancels; task != NULL; task = task->next_cancel) task->in_cancel_queue = false;
        bool stopping = engine.stopping;
        pthread_mutex_unlock(&engine.lock);

        while (pending != NULL) {
            webimage_load_task *task = pending;
            pending = task->next_pending;
            if (stopping) atomic_store(&task->cancel_requested, true);
            begin(task);
        }
        while (cancels != NULL) {
            webimage_load_task *task = cancels;
            cancels = task->next_cancel;
            cancel_now(task);
            curl_shim_task_unref(task);
        }
        if (stopping) {
            while (engine.active != NULL) cancel_now(engine.active);
            return NULL;
        }
        int running = 0;
        curl_multi_perform(engine.multi, &running);
        /* Body bytes are gathered within one pass and passed on at its end, so
         * a slow stream still reports each piece as it arrives. */
        for (webimage_load_task *task = engine.active; task != NULL; task = task->next_active)
            curl_shim_transfer_flush(task);
        finish_done_transfers();
        curl_multi_poll(engine.multi, NULL, 0, CURL_SHIM_POLL_MS, NULL);
    }
}

/** Starts the I/O thread and its handles; engine.lock is held. */
static webimage_status start_engine(webimage_error *error) {
    pthread_once(&global_init_once, global_init);
    if (global_init_result != CURLE_OK)
        return webimage_failf(error, WEBIMAGE_STATUS_INTERNAL_ERROR, "curl_global_init: %s",
                              curl_easy_strerror(global_init_result));
    engine.multi = curl_multi_init();
    engine.share = curl_share_init();
    if (engine.multi == NULL || engine.share == NULL) {
        curl_multi_cleanup(engine.multi);
        curl_share_cleanup(engine.share);
        engine.multi = NULL;
        engine.share = NULL;
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "cannot create the libcurl multi handle");
    }
    curl_multi_setopt(engine.multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)CURL_SHIM_MAX_HOST_CONNECTIONS);
    engine.max_host_connections = CURL_SHIM_MAX_HOST_CONNECTIONS;
    curl_multi_setopt(engine.multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    /* Only the I/O thread uses the share handle, so it needs no lock callbacks.
   */
    curl_share_setopt(engine.share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
    curl_share_setopt(engine.share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(engine.share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    if (pthread_create(&engine.thread, NULL, io_thread_main, NULL) != 0) {
        curl_multi_cleanup(engine.multi);
        curl_share_cleanup(engine.share);
        engine.multi = NULL;
        engine.share = NULL;
        return webimage_fail(error, WEBIMAGE_STATUS_INTERNAL_ERROR, "cannot start the loader's I/O thread");
    }
    engine.running = true;
    return WEBIMAGE_STATUS_OK;
}

static char *copy_string(const char *text) { return text != NULL ? strdup(text) : NULL; }

/** Copies `count` networks; false when out of memory. */
static bool copy_networks(const webimage_ip_network *networks, uint32_t count, webimage_ip_network **copy,
                          uint32_t *copy_count) {
    if (count == 0 || networks == NULL) return true;
    *copy = malloc(count * sizeof **copy);
    if (*copy == NULL) return false;
    memcpy(*copy, networks, count * sizeof **copy);
    *copy_count = count;
    return true;
}

/** Copies the source guard's lists (prefixes parsed) into `task`. */
static webimage_status copy_source_guard(const webimage_load_request *request, webimage_load_task *task,
                                         webimage_error *error) {
    if (!copy_networks(request->denied_networks, request->denied_network_count, &task->denied_networks,
                       &task->denied_network_count) ||
        !copy_networks(request->allowed_networks, request->allowed_network_count, &task->allowed_networks,
                       &task->allowed_network_count))
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory copying the request");
    if (request->allowed_url_prefix_count == 0 || request->allowed_url_prefixes == NULL) return WEBIMAGE_STATUS_OK;
    task->prefixes = calloc(request->allowed_url_prefix_count, sizeof *task->prefixes);
    if (task->prefixes == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < request->allowed_url_prefix_count; i++) {
        webimage_status status = curl_shim_prefix_parse(request->allowed_url_prefixes[i], &task->prefixes[i], error);
        if (status != WEBIMAGE_STATUS_OK) return status;
        task->prefix_count++;
    }
    if (curl_shim_url_allowed(task, request->url)) return WEBIMAGE_STATUS_OK;
    char shown[CURL_SHIM_URL_TEXT_SIZE];
    curl_shim_describe_url(shown, sizeof shown, request->url);
    return webimage_failf(error, WEBIMAGE_STATUS_REFUSED, "%s is not under an allowed source prefix", shown);
}

static webimage_status copy_request(const webimage_load_request *request, webimage_load_task *task,
                                    webimage_error *error) {
    task->url = strdup(request->url);
    task->method = request->method;
    task->flags = request->flags;
    task->connect_timeout_ms = request->connect_timeout_ms;
    task->idle_timeout_ms = request->idle_timeout_ms;
    task->user = copy_string(request->user);
    task->password = copy_string(request->password);
    task->max_body_size = request->max_body_size;
    task->range_start = request->range_start;
    if (request->struct_size >= offsetof(webimage_load_request, max_host_connections) + sizeof(uint32_t))
        task->max_host_connections = request->max_host_connections;
    if (request->struct_size >= offsetof(webimage_load_request, max_time_ms) + sizeof(uint32_t)) {
        task->low_speed_bytes_per_second = request->low_speed_bytes_per_second;
        task->max_time_ms = request->max_time_ms;
    }
    if (request->struct_size >= offsetof(webimage_load_request, destination_flags) + sizeof(uint32_t))
        task->destination_flags = request->destination_flags;
    if (request->struct_size >= offsetof(webimage_load_request, reserved2) + sizeof(uint32_t)) {
        webimage_status status = copy_source_guard(request, task, error);
        if (status != WEBIMAGE_STATUS_OK) return status;
    }
    if (task->url == NULL || (request->user != NULL && task->user == NULL) ||
        (request->password != NULL && task->password == NULL))
        return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory copying the request");
    for (uint32_t i = 0; i < request->header_count; i++) {
        const webimage_load_header *header = &request->headers[i];
        size_t name_length = strlen(header->name), value_length = strlen(header->value);
        if (name_length == 0 || strpbrk(header->name, ":\r\n") != NULL || strpbrk(header->value, "\r\n") != NULL)
            return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "invalid request header '%s'", header->name);
        char *line = malloc(name_length + value_length + 3);
        if (line == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        /* "Name;" sends an empty header; "Name: value" a non-empty one. */
        if (value_length == 0) snprintf(line, name_length + 2, "%s;", header->name);
        else snprintf(line, name_length + value_length + 3, "%s: %s", header->name, header->value);
        struct curl_slist *appended = curl_slist_append(task->request_headers, line);
        free(line);
        if (appended == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
        task->request_headers = appended;
    }
    return WEBIMAGE_STATUS_OK;
}

static webimage_status loader_start(const webimage_load_request *request, const webimage_load_callbacks *callbacks,
                                    webimage_load_task **task_out, webimage_error *error) {
    *task_out = NULL;
    if (request->struct_size < offsetof(webimage_load_request, range_start) + sizeof(uint64_t) ||
        callbacks->struct_size < sizeof(webimage_load_callbacks))
        return webimage_fail(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "request or callbacks from an older ABI");
    if (request->method != WEBIMAGE_LOAD_METHOD_GET && request->method != WEBIMAGE_LOAD_METHOD_HEAD)
        return webimage_failf(error, WEBIMAGE_STATUS_INVALID_ARGUMENT, "unknown method %" PRIu32, request->method);
    if (!curl_shim_has_scheme(request->url, "http") && !curl_shim_has_scheme(request->url, "https") &&
        !curl_shim_has_scheme(request->url, "file") && !curl_shim_has_scheme(request->url, "data"))
        return webimage_failf(error, WEBIMAGE_STATUS_UNSUPPORTED_OPERATION,
                              "unsupported URL scheme in '%.200s' (http, https, "
                              "file and data are served)",
                              request->url);
    webimage_load_task *task = calloc(1, sizeof *task);
    if (task == NULL) return webimage_fail(error, WEBIMAGE_STATUS_OUT_OF_MEMORY, "out of memory");
    atomic_fetch_add(&live_tasks, 1);
    atomic_init(&task->references, 2);
    atomic_init(&task->cancel_requested, false);
    task->callbacks = *callbacks;
    webimage_status status = copy_request(request, task, error);
    if (status != WEBIMAGE_STATUS_OK) {
        atomic_store(&task->references, 1);
        curl_shim_task_unref(task);
        return status;
    }
    pthread_mutex_lock(&engine.lock);
    if (engine.stopping) status = webimage_fail(error, WEBIMAGE_STATUS_CANCELLED, "the loader is shutting down");
    else if (!engine.running) status = start_engine(error);
    if (status != WEBIMAGE_STATUS_OK) {
        pthread_mutex_unlock(&engine.lock);
        atomic_store(&task->references, 1);
        curl_shim_task_unref(task);
        return status;
    }
    atomic_fetch_add(&transfers_in_flight, 1);
    if (engine.pending_tail != NULL) engine.pending_tail->next_pending = task;
    else engine.pending_head = task;
    engine.pending_tail = task;
    curl_multi_wakeup(engine.multi);
    pthread_mutex_unlock(&engine.lock);
    *task_out = task;
    return WEBIMAGE_STATUS_OK;
}

static void loader_cancel(webimage_load_task *task) {
    if (atomic_exchange(&task->cancel_requested, true)) return;
    pthread_mutex_lock(&engine.lock);
    if (engine.running && !task->in_cancel_queue) {
        task->in_cancel_queue = true;
        atomic_fetch_add(&task->references, 1);
        task->next_cancel = engine.cancels;
        engine.cancels = task;
        curl_multi_wakeup(engine.multi);
    }
    pthread_mutex_unlock(&engine.lock);
}

static void loader_release(webimage_load_task *task) { curl_shim_task_unref(task); }

static void loader_shutdown(void) {
    pthread_mutex_lock(&engine.lock);
    if (!engine.running || engine.stopping || pthread_equal(engine.thread, pthread_self())) {
        pthread_mutex_unlock(&engine.lock);
        return;
    }
    engine.stopping = true;
    pthread_t thread = engine.thread;
    curl_multi_wakeup(engine.multi);
    pthread_mutex_unlock(&engine.lock);

    pthread_join(thread, NULL);

    pthread_mutex_lock(&engine.lock);
    /* The thread took every pending transfer and cancel with stopping set; starts
   * since then were refused, so both queues are empty and no easy handle is in
   * the multi. */
    curl_multi_cleanup(engine.multi);
    curl_share_cleanup(engine.share);
    engine.multi = NULL;
    engine.share = NULL;
    engine.running = false;
    engine.stopping = false;
    pthread_mutex_unlock(&engine.lock);
}

static const char *const schemes[] = {"http", "https", "file", "data"};

static const webimage_loader loader_table = {
    .struct_size = sizeof(webimage_loader),
    .schemes = schemes,
    .scheme_count = sizeof schemes / sizeof schemes[0],
    .start = loader_start,
    .cancel = loader_cancel,
    .release = loader_release,
    .shutdown = loader_shutdown,
};

const webimage_loader *curl_shim_loader(void) { return &loader_table; }
