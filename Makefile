# WebImage: build, test, install and demo. `make demo` and `make test` are the README's quick start.

SWIFT ?= swift
# Where `make install` puts bin/, lib/ and include/ (default: a local prefix in out/).
PREFIX ?= $(CURDIR)/out/prefix
# Debian packages the build, the tests, the install and the benchmark scripts (curl, wrk) need.
DEBIAN_PACKAGES := libpng-dev libjpeg62-turbo-dev zlib1g-dev libdeflate-dev libgif-dev libwebp-dev libheif-dev pkg-config gcc libjpeg-turbo-progs libheif-examples python3 patchelf binutils clang-format libssl-dev libxxhash-dev libhiredis-dev redis-server libcurl4-openssl-dev nginx openssl curl iproute2 chromium wrk
# The Swift runtime libraries the toolchain links against.
SWIFT_RUNTIME_DIR := $(shell dirname $$(dirname $$(readlink -f $$(command -v $(SWIFT)))))/lib/swift/linux
# The plugin products (each builds lib<product>.so).
PLUGIN_PRODUCTS := WebImagePNG WebImageJPEG WebImageGIF WebImageWebP WebImageHEIF WebImageDisk WebImageMemory WebImageRedis WebImageCurl
PLUGIN_LIBRARIES := $(PLUGIN_PRODUCTS:%=lib%.so)
# The executables `make install` puts in bin/: the tool, the image server it runs for `serve` and `sign`,
# the benchmark that links the C reference decoders, and the worker process isolated plugins run in
# (each found next to the running executable).
EXECUTABLES := webimage webimage-serve webimage-bench webimage-plugin-worker
DEMO_OUTPUT := $(CURDIR)/out/demo

.PHONY: all deps build test tsan fuzz-smoke check-install install demo bench format clean

all: build

## deps: installs the Debian packages that are missing (as root, or with sudo)
deps:
	@missing=""; \
	for package in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

## build: debug build of everything, tests included
build: deps
	$(SWIFT) build --build-tests

## test: every Swift test suite, then the install check (pkg-config, relocatable prefix)
test: build
	$(SWIFT) test
	$(MAKE) --no-print-directory check-install

check-install:
	sh Tests/Install/check-install.sh

## tsan: every target (the plugins too) built with ThreadSanitizer in .build-tsan, then every test
## suite run under it; fails on a failing test or on any TSan report of any process. The executables
## export the TSan entry points (Tests/Sanitizers/tsan-exported-symbols.list) so that the
## instrumented plugins can be opened.
TSAN_FLAGS := --sanitize=thread --scratch-path $(CURDIR)/.build-tsan \
	-Xlinker --dynamic-list=$(CURDIR)/Tests/Sanitizers/tsan-exported-symbols.list
