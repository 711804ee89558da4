#!/bin/sh
# Builds the APNG fuzzer: the package's PNGCoder target (and WebImageCoding, all it depends on) with
# libFuzzer and AddressSanitizer instrumentation, then this harness linked against it.
# Usage from the repository root: sh Tests/Fuzz/APNGFuzz/build.sh [output]
set -eu
output=${1:-/tmp/apng_fuzz}
swift build --scratch-path .build-fuzz --target PNGCoder -Xswiftc -sanitize=fuzzer,address \
  -Xcc -fsanitize=fuzzer-no-link,address
build=.build-fuzz/debug
objects=$(find "$build/PNGCoder.build" "$build/CPNGShim.build" "$build/WebImageCoding.build" \
  "$build/CWebImagePlugin.build" -name '*.o')
swiftc -sanitize=fuzzer,address -use-ld=lld -parse-as-library -I "$build/Modules" \
  -Xcc "-fmodule-map-file=$build/CPNGShim.build/module.modulemap" \
  -Xcc "-fmodule-map-file=$build/CWebImagePlugin.build/module.modulemap" -Xcc -ISources/CWebImagePlugin/include \
  Tests/Fuzz/APNGFuzz/APNGFuzz.swift $objects -lpng16 -lz -ldeflate -o "$output"
echo "built $output"
