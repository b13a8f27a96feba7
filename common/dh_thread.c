/*
 * dh_thread.c: a helper thread's set-up (see dh_thread.h).
 */
#include "dh_thread.h"

#include <signal.h>
#include <time.h>

int dh_thread_sync_init(pthread_mutex_t *mu, pthread_cond_t *cv)
{
    pthread_condattr_t ca;
    if (pthread_mutex_init(mu, NULL) != 0)
        return -1;
    if (pthread_condattr_init(&ca) != 0) {
        pthread_mutex_destroy(mu);
        return -1;
    }
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(cv, &ca);
    pthread_condattr_destroy(&ca);
    if (rc != 0) {
        pthread_mutex_destroy(mu);
        return -1;
    }
    return 0;
}

void dh_thread_sync_destroy(pthread_mutex_t *mu, pthread_cond_t *cv)
{
    pthread_cond_destroy(cv);
    pthread_mutex_destroy(mu);
}

int dh_thread_start_quiet(pthread_t *t, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc == 0 ? 0 : -1;
}
