/*
 * dh_thread.h: what every helper thread of a process starts with, written once: a mutex
 * and a condition variable whose timed waits run on CLOCK_MONOTONIC (a step of the wall
 * clock must not stretch or cut a wait), and a thread that takes no signal (SIGTERM,
 * SIGINT and the engine watchdog's signal belong to the loop's thread). The worker's beat
 * thread and stall watcher and the engine's watchdog use them.
 */
#ifndef DECKHAND_DH_THREAD_H
#define DECKHAND_DH_THREAD_H

#include <pthread.h>

/* Initialise mu and cv (cv on CLOCK_MONOTONIC). 0, or -1 with neither left initialised. */
int dh_thread_sync_init(pthread_mutex_t *mu, pthread_cond_t *cv);
void dh_thread_sync_destroy(pthread_mutex_t *mu, pthread_cond_t *cv);
/* Start fn(arg) on *t with every signal blocked on it. 0, or -1. */
int dh_thread_start_quiet(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
