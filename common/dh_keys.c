/*
 * dh_keys.c: the key builders and server-side scripts of dh_keys.h.
 */
#include "dh_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_snapz.h"

/* s[0..len) after the n bytes of buf, cut at DH_KEY_MAX - 1 bytes; the new length. */
static size_t dh_key_put(char *buf, size_t n, const char *s, size_t len)
{
    size_t room = DH_KEY_MAX - 1 - n;
    len = len < room ? len : room;
    memcpy(buf + n, s, len);
    return n + len;
}

/* fmt (every key's has one "%s" and no other %) with id in place of the "%s", cut as
 * snprintf would: by hand, as every commit builds four keys. */
static char *dh_key(char *buf, const char *fmt, const char *id)
{
    const char *at = strstr(fmt, "%s");
    size_t n = dh_key_put(buf, 0, fmt, (size_t)(at - fmt));
    n = dh_key_put(buf, n, id, strlen(id));
    n = dh_key_put(buf, n, at + 2, strlen(at + 2));
    buf[n] = '\0';
    return buf;
}

char *dh_key_match(char *buf, const char *match_id)
{
    return dh_key(buf, DH_KEY_MATCH_("%s"), match_id);
}

char *dh_key_match_snap(char *buf, const char *match_id)
{
    return dh_key(buf, DH_KEY_MATCH_SNAP_("%s"), match_id);
}

char *dh_key_match_log(char *buf, const char *match_id)
{
    return dh_key(buf, DH_KEY_MATCH_LOG_("%s"), match_id);
}

char *dh_key_match_history(char *buf, const char *match_id)
{
    return dh_key(buf, DH_KEY_MATCH_HISTORY_("%s"), match_id);
}

char *dh_key_match_bundles(char *buf, const char *match_id)
{
    return dh_key(buf, DH_KEY_MATCH_BUNDLES_("%s"), match_id);
}

char *dh_key_match_result(char *buf, const char *match_id)
{
    return dh_key(buf, DH_KEY_MATCH_RESULT_("%s"), match_id);
}

char *dh_key_worker(char *buf, const char *worker_id)
{
    return dh_key(buf, DH_KEY_WORKER_("%s"), worker_id);
}

char *dh_key_worker_adopt(char *buf, const char *worker_id)
{
    return dh_key(buf, DH_KEY_WORKER_ADOPT_("%s"), worker_id);
}

char *dh_key_worker_moves(char *buf, const char *worker_id)
{
    return dh_key(buf, DH_KEY_WORKER_MOVES_("%s"), worker_id);
}

char *dh_key_worker_bundles(char *buf, const char *worker_id)
{
    return dh_key(buf, DH_KEY_WORKER_BUNDLES_("%s"), worker_id);
}

char *dh_key_bundle(char *buf, const char *sha)
{
    return dh_key(buf, DH_KEY_BUNDLE_("%s"), sha);
}

char *dh_key_bundle_errors(char *buf, const char *sha)
{
    return dh_key(buf, DH_KEY_BUNDLE_ERRORS_("%s"), sha);
}

char *dh_key_bundle_trial(char *buf, const char *sha)
{
    return dh_key(buf, DH_KEY_BUNDLE_TRIAL_("%s"), sha);
}

char *dh_key_bundle_current(char *buf, const char *game)
{
    return dh_key(buf, DH_KEY_BUNDLE_CURRENT_("%s"), game);
}

char *dh_key_bundle_history(char *buf, const char *game)
{
    return dh_key(buf, DH_KEY_BUNDLE_HISTORY_("%s"), game);
}

char *dh_key_bundle_canary(char *buf, const char *game)
{
    return dh_key(buf, DH_KEY_BUNDLE_CANARY_("%s"), game);
}

char *dh_key_bundle_audit(char *buf, const char *game)
{
    return dh_key(buf, DH_KEY_BUNDLE_AUDIT_("%s"), game);
}

char *dh_key_account(char *buf, const char *lowercase_name)
{
    return dh_key(buf, DH_KEY_ACCOUNT_("%s"), lowercase_name);
}

