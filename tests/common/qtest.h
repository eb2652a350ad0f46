/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Tiny harness for the multi-rank tests: checks that count failures, named
 * steps, and a watchdog that names the step that did not finish.
 *
 *   int main(int argc, char **argv) {
 *       qt_init(&argc, &argv);          MPI_Init, errors return, watchdog
 *       QT_STEP("send ring");
 *       QT_CHECK(x == 1, "x is %d", x);
 *       QT_CHECK_RC(MPI_Foo(...), MPI_ERR_ARG);
 *       return qt_finalize();           agree on the verdict, MPI_Finalize
 *   }
 *
 * A program that checks many independent behaviours in one launch runs
 * each as a case (qt_case_begin/qt_case_end): its own watchdog, and its
 * own verdict line for the runner (tests/run-plan.py).
 */

#ifndef QTEST_H
#define QTEST_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <mpi.h>

static int qt_rank = -1;
static int qt_failures = 0;
static const char *volatile qt_step = "start";
static const char *volatile qt_case = NULL; /* the behaviour running, if any */

#define QT_STEP(name)                                                       \
    do {                                                                    \
        qt_step = (name);                                                   \
        if (NULL != getenv("QTEST_VERBOSE")) {                              \
            fprintf(stderr, "[rank %d] step: %s\n", qt_rank, qt_step);      \
        }                                                                   \
    } while (0)

