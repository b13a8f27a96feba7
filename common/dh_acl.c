/*
 * dh_acl.c: see dh_acl.h. Key patterns follow dh_keys.h; "{" and "}" are plain
 * characters in ACL globs. Every role may PING, SELECT and ask for its own identity.
 */
#include "dh_acl.h"

#include <string.h>

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
    {"gateway", ACL_BASE "+hget +get %R~match:{*} %R~worker:{*} %R~matches:finished +eval "
                         "+exists +incr +pexpire "
                         "+hmget +hset +del +zrevrange +lrange ~account:{* ~account:fails:{* "
                         "~device:{* ~accounts:names %R~rating:{* %R~leaderboard:{* "
                         "%R~history:{*"},
    /* The admin API (matchmaker/admin*.c): HSCAN of matches:running, a match's history
     * length, and the audit stream, which a selector (Redis 7) lets it only append to and
     * read: no DEL, XDEL or XTRIM reaches it. matches:finished and matches:unrated: the
     * indexes of a match whose worker died after finishing it (takeover.h). */
    {"matchmaker", ACL_BASE ACL_SCRIPTS "+get +set +del +pexpire +hget +hgetall +hmget +hset "
                                        "+hdel +hincrby +sadd +hscan +llen +lpush +lpos "
                                        "~mm:* ~match:{*} ~matches:running ~matches:finished "
                                        "~matches:unrated ~worker:{*}:adopt "
                                        "%R~rating:{* %R~match:{*}:history "
                                        "(~audit:{admin} +xadd +xrevrange)"},
    {"worker",
     ACL_BASE ACL_SCRIPTS "+get +mget +set +del +exists +pexpire +hget +hgetall +hmget "
                          "+hset +hdel +hincrby +lrange +llen +rpush +lpush +sadd +spop "
                          "+multi +exec +discard +hrandfield +zadd +ltrim +lpos +lindex +expire "
                          "~match:{* ~matches:* ~worker:{* ~bundle:* ~bundles "
                          "~rating:{* ~leaderboard:{* ~rated:{* ~history:{* "
                          "~accounts:names"},
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
