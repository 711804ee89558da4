/*
 * The destination guard: the allowed source prefixes checked on the URL of every redirect hop
 * before its name is looked up and before it connects (the request's own URL is checked by start),
 * and the address a transfer is about to connect to or send on classified after name resolution,
 * so a name whose answer changes between lookups cannot switch it: the denied networks always,
 * private addresses with WEBIMAGE_DESTINATION_DENY_PRIVATE unless in an allowed network. libcurl
 * calls before_resolving for every name it has not cached, open_socket for every new connection
 * (each address it tries, each redirect hop) and before_request before every request, also on a
 * connection it reuses.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "curl_shim_internal.h"

/** The class (with its article) of an IPv4 address (network byte order) the guard refuses, or NULL. */
static const char *ipv4_class(const uint8_t a[4]) {
    if (a[0] == 0) return "an unspecified";
    if (a[0] == 127) return "a loopback";
    if (a[0] == 10 || (a[0] == 172 && (a[1] & 0xF0) == 16) || (a[0] == 192 && a[1] == 168)) return "a private";
    if (a[0] == 100 && (a[1] & 0xC0) == 64) return "a private (CGNAT)";
    if (a[0] == 169 && a[1] == 254) return "a link-local";
    if (a[0] == 192 && a[1] == 0 && a[2] == 0) return "a reserved";
    if (a[0] == 198 && (a[1] & 0xFE) == 18) return "a reserved";
    if ((a[0] & 0xF0) == 224) return "a multicast";
    if (a[0] >= 240) return a[0] == 255 && a[1] == 255 && a[2] == 255 && a[3] == 255 ? "a broadcast" : "a reserved";
    return NULL;
}

/** The class (with its article) of an IPv6 address the guard refuses, or NULL; IPv4 addresses carried inside
 * one (mapped, compatible, NAT64, 6to4) are classified as IPv4. */
static const char *ipv6_class(const uint8_t a[16]) {
    static const uint8_t zero[16] = {0};
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    static const uint8_t nat64[12] = {0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0};
    if (memcmp(a, zero, 16) == 0) return "an unspecified";
    if (memcmp(a, zero, 15) == 0 && a[15] == 1) return "a loopback";
    if (memcmp(a, mapped, 12) == 0 || memcmp(a, zero, 12) == 0 || memcmp(a, nat64, 12) == 0) return ipv4_class(a + 12);
    if (a[0] == 0x20 && a[1] == 0x02) return ipv4_class(a + 2);
    if ((a[0] & 0xFE) == 0xFC) return "a unique local";
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) return "a link-local";
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0xC0) return "a private (site-local)";
    if (a[0] == 0xFF) return "a multicast";
    return NULL;
}

/** Records a refusal on `task` (printf-style); the first is the one reported (a name may resolve to
 * several refused addresses). */
static void refuse(webimage_load_task *task, const char *format, ...) WEBIMAGE_PRINTF_FORMAT(2, 3);

static void refuse(webimage_load_task *task, const char *format, ...) {
    if (task->refusal[0] != '\0') return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(task->refusal, sizeof task->refusal, format, arguments);
    va_end(arguments);
}

/** True when `bytes` (IPv4 when `version` is 4, else IPv6) and `port` fall in `network`. */
static bool in_network(const webimage_ip_network *network, uint32_t version, const uint8_t bytes[16], uint16_t port) {
    if (network->ip_version != version || (network->port != 0 && network->port != port)) return false;
    uint32_t most = version == 4 ? 32u : 128u;
    uint32_t bits = network->prefix_length < most ? network->prefix_length : most;
    if (memcmp(network->address, bytes, bits / 8) != 0) return false;
    if (bits % 8 == 0) return true;
    uint8_t mask = (uint8_t)(0xFFu << (8 - bits % 8));
    return (network->address[bits / 8] & mask) == (bytes[bits / 8] & mask);
}

static bool in_networks(const webimage_ip_network *networks, uint32_t count, uint32_t version, const uint8_t bytes[16],
                        uint16_t port) {
    for (uint32_t i = 0; i < count; i++)
        if (in_network(&networks[i], version, bytes, port)) return true;
    return false;
}

/** The form of `address` that networks are matched against, in `bytes` and `port`: IPv4-mapped IPv6
 * as IPv4, the unspecified addresses as the loopback they reach. Returns 4, 6, or 0 for another family. */
static uint32_t matched_form(const struct sockaddr *address, uint8_t bytes[16], uint16_t *port) {
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    static const uint8_t zero[16] = {0};
    memset(bytes, 0, 16);
    uint32_t version = 0;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *ipv4 = (const struct sockaddr_in *)address;
        memcpy(bytes, &ipv4->sin_addr, 4);
        *port = ntohs(ipv4->sin_port);
        version = 4;
    } else if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *ipv6 = (const struct sockaddr_in6 *)address;
        *port = ntohs(ipv6->sin6_port);
        if (memcmp(ipv6->sin6_addr.s6_addr, mapped, 12) == 0) {
            memcpy(bytes, ipv6->sin6_addr.s6_addr + 12, 4);
            version = 4;
        } else {
            memcpy(bytes, ipv6->sin6_addr.s6_addr, 16);
            if (memcmp(bytes, zero, 16) == 0) bytes[15] = 1;
            return 6;
        }
    }
    if (version == 4 && memcmp(bytes, zero, 4) == 0) bytes[0] = 127, bytes[3] = 1;
    return version;
}

