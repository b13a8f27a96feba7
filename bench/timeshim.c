/*
 * bench/timeshim.c: pins time() for callgrind runs (bench/engine_cost.sh builds it as an
 * LD_PRELOAD library). Lua seeds its string hashes from time(), so without the pin two runs
 * of the same binary and seed count different instructions; with it they count the same.
 */
#include <time.h>

time_t time(time_t *t)
{
    if (t)
        *t = 1700000000;
    return 1700000000;
}
