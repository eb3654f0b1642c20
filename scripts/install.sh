#!/usr/bin/env bash
# Installs Ferry for the current user (no root needed for a prefix the user owns):
#   scripts/install.sh [PREFIX]          # default ~/.local
#
#   PREFIX/bin/ferry                                  the release build, stripped, stamped with
#                                                     the commit (`ferry --version`)
#   PREFIX/share/man/man1/ferry.1, ferry.send.1 …     man pages generated from the commands' own
#                                                     help (swift-argument-parser's generate-manual)
#   PREFIX/share/bash-completion/completions/ferry    completions, from
#   PREFIX/share/zsh/site-functions/_ferry            `ferry --generate-completion-script SHELL`
#   PREFIX/share/fish/vendor_completions.d/ferry.fish
#   PREFIX/share/ferry/samples                        the demo's sample files (`ferry --demo`)
#
# Running it again replaces all of these. Environment:
#   FERRY_INSTALL_CONFIGURATION=debug   install the debug build instead of the release build (the
#                                       tests use it to reuse the build `swift build` already made)
#   FERRY_INSTALL_SCRATCH_PATH=DIR      SwiftPM's build folder (default .build)
#   FERRY_INSTALL_IGNORE_LOCK=1         do not wait for the build folder's lock: for a caller that
#                                       holds it while nothing builds (`swift test` holds it while
#                                       the tests run, so the install test would wait forever)
set -euo pipefail

fail() { echo "install.sh: $*" >&2; exit 1; }
say() { echo "install.sh: $*"; }

cd "$(dirname "$0")/.."
root="$(pwd)"
prefix="${1:-$HOME/.local}"
[ $# -le 1 ] || fail "usage: scripts/install.sh [PREFIX]"
configuration="${FERRY_INSTALL_CONFIGURATION:-release}"
case "$configuration" in
debug | release) ;;
*) fail "FERRY_INSTALL_CONFIGURATION must be debug or release, not '$configuration'" ;;
esac
scratch="${FERRY_INSTALL_SCRATCH_PATH:-$root/.build}"
package_flags=(--scratch-path "$scratch")
[ "${FERRY_INSTALL_IGNORE_LOCK:-}" != 1 ] || package_flags+=(--ignore-lock)
# A release build is linked as scripts/release-flags.sh says (the Swift runtime statically, with
# lld and packed relocations): a smaller, faster start.
if [ "$configuration" = debug ]; then
    swift_flags=(-c debug "${package_flags[@]}")
else
    . "$root/scripts/release-flags.sh"
    release_flags_for "$scratch" || fail "cannot set up the release link"
    swift_flags=("${release_flags[@]}" "${package_flags[@]}")
fi

mkdir -p "$prefix" || fail "cannot create $prefix"
prefix="$(cd "$prefix" && pwd)"
[ -w "$prefix" ] || fail "$prefix is not writable by $(id -un): choose a prefix you own (scripts/install.sh ~/.local)"

# 1. The binary.
say "building ferry ($configuration; a first build takes minutes)"
swift build "${swift_flags[@]}" --product ferry || fail "swift build failed"
bin_dir="$(swift build "${swift_flags[@]}" --show-bin-path)"
built="$bin_dir/ferry"
[ -x "$built" ] || fail "no binary at $built after the build"

mkdir -p "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
work="$(mktemp -d "$prefix/bin/.ferry-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp "$built" "$work/ferry"
strip="$(command -v strip || command -v llvm-strip || true)"
[ -n "$strip" ] || fail "neither strip nor llvm-strip found (Debian: apt-get install binutils)"
"$strip" --strip-all "$work/ferry" || fail "$strip failed on $work/ferry"

# The commit goes into the binary's stamp (see Sources/ferry/FerryVersion.swift): the field after
# `ferry-build-stamp:` is rewritten in place, at the same length.
describe=""
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    describe="$(git -C "$root" describe --always --dirty 2>/dev/null || true)"
fi
if [ -n "$describe" ] && ! command -v python3 >/dev/null; then
    say "warning: no python3 to stamp the commit into the binary; ferry --version will not name it"
elif [ -n "$describe" ]; then
    python3 - "$work/ferry" "$describe" <<'PY' || fail "cannot stamp the commit into the binary"
import sys
path, describe = sys.argv[1], sys.argv[2].encode()
prefix, suffix, width = b"ferry-build-stamp:", b":end-of-ferry-build-stamp", 64
blank = prefix + b"~" * width + suffix
data = bytearray(open(path, "rb").read())
count = data.count(blank)
if count != 1:
    sys.exit(f"install.sh: the stamp appears {count} times in {path}, expected once")
if len(describe) > width or b"~" in describe:
    sys.exit(f"install.sh: cannot stamp {describe!r}: more than {width} bytes, or holds '~'")
