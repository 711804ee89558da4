# Where a benchmark script finds the executables and the plugin libraries it runs (sourced,
# not run): an install's when PREFIX is set (`make install PREFIX=...`), else the release
# build's (`swift build -c release`, run from ROOT).
#
#   root=...                              # the repository
#   . Tests/Benchmarks/release-paths.sh   # sets bin (the executables) and plugins (the plugin .so files)
if [ -n "${PREFIX:-}" ]; then
  bin="$PREFIX/bin"
  plugins="$PREFIX/lib/webimage/plugins"
else
  bin=$(cd "$root" && swift build -c release --show-bin-path)
  plugins="$bin"
fi
