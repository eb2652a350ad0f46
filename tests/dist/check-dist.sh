#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The release check (make check-dist; not part of make check: it builds
# Open MPI from scratch, 15-25 min on 2 cores).  Builds the release tarball
# as a site would, with options other than the build driver's, and runs
# from that install:
#   - the tarball matches its .sha256;
#   - ./configure --with-queue --disable-mpi-fortran --with-pmix=internal
#     --with-prrte=internal --without-cuda --disable-oshmem, prefix in a
#     new temporary folder, then make install; make never re-runs the
#     autotools (the tarball was autogen'ed);
#   - examples/ring.c on 4 ranks and a matched ping-pong on 2
#     (tests/dist/match_pingpong.c);
#   - the version X.Y.Z of config/ompi_queue_version.m4 in ompi_info (its
#     own line and the ident string), in MPI_Get_library_version's string,
#     and as OMPI_QUEUE_VERSION_MAJOR/_MINOR/_RELEASE in the installed mpi.h;
#   - configure without --with-queue (configure only, in a second copy):
#     mpi.h then leaves OMPI_WANT_QUEUE at 0 and the version macros out.
# Prints "check-dist: PASSED ..." with the times, or "check-dist: FAILED".
#
# Usage: tests/dist/check-dist.sh [TARBALL]  (default: dist/ of this version)
# Environment: MAKE_JOBS (default: all cores), CHECK_DIST_KEEP=1 keeps the
# temporary folder.  ccache is used when installed, as by the build driver
# (CCACHE_DISABLE=1 builds without it).  Logs: build/check-dist/.

set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../contrib/queue/common.sh"

