/*
 * bundles_announce.c: when the worker reads the bundle pointers (see bundles.h,
 * "Announced"): at once on an announcement, a poll only as the safety net. Apart from
 * bundles.c, which knows what to do with the pointers but not when.
 */
#include "bundles.h"

uint64_t bundles_tick(bundles *bs, uint64_t now_ms, bool readable)
{
    bool due = now_ms >= bs->next_poll_ms;
    if (dh_redis_sub_tick(&bs->sub, now_ms) > 0)
        due = true; /* subscribed just now: what was announced before is unknown */
    if (readable && dh_redis_sub_read(&bs->sub, now_ms) != 0)
        due = true; /* an announcement, or the subscription broke: look now either way */
    if (due) {
        bundles_poll(bs, now_ms); /* reports what is due */
        bs->next_poll_ms =
            now_ms + (dh_redis_sub_fd(&bs->sub) >= 0 ? BUNDLES_SAFETY_POLL_MS : BUNDLES_POLL_MS);
        bs->next_report_ms = now_ms + BUNDLES_POLL_MS;
    } else if (bs->report_due && now_ms >= bs->next_report_ms) {
        bundles_report(bs, now_ms);
        bs->next_report_ms = now_ms + BUNDLES_POLL_MS;
    }
    if (bs->report_due && bs->next_report_ms < bs->next_poll_ms)
        return bs->next_report_ms;
    return bs->next_poll_ms;
}

int bundles_announce_fd(const bundles *bs)
{
    return dh_redis_sub_fd(&bs->sub);
}
