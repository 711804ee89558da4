#!/bin/sh
# `make fuzz-smoke`: builds every libFuzzer harness of Tests/Fuzz (into .build-fuzz) and runs
# each for FUZZ_SECONDS seconds (default 15) on its seed corpus: the harness's committed
# seeds/ folder (regression inputs) and the Tests/Fixtures folders of its format. New inputs
# go to a temporary folder, so the committed corpus never changes.
#
# Any crash, sanitizer report (ASan, UBSan), leak (but those of Debian's libraries listed in
# Tests/Fuzz/lsan-suppressions.txt), input taking more than 10 s or run above 2 GB fails the run; the input is kept in .build-fuzz/findings/ and the harness's log in
# .build-fuzz/logs/. Replay an input with `.build-fuzz/harnesses/<harness> <file>`.
#
# Needs clang with libFuzzer (the Swift toolchain's; CLANG=... to choose another).
set -eu
cd "$(dirname "$0")/../.."
seconds=${FUZZ_SECONDS:-15}
clang=${CLANG:-clang}
harnesses=.build-fuzz/harnesses
findings=.build-fuzz/findings
logs=.build-fuzz/logs
mkdir -p "$harnesses" "$findings" "$logs"
started=$(date +%s)

# build_c NAME SOURCES-AND-FLAGS...: one C harness with libFuzzer, ASan and UBSan (UB fails the
# run), linked with lld (gold warns about every ASan symbol it cannot export).
build_c() {
  name=$1
  shift
  echo "fuzz-smoke: building $name"
  "$clang" -g -O1 -fuse-ld=lld -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I Sources/CWebImagePlugin/include "$@" -o "$harnesses/$name"
}

build_c gif_fuzz -I Plugins/GIFCoder/Shim/include Tests/Fuzz/GIFFuzz/gif_fuzz.c \
  Plugins/GIFCoder/Shim/*.c Plugins/GIFCoder/Shim/LZWDecoder/*.c -lgif
build_c heif_fuzz -I Plugins/HEIFCoder/Shim/include Tests/Fuzz/HEIFFuzz/heif_fuzz.c \
  Plugins/HEIFCoder/Shim/*.c Plugins/HEIFCoder/Shim/HEVCDecoder/*.c -lheif
build_c jpeg_dc_fuzz -I Plugins/JPEGCoder/Shim/include Tests/Fuzz/JPEGDCFuzz/jpeg_dc_fuzz.c \
  Plugins/JPEGCoder/Shim/*.c Plugins/JPEGCoder/Shim/DCDecoder/*.c -ljpeg -lpthread
build_c png_fast_fuzz -I Plugins/PNGCoder/Shim/include Tests/Fuzz/PNGFastFuzz/png_fast_fuzz.c \
  Plugins/PNGCoder/Shim/*.c Plugins/PNGCoder/Shim/DeflateFastPath/*.c -lpng16 -lz -ldeflate
build_c webp_fuzz -I Plugins/WebPCoder/Shim/include Tests/Fuzz/WebPFuzz/webp_fuzz.c \
  Plugins/WebPCoder/Shim/*.c -lwebp -lwebpdemux -lwebpmux
echo "fuzz-smoke: building apng_fuzz"
sh Tests/Fuzz/APNGFuzz/build.sh "$harnesses/apng_fuzz" > "$logs/apng_fuzz-build.log" 2>&1 ||
  { tail -n 30 "$logs/apng_fuzz-build.log"; exit 1; }
built=$(date +%s)

# run NAME HARNESS-FOLDER FIXTURE-FOLDERS -- EXTRA-FLAGS...: fuzzes NAME for $seconds seconds.
run() {
  name=$1
  seeds=Tests/Fuzz/$2/seeds
  shift 2
  corpus=$(mktemp -d)
  folders="$corpus $seeds"
  while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
    folders="$folders Tests/Fixtures/$1"
    shift
  done
  [ "$#" -gt 0 ] && shift
  # shellcheck disable=SC2086 # the folder list is split on purpose
  if LSAN_OPTIONS=suppressions=Tests/Fuzz/lsan-suppressions.txt "$harnesses/$name" $folders "$@" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$findings/$name-" -print_final_stats=1 > "$logs/$name.log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$name.log")
    echo "fuzz-smoke: $name ok, $runs runs in ${seconds} s"
    rm -rf "$corpus"
  else
    rm -rf "$corpus"
    tail -n 40 "$logs/$name.log"
    echo "fuzz-smoke: $name FAILED; input in $findings, log in $logs/$name.log" >&2
    exit 1
  fi
}

run gif_fuzz GIFFuzz gif -- -max_len=65536
run heif_fuzz HEIFFuzz heif -- -max_len=16384
run jpeg_dc_fuzz JPEGDCFuzz jpeg -- -max_len=65536
run png_fast_fuzz PNGFastFuzz png -- -max_len=65536
run webp_fuzz WebPFuzz webp -- -dict=Tests/Fuzz/WebPFuzz/webp.dict
run apng_fuzz APNGFuzz apng png -- -max_len=16384
finished=$(date +%s)
echo "fuzz-smoke: all harnesses ok (building $((built - started)) s, fuzzing $((finished - built)) s)"
