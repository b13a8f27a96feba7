/*
 * ratings.c: see ratings.h.
 */
#include "ratings.h"

#include <stdlib.h>

#include "dh_keys.h"
#include "dh_rating.h"
#include "dh_token.h"
#include "mm_data.h"
#include "mm_store.h"

void ratings_refresh(mm_state *mm, uint64_t now_ms, const char *const *player_ids, size_t n)
{
    rconn_hmgets h;
    size_t *who = calloc(n ? n : 1, sizeof *who);
    if (rconn_hmgets_init(&h, n, 1) < 0 || !who)
        goto out;
    for (size_t i = 0; i < n; i++) {
        size_t line;
        if (!dh_token_is_account_id(player_ids[i]) || !queue_find(mm->queues, player_ids[i], &line))
            continue;
        const queue_key *k = queue_line_key(mm->queues, line);
        who[h.n] = i;
        rconn_hmgets_add(
            &h, dh_key_rating(rconn_hmgets_key(&h), k->game, *k->mode ? k->mode : "casual"),
            &player_ids[i]);
    }
    if (rconn_hmgets_run(mm, now_ms, &h) < 0)
        goto out;
    for (size_t k = 0; k < h.n; k++) {
        const redisReply *r = h.out[k];
        dh_rating rt;
        unsigned matches = 0;
        if (r && r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
            r->element[0]->type == REDIS_REPLY_STRING &&
            dh_rating_parse(r->element[0]->str, &rt, &matches) == 0 && matches > 0)
            queue_rate(mm->queues, player_ids[who[k]], rt.mu, rt.sigma);
    }
out:
    rconn_hmgets_free(&h);
    free(who);
}
