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
tests/asan/check-asan.sh, tests/tsan/check-tsan.sh).

A report is the text of one AddressSanitizer error, one UndefinedBehavior-
Sanitizer "runtime error" or one ThreadSanitizer warning with its stacks, found
in the files of the folders given (the sanitizers' log files, and the test logs:
under mpirun the reports reach the ranks' standard error).  Its place is its
first frame in the Open MPI tree (the build tree's openmpi-5.0.7/) or in tests/:
ours when that file is one of this repository's (the overlay, a test) or one
that patches/ touches, stock's otherwise; a report with no such frame is
stock's (UCX, libfabric, the C library).  A ThreadSanitizer report has a place
for each access it names (a data race: the two accesses; the stacks of where
a thread, a mutex or a heap block was made, and the sleep of "As if
synchronized via sleep", are not places) and is ours when
any of them is.  With --pristine (the release tarball), a frame in a file that
patches/ touches is ours only on a line the patches added or changed: the
other lines of such a file are stock code (ThreadSanitizer's reports of stock
races land on them, in the request and free-list code ob1 and cm share).
A ThreadSanitizer race on memory of an Open MPI free list (the heap block
allocated by opal_free_list_grow_st) with one access in stock code is stock's:
the list hands its items from thread to thread through opal_lifo, whose
compare-and-swap has no release order and relies on fences, which the
runtime does not model, so the last use of an item before its return and the
first after its next allocation look like a race.  UBSan names the file as it was compiled, often without its
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
# ThreadSanitizer: "#0 function file:line (module+0x...)"
TSAN_FRAME = re.compile(r'^\s*#\d+ (\S+) (\S+?):(\d+)(?::\d+)? \(\S+\)\s*$')
ASAN_HEAD = re.compile(r'ERROR: AddressSanitizer: (\S+)')
UBSAN_HEAD = re.compile(r'^(\S+?):(\d+):\d+: runtime error: (.*)$')
# a frame in Open MPI's libraries without a source line: stock code, which
# the passes leave uninstrumented and without debug information
TSAN_STOCK_FRAME = re.compile(r'^\s*#\d+ (\S+) <null> \(((?:libmpi|libopen-pal|libmpi_mpifh|mca_)[^+ ]*)'
                              r'\+0x[0-9a-f]+\)\s*$')
TSAN_HEAD = re.compile(r'WARNING: ThreadSanitizer: (.+?)(?: \(pid=\d+\))?\s*$')
TSAN_END = re.compile(r'^(SUMMARY: ThreadSanitizer|={18})')
# the stacks of a ThreadSanitizer report that are not accesses (where a
# thread, a mutex or the memory was made; the sleep from which the runtime
# guesses an order that it cannot see)
TSAN_CONTEXT = re.compile(r'^\s*(Thread T\d+ .*created|Mutex M\d+ .*created at|Location is'
                          r'|As if synchronized via sleep)')


def changed_lines(tarball, tree, patched):
    """For each file patches/ touches: the set of its lines (1-based, in the
    built tree) that differ from the release; None for a file the release
    lacks (all of it is ours)."""
    import difflib
    import tarfile
    out = dict((f, None) for f in patched)
    with tarfile.open(tarball) as tf:
        for m in tf:
            parts = m.name.split('/', 1)
            if len(parts) != 2 or parts[1] not in out or not m.isfile():
                continue
            old = tf.extractfile(m).read().decode('utf-8', 'replace').splitlines()
            try:
                with open(os.path.join(tree, parts[1]), errors='replace') as f:
                    new = f.read().splitlines()
            except OSError:
                continue
            lines = set()
            sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
            for tag, _, _, j1, j2 in sm.get_opcodes():
                if tag in ('replace', 'insert'):
                    lines.update(range(j1 + 1, j2 + 1))
            out[parts[1]] = lines
    return out


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
    """One report per ASan error, UBSan runtime error or TSan warning."""
    reports, current = [], []
    for line in text.splitlines():
        if ASAN_HEAD.search(line) or UBSAN_HEAD.match(line) or TSAN_HEAD.search(line):
            if current:
                reports.append(current)
            current = [line]
        elif current and TSAN_HEAD.search(current[0]) and TSAN_END.match(line):
            reports.append(current)
            current = []
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


def tsan_places(report, tree, root, ours, stock):
    """The place of each access stack of a ThreadSanitizer report."""
    places, want, found = [], False, False
    for line in report[1:]:
        if not line.strip():
            want = False
            continue
        if not line.startswith(' ' * 4):
            # a stack's heading: "  Write of size 8 at ... by thread T1:"
            want = not TSAN_CONTEXT.match(line) and line.rstrip().endswith(':')
            found = False
            continue
        if not want or found:
            continue
        m = TSAN_FRAME.match(line)
        if m:
            rel = resolve(m.group(2), tree, root, ours, stock)
            if rel is not None:
                places.append((m.group(1), rel, m.group(3)))
                found = True
            continue
        m = TSAN_STOCK_FRAME.match(line)
        if m:
            places.append((m.group(1), m.group(2), '0'))
            found = True
    return places


def free_list_item(report):
    """Whether a ThreadSanitizer report's memory is an item of a free list."""
    heap = False
    for line in report[1:]:
        if line.startswith('  ') and not line.startswith(' ' * 4):
            heap = 'heap block' in line and 'allocated by' in line
        elif heap and 'opal_free_list_grow' in line:
            return True
    return False


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
    ap.add_argument('--pristine', help='the release tarball: see --help of the module')
    ap.add_argument('folders', nargs='+')
    args = ap.parse_args()
    args.root, args.tree = os.path.abspath(args.root), os.path.abspath(args.tree)

    ours_files = repo_files(args.root)
    patched = set()
    if os.path.exists(args.patched):
        with open(args.patched) as f:
            patched = set(line.strip() for line in f if line.strip())
    changed = changed_lines(args.pristine, args.tree, patched - ours_files) if args.pristine else {}
    ours_files |= patched
    stock_files = tree_files(args.tree) - ours_files

    def is_ours(rel, lineno):
        if rel.startswith('tests/'):
            return True
        if rel not in ours_files:
            return False
        lines = changed.get(rel)
        return rel not in changed or lines is None or int(lineno) in lines

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
            tsan = TSAN_HEAD.search(report[0])
            if asan:
                kind = asan.group(1)
            elif tsan:
                kind = tsan.group(1)
            else:
                kind = UBSAN_HEAD.match(report[0]).group(3)
            # one defect at other addresses is one report
            kind = re.sub(r'0x[0-9a-f]+', '0x...', kind)
            if tsan:
                wheres = tsan_places(report, args.tree, args.root, ours_files, stock_files)
            else:
                where = place(report, args.tree, args.root, ours_files, stock_files)
                wheres = [] if where is None else [where]
            if not wheres:
                owner, at = 'stock', 'outside Open MPI'
            else:
                owner, ats = 'stock', []
                mine = [is_ours(rel, lineno) for _, rel, lineno in wheres]
                for func, rel, lineno in wheres:
                    ats.append('%s:%s%s' % (rel, lineno, ' (%s)' % func if func else ''))
                at = ' and '.join(ats)
                owner = 'ours' if any(mine) else 'stock'
                if tsan and owner == 'ours' and not all(mine) and free_list_item(report):
                    owner = 'stock'
                    at += ' (a free-list item)'

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
