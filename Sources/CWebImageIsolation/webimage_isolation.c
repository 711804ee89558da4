/* webimage_isolation.c — see webimage_isolation.h. */
#define _GNU_SOURCE

#include "webimage_isolation.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int webimage_isolation_socketpair(int sockets[2]) {
    return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets);
}

int webimage_isolation_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int webimage_isolation_send(int socket, const void *bytes, size_t size, int pass_fd) {
    struct iovec vector = {.iov_base = (void *)bytes, .iov_len = size};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1};
    if (pass_fd >= 0) {
        message.msg_control = control.buffer;
        message.msg_controllen = sizeof control.buffer;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &pass_fd, sizeof(int));
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) return -1;
    if ((size_t)sent != size) {
        errno = EMSGSIZE;
        return -1;
    }
    return 0;
}

ssize_t webimage_isolation_receive(int socket, void *buffer, size_t capacity, int *received_fd) {
    *received_fd = -1;
    struct iovec vector = {.iov_base = buffer, .iov_len = capacity};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {
        .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.buffer, .msg_controllen = sizeof control.buffer};
    ssize_t received;
    do {
        received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS &&
            header->cmsg_len >= CMSG_LEN(sizeof(int))) {
            memcpy(received_fd, CMSG_DATA(header), sizeof(int));
        }
    }
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        if (*received_fd >= 0) close(*received_fd);
        *received_fd = -1;
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}

static int64_t monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/** poll() of `pollers` until one is ready or `timeout_ms` (negative: none) passed, through EINTR. */
static int poll_until(struct pollfd *pollers, nfds_t count, int timeout_ms) {
    int64_t deadline = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;
    for (;;) {
        int remaining = -1;
        if (deadline >= 0) {
            int64_t left = deadline - monotonic_ms();
            remaining = left < 0 ? 0 : (int)left;
        }
        int ready = poll(pollers, count, remaining);
        if (ready >= 0 || errno != EINTR) return ready;
    }
}

int webimage_isolation_name_thread(const char *name) { return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }

int webimage_isolation_wait_readable(int socket, int timeout_ms) {
    struct pollfd poller = {.fd = socket, .events = POLLIN};
    int ready = poll_until(&poller, 1, timeout_ms);
    return ready < 0 ? -1 : ready > 0 ? 1 : 0;
}

int webimage_isolation_wait_either(int first, int second, int timeout_ms) {
    struct pollfd pollers[2] = {{.fd = first, .events = POLLIN}, {.fd = second, .events = POLLIN}};
    if (poll_until(pollers, 2, timeout_ms) < 0) return -1;
    return (pollers[0].revents != 0 ? 1 : 0) | (pollers[1].revents != 0 ? 2 : 0);
}

pid_t webimage_isolation_spawn(const char *path, char *const *arguments, char *const *environment, int socket_fd,
                               int output_fd) {
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    int failed = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) ||
                 posix_spawn_file_actions_adddup2(&actions, output_fd, 1) ||
                 posix_spawn_file_actions_adddup2(&actions, output_fd, 2) ||
                 posix_spawn_file_actions_adddup2(&actions, socket_fd, WEBIMAGE_WORKER_SOCKET_FD);
    pid_t child = -1;
    int status = failed ? EINVAL : posix_spawn(&child, path, &actions, NULL, arguments, environment);
    posix_spawn_file_actions_destroy(&actions);
    if (status != 0) {
        errno = status;
        return -1;
    }
    return child;
}

int webimage_isolation_memfd(const char *name, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

void webimage_isolation_worker_setup(pid_t expected_parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != expected_parent) _exit(111);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
}

const char *webimage_isolation_signal_name(int signal, char *buffer, size_t capacity) {
    const char *abbreviation = sigabbrev_np(signal);
    if (abbreviation != NULL) snprintf(buffer, capacity, "SIG%s", abbreviation);
    else snprintf(buffer, capacity, "signal %d", signal);
    return buffer;
}
