/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/threads/mutex.h"
#include "opal/mca/threads/threads.h"
#include "opal/mca/threads/thread_usage.h"
#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/info/info.h"
#include "ompi/runtime/mpiruntime.h"
#include "ompi/runtime/ompi_async_progress.h"

static bool ompi_async_progress_param = false;
static int ompi_async_progress_spin = 1000;
static int ompi_async_progress_max_sleep_us = 1000;
static int ompi_async_progress_watch_sleep_us = 0;
static bool ompi_async_progress_registered = false;

/* the session hint, read before the MCA system is up */
static bool ompi_async_progress_hinted = false;
/* decided at configure: the library runs thread safe for the thread */
static bool ompi_async_progress_wanted = false;

static opal_mutex_t ompi_async_progress_lock = OPAL_MUTEX_STATIC_INIT;
static opal_thread_t ompi_async_progress_thread;
opal_atomic_int32_t ompi_async_progress_running = 0;   /* read by the thread */
static int ompi_async_progress_users = 0;
static bool ompi_async_progress_started = false;

opal_atomic_int32_t ompi_async_progress_busy = 0;
opal_atomic_int32_t ompi_async_progress_watched = 0;

/* sleeps that ran to their end while work was watched (the pvar
 * mpi_async_progress_watched_sleeps): written by the thread only */
static opal_atomic_int64_t ompi_async_progress_watched_sleeps = 0;

/* An idle thread sleeps on a condition variable, so that new work wakes it
 * (ompi_async_progress_kick).  A kick bumps kicks and then looks at
 * sleeping; the thread sets sleeping and then compares kicks with the value
 * it read before its last progress call: one of the two sees the other, so
 * no work handed over while it goes to sleep waits for the timeout.  Both
 * sides store, then load, the other's word: every one of those four
 * accesses is sequentially consistent, which is what makes "one sees the
 * other" hold.  The thread reads kicks with acquire order before each
 * progress call, so that the call sees the work of every kick it read. */
static pthread_mutex_t ompi_async_progress_sleep_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ompi_async_progress_sleep_cond;
static opal_atomic_int32_t ompi_async_progress_kicks = 0;
static volatile int32_t ompi_async_progress_sleeping = 0;

static inline bool ompi_async_progress_is_running(void)
{
    return 0 != __atomic_load_n(&ompi_async_progress_running, __ATOMIC_ACQUIRE);
}

static int ompi_async_progress_watched_sleeps_get(const mca_base_pvar_t *pvar, void *value,
                                                  void *obj_handle)
{
    (void) pvar;
    (void) obj_handle;
    *(unsigned long long *) value
        = (unsigned long long) opal_atomic_add_fetch_64(&ompi_async_progress_watched_sleeps, 0);
    return OPAL_SUCCESS;
}

int ompi_async_progress_register(void)
{
    if (ompi_async_progress_registered) {
        return OMPI_SUCCESS;
    }
    ompi_async_progress_registered = true;

    (void) mca_base_var_register("ompi", "mpi", NULL, "async_progress",
                                 "Strong progress: run a thread that progresses MPI operations "
                                 "while the application makes no MPI call. The library then "
                                 "runs thread safe at any thread level. Also requested by the "
                                 "info key mpi_strong_progress=true of MPI_Session_init",
                                 MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_4,
                                 MCA_BASE_VAR_SCOPE_READONLY, &ompi_async_progress_param);
    (void) mca_base_var_register("ompi", "mpi", NULL, "async_progress_spin",
                                 "Idle progress calls the progress thread makes, yielding the "
                                 "processor after each, before it starts to sleep between calls",
                                 MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5,
                                 MCA_BASE_VAR_SCOPE_READONLY, &ompi_async_progress_spin);
    (void) mca_base_var_register("ompi", "mpi", NULL, "async_progress_max_sleep_us",
                                 "Longest sleep, in microseconds, of an idle progress thread (it "
                                 "doubles from 1 us while nothing happens)",
                                 MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5,
                                 MCA_BASE_VAR_SCOPE_READONLY, &ompi_async_progress_max_sleep_us);
    (void) mca_base_var_register("ompi", "mpi", NULL, "async_progress_watch_sleep_us",
                                 "Longest sleep, in microseconds, of the progress thread while a "
                                 "stream queue has work enqueued that the device completes (a "
                                 "start behind a trigger the stream has not reached, a wait not "
                                 "done). 0 (default): it never sleeps then, it yields the "
                                 "processor between polls, and a start runs as soon as the "
                                 "device writes its trigger, at the price of a core kept busy "
                                 "while kernels run; N > 0: a trigger waits up to about N us "
                                 "longer; -1: such work counts as idle (the backoff of "
                                 "mpi_async_progress_max_sleep_us)",
                                 MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5,
                                 MCA_BASE_VAR_SCOPE_READONLY, &ompi_async_progress_watch_sleep_us);
    (void) mca_base_pvar_register("ompi", "mpi", NULL, "async_progress_watched_sleeps",
                                  "Sleeps of the progress thread that ran to their end while "
                                  "a stream queue had work pending (none unless "
                                  "mpi_async_progress_watch_sleep_us allows them): each may "
                                  "have delayed a start behind a trigger by its length",
                                  OPAL_INFO_LVL_5, MCA_BASE_PVAR_CLASS_COUNTER,
                                  MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                  MCA_BASE_VAR_BIND_NO_OBJECT,
                                  MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                  ompi_async_progress_watched_sleeps_get, NULL, NULL, NULL);
    return OMPI_SUCCESS;
}

