#!/usr/bin/env python3
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
"""Runs a plan of tests/plan.py and writes one verdict file per case.

    run-plan.py run PLAN VERDICT-DIR [options]
    run-plan.py summary VERDICT-DIR

run: builds the plan's test programs, then launches its cases with the
installed mpirun (or the script checks with bash), each launch once: a case
that failed once has failed.  The cases of one launch (the behaviours of a
grouped program) each get the verdict of their own "CASE NAME: ..." line;
one that hung or crashed is named by the program's watchdog or its START
line and failed, and the behaviours it left unrun are launched again
without it, so that they still report.  A verdict file holds one line:
VERDICT<TAB>case name<TAB>log<TAB>detail<TAB>seconds (of its launch),
VERDICT being PASS, FAIL, SKIP or KNOWN (a failure of stock Open MPI listed in tests/known-stock-failures.txt,
neither passed nor failed).

--jobs N runs up to N launches at a time: never two of one program, and a
serial case (plan column "serial") alone; with N over 1 the ranks yield
when idle (OMPI_MCA_mpi_yield_when_idle=1, unless a case sets it).

summary: counts the verdict files, and as failed each case of a --plan that
has none, and ends with "N passed, N failed" (exit 1 on any failure).

Environment: PREFIX (the install), QTEST_TIMEOUT (the programs' watchdog,
default 90 s; the runner allows 30 s more), OMPI_QUEUE_TEST_CM=0 (cases on
transports cm and cmsock print SKIP), OMPI_QUEUE_PREBUILT=1 (run the
programs as they are, built elsewhere).
"""

import argparse
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import plan as planlib  # noqa: E402

# not anchored: prterun forwards the ranks' stdout and stderr apart, and a
# verdict line can land inside a line of the other stream
CASE_RE = re.compile(r'CASE (\S+): (START|OK|FAILED|TIMEOUT|CRASH)\b([^\n]*)')


def read_plan(path):
    with open(path) as f:
        rows = [line.rstrip('\n').split('\t') for line in f if line.strip()]
    if not rows or tuple(rows[0]) != planlib.COLUMNS:
        raise SystemExit('run-plan: %s is not a plan of tests/plan.py' % path)
    return [dict(zip(planlib.COLUMNS, r)) for r in rows[1:]]


def read_log(path):
    # prterun's help output can leave a NUL byte in front of a line
    try:
        with open(path, 'rb') as f:
            return f.read().replace(b'\0', b'').decode('utf-8', 'replace')
    except OSError:
        return ''


def tail(path, n):
    lines = read_log(path).splitlines()[-n:]
    return ''.join('    | %s\n' % l for l in lines)


class Known:
    """tests/known-stock-failures.txt: name | transport | pattern | reason"""

    def __init__(self, path):
        self.rows = []
        with open(path) as f:
            for line in f:
                if not line.strip() or line.startswith('#'):
                    continue
                parts = [p.strip() for p in line.rstrip('\n').split('|', 3)]
                if len(parts) == 4:
                    self.rows.append((parts[0], parts[1], re.compile(parts[2]), parts[3]))

    def reason(self, program, transport, text):
        for n, t, pattern, reason in self.rows:
            if n == program and t == transport and pattern.search(text):
                return reason
        return None


