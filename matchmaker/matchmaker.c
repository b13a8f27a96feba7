/*
 * matchmaker.c: the process state's life cycle and its periodic work (see matchmaker.h).
 */
#include "matchmaker.h"

#include <string.h>
#include <time.h>

#include "dh_log.h"
#include "tickets.h"

static uint64_t mm_clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int mm_init(mm_state *mm, const char *id, const char *redis_url, int redis_timeout_ms)
{
    memset(mm, 0, sizeof *mm);
    registry_init(&mm->reg);
    placement_list_init(&mm->placements);
    settings_init(&mm->settings);
    takeover_init(&mm->takeover);
    if (seated_init(&mm->seated) < 0)
        return -1;
    snprintf(mm->id, sizeof mm->id, "%s", id);
    mm->wall_base_ms = mm_clock_ms(CLOCK_REALTIME) - mm_clock_ms(CLOCK_MONOTONIC);
    mm->next_seq = 1;
    mm->queues = queue_set_new();
    if (!mm->queues)
        return -1;
    if (redis_url && strcmp(redis_url, "none")) {
        if (dh_redis_init(&mm->redis, redis_url, redis_timeout_ms) < 0)
            return -1;
        mm->redis_on = true;
    }
    return 0;
}

void mm_free(mm_state *mm)
{
    queue_set_free(mm->queues);
    mm->queues = NULL;
    placement_list_free(&mm->placements);
    registry_free(&mm->reg);
    settings_free(&mm->settings);
    takeover_free(&mm->takeover);
    seated_free(&mm->seated);
    if (mm->redis_on)
        dh_redis_close(&mm->redis);
}

void mm_reset(mm_state *mm)
{
    queue_clear(mm->queues);
    placement_list_free(&mm->placements);
    takeover_free(&mm->takeover);
    takeover_init(&mm->takeover);
    for (size_t i = 0; i < mm->reg.nworkers; i++)
        mm->reg.workers[i].pending = 0;
}

uint64_t mm_wall_ms(const mm_state *mm, uint64_t now_ms)
{
    return mm->wall_base_ms + now_ms;
}

bool mm_acting(const mm_state *mm, uint64_t now_ms)
{
    return lease_acting(mm, now_ms);
}

void mm_tick(mm_state *mm, uint64_t now_ms)
{
    if (!mm->first_tick_ms)
        mm->first_tick_ms = now_ms ? now_ms : 1;
    lease_tick(mm, now_ms);
    size_t died = registry_expire(&mm->reg, now_ms);
    dh_counter_add(&mm->stats.workers_dead, died);
    if (!mm_acting(mm, now_ms))
        return;
    /* a worker just declared dead has its matches moved now, not at the next sweep */
    takeover_tick(mm, now_ms, died > 0);
    placement_expire(mm, now_ms);
    tickets_expire(mm, now_ms);
    placement_form(mm, now_ms);
}