version=$(ompi_queue_version) || exit 1
major=${version%%.*}
rest=${version#*.}
minor=${rest%%.*}
release=${rest#*.}
name=openmpi-$OMPI_VERSION-queue-$version
tarball=$(realpath "${1:-$OMPI_QUEUE_ROOT/dist/$name.tar.bz2}")
ident=$OMPI_VERSION-queue-$version
logs=$OMPI_QUEUE_BUILD/check-dist
jobs=${MAKE_JOBS:-$(nproc)}
status=0
t_start=$SECONDS

fail() { echo "FAIL: $*"; status=1; }
finish() {
    local mins=$(( (SECONDS - t_start + 30) / 60 ))
    if [ "$status" = 0 ]; then
        echo "check-dist: PASSED in $mins min ($name; configure ${t_conf:-?} s, make install ${t_make:-?} s)"
    else
        echo "check-dist: FAILED after $mins min (logs: $logs)"
    fi
    exit $status
}

[ -f "$tarball" ] || { fail "no $tarball (make dist)"; finish; }
rm -rf "$logs"
mkdir -p "$logs"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-dist.XXXXXX")
if [ "${CHECK_DIST_KEEP:-0}" = "1" ]; then
    echo "keeping $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
if [ -f "$tarball.sha256" ]; then
    (cd "$(dirname "$tarball")" && sha256sum -c --quiet "$(basename "$tarball").sha256") \
        || { fail "$tarball does not match its .sha256"; finish; }
else
    fail "no $tarball.sha256"
fi
if [ -d /usr/lib/ccache ]; then
    export PATH=/usr/lib/ccache:$PATH
fi
if [ "$(id -u)" = "0" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# 1. configure and install, as a site does
echo "unpacking $(basename "$tarball") in $tmp"
tar -C "$tmp" -xjf "$tarball" || { fail "cannot unpack"; finish; }
src=$tmp/$name
prefix=$tmp/install
[ -x "$src/configure" ] || { fail "the tarball has no $name/configure"; finish; }
config_args=(--prefix="$prefix" --with-queue --disable-mpi-fortran --with-pmix=internal
             --with-prrte=internal --without-cuda --disable-oshmem)
echo "configure ${config_args[*]}"
t0=$SECONDS
(cd "$src" && ./configure "${config_args[@]}" > "$logs/configure.log" 2>&1) \
    || { tail -20 "$logs/configure.log"; fail "configure failed"; finish; }
t_conf=$((SECONDS - t0))
echo "make -j$jobs install (log: $logs/make.log)"
t0=$SECONDS
(cd "$src" && make -j"$jobs" install > "$logs/make.log" 2>&1) \
    || { grep -E -B2 -A6 'error:|Error [0-9]' "$logs/make.log" | tail -40; fail "make install failed"; finish; }
t_make=$((SECONDS - t0))
if grep -Eq "missing'? +(aclocal|automake|autoconf|autoheader)" "$logs/make.log"; then
    fail "make re-ran the autotools: $(grep -Em1 "missing'? +(aclocal|automake|autoconf|autoheader)" "$logs/make.log")"
fi

# 2. the fork's programs, from that install
run() {   # log-name nranks program
    timeout 180 "$prefix/bin/mpirun" --oversubscribe -n "$2" "$3" > "$logs/$1.log" 2>&1
}
"$prefix/bin/mpicc" -Wall -Werror -O2 -o "$tmp/ring" "$OMPI_QUEUE_ROOT/examples/ring.c" \
    || fail "examples/ring.c does not compile against the install"
"$prefix/bin/mpicc" -Wall -Werror -O2 -o "$tmp/match_pingpong" "$OMPI_QUEUE_ROOT/tests/dist/match_pingpong.c" \
    || fail "tests/dist/match_pingpong.c does not compile against the install"
if [ -x "$tmp/ring" ]; then
    if run ring 4 "$tmp/ring" && grep -q "ring: 4 ranks.*all data correct" "$logs/ring.log"; then
        grep "^ring:" "$logs/ring.log"
    else
        tail -15 "$logs/ring.log"; fail "ring on 4 ranks"
    fi
fi
if [ -x "$tmp/match_pingpong" ]; then
    if run match_pingpong 2 "$tmp/match_pingpong" && grep -q "^match_pingpong: OK" "$logs/match_pingpong.log"; then
        grep -E "^(match_pingpong|library|mpi.h):" "$logs/match_pingpong.log"
    else
        tail -15 "$logs/match_pingpong.log"; fail "matched ping-pong on 2 ranks"
    fi
    grep "^library: " "$logs/match_pingpong.log" | grep -qF "ident: $ident" \
        || fail "MPI_Get_library_version does not name $ident"
fi

# 3. the version where users and build systems look
"$prefix/bin/ompi_info" > "$logs/ompi_info.log" 2>&1 || fail "ompi_info exited non-zero"
grep -E "^ *(Ident string|Queued communication):" "$logs/ompi_info.log"
grep -Eq "^ *Queued communication: $version \(draft chapter 'Queued Communication'\)$" "$logs/ompi_info.log" \
    || fail "ompi_info has no line \"Queued communication: $version (draft chapter ...)\""
grep -Eq "^ *Ident string: $ident$" "$logs/ompi_info.log" \
    || fail "ompi_info's ident string is not $ident"
for m in "OMPI_QUEUE_VERSION_MAJOR $major" "OMPI_QUEUE_VERSION_MINOR $minor" \
         "OMPI_QUEUE_VERSION_RELEASE $release" "OMPI_QUEUE_VERSION \"$version\""; do
    grep -qxF "#define $m" "$prefix/include/mpi.h" || fail "the installed mpi.h has no \"#define $m\""
done

# 4. without --with-queue: configure only, in a second copy
echo "configure without --with-queue (configure only)"
mkdir -p "$tmp/stock"
tar -C "$tmp/stock" -xjf "$tarball"
(cd "$tmp/stock/$name" && ./configure --prefix="$tmp/stock/install" --disable-mpi-fortran \
     --with-pmix=internal --with-prrte=internal --without-cuda --disable-oshmem \
     > "$logs/configure-stock.log" 2>&1) \
    || { tail -20 "$logs/configure-stock.log"; fail "configure without --with-queue failed"; }
h=$tmp/stock/$name/ompi/include/mpi.h
if [ -f "$h" ]; then
    grep -qxF "#define OMPI_WANT_QUEUE 0" "$h" || fail "without --with-queue, mpi.h does not set OMPI_WANT_QUEUE to 0"
    grep -q "^#define OMPI_QUEUE_VERSION" "$h" && fail "without --with-queue, mpi.h defines the version macros"
    grep -qF "#define OPAL_IDENT_STRING \"$ident\"" "$tmp/stock/$name/opal/include/opal_config.h" \
        || fail "without --with-queue, the ident string is not $ident"
fi

finish
