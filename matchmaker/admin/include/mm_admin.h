/*
 * mm_admin.h: the front door of the matchmaker's admin wing (matchmaker/admin/): the admin
 * API over the ops port (admin.h). Its listing of matches (admin_matches.h) and its audit
 * log (admin_audit.h) stay private to the wing.
 *
 * Library dh_mm_admin; links the store wing (whether this matchmaker acts is the lease's
 * answer, lease_acting).
 */
#ifndef DECKHAND_MM_ADMIN_FRONT_H
#define DECKHAND_MM_ADMIN_FRONT_H

#include "../admin.h"

#endif
