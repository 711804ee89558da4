/*
 * webimage_plugin_manifests.h — the bundled plugins' manifests travel with a SwiftPM build as
 * the resources of the `WebImagePluginManifests` target: SwiftPM copies them into a
 * `<package>_WebImagePluginManifests.resources` folder beside the executables and the
 * `libWebImage*.so` plugin products it builds, where WebImageCore's
 * `PluginSearchPath.application` finds them. `make install` copies the same files into
 * `lib/webimage/plugins` instead.
 *
 * The target is written in C, with no code, so that it needs no Foundation: SwiftPM gives a
 * Swift target with resources an accessor that imports Foundation, which every module that
 * imports the target would then load and link.
 */
#ifndef WEBIMAGE_PLUGIN_MANIFESTS_H
#define WEBIMAGE_PLUGIN_MANIFESTS_H

/* How the name of the resource folder SwiftPM makes ends (the package name comes first). */
#define WEBIMAGE_PLUGIN_MANIFESTS_FOLDER_SUFFIX "_WebImagePluginManifests.resources"

#endif