char *dh_key_account_fails(char *buf, const char *lowercase_name)
{
    return dh_key(buf, DH_KEY_ACCOUNT_FAILS_("%s"), lowercase_name);
}

char *dh_key_device(char *buf, const char *digest)
{
    return dh_key(buf, DH_KEY_DEVICE_("%s"), digest);
}

char *dh_key_history(char *buf, const char *account_id)
{
    return dh_key(buf, DH_KEY_HISTORY_("%s"), account_id);
}

char *dh_key_rating(char *buf, const char *game, const char *mode)
{
    snprintf(buf, DH_KEY_MAX, DH_KEY_RATING_("%s", "%s"), game, mode);
    return buf;
}

char *dh_key_leaderboard(char *buf, const char *game, const char *mode)
{
    snprintf(buf, DH_KEY_MAX, DH_KEY_LEADERBOARD_("%s", "%s"), game, mode);
    return buf;
}

char *dh_key_rated(char *buf, const char *game, const char *match_id)
{
    snprintf(buf, DH_KEY_MAX, DH_KEY_RATED_("%s", "%s"), game, match_id);
    return buf;
}

bool dh_list_next(const char **cursor, const char **item, size_t *len)
{
    const char *p = *cursor;
    if (!p || !*p)
        return false;
    size_t n = strcspn(p, ",");
    *item = p;
    *len = n;
    *cursor = p + n + (p[n] == ',');
    return true;
}

size_t dh_list_count(const char *csv)
{
    size_t n = 0;
    const char *item;
    size_t len;
    while (dh_list_next(&csv, &item, &len))
        n++;
    return n;
}

int dh_list_find(const char *csv, const char *name)
{
    size_t want = strlen(name);
    const char *item;
    size_t len;
    for (int i = 0; dh_list_next(&csv, &item, &len); i++)
        if (len == want && memcmp(item, name, len) == 0)
            return i;
    return -1;
}

static long dh_env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

void dh_retention_env(dh_retention *out)
{
    out->retention_s = dh_env_long("DECKHAND_RETENTION_S", 7L * 24 * 3600);
    out->result_s = dh_env_long("DECKHAND_RESULT_RETENTION_S", 90L * 24 * 3600);
    out->finished_max = dh_env_long("DECKHAND_FINISHED_MAX", 100000);
}

/* The fence every write to a running match passes first: match:{ID} must still name this
 * worker at this epoch (the matchmaker bumps the epoch when it moves the match). */
#define DH_FENCE                                                                                   \
    "local o = redis.call('HMGET', KEYS[1], 'worker', 'epoch') "                                   \
    "if o[1] ~= ARGV[1] or o[2] ~= ARGV[2] then "                                                  \
    "return redis.error_reply('" DH_REPLY_FENCED " match owned by ' .. tostring(o[1]) .. "         \
    "' at epoch ' .. tostring(o[2])) end "