void ompi_async_progress_hint(opal_info_t *info)
{
    int flag = 0;
    bool value = false;

    /* MPI_INFO_NULL is not even constructed before the first initialization */
    if (NULL == info || &ompi_mpi_info_null.info.super == info) {
        return;
    }
    if (OPAL_SUCCESS == opal_info_get_bool(info, OMPI_ASYNC_PROGRESS_INFO_KEY, &value, &flag)
        && flag && value) {
        ompi_async_progress_hinted = true;
    }
}

void ompi_async_progress_configure(void)
{
    (void) ompi_async_progress_register();
    ompi_async_progress_wanted = ompi_async_progress_param || ompi_async_progress_hinted;
    ompi_async_progress_hinted = false;
    if (ompi_async_progress_wanted) {
        /* two threads now enter the progress engine: every lock must be
         * taken, and the PML must be selected in its thread-safe mode */
        opal_set_using_threads(true);
        ompi_mpi_thread_multiple = true;
    }
}

/* sleep up to ns unless kicked since kicks was seen; true when kicked */
static bool ompi_async_progress_sleep(int32_t seen, long ns)
{
    struct timespec ts;
    bool kicked;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += ns;
    while (ts.tv_nsec >= 1000000000L) {
        ts.tv_nsec -= 1000000000L;
        ts.tv_sec++;
    }
    pthread_mutex_lock(&ompi_async_progress_sleep_lock);
    __atomic_store_n(&ompi_async_progress_sleeping, 1, __ATOMIC_SEQ_CST);
    kicked = seen != __atomic_load_n(&ompi_async_progress_kicks, __ATOMIC_SEQ_CST);
    if (!kicked) {
        bool watched = 0 < __atomic_load_n(&ompi_async_progress_watched, __ATOMIC_RELAXED);
        (void) pthread_cond_timedwait(&ompi_async_progress_sleep_cond,
                                      &ompi_async_progress_sleep_lock, &ts);
        /* a kick signals under the lock: the lock orders its increment */
        kicked = seen != __atomic_load_n(&ompi_async_progress_kicks, __ATOMIC_RELAXED);
        if (watched && !kicked) {
            (void) opal_atomic_add_fetch_64(&ompi_async_progress_watched_sleeps, 1);
        }
    }
    __atomic_store_n(&ompi_async_progress_sleeping, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&ompi_async_progress_sleep_lock);
    return kicked;
}

void ompi_async_progress_watch_add(int32_t delta)
{
    int32_t watched = opal_atomic_add_fetch_32(&ompi_async_progress_watched, delta);

    if (0 < delta && watched == delta) {
        /* from idle to watching: a thread asleep for up to
         * mpi_async_progress_max_sleep_us polls from now on */
        ompi_async_progress_wake();
    }
}

void ompi_async_progress_kick(void)
{
    (void) __atomic_add_fetch(&ompi_async_progress_kicks, 1, __ATOMIC_SEQ_CST);
    if (0 != __atomic_load_n(&ompi_async_progress_sleeping, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&ompi_async_progress_sleep_lock);
        pthread_cond_signal(&ompi_async_progress_sleep_cond);
        pthread_mutex_unlock(&ompi_async_progress_sleep_lock);
    }
}