/** Writes " (the redirect to URL)" when `task` is on a redirect hop, else "", so a refused address
 * names the URL that led to it. */
static void redirect_note(webimage_load_task *task, char *buffer, size_t capacity) {
    char *url = NULL;
    buffer[0] = '\0';
    curl_easy_getinfo(task->easy, CURLINFO_EFFECTIVE_URL, &url);
    if (url == NULL || !curl_shim_redirected(task)) return;
    char shown[CURL_SHIM_URL_TEXT_SIZE];
    curl_shim_describe_url(shown, sizeof shown, url);
    snprintf(buffer, capacity, " (the redirect to %s)", shown);
}

/** True when the guard lets `task` reach `address`; records the refusal otherwise. */
static bool allows(webimage_load_task *task, const struct sockaddr *address) {
    char text[INET6_ADDRSTRLEN] = "";
    uint8_t bytes[16];
    uint16_t port = 0;
    uint32_t version = matched_form(address, bytes, &port);
    if (address->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, sizeof text);
    else if (address->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, text, sizeof text);
    else snprintf(text, sizeof text, "family %d", (int)address->sa_family);
    if (version != 0 && in_networks(task->denied_networks, task->denied_network_count, version, bytes, port)) {
        char note[CURL_SHIM_URL_TEXT_SIZE + 24];
        redirect_note(task, note, sizeof note);
        refuse(task, "%s port %u is a denied address%s", text, (unsigned)port, note);
        return false;
    }
    if (!(task->destination_flags & WEBIMAGE_DESTINATION_DENY_PRIVATE)) return true;
    if (version != 0 && in_networks(task->allowed_networks, task->allowed_network_count, version, bytes, port))
        return true;
    const char *kind = NULL;
    if (address->sa_family == AF_INET)
        kind = ipv4_class((const uint8_t *)&((const struct sockaddr_in *)address)->sin_addr);
    else if (address->sa_family == AF_INET6)
        kind = ipv6_class(((const struct sockaddr_in6 *)address)->sin6_addr.s6_addr);
    else kind = "a non-IP";
    if (kind == NULL) return true;
    char note[CURL_SHIM_URL_TEXT_SIZE + 24];
    redirect_note(task, note, sizeof note);
    refuse(task, "%s is %s address%s", text, kind, note);
    return false;
}

/** True when the URL libcurl is about to reach (the request's or a redirect's target) falls under an
 * allowed source prefix; records the refusal otherwise, replacing an earlier hop's. */
static bool hop_allowed(webimage_load_task *task) {
    if (task->prefix_count == 0) return true;
    char *url = NULL;
    curl_easy_getinfo(task->easy, CURLINFO_EFFECTIVE_URL, &url);
    if (url != NULL && curl_shim_url_allowed(task, url)) return true;
    char shown[CURL_SHIM_URL_TEXT_SIZE];
    curl_shim_describe_url(shown, sizeof shown, url != NULL ? url : "");
    bool redirected = curl_shim_redirected(task);
    snprintf(task->refusal, sizeof task->refusal, "%s%s is not under an allowed source prefix",
             redirected ? "the redirect to " : "", shown);
    return false;
}

/* Before a name is looked up (not for one libcurl has cached): the hop's URL. */
static int before_resolving(void *resolver_state, void *reserved, void *context) {
    (void)resolver_state, (void)reserved;
    return hop_allowed(context) ? 0 : 1;
}

static curl_socket_t open_socket(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    webimage_load_task *task = context;
    if (!hop_allowed(task) || !allows(task, &address->addr)) return CURL_SOCKET_BAD;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

static int before_request(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)local_ip, (void)local_port;
    webimage_load_task *task = context;
    if (!hop_allowed(task)) return CURL_PREREQFUNC_ABORT;
    struct sockaddr_storage storage = {0};
    struct sockaddr_in *ipv4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *ipv6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, primary_ip, &ipv4->sin_addr) == 1) {
        storage.ss_family = AF_INET;
        ipv4->sin_port = htons((uint16_t)primary_port);
    } else if (inet_pton(AF_INET6, primary_ip, &ipv6->sin6_addr) == 1) {
        storage.ss_family = AF_INET6;
        ipv6->sin6_port = htons((uint16_t)primary_port);
    }
    return allows(task, (struct sockaddr *)&storage) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT;
}

CURLcode curl_shim_destination_prepare(webimage_load_task *task) {
    if (!(task->destination_flags & WEBIMAGE_DESTINATION_DENY_PRIVATE) && task->denied_network_count == 0 &&
        task->prefix_count == 0)
        return CURLE_OK;
    CURLcode code = curl_easy_setopt(task->easy, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_OPENSOCKETDATA, (void *)task);
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_PREREQFUNCTION, before_request);
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_PREREQDATA, (void *)task);
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_RESOLVER_START_FUNCTION, before_resolving);
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_RESOLVER_START_DATA, (void *)task);
    /* A proxy would be the only address checked: none, also not from the environment. */
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_PROXY, "");
    return code;
}
