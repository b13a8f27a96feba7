/*
 * ratings.c: see ratings.h.
 */
#include "ratings.h"

#include <stdlib.h>

#include "dh_keys.h"
#include "dh_rating.h"
#include "dh_token.h"
#include "mm_store.h"
#include "mm_data.h"

void ratings_refresh(mm_state *mm, uint64_t now_ms, const char *const *player_ids, size_t n)
{
    rconn_cmd *cmds = calloc(n ? n : 1, sizeof *cmds);
    const char **argv = calloc(3 * (n ? n : 1), sizeof *argv);
    char(*keys)[DH_KEY_MAX] = calloc(n ? n : 1, sizeof *keys);
    size_t *who = calloc(n ? n : 1, sizeof *who), asked = 0;
    redisReply **out = calloc(n ? n : 1, sizeof *out);
    if (!cmds || !argv || !keys || !who || !out)
        goto out;
    for (size_t i = 0; i < n; i++) {
        size_t line;
        if (!dh_token_is_account_id(player_ids[i]) || !queue_find(mm->queues, player_ids[i], &line))
            continue;
        const queue_key *k = queue_line_key(mm->queues, line);
        const char **a = &argv[3 * asked];
        a[0] = "HMGET";
        a[1] = dh_key_rating(keys[asked], k->game, *k->mode ? k->mode : "casual");
        a[2] = player_ids[i];
        cmds[asked] = (rconn_cmd){.argc = 3, .argv = a};
        who[asked++] = i;
    }
    if (asked == 0 || rconn_pipeline(mm, now_ms, cmds, asked, out) < 0)
        goto out;
    for (size_t k = 0; k < asked; k++) {
        const redisReply *r = out[k];
        dh_rating rt;
        unsigned matches = 0;
        if (r && r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
            r->element[0]->type == REDIS_REPLY_STRING &&
            dh_rating_parse(r->element[0]->str, &rt, &matches) == 0 && matches > 0)
            queue_rate(mm->queues, player_ids[who[k]], rt.mu, rt.sigma);
    }
out:
    for (size_t k = 0; out && k < asked; k++)
        if (out[k])
            freeReplyObject(out[k]);
    free(cmds);
    free(argv);
    free(keys);
    free(who);
    free(out);
}