/* Many matches' commits of one worker in one call (a single Redis, where keys of any slot
 * go together; on a Redis Cluster a batch of one), in a format of its own: what the call
 * costs Redis is per argument and per redis.call, not per byte (docs/BENCHMARKS.md, "Redis
 * per answer, fifth step").
 * KEYS: with --fence-per-turn only, worker:{W}:moves first; then per commit in order
 * match snap log history, or (kind 32) only [snap] log history;
 * ARGV: the worker once, with the moves key the token the worker trusts ("" none) and a
 * fresh token (written when the key is missing), then per commit its argument count N and
 * N arguments:
 *   epoch kind | snap (kind 1) | nlog log... (kind 1 or 16) | entry (kind 2) |
 *   ended_ms result final_hash end_reason rating_job (kind 8)
 * kind: one character, '0' plus the sum of 1 a snapshot (SET snap, DEL log), 2 an answer
 * (RPUSH on the history; and, with neither 1 nor 16, on the log too: the bytes sent once),
 * 4 the answer may have landed already (an earlier commit of the match failed without a
 * known outcome: a retry of one that ran finds its answer last in the history), 8 the finish, 16
 * log entries without a snapshot, 32 the worker saw the match owned at this epoch while
 * worker:{W}:moves held the token it trusts (never with 4 or 8): when the key holds it
 * still, no move of any of the worker's matches happened since (the takeover deletes it),
 * and the fence is skipped; such a commit sends only the keys it writes (each argument
 * costs Redis about 1.4 k instructions), and when the token changed it is fenced on its
 * match key made from its history key (a single Redis: keys of any slot); 64 the log is the
 * history's tail (--log-in-history, dh_snapz.h's tail head): an answer goes on the history
 * alone, a snapshot is stored behind the tail head with the history's length less its nlog
 * (the answers since its boundary, all on the history already: their count is sent, not
 * them), and the log key is neither written nor, when owned, sent (the keys then
 * [snap] history). A snapshot's log goes in one RPUSH per 64 entries.
 * A batch that found a match the worker's by its fence (or no token) writes the fresh
 * token: a state of Redis holding it (after a failover to a replica, say) is one where that
 * match was the worker's, at its epoch; so a token is never trusted for a match from
 * before the match was seen owned (its adoption, its start).
 * Each commit runs fenced, in a pcall of its own, so a fenced or broken one fails alone;
 * the reply is an array of what each returned (1, 2 a rating job kept, or an error), then,
 * with the moves key, the token it holds (every commit that succeeded was the worker's
 * under it) and 1 when it held the trusted one at the start (the worker's matches trusted
 * before are still the worker's under the new one), else 0.
 * One script call per loop turn instead of one per answer: Redis's cost of a call is most
 * of a commit's. */
const char dh_script_commit_batch[] =
    "local W, a, k, mk, tok, trust, seen = ARGV[1], 2, 0, false, false, false, false "
    "if string.sub(KEYS[1], 1, 7) == 'worker:' then "
    "mk = KEYS[1] tok = redis.call('GET', mk) "
    "trust = tok ~= false and ARGV[2] ~= '' and tok == ARGV[2] a = 4 k = 1 end "
    "local function commit(K, A, f) "
    "local km, ks, kl, kh "
    "local t = f >= 64 if t then f = f - 64 end "
    "if f >= 32 then "
    "local j = K + 1 "
    "if f % 2 == 1 then ks = KEYS[j] j = j + 1 end "
    "if not t then kl = KEYS[j] j = j + 1 end "
    "kh = KEYS[j] "
    "else km, ks, kl, kh = KEYS[K + 1], KEYS[K + 2], KEYS[K + 3], KEYS[K + 4] end "
    "if f < 32 or not trust then "
    "km = km or string.sub(kh, 1, -9) "
    "local o = redis.call('HMGET', km, 'worker', 'epoch') "
    "if o[1] ~= W or o[2] ~= ARGV[A + 1] then "
    "return redis.error_reply('" DH_REPLY_FENCED " match owned by ' .. tostring(o[1]) .. "
    "' at epoch ' .. tostring(o[2])) end seen = true end "
    "f = f % 32 "
    "local snap, ans, xlog = f % 2 == 1, f % 4 >= 2, f >= 16 "
    "local i = A + 3 "
    "local s if snap then s = ARGV[i] i = i + 1 end "
    "local n = 0 if snap or xlog then n = tonumber(ARGV[i]) i = i + 1 end "
    "local l = i if not t then i = i + n end "
    "local a if ans then a = ARGV[i] i = i + 1 end "
    "if ans and f % 8 >= 4 and redis.call('LINDEX', kh, -1) == a then "
    "local m = redis.call('HMGET', km, '" DH_F_RATING_JOB "', '" DH_F_RATED "') "
    "if m[1] and m[2] ~= '1' then return 2 end return 1 end "
    "if t then "
    "local h if ans then h = redis.call('RPUSH', kh, a) end "
    "if snap then h = h or redis.call('LLEN', kh) "
    "redis.call('SET', ks, '" DH_SNAPZ_TAIL "' .. (h - n) .. '\\n' .. s) end "
    "else "
    "if snap then redis.call('SET', ks, s) redis.call('DEL', kl) end "
    "for j = l, l + n - 1, 64 do "
    "redis.call('RPUSH', kl, unpack(ARGV, j, math.min(j + 63, l + n - 1))) end "
    "if ans then "
    "if not (snap or xlog) then redis.call('RPUSH', kl, a) end "
    "redis.call('RPUSH', kh, a) end "
    "end "
    "if f % 16 >= 8 then "
    "redis.call('HSET', km, 'status', 'finished', 'ended_ms', ARGV[i], 'result', "
    "ARGV[i + 1], 'final_hash', ARGV[i + 2]) "
    "if ARGV[i + 3] ~= '' then redis.call('HSET', km, '" DH_F_END_REASON "', ARGV[i + 3]) end "
    "if ARGV[i + 4] ~= '' and redis.call('HGET', km, '" DH_F_RATED "') ~= '1' then "
    "redis.call('HSET', km, '" DH_F_RATING_JOB "', ARGV[i + 4]) return 2 end "
    "end "
    "return 1 end "
    "local out = {} "
    "while a <= #ARGV do "
    "local f = string.byte(ARGV[a + 2]) - 48 "
    "local ok, r = pcall(commit, k, a, f) "
    "if not ok then r = type(r) == 'table' and r or {err = tostring(r)} end "
    "local g = f % 64 "
    "if g >= 32 then k = k + 1 + g % 2 + (f >= 64 and 0 or 1) else k = k + 4 end "
    "out[#out + 1] = r a = a + tonumber(ARGV[a]) + 1 end "
    "if mk then "
    "if seen or not tok then tok = ARGV[3] "
    "redis.call('SET', mk, tok, 'EX', " DH_MOVES_TTL_S ") end "
    "out[#out + 1] = tok out[#out + 1] = trust and 1 or 0 end "
    "return out";