#define QT_CHECK(cond, ...)                                                 \
    do {                                                                    \
        if (!(cond)) {                                                      \
            qt_failures++;                                                  \
            fprintf(stderr, "[rank %d] FAIL %s:%d (step %s): ", qt_rank,    \
                    __FILE__, __LINE__, qt_step);                           \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

/* Check the error class returned by an MPI call. */
#define QT_CHECK_RC(call, expected_class)                                   \
    do {                                                                    \
        int qt_rc_ = (call), qt_cls_ = qt_rc_;                              \
        if (MPI_SUCCESS != qt_rc_) {                                        \
            MPI_Error_class(qt_rc_, &qt_cls_);                              \
        }                                                                   \
        QT_CHECK(qt_cls_ == (expected_class),                               \
                 "%s returned class %d, expected %d", #call, qt_cls_,       \
                 (int) (expected_class));                                   \
    } while (0)

#define QT_OK(call) QT_CHECK_RC(call, MPI_SUCCESS)

/* The case running, on stdout, where the runner reads the cases' verdict
 * lines: "CASE NAME: TIMEOUT" or "CASE NAME: CRASH" (async-signal-safe). */
static inline void qt_case_signal_line(const char *what)
{
    char buf[320];
    int len;

    if (NULL == qt_case) {
        return;
    }
    len = snprintf(buf, sizeof(buf), "CASE %s: %s (rank %d, step \"%s\")\n", qt_case, what,
                   qt_rank, qt_step);
    if (len > 0) {
        (void) write(STDOUT_FILENO, buf, (size_t) len);
    }
}

static inline void qt_watchdog(int sig)
{
    char buf[256];
    int len;

    (void) sig;
    len = snprintf(buf, sizeof(buf), "[rank %d] TIMEOUT: step \"%s\" did not finish\n", qt_rank,
                   qt_step);
    if (len > 0) {
        (void) write(STDERR_FILENO, buf, (size_t) len);
    }
    qt_case_signal_line("TIMEOUT");
    _exit(124);
}

/* Watchdog, in seconds, below the runner's own timeout so that the step
 * that hangs is named. */
static inline void qt_arm_watchdog(void)
{
    const char *env = getenv("QTEST_TIMEOUT");
    int seconds = (NULL != env) ? atoi(env) : 60;

    signal(SIGALRM, qt_watchdog);
    alarm(seconds > 0 ? (unsigned) seconds : 60);
}

static struct sigaction qt_prev_segv;

static inline void qt_crash(int sig, siginfo_t *info, void *ctx)
{
    char buf[256];
    int len = snprintf(buf, sizeof(buf), "[rank %d] CRASH: signal %d in step \"%s\"\n", qt_rank,
                       sig, qt_step);

    if (len > 0) {
        (void) write(STDERR_FILENO, buf, (size_t) len);
    }
    qt_case_signal_line("CRASH");
    if ((qt_prev_segv.sa_flags & SA_SIGINFO) && NULL != qt_prev_segv.sa_sigaction) {
        qt_prev_segv.sa_sigaction(sig, info, ctx);
    } else if (SIG_DFL != qt_prev_segv.sa_handler && SIG_IGN != qt_prev_segv.sa_handler) {
        qt_prev_segv.sa_handler(sig);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A segmentation fault names the step, then goes on to the handler that
 * was there before (UCX's prints a backtrace).  Call it after the MPI
 * library installed its own. */
static inline void qt_name_crashes(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = qt_crash;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &qt_prev_segv);
}

static inline void qt_init_thread(int *argc, char ***argv, int required, int *provided)
{
    qt_arm_watchdog();
    QT_STEP("MPI_Init");
    MPI_Init_thread(argc, argv, required, provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &qt_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    QT_STEP("after MPI_Init");
}

static inline void qt_init(int *argc, char ***argv)
{
    int provided;
    qt_init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
}

/* One cycle's MPI_Session_init of a sessions test, the harness's crash
 * handler installed after the library's at the first cycle.  Returns 0, or
 * 1 with a FAIL line when the init failed (nothing of the cycle can run). */
static inline int qt_session_init(int cycle, MPI_Session *session)
{
    static char name[64];
    int rc;

    snprintf(name, sizeof(name), "MPI_Session_init, cycle %d", cycle);
    QT_STEP(name);
    rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session);
    if (0 == cycle) {
        qt_name_crashes();
    }
    if (MPI_SUCCESS != rc) {
        fprintf(stderr, "[rank %d] FAIL: MPI_Session_init returned %d in cycle %d\n", qt_rank,
                rc, cycle);
        return 1;
    }
    return 0;
}

/* The group of a session's world process set (MPI_GROUP_NULL where it
 * failed): qt_rank becomes this process's rank in it, and its size, at
 * least min_size, must be the one of cycle 0 (kept in *world_size). */
static inline void qt_session_world(MPI_Session session, int cycle, int min_size,
                                    int *world_size, int *size, MPI_Group *group)
{
    static char name[64];

    *size = -1;
    snprintf(name, sizeof(name), "world process set, cycle %d", cycle);
    QT_STEP(name);
    QT_OK(MPI_Group_from_session_pset(session, "mpi://WORLD", group));
    if (MPI_GROUP_NULL == *group) {
        return;
    }
    QT_OK(MPI_Group_rank(*group, &qt_rank));
    QT_OK(MPI_Group_size(*group, size));
    QT_CHECK(*size >= min_size && (0 == cycle || *size == *world_size),
             "cycle %d: the world has %d processes (%d in cycle 0)", cycle, *size, *world_size);
    *world_size = 0 == cycle ? *size : *world_size;
}

/* Resident memory of this process in KiB, -1 if unknown (for growth checks). */
static inline long qt_rss_kb(void)
{
    long pages = 0, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");

    if (NULL != f) {
        if (2 != fscanf(f, "%ld %ld", &pages, &resident)) {
            resident = -1;
        }
        fclose(f);
    }
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Whether growth of resident memory says anything: not under make
 * check-asan (QTEST_NO_RSS), whose sanitizers keep freed memory in
 * quarantine */
static inline int qt_rss_checked(void)
{
    return NULL == getenv("QTEST_NO_RSS");
}

/* Bytes of the heap that malloc has handed out and not had back (its small
 * and medium blocks; the large ones it maps on their own are left out), in
 * KiB, -1 if unknown.  Unlike resident memory this does not move when a
 * library touches more of the pages it mapped at start (libfabric's tcp
 * provider on pml cm), so it can hold a tight bound: a leak of a few dozen
 * bytes a cycle shows over thousands of cycles.  Under the sanitizers
 * (check-asan) the allocator is theirs and this says 0: they find leaks
 * themselves. */
static inline long qt_heap_kb(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (long) (info.uordblks / 1024);
#else
    return -1;
#endif
}

/* Whether the behaviour NAME is asked for: LIST is "all" or names
 * separated by commas. */
static inline int qt_case_wanted(const char *list, const char *name)
{
    size_t n = strlen(name);

    if (0 == strcmp(list, "all")) {
        return 1;
    }
    for (const char *p = list; NULL != p; p = strchr(p, ',')) {
        p += (',' == *p);
        if (0 == strncmp(p, name, n) && (',' == p[n] || '\0' == p[n])) {
            return 1;
        }
    }
    return 0;
}

/* A behaviour of a grouped program: its name in the list's {A,B,...} */
typedef struct {
    const char *name;
    void (*fn)(void);
} qt_case_t;

#define QT_CASE(fn) { #fn, fn }

/* Whether every name of LIST is one of the program's CASES; each unknown
 * one gets a failed verdict line of its own. */
static inline int qt_case_names_known(const char *list, const qt_case_t *cases, size_t count)
{
    int all_known = 1;

    if (0 == strcmp(list, "all")) {
        return 1;
    }
    for (const char *p = list; NULL != p && '\0' != *p; p = strchr(p, ',')) {
        size_t len;
        int known = 0;

        p += (',' == *p);
        len = strcspn(p, ",");
        for (size_t i = 0; i < count && !known; ++i) {
            known = strlen(cases[i].name) == len && 0 == strncmp(cases[i].name, p, len);
        }
        if (!known) {
            all_known = 0;
            qt_failures++;
            if (0 == qt_rank) {
                printf("CASE %.*s: FAILED (the program has no case of that name)\n", (int) len, p);
                fflush(stdout);
            }
        }
    }
    return all_known;
}

static int qt_case_failures_before;

/* A behaviour begins: its own watchdog, and a START line that tells the
 * runner which case a launch that ends here ended in. */
static inline void qt_case_begin(const char *name)
{
    qt_case = name;
    qt_case_failures_before = qt_failures;
    qt_arm_watchdog();
    QT_STEP(name);
    if (0 == qt_rank) {
        printf("CASE %s: START\n", name);
        fflush(stdout);
    }
}

/* The behaviour ends: all ranks agree on its verdict, rank 0 prints it. */
static inline void qt_case_end(void)
{
    int mine = qt_failures - qt_case_failures_before, total = 0;

    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == qt_rank) {
        printf("CASE %s: %s\n", qt_case, 0 == total ? "OK" : "FAILED");
        fflush(stdout);
    }
    qt_case = NULL;
}

/* The behaviours a launch asks for: the argument "cases=A,B,..." that the
 * runner puts in the place of a list line's {A,B,...}, or "all". */
static inline const char *qt_case_list(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (0 == strncmp(argv[i], "cases=", 6)) {
            return argv[i] + 6;
        }
    }
    return "all";
}

/* Runs the behaviours of CASES that LIST asks for, in the table's order,
 * each a case of its own; an unknown name in LIST fails. */
static inline void qt_run_cases(const char *list, const qt_case_t *cases, size_t count)
{
    (void) qt_case_names_known(list, cases, count);
    for (size_t i = 0; i < count; ++i) {
        if (qt_case_wanted(list, cases[i].name)) {
            qt_case_begin(cases[i].name);
            cases[i].fn();
            qt_case_end();
        }
    }
}

/* All ranks agree on the verdict; rank 0 prints it. */
static inline int qt_finalize(void)
{
    int total = 0;

    QT_STEP("final verdict");
    MPI_Allreduce(&qt_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    QT_STEP("MPI_Finalize");
    MPI_Finalize();
    if (0 == qt_rank) {
        printf("%s: %d failure(s)\n", 0 == total ? "OK" : "FAILED", total);
    }
    return 0 == total ? 0 : 1;
}

#endif /* QTEST_H */
