#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Prints, on one line, the Debian archive URIs that this machine's apt
# sources already use for the main suites (deb822 .sources files and
# one-line .list files; security suites left out), so that the fetch
# scripts can make deb-src entries without writing a host name anywhere.
# Fails when it finds none.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

debian_uris() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk 'BEGIN { RS = ""; FS = "\n" }
             {
                 types = ""; uris = ""; suites = ""
                 for (i = 1; i <= NF; i++) {
                     if ($i ~ /^Types:/)  { types = $i }
                     if ($i ~ /^URIs:/)   { uris = $i }
                     if ($i ~ /^Suites:/) { suites = $i }
                 }
                 if (types ~ /deb/ && suites !~ /-security/ && uris != "") {
                     sub(/^URIs:[ \t]*/, "", uris); print uris
                 }
             }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk '$1 == "deb" || $1 == "deb-src" {
                 for (i = 2; i <= NF; i++) { if ($i !~ /^\[/ && $i !~ /\]$/) { break } }
                 if ($(i + 1) !~ /-security/ && $i ~ /debian\/?$/) { print $i }
             }' "$f"
    done
}

uris=$(debian_uris | tr ' ' '\n' | grep -E '/debian/?$' | sort -u | paste -sd' ' || true)
[ -n "$uris" ] || die "found no Debian archive URI in /etc/apt sources"
echo "$uris"