const char dh_script_undo[] =
    DH_FENCE "if redis.call('LINDEX', KEYS[4], -1) == ARGV[3] then redis.call('RPOP', KEYS[4]) end "
             "if ARGV[6 + tonumber(ARGV[5])] == 'tail' then "
             "redis.call('SET', KEYS[2], '" DH_SNAPZ_TAIL "' .. "
             "(redis.call('LLEN', KEYS[4]) - tonumber(ARGV[5])) .. '\\n' .. ARGV[4]) return 1 end "
             "redis.call('SET', KEYS[2], ARGV[4]) redis.call('DEL', KEYS[3]) "
             "for i = 1, tonumber(ARGV[5]) do redis.call('RPUSH', KEYS[3], ARGV[5 + i]) end "
             "return 1";

const char dh_script_finished_push[] =
    "if redis.call('LPOS', KEYS[1], ARGV[1], 'MAXLEN', " DH_FINISHED_DEDUP ") then return 0 end "
    "redis.call('LPUSH', KEYS[1], ARGV[1]) "
    "local max = tonumber(ARGV[2] or '0') "
    "if max > 0 then redis.call('LTRIM', KEYS[1], 0, max - 1) end "
    "return 1";

const char dh_script_retire[] =
    "local f = redis.call('HMGET', KEYS[1], 'game', 'mode', 'players', 'player_ids', 'ended_ms', "
    "'final_hash', 'end_reason', 'result') "
    "if not f[1] then return 0 end "
    "for i = 1, 8 do f[i] = f[i] or '' end "
    "redis.call('SET', KEYS[6], table.concat(f, '\\t')) "
    "if tonumber(ARGV[2]) > 0 then redis.call('EXPIRE', KEYS[6], ARGV[2]) end "
    "for k = 1, 5 do redis.call('EXPIRE', KEYS[k], ARGV[1]) end "
    "return 1";

const char dh_script_match_fields[] =
    DH_FENCE "for i = 3, #ARGV - 1, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end "
             "return 1";

const char dh_script_move_bundle[] = DH_FENCE "redis.call('HSET', KEYS[1], 'bundle', ARGV[3]) "
                                              "redis.call('RPUSH', KEYS[2], ARGV[4]) return 1";

