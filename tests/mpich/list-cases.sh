#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Prints the cases of tests/mpich/subset.txt, one a line, fields separated
# by tabs:
#   RUN   NAME  NP  DIR  PROGRAM  ENV  ARGS
# (ENV and ARGS space separated, "-" when none)
#   SKIP  NAME  NP  REASON
# NAME is DIR/PROGRAM, then [ARGS joined by commas] when the entry has
# arguments and {ENV joined by commas} when it sets variables.
#
# Usage: tests/mpich/list-cases.sh BUILD-DIR SOURCE-DIR
# (testlist.dtp is made by configure in BUILD-DIR; testlist is in either.)
# Environment: MPICH_TEST_MAXNP (default 4).

set -euo pipefail
obj=${1:?usage: list-cases.sh BUILD-DIR SOURCE-DIR}
src=${2:?usage: list-cases.sh BUILD-DIR SOURCE-DIR}
subset=$(dirname "${BASH_SOURCE[0]}")/subset.txt
maxnp=${MPICH_TEST_MAXNP:-4}

mapfile -t skips < <(awk '$1 == "skip" { $1 = ""; sub(/^ /, ""); print }' "$subset")

for d in $(awk '$1 == "dir" { print $2 }' "$subset"); do
    for f in testlist testlist.dtp; do
        if [ -f "$obj/$d/$f" ]; then
            echo "$d $obj/$d/$f"
        elif [ -f "$src/$d/$f" ]; then
            echo "$d $src/$d/$f"
        fi
    done
done | while read -r d list; do
    awk -v dir="$d" -v maxnp="$maxnp" '
        { sub(/#.*/, "") }
        NF == 0 { next }
        {
            prog = $1
            np = (NF >= 2 && $2 ~ /^[0-9]+$/) ? $2 + 0 : 2
            args = ""; env = ""; mem = ""
            for (i = 3; i <= NF; i++) {
                if ($i ~ /^arg=/) { a = substr($i, 5); args = args == "" ? a : args " " a }
                else if ($i ~ /^env=/) {
                    e = substr($i, 5)
                    if (e !~ /^MPIR_CVAR_/) env = env == "" ? e : env " " e
                }
                else if ($i ~ /^mem=/) mem = substr($i, 5)
            }
            if (np > maxnp) np = maxnp
            name = dir "/" prog
            if (args != "") { s = args; gsub(/ /, ",", s); name = name "[" s "]" }
            if (env != "")  { s = env;  gsub(/ /, ",", s); name = name "{" s "}" }
            if ((name SUBSEP np) in seen) next
            seen[name, np] = 1
            if (mem != "")
                printf "SKIP\t%s\t%d\tneeds %s GB (mem=)\n", name, np, mem
            else
                printf "RUN\t%s\t%d\t%s\t%s\t%s\t%s\n", name, np, dir, prog,
                       env == "" ? "-" : env, args == "" ? "-" : args
        }' "$list"
done | while IFS=$'\t' read -r kind name np rest; do
    # the skip patterns of subset.txt
    if [ "$kind" = RUN ]; then
        for s in "${skips[@]}"; do
            read -r pat pnp reason <<< "$s"
            # shellcheck disable=SC2053
            if [[ "$name" == $pat ]] && { [ "$pnp" = "*" ] || [ "$pnp" = "$np" ]; }; then
                kind=SKIP
                rest=$reason
                break
            fi
        done
    fi
    printf '%s\t%s\t%s\t%s\n' "$kind" "$name" "$np" "$rest"
done
