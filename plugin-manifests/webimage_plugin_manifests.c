/* The target's one source file: SwiftPM needs one; the target's content is its resources. */
#include "webimage_plugin_manifests.h"
