# Sourced, not run: `. scripts/release-flags.sh; release_flags_for SCRATCH_PATH` sets the array
# `release_flags`: the `swift build` flags of Ferry's release binary, built in SwiftPM's build
# folder SCRATCH_PATH (it holds the linker script below; pass --scratch-path yourself unless it is
# .build). It is the binary users install (scripts/install.sh), the benchmarks measure
# (Benchmarks/run.sh) and the tests run against a second time (scripts/test.sh). Each flag is there for the memory it saves (Benchmarks/RESULTS.md,
# "Footprint: the linker"):
#   -static-stdlib          the Swift runtime and FoundationEssentials linked in: one file, no
#                           libswift*.so to find, no ICU;
#   --no-export-dynamic     the static runtime's link arguments export every symbol of the binary
#                           (37,000), which the loader would search for each symbol of libc;
#   lld, pack-relative-relocs  the 93,000 relative relocations of a position-independent binary
#                           as a 18 KB bitmap (DT_RELR, glibc 2.36) instead of a 2.2 MB table
#                           read at every start; gold, the toolchain's default, cannot;
#   libstdc++ statically    only the members the runtime uses, instead of libstdc++.so, whose
#                           symbol tables the loader reads at every start: the runtime's own link
#                           arguments ask for -lstdc++, so a folder holding a linker script named
#                           libstdc++.so that names the archive is searched first.
release_flags_for() {
    local scratch toolchain archive
    scratch="$(mkdir -p "$1" && cd "$1" && pwd)" || return 1
    toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
    archive="$("$toolchain/clang" -print-file-name=libstdc++.a)"
    if [ ! -f "$archive" ]; then
        echo "release-flags.sh: no libstdc++.a for the release link (Debian: apt-get install libstdc++-12-dev)" >&2
        return 1
    fi
    mkdir -p "$scratch/static-libstdc++"
    echo "INPUT($archive)" > "$scratch/static-libstdc++/libstdc++.so"
    release_flags=(-c release -Xswiftc -static-stdlib -Xswiftc -use-ld=lld
        -Xlinker --no-export-dynamic -Xlinker -z -Xlinker pack-relative-relocs
        -Xlinker -L -Xlinker "$scratch/static-libstdc++")
}
