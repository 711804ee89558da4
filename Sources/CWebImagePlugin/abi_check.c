/* Compiles the ABI header on its own so that a header error shows up in this target. */
#include "webimage_plugin.h"

_Static_assert(sizeof(webimage_error) == 2 * sizeof(void *), "webimage_error layout");
_Static_assert(offsetof(webimage_plugin_descriptor, struct_size) == 4,
               "descriptor starts with abi_version, struct_size");
