/*
 * The destination guard (WEBIMAGE_DESTINATION_DENY_PRIVATE): classifies the address a
 * transfer is about to connect to or send on, after name resolution, so a name whose answer
 * changes between lookups cannot switch it. libcurl calls open_socket for every new
 * connection (each address it tries, each redirect hop) and prerequest before every request,
 * also on a connection it reuses.
 */
#include <arpa/inet.h>
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

/** Records the refusal of `text` (an address) of class `kind` on `task`; the first refusal
 * is the one reported (a name may resolve to several refused addresses). */
static void refuse(webimage_load_task *task, const char *text, const char *kind) {
    if (task->refusal[0] != '\0') return;
    snprintf(task->refusal, sizeof task->refusal, "%s is %s address", text, kind);
}

/** True when the guard lets `task` reach `address`; records the refusal otherwise. */
static bool allows(webimage_load_task *task, const struct sockaddr *address) {
    if (!(task->destination_flags & WEBIMAGE_DESTINATION_DENY_PRIVATE)) return true;
    char text[INET6_ADDRSTRLEN] = "";
    const char *kind = NULL;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *ipv4 = (const struct sockaddr_in *)address;
        kind = ipv4_class((const uint8_t *)&ipv4->sin_addr);
        inet_ntop(AF_INET, &ipv4->sin_addr, text, sizeof text);
    } else if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *ipv6 = (const struct sockaddr_in6 *)address;
        kind = ipv6_class(ipv6->sin6_addr.s6_addr);
        inet_ntop(AF_INET6, &ipv6->sin6_addr, text, sizeof text);
    } else {
        kind = "a non-IP";
        snprintf(text, sizeof text, "family %d", (int)address->sa_family);
    }
    if (kind == NULL) return true;
    refuse(task, text, kind);
    return false;
}

static curl_socket_t open_socket(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    webimage_load_task *task = context;
    if (!allows(task, &address->addr)) return CURL_SOCKET_BAD;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

static int before_request(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)local_ip, (void)primary_port, (void)local_port;
    webimage_load_task *task = context;
    struct sockaddr_storage storage = {0};
    struct sockaddr_in *ipv4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *ipv6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, primary_ip, &ipv4->sin_addr) == 1) storage.ss_family = AF_INET;
    else if (inet_pton(AF_INET6, primary_ip, &ipv6->sin6_addr) == 1) storage.ss_family = AF_INET6;
    return allows(task, (struct sockaddr *)&storage) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT;
}

CURLcode curl_shim_destination_prepare(webimage_load_task *task) {
    if (!(task->destination_flags & WEBIMAGE_DESTINATION_DENY_PRIVATE)) return CURLE_OK;
    CURLcode code = curl_easy_setopt(task->easy, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_OPENSOCKETDATA, (void *)task);
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_PREREQFUNCTION, before_request);
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_PREREQDATA, (void *)task);
    /* A proxy would be the only address checked: none, also not from the environment. */
    if (code == CURLE_OK) code = curl_easy_setopt(task->easy, CURLOPT_PROXY, "");
    return code;
}
