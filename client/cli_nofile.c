/*
 * cli_nofile.c: how many connections one process of the `deckhand` command may hold. Each
 * bot player is one socket, so `deckhand bots` and `deckhand load` size themselves by the
 * descriptor limit (RLIMIT_NOFILE) rather than by a fixed cap: the soft limit is raised
 * to the hard one first (what any process may do for itself), and only when even that is
 * too low is the run refused, naming the limit, so the operator knows to raise it
 * (ulimit -n, LimitNOFILE=) instead of guessing.
 */
#include <limits.h>
#include <sys/resource.h>

#include "cli.h"

long cli_nofile_raise(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        struct rlimit up = {.rlim_cur = rl.rlim_max, .rlim_max = rl.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &up) == 0)
            rl.rlim_cur = rl.rlim_max;
    }
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)LONG_MAX)
        return LONG_MAX;
    return (long)rl.rlim_cur;
}