# TSan's own handlers would turn a plugin's SIGSEGV in a worker into exit status 66, where the
# crash-isolation tests expect the signal; a crash still ends the process that has it.
TSAN_RUNTIME_OPTIONS := handle_segv=0 handle_sigbus=0 handle_sigfpe=0 handle_sigill=0
# Every instrumented process of the run (the test runner, webimage, the plugin workers, the disk
# cache writer) writes its reports to $(TSAN_REPORTS)/report.<pid>, not to its standard error: a
# report in a child whose exit status or output no test looks at fails the run too.
TSAN_REPORTS := $(CURDIR)/.build-tsan/reports
# The tests' hang-check bounds are this many times longer under TSan (HangBound in
# Tests/WebImageTestSupport); a bound only ends a wait that fails anyway.
TSAN_TIME_SCALE ?= 5
tsan: deps
	$(SWIFT) build --build-tests $(TSAN_FLAGS)
	@rm -rf $(TSAN_REPORTS) && mkdir -p $(TSAN_REPORTS)
	@TSAN_OPTIONS="$(TSAN_RUNTIME_OPTIONS) log_path=$(TSAN_REPORTS)/report $$TSAN_OPTIONS" \
	  WEBIMAGE_TEST_TIME_SCALE=$(TSAN_TIME_SCALE) $(SWIFT) test --skip-build $(TSAN_FLAGS); status=$$?; \
	if [ -n "$$(ls $(TSAN_REPORTS))" ]; then \
	  cat $(TSAN_REPORTS)/*; \
	  echo "make tsan: ThreadSanitizer reports: $$(cat $(TSAN_REPORTS)/* | grep -c '^WARNING: ThreadSanitizer'), processes with a report: $$(ls $(TSAN_REPORTS) | wc -l) (kept in $(TSAN_REPORTS))"; \
	  exit 1; \
	fi; \
	exit $$status

## fuzz-smoke: builds every libFuzzer harness of Tests/Fuzz (.build-fuzz) and runs each for
## FUZZ_SECONDS (default 15) on its committed seeds and fixtures; fails on any finding
FUZZ_SECONDS ?= 15
fuzz-smoke: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh Tests/Fuzz/fuzz-smoke.sh

## install: release build into $(PREFIX), relocatable (RUNPATHs relative to $$ORIGIN); bin/ gets
## webimage, webimage-serve (the image server, run by `webimage serve` and `webimage sign`), webimage-bench
## (the benchmark with the C reference decoders, run by `bench decode --reference`) and
## webimage-plugin-worker (the process isolated plugins run in)
install: deps
	for executable in $(EXECUTABLES); do $(SWIFT) build -c release --product $$executable || exit 1; done
	for product in $(PLUGIN_PRODUCTS); do $(SWIFT) build -c release --product $$product || exit 1; done
	@set -e; \
	bin=$$($(SWIFT) build -c release --show-bin-path); \
	plugins="$(PREFIX)/lib/webimage/plugins"; runtime="$(PREFIX)/lib/webimage/swift"; \
	install -d "$(PREFIX)/bin" "$$plugins" "$$runtime" "$(PREFIX)/include/webimage" "$(PREFIX)/lib/pkgconfig"; \
	for executable in $(EXECUTABLES); do install -m 755 "$$bin/$$executable" "$(PREFIX)/bin/$$executable"; done; \
	for library in $(PLUGIN_LIBRARIES); do install -m 755 "$$bin/$$library" "$$plugins/$$library"; done; \
	install -m 644 plugin-manifests/*.json "$$plugins/"; \
	for library in $$(ldd $(EXECUTABLES:%="$(PREFIX)/bin/%") $$(for l in $(PLUGIN_LIBRARIES); do echo "$$plugins/$$l"; done) \
	    | awk -v dir="$(SWIFT_RUNTIME_DIR)/" 'index($$3, dir) == 1 { print $$3 }' | sort -u); do \
	  install -m 644 "$$library" "$$runtime/"; \
	  patchelf --set-rpath '$$ORIGIN' "$$runtime/$$(basename $$library)"; \
	done; \
	for executable in $(EXECUTABLES); do patchelf --set-rpath '$$ORIGIN/../lib/webimage/swift' "$(PREFIX)/bin/$$executable"; done; \
	for library in $(PLUGIN_LIBRARIES); do patchelf --set-rpath '$$ORIGIN/../swift' "$$plugins/$$library"; done; \
	install -m 644 Sources/CWebImagePlugin/include/webimage_plugin.h Sources/CWebImagePlugin/include/webimage_output_buffer.h "$(PREFIX)/include/webimage/"; \
	sed 's/@VERSION@/1.0.0/' Sources/CWebImagePlugin/webimage-plugin.pc.in > "$(PREFIX)/lib/pkgconfig/webimage-plugin.pc"; \
	echo "Installed WebImage into $(PREFIX)"

## demo: installs into out/prefix, lists the plugins, thumbnails the sample images (animations stay animated), then
## runs the image manager against a local nginx serving a copy of the samples (Examples/ManagerDemo/run-demo.sh)
demo: install
	@set -e; \
	echo; echo "== $(PREFIX)/bin/webimage plugins list   (found with no flags, next to the executable)"; \
	"$(PREFIX)/bin/webimage" plugins list; \
	mkdir -p "$(DEMO_OUTPUT)"; \
	for image in Examples/sample-images/*.jpg Examples/sample-images/*.png; do \
	  name=$$(basename "$$image"); stem=$${name%.*}; \
	  echo; echo "== webimage info $$image"; \
	  "$(PREFIX)/bin/webimage" info "$$image"; \
	  echo "== webimage convert $$image $(DEMO_OUTPUT)/$$stem-thumbnail.png --thumbnail 200x200"; \
	  "$(PREFIX)/bin/webimage" convert "$$image" "$(DEMO_OUTPUT)/$$stem-thumbnail.png" --thumbnail 200x200; \
	done; \
	for image in Examples/sample-images/*.gif; do \
	  name=$$(basename "$$image"); stem=$${name%.*}; \
	  echo; echo "== webimage info $$image"; \
	  "$(PREFIX)/bin/webimage" info "$$image"; \
	  echo "== webimage convert $$image $(DEMO_OUTPUT)/$$stem-thumbnail.webp --thumbnail 160x160   (stays animated)"; \
	  "$(PREFIX)/bin/webimage" convert "$$image" "$(DEMO_OUTPUT)/$$stem-thumbnail.webp" --thumbnail 160x160; \
	done; \
	echo; echo "Thumbnails are in $(DEMO_OUTPUT)"; \
	echo; echo "== The image manager: prefetch, then get twice (network, then cache) with a thumbnail and a transformation"; \
	sh Examples/ManagerDemo/run-demo.sh "$(PREFIX)/bin/webimage" Examples/sample-images

## bench: decode benchmarks on a make-corpus.sh corpus (CORPUS=dir, EXTRA=dir with the 640x480 and
## 4000x3000 PNGs of docs/performance.md), plugin and raw C library interleaved in one run
CORPUS ?= /tmp/bench-corpus
EXTRA ?= /tmp/bench-extra
ITERATIONS ?= 30
bench: install
	@set -e; webimage="$(PREFIX)/bin/webimage"; \
	run() { printf '%s %s\n' "$$1" "$$2"; shift 2; "$$webimage" bench decode "$$@" --iterations $(ITERATIONS) --reference \
	  | grep -E '^(plugin|reference|plugin/reference):'; }; \
	for size in 640x480 1920x1080 4000x3000; do \
	  for kind in baseline progressive; do run JPEG "$$size $$kind" $(CORPUS)/jpeg/kleiber-$$size-q85-$$kind.jpg; done; \
	done; \
	run JPEG "4000x3000 baseline thumbnail 256" $(CORPUS)/jpeg/kleiber-4000x3000-q85-baseline.jpg --thumbnail 256x256; \
	for kind in rgb8 rgba8 palette rgb16 rgb8-adam7; do \
	  run PNG "1920x1080 $$kind" $(CORPUS)/png/kleiber-1920x1080-$$kind.png; \
	  run PNG "1920x1080 $$kind (vs png_image)" $(CORPUS)/png/kleiber-1920x1080-$$kind.png --reference-api simplified; \
	done; \
	for size in 640x480 4000x3000; do run PNG "$$size rgb8" $(EXTRA)/kleiber-$$size-rgb8.png; done

## format: formats every Swift file with the toolchain's swift format and every C file with clang-format (.clang-format)
format:
	$(SWIFT) format -i -r Package.swift Sources Plugins Tests
	find Plugins Sources Examples Tests -name '*.[ch]' -exec clang-format -i {} +

clean:
	rm -rf .build out
