/*
 * dh_acl.h: the Redis user of each process role, with only the commands and keys that
 * role uses (Redis 7 ACLs), its key patterns the key shapes of dh_keys.h (DH_KEY_*_).
 *
 *   gateway     reads a match's owner and that worker's endpoint (gateway/lookup.c):
 *               HGET match:{ID}, GET worker:{ID}, and matches:finished (replays); reads
 *               ratings, leaderboards and histories; writes only the account keys
 *               (account:{NAME}, account:fails:{NAME}, device:{DIGEST}, accounts:names)
 *   matchmaker  the queue and the lease (mm:*), a match's meta (match:{ID}),
 *               matches:running, worker:{ID}:adopt (takeover), and matches:finished and
 *               matches:unrated for a match finished by a worker that died; its scripts
 *   worker      everything of a match (match:{ID}*), matches:*, worker:{ID}* (its
 *               lease, adoptions, bundles), bundle:* and bundles; its scripts
 *   default     the operators' user (`deckhand scripts`, `deckhand replay`, redis-cli):
 *               every command, behind its own password
 *
 * Commands inside EVALSHA scripts are checked against the caller's ACL too (Redis 7), so
 * each role's list includes what its scripts call. `deckhand keygen` writes these rules,
 * with fresh passwords, into the ACL file redis-server loads (--aclfile); every node of
 * a Redis Cluster loads the same file, so each role is the same user on every node.
 * Every role may also read the slot map (CLUSTER SLOTS), follow ASK and WAIT for replicas.
 */
#ifndef DECKHAND_DH_ACL_H
#define DECKHAND_DH_ACL_H

#include <stddef.h>

typedef struct {
    const char *user;  /* the Redis user name */
    const char *rules; /* everything after "user NAME on >PASSWORD " */
} dh_acl_role;

/* The roles, the operators' "default" user last. */
extern const dh_acl_role dh_acl_roles[];
extern const size_t dh_acl_nroles;

/* The rules of user, or NULL. */
const char *dh_acl_rules(const char *user);

#endif
