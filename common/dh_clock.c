/*
 * dh_clock.c: the monotonic clock (dh_clock.h).
 */
#include "dh_clock.h"

#include <time.h>

uint64_t dh_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t dh_now_ms(void)
{
    return dh_now_ns() / 1000000u;
}
