/*
 * engine_events.c: the events a match produces for its seats (g:log, g:log_to), held
 * until the host drains them, and each seat's event count (what a View's event_seq says),
 * with the count of the public ones (g:log, to every seat: what a spectator's View says).
 *
 * A script's text is cut to ENGINE_MAX_LOG_LINE bytes (marked ENGINE_CUT_MARK), so one
 * g:log cannot send every seat megabytes (a slow consumer to the gateway); how many events
 * a turn may emit is g:log's check (engine_api.c).
 *
 * While a match is rebuilt (restore, rollback, undo) the counts still move but no text is
 * kept: those events were delivered before, or belong to an answer being undone.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "engine_internal.h"

int engine_match_event(engine_match *m, int to, int about, const char *kind, const char *text,
                       size_t len)
{
    size_t keep = engine_text_fit(text, len, ENGINE_MAX_LOG_LINE);
    size_t mark = keep < len ? sizeof ENGINE_CUT_MARK - 1 : 0;
    len = keep + mark;
    if (to < 0) {
        for (int i = 0; i < m->np; i++)
            m->st.event_seq[i]++;
        m->st.public_seq++;
    } else {
        m->st.event_seq[to]++;
    }
    if (engine_events_unread(m))
        return 0;
    if (m->evtext_len + len + 1 > ENGINE_MAX_EVBYTES)
        return -1;
    if (!m->ev || !m->evtext)
        engine_spare_take_events(m);
    if (dh_grow(&m->ev, &m->evcap, m->nev + 1, sizeof *m->ev, 64) < 0 ||
        dh_grow(&m->evtext, &m->evtext_cap, m->evtext_len + len + 1, 1, 4096) < 0)
        return -1;
    engine_ev *e = &m->ev[m->nev++];
    e->to = to;
    e->about = about;
    e->kind = kind;
    e->off = m->evtext_len;
    e->len = len;
    memcpy(m->evtext + m->evtext_len, text, keep);
    memcpy(m->evtext + m->evtext_len + keep, ENGINE_CUT_MARK, mark);
    m->evtext[m->evtext_len + len] = 0;
    m->evtext_len += len + 1;
    return 0;
}

void engine_match_drain_events(engine_match *m, engine_event_fn fn, void *ud)
{
    /* the public count includes the public events pending here: the first one's number
     * is what the count was before them, plus one */
    uint64_t pending = 0;
    for (size_t i = 0; i < m->nev; i++)
        pending += m->ev[i].to < 0;
    uint64_t public_seq = m->st.public_seq - pending;
    for (size_t i = 0; i < m->nev; i++) {
        const engine_ev *e = &m->ev[i];
        engine_event ev = {
            0, 0, e->kind, m->evtext + e->off, e->about, e->to < 0, e->to < 0 ? ++public_seq : 0};
        for (int s = 0; s < m->np; s++) {
            if (e->to >= 0 && e->to != s)
                continue;
            ev.to_seat = s;
            ev.seq = ++m->drained_seq[s];
            fn(ud, &ev);
        }
    }
    m->nev = 0;
    m->evtext_len = 0;
    m->undo_nev = 0;
    m->undo_evtext = 0;
}

uint64_t engine_match_event_seq(const engine_match *m, int seat)
{
    if (seat == ENGINE_SEAT_PUBLIC)
        return m->st.public_seq;
    if (seat < 0 || seat >= m->np)
        return 0;
    return m->st.event_seq[seat];
}

void engine_events_truncate(engine_match *m, size_t nev, size_t evtext)
{
    if (nev < m->nev) {
        m->nev = nev;
        m->evtext_len = evtext;
    }
}
