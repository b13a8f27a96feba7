/*
 * ratings.c: see ratings.h.
 */
#include "ratings.h"

#include <stdlib.h>

#include "dh_keys.h"
#include "dh_token.h"

int ratings_lookup(redisContext *c, const char *game, const char *mode,
                   const char *const *player_ids, size_t n, dh_rating *out, unsigned *matches)
{
    char key[DH_KEY_MAX];
    size_t nacc = 0;
    int rc = -1;
    const char **argv = calloc(n + 2, sizeof *argv);
    size_t *seat = calloc(n ? n : 1, sizeof *seat); /* argv[2 + k] is player seat[k] */
    for (size_t i = 0; i < n; i++) {
        out[i] = dh_rating_new();
        if (matches)
            matches[i] = 0;
    }
    if (!argv || !seat)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (dh_token_is_account_id(player_ids[i])) {
            argv[2 + nacc] = player_ids[i];
            seat[nacc++] = i;
        }
    if (nacc == 0) {
        rc = 0;
        goto out;
    }
    argv[0] = "HMGET";
    argv[1] = dh_key_rating(key, game, mode && *mode ? mode : "casual");
    redisReply *r = redisCommandArgv(c, (int)(nacc + 2), argv, NULL);
    if (r && r->type == REDIS_REPLY_ARRAY && r->elements == nacc) {
        for (size_t k = 0; k < nacc; k++) {
            const redisReply *v = r->element[k];
            unsigned m;
            dh_rating_parse(v->type == REDIS_REPLY_STRING ? v->str : NULL, &out[seat[k]], &m);
            if (matches)
                matches[seat[k]] = m;
        }
        rc = 0;
    }
    if (r)
        freeReplyObject(r);
out:
    free(argv);
    free(seat);
    return rc;
}
