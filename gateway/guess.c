/*
 * guess.c: wrong party and lobby codes, counted and made to wait (guess.h says how and
 * why).
 */
#include "guess.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUESS_KEY_MAX 80
#define GUESS_SHARED  "*shared" /* the key every new one shares once the table is full */

typedef struct {
    uint32_t fails;   /* wrong codes counted (with those whose answer has not come) */
    uint64_t last_ms; /* when the last of them went */
} guess_key;

int guess_init(guess_table *t)
{
    memset(t, 0, sizeof *t);
    return dh_table_init(&t->keys);
}

void guess_free(guess_table *t)
{
    if (t->keys.buckets)
        dh_table_free(&t->keys, free);
}

/* The key of an address: "a:" and the address, or for IPv6 its /64 (one host is usually
 * given a whole /64, so counting its addresses apart would count nothing). */
static void guess_addr_key(char out[GUESS_KEY_MAX], const char *addr)
{
    struct in6_addr a6;
    char text[INET6_ADDRSTRLEN];
    if (inet_pton(AF_INET6, addr, &a6) == 1 && !IN6_IS_ADDR_V4MAPPED(&a6)) {
        memset(a6.s6_addr + 8, 0, 8);
        if (inet_ntop(AF_INET6, &a6, text, sizeof text)) {
            snprintf(out, GUESS_KEY_MAX, "a:%s/64", text);
            return;
        }
    }
    snprintf(out, GUESS_KEY_MAX, "a:%.70s", addr);
}

static void guess_player_key(char out[GUESS_KEY_MAX], const char *player_id)
{
    snprintf(out, GUESS_KEY_MAX, "p:%.70s", player_id);
}

/* How long after its last wrong code key k must still wait at now_ms (0: it may go). */
static uint64_t guess_wait_of(const guess_key *k, uint64_t now_ms)
{
    if (!k || k->fails < GUESS_FREE)
        return 0;
    uint32_t doublings = k->fails - GUESS_FREE;
    uint64_t wait = doublings >= 32 ? GUESS_MAX_MS : GUESS_BASE_MS << doublings;
    if (wait > GUESS_MAX_MS)
        wait = GUESS_MAX_MS;
    return k->last_ms + wait > now_ms ? k->last_ms + wait - now_ms : 0;
}

/* The entry of name, made when missing (create): the shared one when the table is full,
 * NULL when memory runs out (then the key is simply not counted). */
static guess_key *guess_get(guess_table *t, const char *name, bool create)
{
    guess_key *k = dh_table_get(&t->keys, name);
    if (k || !create)
        return k;
    if (t->keys.count >= GUESS_KEYS_MAX && strcmp(name, GUESS_SHARED))
        return guess_get(t, GUESS_SHARED, true); /* made past the cap: one key more */
    k = calloc(1, sizeof *k);
    if (k && dh_table_set(&t->keys, name, k) < 0) {
        free(k);
        k = NULL;
    }
    return k;
}

/* One more wrong code counted for k (NULL: not counted) at now_ms, or one taken back. */
static void guess_count(guess_key *k, uint64_t now_ms)
{
    if (k) {
        k->fails++;
        k->last_ms = now_ms;
    }
}

static void guess_uncount(guess_key *k)
{
    if (k && k->fails)
        k->fails--;
}

uint64_t guess_try(guess_table *t, const char *addr, const char *player_id, uint64_t now_ms)
{
    char ka[GUESS_KEY_MAX], kp[GUESS_KEY_MAX];
    guess_addr_key(ka, addr);
    guess_player_key(kp, player_id);
    guess_key *a = guess_get(t, ka, true), *p = guess_get(t, kp, true);
    uint64_t wa = guess_wait_of(a, now_ms), wp = guess_wait_of(p, now_ms);
    if (wa || wp) {
        dh_counter_inc(&t->refused);
        return wa > wp ? wa : wp;
    }
    guess_count(a, now_ms);
    if (p != a) /* both the shared key when the table is full: counted once */
        guess_count(p, now_ms);
    return 0;
}

void guess_answered(guess_table *t, const char *addr, const char *player_id, bool not_found)
{
    if (not_found) {
        dh_counter_inc(&t->failed);
        return;
    }
    char ka[GUESS_KEY_MAX], kp[GUESS_KEY_MAX];
    guess_addr_key(ka, addr);
    guess_player_key(kp, player_id);
    guess_key *a = guess_get(t, ka, false), *p = guess_get(t, kp, false);
    if (!a && t->keys.count >= GUESS_KEYS_MAX)
        a = guess_get(t, GUESS_SHARED, false);
    if (!p && t->keys.count >= GUESS_KEYS_MAX)
        p = guess_get(t, GUESS_SHARED, false);
    guess_uncount(a);
    if (p != a)
        guess_uncount(p);
}

static void guess_forget_one(const char *name, void *val, void *arg)
{
    guess_table *t = arg;
    guess_key *k = val;
    if (k->last_ms + GUESS_FORGET_MS <= t->swept_ms)
        free(dh_table_del(&t->keys, name));
}

void guess_tick(guess_table *t, uint64_t now_ms)
{
    if (!t->keys.count || now_ms < t->swept_ms + GUESS_SWEEP_MS)
        return;
    t->swept_ms = now_ms;
    dh_table_each(&t->keys, guess_forget_one, t);
}
