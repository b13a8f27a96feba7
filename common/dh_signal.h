/*
 * dh_signal.h: how a process learns it was asked to stop. SIGINT and SIGTERM set one flag
 * that the process's loop reads between iterations; the handler does nothing else, so it
 * is async-signal-safe and a stop never interrupts a write half done.
 *
 * The flag is the one global of a process (a signal handler cannot be handed the process
 * state); it lives here so the matchmaker, the worker and `deckhand watch` do not each
 * install their own copy.
 */
#ifndef DECKHAND_DH_SIGNAL_H
#define DECKHAND_DH_SIGNAL_H

#include <stdbool.h>

/* Installs the stop handler for SIGINT and SIGTERM (SA_RESTART off, so a blocking call
 * returns EINTR and the loop looks at the flag), and ignores SIGPIPE when ignore_pipe. */
void dh_signal_on_stop(bool ignore_pipe);

/* True once SIGINT or SIGTERM arrived since dh_signal_on_stop. */
bool dh_signal_stop_asked(void);

#endif