#if defined(__linux__)
/* The binding the thread inherited from its creator, restored by the thread
 * once the creator has moved it off the creator's core: the creator writes
 * bound, then sets rebind with release order; the thread reads rebind with
 * acquire order, then bound. */
static cpu_set_t ompi_async_progress_bound;
static opal_atomic_int32_t ompi_async_progress_rebind = 0;
#endif

/* Move a new progress thread off its creator's core, while its binding
 * allows another.  Linux starts a new thread on its creator's core, where it
 * waits for the creator's time slice to end (up to a scheduler tick), and
 * moves a thread that stays runnable (this one yields, never sleeps, while
 * work is pending) only at a periodic load balance, which spares it while it
 * is cache hot (a yielding thread always is): it stays on the crowded core
 * while another core idles (docs/graphs-streams.md, overlap).  The thread's CPU mask becomes the binding less that
 * core (the kernel migrates a queued thread at once); the thread restores
 * the whole binding where it then runs.  True when the thread was moved. */
static bool ompi_async_progress_leave(pthread_t thread, int cpu)
{
#if defined(__linux__)
    cpu_set_t bound, others;

    if (0 > cpu || 0 != pthread_getaffinity_np(thread, sizeof(bound), &bound)
        || !CPU_ISSET(cpu, &bound) || 2 > CPU_COUNT(&bound)) {
        return false;
    }
    others = bound;
    CPU_CLR(cpu, &others);
    if (0 != pthread_setaffinity_np(thread, sizeof(others), &others)) {
        return false;
    }
    ompi_async_progress_bound = bound;
    return true;
#else
    (void) thread;
    (void) cpu;
    return false;
#endif
}

