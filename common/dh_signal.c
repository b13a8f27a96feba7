/*
 * dh_signal.c: the stop flag that SIGINT and SIGTERM set (see dh_signal.h).
 */
#include "dh_signal.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t signal_stop;

static void signal_on_stop(int sig)
{
    (void)sig;
    signal_stop = 1;
}

void dh_signal_on_stop(bool ignore_pipe)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = signal_on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (ignore_pipe)
        signal(SIGPIPE, SIG_IGN);
}

bool dh_signal_stop_asked(void)
{
    return signal_stop != 0;
}