class Runner:
    def __init__(self, a):
        self.a = a
        self.prefix = os.environ.get('PREFIX', os.path.join(ROOT, 'install'))
        self.mpirun = os.path.join(self.prefix, 'bin', 'mpirun')
        self.bindir = a.bindir
        self.logdir = a.logdir
        self.verdicts = a.verdicts
        self.known = Known(os.path.join(HERE, 'known-stock-failures.txt'))
        self.recipes = planlib.Recipes(os.path.join(HERE, 'recipes.list'))
        self.watchdog = int(os.environ.get('QTEST_TIMEOUT', '90'))
        self.lock = threading.Lock()
        self.done = threading.Condition(self.lock)
        self.build_failed = {}
        self.launch_time = threading.local()   # seconds of this thread's last launch
        os.makedirs(self.logdir, exist_ok=True)
        os.makedirs(self.verdicts, exist_ok=True)
        os.makedirs(self.bindir, exist_ok=True)

    # -- verdicts ----------------------------------------------------------
    def verdict(self, case, v, log, detail=''):
        seconds = getattr(self.launch_time, 'seconds', 0.0)
        shown = case['name'] + (' ' + detail if detail else '')
        with open(os.path.join(self.verdicts, case['id']), 'w') as f:
            f.write('%s\t%s\t%s\t%s\t%.1f\n' % (v, case['name'], log or '-', detail, seconds))
        word = {'PASS': 'PASS', 'SKIP': 'SKIP', 'KNOWN': 'KNOWN-STOCK-FAILURE'}.get(v, 'FAIL')
        out = '%s %s\n' % (word, shown)
        if v == 'FAIL' and log:
            out += tail(log, 25)
        elif v == 'KNOWN' and log:
            out += tail(log, 8)
        with self.lock:
            sys.stdout.write(out)
            sys.stdout.flush()

    # -- building ----------------------------------------------------------
    def build(self, program):
        """tests/NAME.c (mpicc), NAME.f90 or NAME.f (mpifort), or both (the C
        file compiled with mpicc, the program linked by mpifort); rebuilt
        when a source, the common header or a wrapper is newer."""
        exe = os.path.join(self.bindir, program)
        csrc = os.path.join(HERE, program + '.c')
        csrc = csrc if os.path.exists(csrc) else None
        fsrc = None
        for ext in ('.f90', '.f'):
            if os.path.exists(os.path.join(HERE, program + ext)):
                fsrc = os.path.join(HERE, program + ext)
        mpicc = os.path.join(self.prefix, 'bin', 'mpicc')
        mpifort = os.path.join(self.prefix, 'bin', 'mpifort')
        if os.access(exe, os.X_OK) and os.environ.get('OMPI_QUEUE_PREBUILT') == '1':
            return None
        if os.access(exe, os.X_OK):
            inputs = [s for s in (csrc, fsrc) if s] + [os.path.join(HERE, 'common', 'qtest.h'),
                                                       mpicc] + ([mpifort] if fsrc else [])
            mtime = os.path.getmtime(exe)
            if all(not os.path.exists(s) or os.path.getmtime(s) <= mtime for s in inputs):
                return None
        cmds = []
        if fsrc is None:
            if csrc is None:
                return 'no tests/%s.c, .f90 or .f' % program
            cmds.append([mpicc, '-Wall', '-Wextra', '-Werror', '-O2', '-g', '-o', exe, csrc])
        else:
            if not os.access(mpifort, os.X_OK):
                return 'no %s: the build has no Fortran bindings' % mpifort
            if csrc:
                cmds.append([mpicc, '-Wall', '-Wextra', '-Werror', '-O2', '-g', '-c', '-o',
                             exe + '.c.o', csrc])
            # mpif.h code (.f) passes buffers of several types to one procedure
            # with no interface, which gfortran >= 10 refuses unless told
            fflags = ['-Wall', '-fallow-argument-mismatch'] if fsrc.endswith('.f') \
                else ['-Wall', '-Werror']
            # the module files of a mixed test go beside its program
            cmds.append([mpifort] + fflags + ['-fimplicit-none', '-O2', '-g', '-J', self.bindir,
                                              '-o', exe, fsrc] + ([exe + '.c.o'] if csrc else []))
        log = os.path.join(self.logdir, program + '.build.log')
        with open(log, 'w') as f:
            for cmd in cmds:
                if subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=ROOT) != 0:
                    return log
        return None

    # -- one launch ----------------------------------------------------------
    def command(self, first, behaviours):
        """The command line and environment of a launch."""
        exe = os.path.join(self.bindir, first['program'])
        words = [] if first['args'] == '-' else first['args'].split()
        words = ['cases=' + ','.join(behaviours) if w.startswith('{') else w for w in words]
        env = dict(os.environ)
        for kv in ([] if first['env'] == '-' else first['env'].split()):
            k, v = kv.split('=', 1)
            # ${NAME}: this run's value (the install, the test components)
            env[k] = re.sub(r'\$\{(\w+)\}', lambda m: os.environ.get(m.group(1), ''), v)
        if self.a.jobs > 1:
            # two launches of polling ranks on as many cores as ranks: a rank
            # that waits spins on the core its peer needs, and a case takes
            # several times as long as alone; yielding when idle lets the
            # rank that holds the work run (a case's own setting wins)
            env.setdefault('OMPI_MCA_mpi_yield_when_idle', '1')
        timeout = int(first['timeout'])
        env['QTEST_TIMEOUT'] = str(timeout if timeout != 90 else self.watchdog)
        limit = (int(env['QTEST_TIMEOUT']) + 30) * max(1, len(behaviours))
        launcher, targs = self.recipes.transport(first['transport'])
        extra = list(self.a.mpirun_arg or [])
        if launcher == 'netns':
            # the script sets the nodes up, runs mpirun with its own watchdog
            # and removes them (or prints SKIP where it cannot)
            env['MPIRUN'] = self.mpirun
            cmd = ['timeout', '-k', '10', str(limit + 30), 'bash',
                   os.path.join(HERE, 'netns', 'run-netns.sh'), '-n', first['ranks']] + targs \
                + extra + ['--', exe] + words
        elif launcher.startswith('slurm:'):
            # the script starts a Slurm cluster of one node, launches the job
            # with srun, salloc or sbatch and stops everything (or prints SKIP)
            env['MPIRUN'] = self.mpirun
            cmd = ['timeout', '-k', '10', str(limit + 30), 'bash',
                   os.path.join(HERE, 'slurm', 'run-slurm.sh'), launcher.split(':', 1)[1],
                   '-n', first['ranks']] + targs + extra + ['--', exe] + words
        else:
            cmd = ['timeout', '-k', '10', str(limit), self.mpirun, '--oversubscribe', '-n',
                   first['ranks']] + targs + extra + [exe] + words
        return cmd, env

    def execute(self, cmd, env, log):
        t0 = time.monotonic()
        with open(log, 'w') as f:
            p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 env=env, cwd=ROOT, start_new_session=True)
            rc = p.wait()
        # ranks a killed mpirun left behind would slow every later case: the
        # launch was a session of its own, whatever is left of it goes
        subprocess.call(['pkill', '-9', '-s', str(p.pid)], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
        self.launch_time.seconds = time.monotonic() - t0
        return rc

    def run_script(self, case):
        log = os.path.join(self.logdir, case['program'] + '.log')
        rc = self.execute(['timeout', case['timeout'], 'bash',
                           os.path.join(HERE, case['program'] + '.sh')], dict(os.environ), log)
        text = read_log(log)
        if rc == 0:
            self.verdict(case, 'PASS', log)
        elif re.search(r'^SKIP', text, re.M):
            self.verdict(case, 'SKIP', log, '(%s)' % re.search(r'^SKIP.*$', text, re.M).group(0))
        else:
            self.verdict(case, 'FAIL', log)

    def failed(self, case, log, text, detail):
        reason = self.known.reason(case['program'], case['transport'], text)
        if reason:
            self.verdict(case, 'KNOWN', log, '%s: known stock failure: %s' % (detail, reason))
        else:
            self.verdict(case, 'FAIL', log, detail)

    def run_launch(self, cases):
        first = cases[0]
        if first['kind'] == 'script':
            return self.run_script(first)
        if first['program'] in self.build_failed:
            for c in cases:
                self.verdict(c, 'FAIL', self.build_failed[first['program']], '(compile)')
            return
        if first['transport'].startswith('cm') and os.environ.get('OMPI_QUEUE_TEST_CM') == '0':
            for c in cases:
                self.verdict(c, 'SKIP', None, '(SKIP: OMPI_QUEUE_TEST_CM=0)')
            return
        grouped = first['behaviour'] != '-'
        base = planlib.slug('%s.%s.%s.%s' % (
            first['program'], first['transport'], first['ranks'],
            '_'.join('cases' if w.startswith('{') else w for w in first['args'].split())
            if first['args'] != '-' else 'default'))
        if first['name'].startswith('asan '):
            base = 'asan.' + base
        pending = list(cases)
        attempt = 0
        while pending:
            attempt += 1
            log = os.path.join(self.logdir, base + ('' if attempt == 1 else '.again%d' % attempt)
                               + '.log')
            cmd, env = self.command(first, [c['behaviour'] for c in pending])
            rc = self.execute(cmd, env, log)
            text = read_log(log)
            # 124 is also what a rank's own watchdog exits with: the
            # runner's limit ran out only if the launch took that long
            timed_out = rc in (124, 137) and self.launch_time.seconds >= int(cmd[3])
            if timed_out:
                with open(log, 'a') as f:
                    f.write('    | mpirun did not finish within its limit (%s s)\n' % cmd[3])
                text = read_log(log)
            ok = rc == 0 and re.search(r'^OK:', text, re.M) is not None
            skip = rc == 0 and re.search(r'^SKIP', text, re.M) is not None
            if not grouped:
                c = first
                if ok:
                    self.verdict(c, 'PASS', log)
                elif skip:
                    self.verdict(c, 'SKIP', log, '(%s)' % re.search(r'^SKIP.*$', text, re.M).group(0))
                else:
                    self.failed(c, log, text, '(exit %d)' % rc)
                return
            state = {}
            started = []
            for m in CASE_RE.finditer(text):
                name, what, rest = m.group(1), m.group(2), m.group(3).strip()
                if what == 'START':
                    started.append(name)
                elif state.get(name, ('OK', ''))[0] == 'OK':
                    state[name] = (what, rest)
            if skip and not state:
                for c in pending:
                    self.verdict(c, 'SKIP', log, '(%s)' % re.search(r'^SKIP.*$', text, re.M).group(0))
                return
            left = []
            failed_here = False
            for c in pending:
                b = c['behaviour']
                if b in state:
                    what, rest = state[b]
                    if what == 'OK':
                        self.verdict(c, 'PASS', log)
                    else:
                        failed_here = True
                        self.failed(c, log, text, '(%s%s)' % (what, ' ' + rest if rest else ''))
                else:
                    left.append(c)
            if not left:
                if not ok and not skip and not failed_here:
                    # every behaviour passed, and the launch still failed
                    # after them: the failure is a case of its own, never
                    # hidden (a failed behaviour already explains it)
                    words = ['after its cases' if w.startswith('{') else w
                             for w in first['args'].split()]
                    shown = dict(first, id=first['id'] + '.launch', name='%s%s [%s, %s ranks, %s]' % (
                        'asan ' if first['name'].startswith('asan ') else '', first['program'],
                        first['transport'], first['ranks'], ' '.join(words)))
                    self.failed(shown, log, text, '(exit %d)' % rc)
                return
            # the launch ended before these reported: the one it had started
            # last is the one that hung or crashed; the others run again
            running = [b for b in started if b not in state]
            culprit = None
            if running:
                culprit = next((c for c in left if c['behaviour'] == running[-1]), None)
            if culprit is None and attempt > 1 and len(left) == len(pending):
                for c in left:
                    self.failed(c, log, text, '(exit %d: the launch ended before this case '
                                'reported, twice)' % rc)
                return
            if culprit is not None:
                self.failed(culprit, log, text, '(exit %d%s: the launch ended in this case)'
                            % (rc, ', timed out' if timed_out else ''))
                left.remove(culprit)
            pending = left

    # -- the plan ----------------------------------------------------------
    def run(self, cases):
        launches, index = [], {}
        for c in cases:
            if c['launch'] not in index:
                index[c['launch']] = len(launches)
                launches.append([])
            launches[index[c['launch']]].append(c)
        # build every program the plan runs, in its order
        for group in launches:
            first = group[0]
            if first['kind'] != 'mpi' or first['program'] in self.build_failed:
                continue
            err = self.build(first['program'])
            if err:
                self.build_failed[first['program']] = err
        jobs = max(1, self.a.jobs)
        running = {}   # launch key -> (program, serial)
        threads = []

        def work(group):
            try:
                self.run_launch(group)
            finally:
                with self.lock:
                    del running[group[0]['launch']]
                    self.done.notify_all()

        queue = list(launches)
        with self.lock:
            while queue:
                pick = None
                for i, group in enumerate(queue):
                    serial = any(c['serial'] == '1' for c in group)
                    if serial:
                        if not running and i == 0:
                            pick = i
                        break   # nothing passes a serial launch
                    busy = {p for p, _ in running.values()}
                    serial_running = any(s for _, s in running.values())
                    if len(running) < jobs and not serial_running and group[0]['program'] not in busy:
                        pick = i
                        break
                if pick is None:
                    self.done.wait()
                    continue
                group = queue.pop(pick)
                running[group[0]['launch']] = (group[0]['program'],
                                               any(c['serial'] == '1' for c in group))
                t = threading.Thread(target=work, args=(group,))
                threads.append(t)
                t.start()
            while running:
                self.done.wait()
        for t in threads:
            t.join()


def summary(verdict_dir, plans):
    counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0, 'KNOWN': 0}
    have = set(os.listdir(verdict_dir)) if os.path.isdir(verdict_dir) else set()
    for f in sorted(have):
        with open(os.path.join(verdict_dir, f)) as fh:
            v = fh.read().split('\t', 1)[0].strip()
        counts[v if v in counts else 'FAIL'] += 1
    # a case of a plan that left no verdict has not passed
    for p in plans or []:
        for c in read_plan(p):
            if c['id'] not in have:
                counts['FAIL'] += 1
                print('FAIL %s (no verdict: the run ended before it)' % c['name'])
    if counts['SKIP']:
        print('%d skipped (not counted)' % counts['SKIP'])
    if counts['KNOWN']:
        print('%d known stock failure(s) (not counted as passed)' % counts['KNOWN'])
    print('%d passed, %d failed' % (counts['PASS'], counts['FAIL']))
    return 1 if counts['FAIL'] else 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('run')
    r.add_argument('plan')
    r.add_argument('verdicts')
    r.add_argument('--logdir', required=True)
    r.add_argument('--bindir', default=os.path.join(HERE, 'bin'))
    r.add_argument('--jobs', type=int, default=1)
    r.add_argument('--mpirun-arg', action='append', help="one more argument of every mpirun")
    s = sub.add_parser('summary')
    s.add_argument('verdicts')
    s.add_argument('--plan', action='append', help='a plan whose every case must have a verdict')
    a = ap.parse_args()
    if a.cmd == 'summary':
        return summary(a.verdicts, a.plan)
    Runner(a).run(read_plan(a.plan))
    return 0


if __name__ == '__main__':
    sys.exit(main())
