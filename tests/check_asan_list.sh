#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The sanitizer pass of make check runs tests/asan/check.list: each of its
# lines must be a line of tests/tests.list (same test, same arguments) with
# some of that line's ranks and transports, so that the pass runs only
# cases that make check itself runs and knows.

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python3 - "$root/tests/tests.list" "$root/tests/asan/check.list" <<'PY'
import sys


def rows(path):
    out = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            name, ranks, transports, *args = line.split(None, 3)
            out.append((lineno, name, set(ranks.split(',')), set(transports.split(',')),
                        args[0].split() if args else []))
    return out


full = rows(sys.argv[1])
bad = 0
for lineno, name, ranks, transports, args in rows(sys.argv[2]):
    if not any(name == n and args == a and ranks <= r and transports <= t
               for _, n, r, t, a in full):
        print('FAIL: tests/asan/check.list:%d (%s %s) is not a case of tests/tests.list'
              % (lineno, name, ' '.join(args)))
        bad += 1
print('%s: %d line(s) of tests/asan/check.list not in tests/tests.list'
      % ('FAIL' if bad else 'OK', bad))
sys.exit(1 if bad else 0)
PY
