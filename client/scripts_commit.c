/*
 * scripts_commit.c: the one commit-and-retry loop of every `deckhand scripts` command that
 * moves a game's bundle pointers (push, rollback, promote, abort; see scripts.h). Each
 * round reads what the change depends on, WATCHes the game's live-ops keys, plans the
 * change from what it sees under the WATCH, and commits it with its audit entry in one
 * MULTI/EXEC (dh_liveops.h). A round that raced another writer (EXEC answered nil, so
 * nothing was written) starts again from the reads, up to SCRIPTS_ATTEMPTS rounds: an
 * operator retries by hand after that rather than a loop spinning against a busy writer.
 */
#include <stdio.h>

#include "scripts.h"

/* Exit status of a step that ends the change: 0 for SCRIPTS_DONE, else -1. */
static int commit_end(scripts_step s)
{
    return s == SCRIPTS_DONE ? 0 : -1;
}

int scripts_commit(dh_redis *r, const scripts_change *job)
{
    for (int attempt = 0; attempt < SCRIPTS_ATTEMPTS; attempt++) {
        scripts_step s = job->prepare ? job->prepare(job->ctx, r) : SCRIPTS_GO;
        if (s == SCRIPTS_AGAIN)
            continue;
        if (s != SCRIPTS_GO)
            return commit_end(s);
        /* asked again each round: the routed reads may have moved or reconnected it */
        dh_liveops_state st;
        redisContext *c = scripts_game_node(r, job->game);
        if (!c || dh_liveops_watch(c, job->game, &st) < 0)
            return -1;
        dh_liveops_change ch = {0};
        dh_audit a = {0};
        s = job->plan(job->ctx, c, &st, &ch, &a);
        if (s != SCRIPTS_GO) {
            dh_liveops_unwatch(c);
            if (s == SCRIPTS_AGAIN)
                continue;
            return commit_end(s);
        }
        int done = dh_liveops_commit(c, job->game, &ch, &a);
        if (done < 0)
            return -1;
        if (done == 0)
            continue; /* raced another change: read again */
        if (job->done)
            job->done(job->ctx, &st);
        return 0;
    }
    fprintf(stderr, "%s: %s kept changing; try again\n", job->who, job->what);
    return -1;
}