static inline int ompi_async_progress_cpu(void)
{
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

static void *ompi_async_progress_main(opal_object_t *arg)
{
    unsigned int idle = 0;
    long sleep_ns = 1000;
    (void) arg;

    while (ompi_async_progress_is_running()) {
        int32_t seen = __atomic_load_n(&ompi_async_progress_kicks, __ATOMIC_ACQUIRE);
#if defined(__linux__)
        if (0 != __atomic_load_n(&ompi_async_progress_rebind, __ATOMIC_ACQUIRE)) {
            /* moved off the creator's core: the whole binding again */
            (void) pthread_setaffinity_np(pthread_self(), sizeof(ompi_async_progress_bound),
                                          &ompi_async_progress_bound);
            __atomic_store_n(&ompi_async_progress_rebind, 0, __ATOMIC_RELAXED);
        }
#endif
        if (0 < opal_progress()) {
            idle = 0;
            sleep_ns = 1000;
            continue;
        }
        /* busy and watched are hints, read without order: a change is
         * seen at the next turn */
        if (0 < __atomic_load_n(&ompi_async_progress_busy, __ATOMIC_RELAXED)) {
            /* an execution waits for something only progress sees: never
             * sleep, but let a rank that shares this core run */
            sched_yield();
            continue;
        }
        long max_ns = (long) ompi_async_progress_max_sleep_us * 1000;
        if (0 < __atomic_load_n(&ompi_async_progress_watched, __ATOMIC_RELAXED)
            && 0 <= ompi_async_progress_watch_sleep_us) {
            /* a device may write a trigger at any moment: a sleep would
             * delay the start behind it by as long */
            long watch_ns = (long) ompi_async_progress_watch_sleep_us * 1000;
            if (0 == watch_ns) {
                sched_yield();
                continue;
            }
            if (watch_ns < max_ns) {
                max_ns = watch_ns;
            }
            if (sleep_ns > max_ns) {
                sleep_ns = max_ns;
            }
        }
        if (++idle < (unsigned int) ompi_async_progress_spin) {
            /* idle since a short while: stay on the run queue, so that the
             * next execution starts without a wake-up, but leave the core
             * to whoever else wants it */
            sched_yield();
            continue;
        }
        /* nothing happens: back off, so an idle process leaves its core */
        if (ompi_async_progress_sleep(seen, sleep_ns)) {
            idle = 0;
            sleep_ns = 1000;
        } else if (sleep_ns < max_ns) {
            sleep_ns *= 2;
        }
    }
    return NULL;
}

/* called with the lock held */
static int ompi_async_progress_launch(void)
{
    static bool cond_ready = false;
    int ret;

    if (ompi_async_progress_started) {
        return OMPI_SUCCESS;
    }
    if (!cond_ready) {
        pthread_condattr_t attr;
        pthread_condattr_init(&attr);
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        pthread_cond_init(&ompi_async_progress_sleep_cond, &attr);
        pthread_condattr_destroy(&attr);
        cond_ready = true;
    }
    OBJ_CONSTRUCT(&ompi_async_progress_thread, opal_thread_t);
    ompi_async_progress_thread.t_run = ompi_async_progress_main;
    ompi_async_progress_thread.t_arg = NULL;
    (void) opal_atomic_swap_32(&ompi_async_progress_running, 1);
#if defined(__linux__)
    __atomic_store_n(&ompi_async_progress_rebind, 0, __ATOMIC_RELAXED);
#endif
    ret = opal_thread_start(&ompi_async_progress_thread);
    if (OPAL_SUCCESS != ret) {
        (void) opal_atomic_swap_32(&ompi_async_progress_running, 0);
        OBJ_DESTRUCT(&ompi_async_progress_thread);
        opal_output(0, "MPI strong progress: could not start the progress thread (%d)", ret);
        return ret;
    }
    ompi_async_progress_started = true;
    /* the creator goes on running on its core */
    if (ompi_async_progress_leave(ompi_async_progress_thread.t_handle, ompi_async_progress_cpu())) {
#if defined(__linux__)
        __atomic_store_n(&ompi_async_progress_rebind, 1, __ATOMIC_RELEASE);
#endif
    }
    return OMPI_SUCCESS;
}

/* called with the lock held */
static void ompi_async_progress_join(void)
{
    if (!ompi_async_progress_started) {
        return;
    }
    (void) opal_atomic_swap_32(&ompi_async_progress_running, 0);
    ompi_async_progress_kick();
    (void) opal_thread_join(&ompi_async_progress_thread, NULL);
    OBJ_DESTRUCT(&ompi_async_progress_thread);
    ompi_async_progress_started = false;
}

int ompi_async_progress_start(void)
{
    int ret = OMPI_SUCCESS;

    opal_mutex_lock(&ompi_async_progress_lock);
    if (ompi_async_progress_wanted) {
        ret = ompi_async_progress_launch();
        if (OMPI_SUCCESS == ret) {
            ompi_async_progress_users++;
        }
    }
    opal_mutex_unlock(&ompi_async_progress_lock);
    ompi_async_progress_set_info(&ompi_mpi_info_env.info.super);
    return ret;
}

void ompi_async_progress_stop(void)
{
    opal_mutex_lock(&ompi_async_progress_lock);
    ompi_async_progress_join();
    ompi_async_progress_users = 0;
    ompi_async_progress_wanted = false;
    opal_mutex_unlock(&ompi_async_progress_lock);
}

int ompi_async_progress_request(void)
{
    int ret;

    opal_mutex_lock(&ompi_async_progress_lock);
    if (!opal_using_threads()) {
        opal_mutex_unlock(&ompi_async_progress_lock);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    ret = ompi_async_progress_launch();
    if (OMPI_SUCCESS == ret) {
        ompi_async_progress_users++;
    }
    opal_mutex_unlock(&ompi_async_progress_lock);
    if (OMPI_SUCCESS == ret) {
        ompi_async_progress_set_info(&ompi_mpi_info_env.info.super);
    }
    return ret;
}

void ompi_async_progress_release(void)
{
    opal_mutex_lock(&ompi_async_progress_lock);
    if (0 < ompi_async_progress_users && 0 == --ompi_async_progress_users) {
        ompi_async_progress_join();
    }
    opal_mutex_unlock(&ompi_async_progress_lock);
    ompi_async_progress_set_info(&ompi_mpi_info_env.info.super);
}

bool ompi_async_progress_active(void)
{
    return ompi_async_progress_is_running();
}

void ompi_async_progress_set_info(opal_info_t *info)
{
    if (NULL != info) {
        (void) opal_info_set(info, OMPI_ASYNC_PROGRESS_INFO_KEY,
                             ompi_async_progress_active() ? "true" : "false");
    }
}
