/*
 * dh_client_errors.c: see dh_client_errors.h.
 */
#include "dh_client_errors.h"

const char *dh_client_error_text(Deckhand__ErrorCode code)
{
    switch (code) {
    case DECKHAND__ERROR_CODE__NOT_YOUR_TURN:
        return "it is not your turn to decide";
    case DECKHAND__ERROR_CODE__ILLEGAL_CHOICE:
        return "that answer is not allowed here (wrong options or count, or the question "
               "has moved on)";
    case DECKHAND__ERROR_CODE__UNKNOWN_MATCH:
        return "the server does not know you in this match";
    case DECKHAND__ERROR_CODE__SCRIPT_ERROR:
        return "the game's rules failed on that; nothing changed";
    case DECKHAND__ERROR_CODE__UNKNOWN_GAME:
        return "no server hosts this game";
    case DECKHAND__ERROR_CODE__OVERLOADED:
    case DECKHAND__ERROR_CODE__UNAVAILABLE:
        return "the servers are busy or down; try again shortly";
    case DECKHAND__ERROR_CODE__NOT_FOUND:
        return "no party or lobby has that code (or it closed)";
    case DECKHAND__ERROR_CODE__FULL:
        return "that party or lobby is full";
    case DECKHAND__ERROR_CODE__ALREADY_PLACED:
        return "too late to leave: a match was found for you";
    case DECKHAND__ERROR_CODE__RATE_LIMITED:
        return "too fast; slow down";
    default:
        return "the server refused it";
    }
}
