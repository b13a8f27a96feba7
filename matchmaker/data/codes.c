/*
 * codes.c: party and lobby codes (see codes.h).
 */
#include "codes.h"

#include "dh_random.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

static const char codes_alphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"; /* 31: no 0 O 1 I L */

int codes_new(char out[CODES_LEN + 1])
{
    uint8_t b[CODES_LEN];
    if (dh_random_bytes(b, sizeof b) < 0)
        return -1;
    /* 256 % 31 leaves a bias of under 1% between letters: harmless for a join code */
    for (size_t i = 0; i < CODES_LEN; i++)
        out[i] = codes_alphabet[b[i] % (sizeof codes_alphabet - 1)];
    out[CODES_LEN] = '\0';
    return 0;
}

bool codes_read(const char *in, char out[CODES_LEN + 1])
{
    size_t n = in ? strlen(in) : 0;
    if (n != CODES_LEN && n != CODES_OLD_LEN)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = (char)toupper((unsigned char)in[i]);
        if (!c || !strchr(codes_alphabet, c))
            return false;
        out[i] = c;
    }
    out[n] = '\0';
    return true;
}
