/*
 * dh_client_errors.h: what a refused command means, in a sentence a player reads
 * (`deckhand play` prints it beside the server's own message).
 */
#ifndef DECKHAND_DH_CLIENT_ERRORS_H
#define DECKHAND_DH_CLIENT_ERRORS_H

#include "deckhand.pb-c.h"

/* A static string for code; a generic one for codes without a sentence of their own. */
const char *dh_client_error_text(Deckhand__ErrorCode code);

#endif
