/*
 * dh_random.c: unpredictable bytes from the kernel (see dh_random.h).
 */
#include "dh_random.h"

#include <errno.h>
#include <sys/random.h>

int dh_random_bytes(void *out, size_t n)
{
    unsigned char *b = out;
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(b + got, n - got, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

uint64_t dh_random_u64(void)
{
    uint64_t v = 0;
    return dh_random_bytes(&v, sizeof v) == 0 ? v : 0;
}