at = data.find(blank)
data[at:at + len(blank)] = prefix + describe.ljust(width, b"~") + suffix
open(path, "wb").write(data)
PY
fi
version="$("$work/ferry" --version)" || fail "the built binary does not run: $work/ferry --version failed"
if [ -n "$describe" ] && command -v python3 >/dev/null && [[ "$version" != *"($describe)" ]]; then
    fail "the stamped binary says '$version', not the commit $describe"
fi

# 2. Man pages: swift-argument-parser's generate-manual plugin reads the commands' help
# (`ferry --experimental-dump-help`). It builds the package's products first, in debug: the help
# is the same in either build, a debug build is there once `swift run ferry` or the tests ran,
# and the plugin cannot build its own Foundation tool with the release build's static runtime
# (its static link of Foundation fails), nor overwrite the static binary with a dynamic one.
# Dated by the commit, so pages do not change between runs.
date="$(git -C "$root" log -1 --format=%cs 2>/dev/null || date +%Y-%m-%d)"
say "generating the man pages"
plugin_log="$work/plugin.log"
touch "$work/plugin-started" # pages older than this are an earlier run's
if ! swift package "${package_flags[@]}" plugin generate-manual --configuration debug \
    --multi-page --date "$date" >"$plugin_log" 2>&1; then
    cat "$plugin_log" >&2
    fail "swift package plugin generate-manual failed"
fi
# The plugin says where it wrote: "Generated manual in 'file:///…/GenerateManual/outputs/ferry/'".
pages="$(sed -n "s|^Generated manual in '\(file://\)\{0,1\}\(.*/ferry\)/\{0,1\}'\$|\2|p" "$plugin_log" | tail -1)"
[ -n "$pages" ] && [ "$pages/ferry.1" -nt "$work/plugin-started" ] || { cat "$plugin_log" >&2; fail "the plugin made no ferry.1"; }
# Pages of an earlier install (a subcommand since removed) go; the plugin's folder may hold old ones.
rm -f "$prefix/share/man/man1/ferry.1" "$prefix/share/man/man1"/ferry.*.1
installed_pages=0
for page in "$pages"/ferry.1 "$pages"/ferry.*.1; do
    [ -f "$page" ] || continue
    [ "$page" -nt "$work/plugin-started" ] || continue # an older run's page in the plugin's folder
    install -m 644 "$page" "$prefix/share/man/man1/"
    installed_pages=$((installed_pages + 1))
done

# 3. Completions.
"$work/ferry" --generate-completion-script bash >"$work/ferry.bash"
"$work/ferry" --generate-completion-script zsh >"$work/_ferry"
"$work/ferry" --generate-completion-script fish >"$work/ferry.fish"
for file in ferry.bash _ferry ferry.fish; do
    [ -s "$work/$file" ] || fail "ferry --generate-completion-script wrote nothing for $file"
done
install -m 644 "$work/ferry.bash" "$prefix/share/bash-completion/completions/ferry"
install -m 644 "$work/_ferry" "$prefix/share/zsh/site-functions/_ferry"
install -m 644 "$work/ferry.fish" "$prefix/share/fish/vendor_completions.d/ferry.fish"

# 4. The demo's sample files (`ferry --demo` opens the browser on them): ferry looks for them in
# PREFIX/share/ferry/samples, beside its bin/. The MIME table is compiled in. Resource bundles and
# their links left by an earlier install (when SwiftPM's Bundle looked beside the binary) go.
for old in "$prefix/bin"/Ferry_*.resources "$prefix/share/ferry"/Ferry_*.resources; do
    [ -e "$old" ] || [ -L "$old" ] || continue
    rm -rf "$old"
done
mkdir -p "$prefix/share/ferry"
rm -rf "$prefix/share/ferry/samples.new"
cp -R "$root/Resources/samples" "$prefix/share/ferry/samples.new"
rm -rf "$prefix/share/ferry/samples"
mv "$prefix/share/ferry/samples.new" "$prefix/share/ferry/samples"
chmod -R u+rwX,go+rX,go-w "$prefix/share/ferry/samples"

# 5. The binary last, by rename: a running ferry keeps its old file, and a failed run above leaves
# the old install whole.
chmod 755 "$work/ferry"
mv -f "$work/ferry" "$prefix/bin/ferry"

size() { stat -c %s "$1" | awk '{ printf "%.1f MB (%d bytes)", $1 / 1e6, $1 }'; }
say "installed ferry $version ($configuration)"
say "  $prefix/bin/ferry: $(size "$prefix/bin/ferry") stripped; $(size "$built") as built"
say "  $installed_pages man pages in $prefix/share/man/man1 (man ferry, man ferry.send …)"
say "  completions for bash, zsh and fish under $prefix/share (bash-completion and fish look there for"
say "  ~/.local; zsh needs fpath+=($prefix/share/zsh/site-functions) before compinit unless it is /usr/local)"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) say "note: $prefix/bin is not on PATH" ;;
esac
