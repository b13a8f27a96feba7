/*
 * codes.h: the short codes players share to join a party or a lobby ("K7QX2M"): six
 * letters and digits drawn from an alphabet without look-alikes (no 0/O, 1/I/L), so a
 * code read aloud or copied by hand arrives intact. 31^6 (about 890 million) codes: a fresh one
 * that is taken (vanishingly rare below the caps) is drawn again by the caller.
 *
 * A code a client sends is read case-insensitively; anything not of this shape is simply
 * not found.
 */
#ifndef DECKHAND_MM_CODES_H
#define DECKHAND_MM_CODES_H

#include <stdbool.h>

#define CODES_LEN 6

/* A fresh random code. -1 when the kernel's random source cannot be read. */
int codes_new(char out[CODES_LEN + 1]);
/* The canonical form of a code a client sent (upper case) into out; false when it cannot
 * be a code (wrong length or a letter outside the alphabet). */
bool codes_read(const char *in, char out[CODES_LEN + 1]);

#endif
