#!/usr/bin/env python3
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
"""Sorts sanitizer reports into ours and stock's (make check's sanitizer pass,
tests/asan/check-asan.sh).

A report is the text of one AddressSanitizer error or one UndefinedBehavior-
Sanitizer "runtime error" with its stack, found in the files of the folders
given (the sanitizers' log files, and the test logs: under mpirun the reports
reach the ranks' standard error).  Its place is its first frame in the Open MPI
tree (the build tree's openmpi-5.0.7/) or in tests/: ours when that file is one
of this repository's (the overlay, a test) or one that patches/ touches,
stock's otherwise; a report with no such frame is stock's (UCX, libfabric, the
C library).  UBSan names the file as it was compiled, often without its
folder or from a folder of the build (../../ompi/...): the file of ours, or
else of stock, whose path ends with it.  Reports with the same kind and place
are counted once.  Exit 1 when any report is ours.
"""

import argparse
import os
import re
import subprocess
import sys
from collections import OrderedDict

FRAME = re.compile(r'^\s*#\d+ 0x[0-9a-f]+ in (\S+) (\S+?):(\d+)(?::\d+)?\s*$')
ASAN_HEAD = re.compile(r'ERROR: AddressSanitizer: (\S+)')
UBSAN_HEAD = re.compile(r'^(\S+?):(\d+):\d+: runtime error: (.*)$')


def repo_files(root):
    out = subprocess.run(['git', '-C', root, 'ls-files'], capture_output=True, text=True,
                         check=False).stdout
    return set(out.split())


def relative(path, tree, root):
    path = os.path.normpath(path)
    for base in (tree, root):
        base = os.path.normpath(base) + os.sep
        if path.startswith(base):
            return path[len(base):]
    return None


def split_reports(text):
    """One report per ASan error or UBSan runtime error."""
    reports, current = [], []
    for line in text.splitlines():
        if ASAN_HEAD.search(line) or UBSAN_HEAD.match(line):
            if current:
                reports.append(current)
            current = [line]
        elif current:
            current.append(line)
    if current:
        reports.append(current)
    return reports


def tree_files(tree):
    out = set()
    for top, _, names in os.walk(tree):
        for n in names:
            if n.endswith(('.c', '.h', '.cc', '.inl')):
                out.add(os.path.relpath(os.path.join(top, n), tree))
    return out


def resolve(path, tree, root, ours, stock):
    """The tree path of a file named as compiled (absolute, or relative to
    its folder of the build), or None outside the tree.  A name that files
    of ours and stock files both end with resolves to ours: such a report
    fails the run, and a person looks."""
    if os.path.isabs(path):
        return relative(path, tree, root)
    # a header found from the compiled file's folder (../../../ompi/...):
    # its path below the tree follows the leading ../
    path = os.path.normpath(path)
    while path.startswith('..' + os.sep):
        path = path[3:]
    for files in (ours, stock):
        ends = sorted(f for f in files if f == path or f.endswith(os.sep + path))
        if ends:
            return ends[0]
    return None


def place(report, tree, root, ours, stock):
    head = UBSAN_HEAD.match(report[0])
    candidates = []
    if head:
        candidates.append(('', head.group(1), head.group(2)))
    for line in report[1:]:
        m = FRAME.match(line)
        if m:
            candidates.append((m.group(1), m.group(2), m.group(3)))
    for func, path, lineno in candidates:
        rel = resolve(path, tree, root, ours, stock)
        if rel is not None:
            return func, rel, lineno
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--tree', required=True)
    ap.add_argument('--patched', required=True)
    ap.add_argument('folders', nargs='+')
    args = ap.parse_args()
    args.root, args.tree = os.path.abspath(args.root), os.path.abspath(args.tree)

    ours_files = repo_files(args.root)
    if os.path.exists(args.patched):
        with open(args.patched) as f:
            ours_files |= set(line.strip() for line in f if line.strip())
    stock_files = tree_files(args.tree) - ours_files

    seen = OrderedDict()
    files = []
    for folder in args.folders:
        if os.path.isdir(folder):
            files += [os.path.join(folder, n) for n in sorted(os.listdir(folder))
                      if os.path.isfile(os.path.join(folder, n))]
    for path in files:
        name = os.path.basename(path)
        with open(path, errors='replace') as f:
            text = f.read().replace('\0', '')
        # sanitizer logs are asan.PROGRAM.PID, test logs NAME.TRANSPORT...
        program = name.split('.')[1] if name.startswith(('asan.', 'ubsan.')) else name
        for report in split_reports(text):
            asan = ASAN_HEAD.search(report[0])
            kind = asan.group(1) if asan else UBSAN_HEAD.match(report[0]).group(3)
            # one defect at other addresses is one report
            kind = re.sub(r'0x[0-9a-f]+', '0x...', kind)
            where = place(report, args.tree, args.root, ours_files, stock_files)
            if where is None:
                owner, at = 'stock', 'outside Open MPI'
            else:
                func, rel, lineno = where
                owner = 'ours' if rel in ours_files or rel.startswith('tests/') else 'stock'
                at = '%s:%s%s' % (rel, lineno, ' (%s)' % func if func else '')
            key = (owner, kind, at)
            if key not in seen:
                seen[key] = [0, program]
            seen[key][0] += 1

    ours = 0
    for (owner, kind, at), (count, program) in seen.items():
        print('sanitizer report, %s: %s at %s (%d time(s), first in %s)'
              % (owner, kind, at, count, program))
        ours += owner == 'ours'
    print('sanitizer reports: %d in our code, %d in stock code' % (ours, len(seen) - ours))
    return 1 if ours else 0


if __name__ == '__main__':
    sys.exit(main())
