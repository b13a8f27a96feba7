/*
 * codes.h: the short codes players share to join a party or a lobby ("K7QX2MHP9R"): ten
 * letters and digits drawn from an alphabet without look-alikes (no 0/O, 1/I/L), so a
 * code read aloud or copied by hand arrives intact. 31^10 (about 8.2 * 10^14) codes: a
 * fresh one that is taken (vanishingly rare below the caps) is drawn again by the caller.
 *
 * Ten, not the six they were (issue 24): with 10,000 parties open, a wrong guess is all but
 * certain (one in 82 billion finds one), and the gateway lets an address make one an hour
 * once its first few are spent (gateway/guess.h); docs/SECURITY.md, "Guessing codes", has
 * the sums. A six-character code (CODES_OLD_LEN) made before still reads, so the parties
 * and lobbies stored across an upgrade stay joinable; none is made any more.
 *
 * A code a client sends is read case-insensitively; anything not of this shape is simply
 * not found.
 */
#ifndef DECKHAND_MM_CODES_H
#define DECKHAND_MM_CODES_H

#include <stdbool.h>

#define CODES_LEN     10
#define CODES_OLD_LEN 6 /* the length before issue 24: still read */

/* A fresh random code. -1 when the kernel's random source cannot be read. */
int codes_new(char out[CODES_LEN + 1]);
/* The canonical form of a code a client sent (upper case) into out; false when it cannot
 * be a code (neither CODES_LEN nor CODES_OLD_LEN long, or a letter outside the alphabet). */
bool codes_read(const char *in, char out[CODES_LEN + 1]);

#endif
