#!/usr/bin/env python3
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
"""Expands the test lists into a plan: one case per line.

A list line is

    NAME  RANKS  TRANSPORTS  WORD...

RANKS and TRANSPORTS are comma lists (the line gives a case for each rank
count and transport); a WORD is a program argument, a channel or recipe of
tests/recipes.list (passed to the program as well, and its environment
added to the run), @GPU@ (gpu-cuda where a CUDA device is present, else
no-gpu), or {A,B,...}: behaviours of a program that checks many
independent behaviours in one launch.  Each behaviour is a case of its own
with its own verdict; the cases of one line and transport share one launch,
in which the program gets the argument "cases=A,B,..." (the selected
behaviours) in the place of the braces (qt_case_list, tests/common/qtest.h).
A line ending in a backslash goes on on the next, whose leading blanks are
dropped (a word may go on there).

The plan is tab-separated, one case a line, with a header:

    id tier kind program ranks transport channel timeout serial launch
    behaviour args env name

tier is "quick" for the cases of make check-quick (one launch of every
program: ob1 where the program runs on it, 2 ranks, the default channel)
and "full" for the others; serial is 1 for a case that runs alone (the
netns launcher, ULFM, a recipe marked serial, a program named by an "alone"
line of tests/recipes.list, the script checks).

Usage: plan.py [--list FILE] [--label L] [--scripts] [--tier quick]
               [--names | --count] [NAME-FILTER [CASE-FILTER]]
NAME-FILTER: a substring of the program's name; CASE-FILTER: a substring
of the case's plan line (its name, transport, channel, environment).
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ('id', 'tier', 'kind', 'program', 'ranks', 'transport', 'channel', 'timeout',
           'serial', 'launch', 'behaviour', 'args', 'env', 'name')


class PlanError(Exception):
    pass


def logical_lines(path):
    """(line number, text) of a list file, comments and continuations handled."""
    with open(path) as f:
        pending, start = '', 0
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if not pending and (not line.strip() or line.lstrip().startswith('#')):
                continue
            if not pending:
                start = lineno
            else:
                line = line.lstrip()
            if line.endswith('\\'):
                pending += line[:-1]
                continue
            yield start, pending + line
            pending = ''
        if pending:
            yield start, pending


class Recipes:
    """tests/recipes.list: transports, channels and recipes by name."""

    def __init__(self, path):
        self.path = path
        self.defs = {}   # name -> (kind, words, lineno)
        self.alone = set()   # programs whose every case runs alone
        for lineno, line in logical_lines(path):
            words = line.split()
            if len(words) >= 2 and words[0] == 'alone':
                self.alone.update(words[1:])
                continue
            if len(words) < 2 or words[0] not in ('transport', 'channel', 'recipe'):
                raise PlanError('%s:%d: expected "transport|channel|recipe|alone NAME ..."'
                                % (path, lineno))
            kind, name, rest = words[0], words[1], words[2:]
            if name in self.defs:
                raise PlanError('%s:%d: %s defined twice' % (path, lineno, name))
            self.defs[name] = (kind, rest, lineno)
        self._check_strings()

    def _check_strings(self):
        """No environment string is written twice: a setting shared by two
        definitions is a definition of its own that both take in."""
        seen = {}
        for name, (kind, words, lineno) in self.defs.items():
            if kind == 'transport':
                continue
            for w in words:
                if '=' in w and not w.startswith('@'):
                    if w in seen:
                        raise PlanError('%s:%d: %s is written again (first in %s): make it a '
                                        'recipe of its own' % (self.path, lineno, w, seen[w]))
                    seen[w] = name

    def kind(self, name):
        d = self.defs.get(name)
        return d[0] if d else None

    def transport(self, name, depth=0):
        """-> (launcher, mpirun arguments)"""
        d = self.defs.get(name)
        if d is None or d[0] != 'transport':
            raise PlanError('unknown transport %s (tests/recipes.list)' % name)
        if depth > 8:
            raise PlanError('transport %s takes itself in' % name)
        launcher, args = 'mpirun', []
        for w in d[1]:
            if w.startswith('launcher='):
                launcher = w.split('=', 1)[1]
            elif w.startswith('@'):
                inner_launcher, inner = self.transport(w[1:], depth + 1)
                if inner_launcher != 'mpirun':
                    launcher = inner_launcher
                args += inner
            else:
                args.append(w)
        return launcher, args

    def environment(self, name, depth=0):
        """-> (ordered list of NAME=VALUE, serial)"""
        d = self.defs.get(name)
        if d is None or d[0] == 'transport':
            raise PlanError('unknown channel or recipe %s (tests/recipes.list)' % name)
        if depth > 8:
            raise PlanError('%s takes itself in' % name)
        env, serial = [], False
        for w in d[1]:
            if w == 'serial':
                serial = True
            elif w.startswith('@'):
                inner, inner_serial = self.environment(w[1:], depth + 1)
                env += inner
                serial |= inner_serial
            elif '=' in w:
                env.append(w)
            else:
                raise PlanError('%s:%d: %s: "%s" is neither NAME=VALUE, @NAME nor serial'
                                % (self.path, d[2], name, w))
        return env, serial


def merge_env(env):
    """Later values replace earlier ones; the order of first appearance stays."""
    order, value = [], {}
    for kv in env:
        k, v = kv.split('=', 1)
        if k not in value:
            order.append(k)
        value[k] = v
    return ['%s=%s' % (k, value[k]) for k in order]


def slug(text):
    return re.sub(r'[^A-Za-z0-9_.=+,-]', '_', text)


def expand_list(path, recipes, label, gpu):
    """Every case of a list file, in its order."""
    cases = []
    for lineno, line in logical_lines(path):
        fields = line.split()
        if len(fields) < 3:
            raise PlanError('%s:%d: expected "NAME RANKS TRANSPORTS [WORD...]"' % (path, lineno))
        name, ranks, transports, words = fields[0], fields[1], fields[2], fields[3:]
        words = [gpu if w == '@GPU@' else w for w in words]
        behaviours = None
        env, serial, channel = [], False, '-'
        for i, w in enumerate(words):
            if w.startswith('{'):
                if not w.endswith('}') or behaviours is not None:
                    raise PlanError('%s:%d: one {A,B,...} word a line' % (path, lineno))
                behaviours = (i, [b for b in w[1:-1].split(',') if b])
                if not behaviours[1]:
                    raise PlanError('%s:%d: {} names no behaviour' % (path, lineno))
                continue
            kind = recipes.kind(w)
            if kind == 'transport':
                raise PlanError('%s:%d: %s is a transport: it goes in the third column'
                                % (path, lineno, w))
            if kind is not None:
                e, s = recipes.environment(w)
                env += e
                serial |= s
                if kind == 'channel' and channel == '-':
                    channel = w
            elif '=' in w:
                raise PlanError('%s:%d: %s: environment goes in tests/recipes.list, used here '
                                'by name' % (path, lineno, w))
        env = merge_env(env)
        timeout = 90
        for kv in env:
            if kv.startswith('QTEST_TIMEOUT='):
                timeout = int(kv.split('=', 1)[1])
        for np in ranks.split(','):
            for tr in transports.split(','):
                launcher, _ = recipes.transport(tr)
                case_serial = serial or launcher != 'mpirun' or 'ulfm' in tr \
                    or name in recipes.alone
                for b in (behaviours[1] if behaviours else [None]):
                    shown = list(words)
                    if behaviours:
                        shown[behaviours[0]] = b
                    args = ' '.join(shown)
                    case_name = '%s%s [%s, %s ranks%s]' % (label, name, tr, np,
                                                            ', ' + args if args else '')
                    launch_words = list(words)
                    launch = '%s%s|%s|%s|%s' % (label, name, tr, np, ' '.join(launch_words))
                    cases.append({
                        'kind': 'mpi', 'program': name, 'ranks': np, 'transport': tr,
                        'channel': channel, 'timeout': str(timeout),
                        'serial': '1' if case_serial else '0', 'launch': launch,
                        'behaviour': b or '-', 'args': ' '.join(launch_words) or '-',
                        'env': ' '.join(env) or '-', 'name': case_name,
                        'id': slug('%s%s.%s.%s.%s' % (label.strip() + '.' if label else '',
                                                      name, tr, np,
                                                      '_'.join(shown) or 'default')),
                    })
    return cases


def script_cases():
    cases = []
    for f in sorted(os.listdir(HERE)):
        if f.startswith('check_') and f.endswith('.sh'):
            n = f[:-3]
            cases.append({
                'kind': 'script', 'program': n, 'ranks': '-', 'transport': '-', 'channel': '-',
                'timeout': '600', 'serial': '1', 'launch': n, 'behaviour': '-',
                'args': '-', 'env': '-', 'name': n, 'id': n,
            })
    return cases


# the script checks of make check-quick: those that read the repository or
# the install, not those that build or run many jobs of their own
QUICK_SCRIPTS = ('check_asan_list', 'check_bindings', 'check_headers', 'check_man_pages',
                 'check_ompi_info', 'check_overlay', 'check_patch_scope', 'check_plan',
                 'check_runner', 'check_test_seams', 'check_upstream_status')

# transports in the order make check-quick prefers them
QUICK_TRANSPORTS = ('ob1', 'ulfm-ob1', 'ob1tcp', 'ucx', 'cm', 'cmsock', 'ulfm-ob1tcp', 'ob1mon')


def mark_tiers(cases):
    """One launch of every program is quick: its first on the preferred
    transport, at 2 ranks (or the nearest count), on the default channel
    (chan-sm or none), if it can, neither a serial recipe's nor one that
    needs a GPU (on a machine without one)."""
    best = {}
    for c in cases:
        c['tier'] = 'full'
        if c['kind'] == 'script':
            if c['program'] in QUICK_SCRIPTS:
                c['tier'] = 'quick'
            continue
        if c['transport'] not in QUICK_TRANSPORTS:
            continue
        serial_recipe = c['serial'] == '1' and 'ulfm' not in c['transport']
        score = (1 if serial_recipe else 0,
                 1 if 'no-gpu' in c['args'].split() else 0,
                 QUICK_TRANSPORTS.index(c['transport']),
                 abs(int(c['ranks']) - 2),
                 0 if c['channel'] in ('-', 'chan-sm') else 1)
        prev = best.get(c['program'])
        if prev is None or score < prev[0]:
            best[c['program']] = (score, c['launch'])
    chosen = {launch for _, launch in best.values()}
    for c in cases:
        if c['launch'] in chosen:
            c['tier'] = 'quick'


def unique_ids(cases):
    seen = {}
    for c in cases:
        base = c['id']
        n = seen.get(base, 0)
        seen[base] = n + 1
        if n:
            c['id'] = '%s.%d' % (base, n + 1)


def plan_line(c):
    return '\t'.join(c[k] for k in COLUMNS)


def select(cases, name_filter, case_filter, tier):
    out = []
    for c in cases:
        if name_filter and name_filter not in c['program']:
            continue
        if case_filter and case_filter not in plan_line(c):
            continue
        if tier and c['tier'] != tier:
            continue
        out.append(c)
    return out


def build_plan(lists, label, scripts, gpu):
    recipes = Recipes(os.path.join(HERE, 'recipes.list'))
    cases = script_cases() if scripts else []
    for path in lists:
        cases += expand_list(path, recipes, label, gpu)
    mark_tiers(cases)
    unique_ids(cases)
    return cases


def main():
    ap = argparse.ArgumentParser(description='Expand the test lists into a plan.')
    ap.add_argument('--list', action='append', help='a list file (default tests/tests.list)')
    ap.add_argument('--label', default='', help='put in front of every case name')
    ap.add_argument('--scripts', action='store_true', help='the script checks too')
    ap.add_argument('--tier', choices=('quick', 'full'))
    ap.add_argument('--gpu', default='no-gpu', help='what @GPU@ stands for')
    ap.add_argument('--names', action='store_true', help='print only the case names')
    ap.add_argument('--count', action='store_true', help='print only how many cases, of what')
    ap.add_argument('name_filter', nargs='?', default='')
    ap.add_argument('case_filter', nargs='?', default='')
    a = ap.parse_args()
    lists = a.list or [os.path.join(HERE, 'tests.list')]
    label = a.label + ' ' if a.label else ''
    try:
        cases = build_plan(lists, label, a.scripts, a.gpu)
    except (PlanError, OSError) as e:
        print('plan: %s' % e, file=sys.stderr)
        return 2
    cases = select(cases, a.name_filter, a.case_filter, a.tier)
    if a.names:
        for c in cases:
            print(c['name'])
        return 0
    if a.count:
        mpi = [c for c in cases if c['kind'] == 'mpi']
        by = {}
        for c in mpi:
            by[c['transport']] = by.get(c['transport'], 0) + 1
        print('%s%d cases: %d script checks, %d cases of %d programs in %d launches (%s)' % (
            label, len(cases), len(cases) - len(mpi), len(mpi), len({c['program'] for c in mpi}),
            len({c['launch'] for c in mpi}),
            ', '.join('%s %d' % (t, n) for t, n in sorted(by.items(), key=lambda x: -x[1]))))
        return 0
    print('\t'.join(COLUMNS))
    for c in cases:
        print(plan_line(c))
    return 0


if __name__ == '__main__':
    sys.exit(main())
