/*
 * reference_error.h — the per-thread "last error" message behind reference_last_error().
 * Private to the CReferenceDecoders target.
 */
#ifndef REFERENCE_ERROR_H
#define REFERENCE_ERROR_H

/** Records `message` (prefixed with `origin`, e.g. "libpng") and returns `code`. */
int reference_fail(int code, const char *origin, const char *message);

#endif /* REFERENCE_ERROR_H */