const char dh_script_takeover[] =
    "local m = redis.call('HMGET', KEYS[1], 'worker', 'status', '" DH_F_RATING_JOB "', '" DH_F_RATED
    "') "
    "if not m[2] then return false end "
    "if m[2] ~= 'running' then "
    "local job = m[3] or '' if m[4] == '1' then job = '' end return {'finished', job} end "
    "if m[1] ~= ARGV[1] then return {'owner', m[1] or ''} end "
    "if KEYS[2] then redis.call('DEL', KEYS[2]) end "
    "local e = redis.call('HINCRBY', KEYS[1], 'epoch', 1) "
    "redis.call('HSET', KEYS[1], 'worker', ARGV[2]) "
    "return e";

const char dh_script_lease_renew[] =
    "local v = redis.call('GET', KEYS[1]) "
    "if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end "
    "return v or ''";

const char dh_script_lease_release[] =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end "
    "return 0";

const char dh_script_mm_state[] =
    "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('" DH_REPLY_NOTLEADER
    "') end "
    "for i = 2, #ARGV, 3 do "
    "local h = KEYS[2] if string.sub(ARGV[i], 1, 1) == 'p' then h = KEYS[3] end "
    "if string.sub(ARGV[i], 2, 2) == '+' then redis.call('HSET', h, ARGV[i + 1], ARGV[i + 2]) "
    "else redis.call('HDEL', h, ARGV[i + 1]) end "
    "end "
    "return 1";

const char dh_script_rate[] = "if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end "
                              "local n = tonumber(ARGV[1]) "
                              "for s = 0, n - 1 do local b = 3 + s * 4 "
                              "local old = redis.call('HGET', KEYS[1], ARGV[b]) or '' "
                              "if old ~= ARGV[b + 1] then return redis.error_reply('" DH_REPLY_STALE
                              " rating of ' .. ARGV[b] .. ' changed') end end "
                              "for s = 0, n - 1 do local b = 3 + s * 4 "
                              "redis.call('HSET', KEYS[1], ARGV[b], ARGV[b + 2]) "
                              "redis.call('ZADD', KEYS[2], ARGV[b + 3], ARGV[b]) end "
                              "redis.call('SET', KEYS[3], '1', 'EX', ARGV[2]) "
                              "return 1";

const char dh_script_history_push[] =
    "local head = ARGV[1] .. '\\t' "
    "for _, e in ipairs(redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1)) do "
    "if string.sub(e, 1, #head) == head then return 0 end end "
    "redis.call('LPUSH', KEYS[1], ARGV[2]) "
    "redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[3]) - 1) "
    "return 1";

const char dh_script_account_create[] =
    "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('" DH_REPLY_TAKEN
    " name taken') end "
    "redis.call('HSET', KEYS[1], '" DH_F_ACCOUNT_ID "', ARGV[1], '" DH_F_ACCOUNT_NAME
    "', ARGV[2], '" DH_F_ACCOUNT_PWHASH "', ARGV[3], '" DH_F_ACCOUNT_CREATED "', ARGV[4]) "
    "return 1";

const char dh_script_device_login[] =
    "local a = redis.call('HMGET', KEYS[1], '" DH_F_ACCOUNT_ID "', '" DH_F_ACCOUNT_NAME "') "
    "if a[1] then return a[1] .. '\\n' .. a[2] end "
    "redis.call('HSET', KEYS[1], '" DH_F_ACCOUNT_ID "', ARGV[1], '" DH_F_ACCOUNT_NAME
    "', ARGV[2], '" DH_F_ACCOUNT_CREATED "', ARGV[3]) "
    "return ARGV[1] .. '\\n' .. ARGV[2]";

const char dh_script_login_attempt[] = "local n = redis.call('INCR', KEYS[2]) "
                                       "if n == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end "
                                       "local a = redis.call('HMGET', KEYS[1], '" DH_F_ACCOUNT_ID
                                       "', '" DH_F_ACCOUNT_NAME "', '" DH_F_ACCOUNT_PWHASH "') "
                                       "return {n, a[1], a[2], a[3]}";
