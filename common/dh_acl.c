/*
 * dh_acl.c: see dh_acl.h. Key patterns are dh_keys.h's key shapes filled with "*" ("{"
 * and "}" are plain characters in ACL globs), so they are spelled once, with the keys.
 * Every role may PING, SELECT and ask for its own identity.
 */
#include "dh_acl.h"

#include <string.h>

#include "dh_keys.h"

/* dh_keys.h's key shapes as globs: one key of each family ... */
#define ACL_MATCH          DH_KEY_MATCH_("*")
#define ACL_MATCH_HISTORY  DH_KEY_MATCH_HISTORY_("*")
#define ACL_WORKER         DH_KEY_WORKER_("*")
#define ACL_WORKER_ADOPT   DH_KEY_WORKER_ADOPT_("*")
#define ACL_WORKER_MOVES   DH_KEY_WORKER_MOVES_("*")
#define ACL_BUNDLE_CURRENT DH_KEY_BUNDLE_CURRENT_("*")
#define ACL_BUNDLE_HISTORY DH_KEY_BUNDLE_HISTORY_("*")
#define ACL_BUNDLE_CANARY  DH_KEY_BUNDLE_CANARY_("*")
#define ACL_BUNDLE_AUDIT   DH_KEY_BUNDLE_AUDIT_("*")
#define ACL_ACCOUNT        DH_KEY_ACCOUNT_("*")
#define ACL_ACCOUNT_FAILS  DH_KEY_ACCOUNT_FAILS_("*")
#define ACL_DEVICE         DH_KEY_DEVICE_("*")
#define ACL_HISTORY        DH_KEY_HISTORY_("*")
#define ACL_RATING         DH_KEY_RATING_("*", "*")
#define ACL_LEADERBOARD    DH_KEY_LEADERBOARD_("*", "*")
#define ACL_RATED          DH_KEY_RATED_("*", "*")
#define ACL_MM             DH_KEY_MM_("*")
/* ... and every key of one: a match's, a worker's, a bundle's (the hash and its errors). */
#define ACL_MATCH_ANY  ACL_MATCH "*"
#define ACL_WORKER_ANY ACL_WORKER "*"
#define ACL_BUNDLE_ANY DH_KEY_BUNDLE_("*") "*"

/* ... and route by slot on a Redis Cluster (dh_redis.h): read the slot map, follow ASK,
 * WAIT for replicas; and INFO (memory: dh_redis_full). */
#define ACL_BASE                                                                                   \
    "resetkeys resetchannels -@all +ping +select +auth +hello +client|id +cluster|slots +asking "  \
    "+wait +info "

/* The commands a role's scripts call (dh_keys.h: dh_script_*) come with +evalsha;
 * SCRIPT LOAD is how dh_script.c installs them on each new connection. */
#define ACL_SCRIPTS "+evalsha +script|load +script|exists "

const dh_acl_role dh_acl_roles[] = {
    /* Accounts (gateway/accounts.c): EVAL of dh_keys.h's account scripts and the commands in
     * them, on the account keys only; ratings, boards and history read-only. Replays
     * (gateway/replay.c): a match's worker and status, and the newest ids of
     * matches:finished, read-only, to find a live worker when the match's is gone. */
    {"gateway",
     ACL_BASE "+hget +get +eval +exists +incr +pexpire +hmget +hset +del +zrevrange "
              "+lrange "
              "%R~" ACL_MATCH " %R~" ACL_WORKER " %R~" DH_KEY_MATCHES_FINISHED " ~" ACL_ACCOUNT
              " ~" ACL_ACCOUNT_FAILS " ~" ACL_DEVICE " ~" DH_KEY_ACCOUNT_NAMES " %R~" ACL_RATING
              " %R~" ACL_LEADERBOARD " %R~" ACL_HISTORY},
    /* The admin API (matchmaker/admin*.c): HSCAN of matches:running, a match's history
     * length, and the audit stream, which a selector (Redis 7) lets it only append to and
     * read: no DEL, XDEL or XTRIM reaches it. matches:finished and matches:unrated: the
     * indexes of a match whose worker died after finishing it (takeover.h). A move deletes
     * the old owner's worker:{ID}:moves (dh_script_takeover). */
    {"matchmaker", ACL_BASE ACL_SCRIPTS
     "+get +set +del +pexpire +hget +hgetall +hmget +hset "
     "+hdel +hincrby +sadd +hscan +llen +lpush +lpos "
     "~" ACL_MM " ~" ACL_MATCH " ~" DH_KEY_MATCHES_RUNNING " ~" DH_KEY_MATCHES_FINISHED
     " ~" DH_KEY_MATCHES_UNRATED " ~" ACL_WORKER_ADOPT " ~" ACL_WORKER_MOVES " %R~" ACL_RATING
     " %R~" ACL_MATCH_HISTORY " (~" DH_KEY_AUDIT_ADMIN " +xadd +xrevrange)"},
    /* Everything of its matches, workers and bundles (a canary's guard drops a failing
     * canary with its audit entry and announcement); the ratings, boards and histories it
     * writes when a match is rated. */
    {"worker", ACL_BASE ACL_SCRIPTS
     "+get +mget +set +del +exists +pexpire +hget +hgetall +hmget "
     "+hset +hdel +hincrby +lrange +llen +rpush +rpop +lpush +sadd +spop "
     "+multi +exec +discard +hrandfield +zadd +ltrim +lpos +lindex "
     "+expire +subscribe &" DH_CHANNEL_BUNDLES " "
     /* a canary's guard aborts it as `deckhand scripts abort` does (bundles_guard.c) */
     "+watch +unwatch +xadd +publish "
     "~" ACL_MATCH_ANY " ~" DH_KEY_MATCHES_RUNNING " ~" DH_KEY_MATCHES_FINISHED
     " ~" DH_KEY_MATCHES_UNRATED " ~" ACL_WORKER_ANY " ~" ACL_BUNDLE_ANY " ~" ACL_BUNDLE_CURRENT
     " ~" ACL_BUNDLE_HISTORY " ~" ACL_BUNDLE_CANARY " ~" ACL_BUNDLE_AUDIT " ~" DH_KEY_BUNDLES
     " ~" ACL_RATING " ~" ACL_LEADERBOARD " ~" ACL_RATED " ~" ACL_HISTORY
     " ~" DH_KEY_ACCOUNT_NAMES},
    {"default", "~* &* +@all"},
};
const size_t dh_acl_nroles = sizeof dh_acl_roles / sizeof dh_acl_roles[0];

const char *dh_acl_rules(const char *user)
{
    for (size_t i = 0; i < dh_acl_nroles; i++)
        if (strcmp(dh_acl_roles[i].user, user) == 0)
            return dh_acl_roles[i].rules;
    return NULL;
}
