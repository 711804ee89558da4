/*
 * webimage_isolation.h — the system calls the plugin isolation needs that Swift cannot
 * express directly (control messages carrying file descriptors, posix_spawn file actions,
 * memfd, prctl). Used by WebImageCore's host side and by the plugin worker; not part of the
 * plugin ABI.
 */
#ifndef WEBIMAGE_ISOLATION_H
#define WEBIMAGE_ISOLATION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The descriptor the worker finds its end of the socket pair on. */
#define WEBIMAGE_WORKER_SOCKET_FD 3

/* Creates a SOCK_SEQPACKET socket pair with close-on-exec set on both ends; 0 or -1 (errno). */
int webimage_isolation_socketpair(int sockets[_Nonnull 2]);

/* Creates a pipe with close-on-exec set on both ends; 0 or -1 (errno). */
int webimage_isolation_pipe(int fds[_Nonnull 2]);

/* Names the calling thread (prctl PR_SET_NAME: the first 15 bytes are kept); 0 or -1 (errno). */
int webimage_isolation_name_thread(const char *_Nonnull name);

/*
 * Sends one message of `size` bytes, with the descriptor `pass_fd` attached when it is not -1.
 * Retries on EINTR. Returns 0, or -1 with errno set.
 */
int webimage_isolation_send(int socket, const void *_Nonnull bytes, size_t size, int pass_fd);

/*
 * Receives one message into `buffer` (at most `capacity` bytes) and the descriptor attached to
 * it, if any, into `*received_fd` (-1 when none; close-on-exec set). Retries on EINTR. Returns
 * the message size, 0 when the peer closed the socket, or -1 with errno set (EMSGSIZE when the
 * message was longer than `capacity`).
 */
ssize_t webimage_isolation_receive(int socket, void *_Nonnull buffer, size_t capacity, int *_Nonnull received_fd);

/*
 * Waits until `socket` is readable or closed, at most `timeout_ms` milliseconds (-1 = forever).
 * Returns 1 when readable or closed, 0 on timeout, -1 with errno set. Retries on EINTR with the
 * remaining time.
 */
int webimage_isolation_wait_readable(int socket, int timeout_ms);

/*
 * Waits until `first` or `second` (ignored when negative) is readable or closed, at most
 * `timeout_ms` milliseconds (-1 = forever). Returns a bit set: 1 for `first`, 2 for `second`;
 * 0 on timeout; -1 with errno set. Retries on EINTR with the remaining time.
 */
int webimage_isolation_wait_either(int first, int second, int timeout_ms);

/*
 * Starts `path` with `arguments` and `environment` (both NULL-terminated): the child's
 * standard input is /dev/null, its standard output and error are `output_fd`, and `socket_fd`
 * becomes WEBIMAGE_WORKER_SOCKET_FD. Every other descriptor is close-on-exec in this library's
 * use. Returns the child's pid, or -1 with errno set.
 */
pid_t webimage_isolation_spawn(const char *_Nonnull path, char *_Nullable const *_Nonnull arguments,
                               char *_Nullable const *_Nonnull environment, int socket_fd, int output_fd);

/* An anonymous shared-memory file of `size` bytes (memfd, close-on-exec); -1 with errno set. */
int webimage_isolation_memfd(const char *_Nonnull name, size_t size);

/*
 * What the worker does first: dies with SIGKILL when its parent dies, writes no core file,
 * and exits at once when its parent is already gone (the parent's pid was `expected_parent`).
 */
void webimage_isolation_worker_setup(pid_t expected_parent);

/* The signal's name, such as "SIGSEGV", or "signal N" for one without a common name. */
const char *_Nonnull webimage_isolation_signal_name(int signal, char *_Nonnull buffer, size_t capacity);

#endif
