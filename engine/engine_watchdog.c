/*
 * engine_watchdog.c: the deadline of script calls, without slowing the calls down.
 *
 * The obvious watchdog, a count hook that reads the clock every few thousand
 * instructions, costs about a quarter of all script time in Lua 5.4: any count hook
 * makes the interpreter leave its fast path on every instruction (measured: `deckhand
 * sim` 870 -> 1090 games/s without it). So normally no hook is installed. Each bundle
 * has a watchdog thread that only watches the clock; once the running call passes its
 * deadline it signals the engine thread, and the signal handler (on the engine thread,
 * the way lua.c stops a script on Ctrl-C) arms the kill latch: a count-1 hook that
 * raises on every instruction, so no pcall inside the script can swallow it. The hook
 * re-checks the deadline itself, so a signal that lands late (after the call ended) or
 * a hook left on a suspended coroutine costs one check and disarms itself.
 *
 * Arming walks the thread's whole call stack (lua_sethook marks every Lua frame), which a
 * script that recursed to Lua's stack limit makes a few hundred thousand frames long:
 * milliseconds, and more than the watchdog's tick on a slow or crowded machine. Signals
 * sent every tick then queued up behind a handler that never caught up, and the engine
 * thread ran nothing but handlers, for ever (a rules check hung that way). So at most one
 * signal is in flight (the thread sends the next only once the handler ran), and a handler
 * that finds its thread armed already does not walk the stack again.
 *
 * A deadline bounds the call's own work, not the wall clock: time the engine thread spent
 * not running (its process stopped with SIGSTOP, a frozen VM, a crowded machine where it
 * waited for a core) is not held against the call. A sim stopped for half an hour lost a
 * call that way, and a worker failed a player's command. Deadlines stay on the wall clock
 * (dh_now_ns: setting one costs no system call), and only the watchdog thread, once a
 * deadline has passed, asks the engine thread's CPU clock how much the thread worked since
 * its last look before the deadline was set; it judges the deadline spent only when that
 * work reaches it, and it alone decides (b->wd_fired): the hook, the pcall guards and the
 * signal handler on the engine thread only read its verdict.
 *
 * Cost: an atomic store per call, a pthread_self() compared. Limits: the kill comes
 * within ~10 ms of the deadline rather than exactly at it, and up to IDLE_NS later when
 * the thread was idle just before the call (the watchdog's last look, from which the work
 * is counted, is then that much older: the idle time counts as work); the signal
 * (ENGINE_WATCHDOG_SIGNAL, a real-time signal installed with SA_RESTART) may interrupt a blocking
 * syscall of the host if it lands just after an overrun call ended. When the thread cannot be
 * started the engine falls back to the plain count hook, which is slow but self-contained.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "dh_clock.h"
#include "dh_thread.h"
#include "engine_internal.h"

#define HOOK_COUNT  4096
#define GUARD_DEPTH 200         /* calls above which pcall and xpcall refuse to start */
#define TICK_NS     10000000ULL /* how often the thread looks when a call runs */
#define IDLE_NS     50000000ULL /* and when none does */

static __thread engine_bundle *wd_current; /* the bundle running a call on this thread */
static pthread_once_t wd_once = PTHREAD_ONCE_INIT;
static int wd_signal_ok;

static uint64_t deadline_load(const engine_bundle *b)
{
    return __atomic_load_n(&b->deadline_ns, __ATOMIC_ACQUIRE);
}

void engine_deadline_set(engine_bundle *b, uint64_t abs_ns)
{
    __atomic_store_n(&b->deadline_ns, abs_ns, __ATOMIC_RELEASE);
}

static void kill_hook(lua_State *L, lua_Debug *ar);

/* Whether the running call's deadline d is spent: the watchdog thread's verdict when it
 * runs (it tells work from waits), else the wall clock (the count hook alone). */
static bool deadline_spent(const engine_bundle *b, uint64_t d)
{
    if (b->wd_running)
        return __atomic_load_n(&b->wd_fired, __ATOMIC_ACQUIRE) == d;
    return dh_now_ns() >= d;
}

/* Sets the kill latch on L unless it is set already (see the top: the walk is costly). */
static void arm(lua_State *L)
{
    if (lua_gethook(L) != kill_hook || lua_gethookmask(L) != LUA_MASKCOUNT ||
        lua_gethookcount(L) != 1)
        lua_sethook(L, kill_hook, LUA_MASKCOUNT, 1);
}

/* Whether the running call must end: the latch fired, or the deadline passed (which
 * fires it). The hook asks, and so do pcall and xpcall, since the hook may no longer be
 * called (below). */
static bool call_killed(engine_bundle *b)
{
    if (!b->killing) {
        uint64_t d = deadline_load(b);
        if (!d || !deadline_spent(b, d))
            return false;
        b->killing = 1;
    }
    return true;
}

static void kill_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    engine_bundle *b = *(engine_bundle **)lua_getextraspace(L);
    if (!call_killed(b)) {
        if (b->wd_running)
            lua_sethook(L, NULL, 0, 0); /* a stale arming: nothing to kill */
        return;
    }
    arm(L);
    luaL_error(L, "script exceeded its time budget");
}

/* ---- pcall and xpcall that cannot swallow the kill --------------------------------------
 * The kill latch raises on every instruction, but the Lua VM (5.4.4, seen with a plain
 * debug.sethook too) stops calling a count hook after a while when a script catches those
 * errors with a pcall at every level of a deep recursion and recurses again after it: the
 * call then ran for good. So the latch does not rest on the hook alone: once it fired
 * (b->killing, until engine_call_end), a pcall or xpcall that caught an error raises it
 * again, and one asked to start raises at once. The only ways a script catches an error
 * are these two (no coroutine library, no __gc), so the kill reaches the engine's own
 * lua_pcall whatever the script does. They also read the deadline themselves, so a call
 * whose hook is no longer called still ends at the next pcall. Cost: a load per pcall (a
 * clock read without the thread), which card scripts hardly use. */

static int guard_refuse(lua_State *L)
{
    return luaL_error(L, "script exceeded its time budget");
}

/* After the real pcall/xpcall returned (or resumed after a yield): its results, unless the
 * kill fired meanwhile. */
static int guard_after(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    if (call_killed(*(engine_bundle **)lua_getextraspace(L)))
        return guard_refuse(L);
    return lua_gettop(L);
}

/* pcall or xpcall (upvalue 1) with a continuation, so a g:choose inside still yields.
 * Refused under more than GUARD_DEPTH calls: an error caught by a pcall costs Lua a walk of
 * the whole stack (it shrinks it back), so a script that catches at every level of a
 * recursion hundreds of thousands of calls deep unwinds in quadratic time, tens of seconds
 * after the kill. No card catches that deep. */
static int guard_call(lua_State *L)
{
    if (call_killed(*(engine_bundle **)lua_getextraspace(L)))
        return guard_refuse(L);
    lua_Debug ar;
    if (lua_getstack(L, GUARD_DEPTH, &ar))
        return luaL_error(L, "pcall: too deep (under more than %d calls)", GUARD_DEPTH);
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, n, LUA_MULTRET, 0, guard_after);
    return guard_after(L, LUA_OK, 0);
}

void engine_watchdog_guard_pcall(lua_State *L)
{
    static const char *const names[] = {"pcall", "xpcall"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        lua_getglobal(L, names[i]);
        lua_pushcclosure(L, guard_call, 1);
        lua_setglobal(L, names[i]);
    }
}

static void wd_on_signal(int sig)
{
    (void)sig;
    int saved = errno;
    engine_bundle *b = wd_current;
    if (b) {
        uint64_t d = deadline_load(b);
        if (d && deadline_spent(b, d)) {
            arm(b->L);
            lua_State *co = b->co_running;
            if (co)
                arm(co);
        }
        __atomic_store_n(&b->wd_in_flight, 0, __ATOMIC_RELEASE);
    }
    errno = saved;
}

static void wd_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wd_on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    wd_signal_ok = sigaction(ENGINE_WATCHDOG_SIGNAL, &sa, NULL) == 0;
}

static void abs_time(struct timespec *ts, uint64_t ns)
{
    ts->tv_sec = (time_t)(ns / 1000000000ULL);
    ts->tv_nsec = (long)(ns % 1000000000ULL);
}

/* What the watchdog sees at one look: the time, and the engine thread's CPU time on its
 * clock (UINT64_MAX when it cannot be read). */
typedef struct {
    uint64_t wall, cpu;
    clockid_t clock;
} wd_look;

static wd_look look(const engine_bundle *b)
{
    wd_look l = {dh_now_ns(), UINT64_MAX, 0};
    if (__atomic_load_n(&b->wd_clock_ok, __ATOMIC_ACQUIRE)) {
        l.clock = __atomic_load_n(&b->wd_clock, __ATOMIC_ACQUIRE);
        struct timespec ts;
        if (clock_gettime(l.clock, &ts) == 0)
            l.cpu = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    }
    return l;
}

/* A look before the deadline was set whose CPU time cannot be compared with now's (none
 * yet, or on the clock of the thread that ran the calls before): rebased on now's clock as
 * if the engine thread had run all the time between them. */
static void rebase(wd_look *before, const wd_look *now)
{
    if (now->cpu == UINT64_MAX || (before->cpu != UINT64_MAX && before->clock == now->clock))
        return;
    uint64_t ran = now->wall > before->wall ? now->wall - before->wall : 0;
    if (ran > now->cpu)
        ran = now->cpu; /* no look yet (wall 0): the thread's whole life */
    before->wall = now->wall - ran;
    before->cpu = now->cpu - ran;
    before->clock = now->clock;
}

/* The time the call's work has reached: the look before its deadline was set, plus the
 * engine thread's CPU time since (never past now). Where the CPU time is not known, the
 * wall clock: as if the thread ran all the time. */
static uint64_t worked_until(const wd_look *before, const wd_look *now)
{
    if (before->cpu == UINT64_MAX || now->cpu == UINT64_MAX || before->clock != now->clock ||
        now->cpu < before->cpu)
        return now->wall;
    uint64_t w = before->wall + (now->cpu - before->cpu);
    return w < now->wall ? w : now->wall;
}

static void *wd_main(void *arg)
{
    engine_bundle *b = arg;
    wd_look last = {0, UINT64_MAX, 0}, before = last;
    uint64_t seen = 0; /* the deadline `before` is for */
    pthread_mutex_lock(&b->wd_mu);
    while (!b->wd_stop) {
        wd_look now = look(b);
        uint64_t d = deadline_load(b), wake;
        if (d != seen) {
            /* set after the last look's load of the deadline, so after that look */
            seen = d;
            before = last;
        }
        if (d)
            rebase(&before, &now);
        last = now;
        if (!d) {
            wake = now.wall + IDLE_NS;
        } else if (now.wall < d) {
            wake = d < now.wall + TICK_NS ? d : now.wall + TICK_NS;
        } else {
            uint64_t worked = worked_until(&before, &now);
            if (worked >= d) {
                __atomic_store_n(&b->wd_fired, d, __ATOMIC_RELEASE);
                if (!__atomic_exchange_n(&b->wd_in_flight, 1, __ATOMIC_ACQ_REL) &&
                    pthread_kill(__atomic_load_n(&b->wd_owner, __ATOMIC_ACQUIRE),
                                 ENGINE_WATCHDOG_SIGNAL) != 0)
                    __atomic_store_n(&b->wd_in_flight, 0, __ATOMIC_RELEASE);
                wake = now.wall + TICK_NS; /* and again, until the call ends */
            } else {
                /* the thread did not run all that time: look again when it could have */
                uint64_t left = d - worked;
                wake = now.wall + (left < TICK_NS ? left : TICK_NS);
            }
        }
        struct timespec ts;
        abs_time(&ts, wake);
        pthread_cond_timedwait(&b->wd_cv, &b->wd_mu, &ts);
    }
    pthread_mutex_unlock(&b->wd_mu);
    return NULL;
}

/* The thread that runs the calls (signalled, and whose CPU clock the watchdog reads).
 * Compared by its clock too: a thread that ended may leave its pthread_t to a new one
 * (glibc reuses them), not its kernel id, which the clock names. Costs no system call. */
static void set_owner(engine_bundle *b, pthread_t self)
{
    clockid_t c;
    int ok = pthread_getcpuclockid(self, &c) == 0;
    if (pthread_equal(self, b->wd_owner) && ok == b->wd_clock_ok && (!ok || c == b->wd_clock))
        return;
    __atomic_store_n(&b->wd_clock_ok, 0, __ATOMIC_RELEASE);
    if (ok)
        __atomic_store_n(&b->wd_clock, c, __ATOMIC_RELEASE);
    __atomic_store_n(&b->wd_owner, self, __ATOMIC_RELEASE);
    __atomic_store_n(&b->wd_clock_ok, ok, __ATOMIC_RELEASE);
}

int engine_watchdog_start(engine_bundle *b)
{
    pthread_once(&wd_once, wd_install);
    set_owner(b, pthread_self());
    if (wd_signal_ok && dh_thread_sync_init(&b->wd_mu, &b->wd_cv) == 0) {
        if (pthread_create(&b->wd_thread, NULL, wd_main, b) == 0) {
            b->wd_running = 1;
            return 0;
        }
        dh_thread_sync_destroy(&b->wd_mu, &b->wd_cv);
    }
    /* No thread: the self-contained (slower) count hook watches the clock instead. */
    lua_sethook(b->L, kill_hook, LUA_MASKCOUNT, HOOK_COUNT);
    return -1;
}

void engine_watchdog_stop(engine_bundle *b)
{
    if (!b->wd_running)
        return;
    pthread_mutex_lock(&b->wd_mu);
    b->wd_stop = 1;
    pthread_cond_signal(&b->wd_cv);
    pthread_mutex_unlock(&b->wd_mu);
    pthread_join(b->wd_thread, NULL);
    pthread_cond_destroy(&b->wd_cv);
    pthread_mutex_destroy(&b->wd_mu);
    b->wd_running = 0;
}

/* A call inside a call (a rules test's T.match, engine_rules.c) runs on its own budget
 * and pauses the outer one: the outer deadline comes back as much later as the inner call
 * took, so each call's own work is what its budget bounds. What comes back is the time the
 * outer call had left (at least 1 ns: an overrun outer call is killed at once), 0 when
 * none ran. */
uint64_t engine_call_begin_for(engine_bundle *b, uint64_t budget_ns)
{
    uint64_t prev = b->deadline_ns, now = dh_now_ns();
    if (prev)
        prev = prev > now ? prev - now : 1;
    set_owner(b, pthread_self());
    /* a signal that landed between calls found no bundle to clear its flag on */
    __atomic_store_n(&b->wd_in_flight, 0, __ATOMIC_RELEASE);
    wd_current = b;
    engine_deadline_set(b, now + budget_ns);
    return prev;
}

uint64_t engine_call_begin(engine_bundle *b)
{
    return engine_call_begin_for(b, b->budget_ns);
}

/* The outer call's deadline again, `left` from now (but never past b->wall_ns); 0 when
 * there is no outer call. */
static uint64_t resumed_deadline(const engine_bundle *b, uint64_t left)
{
    if (!left)
        return 0;
    uint64_t d = dh_now_ns() + left;
    return b->wall_ns && d > b->wall_ns ? b->wall_ns : d;
}

void engine_call_end(engine_bundle *b, uint64_t prev)
{
    if (b->killing) {
        b->killing = 0;
        lua_sethook(b->L, b->wd_running ? NULL : kill_hook, b->wd_running ? 0 : LUA_MASKCOUNT,
                    b->wd_running ? 0 : HOOK_COUNT);
        /* What the killed script built is garbage now; give the memory back. */
        engine_deadline_set(b, dh_now_ns() + b->budget_ns);
        lua_gc(b->L, LUA_GCCOLLECT);
    }
    engine_deadline_set(b, resumed_deadline(b, prev));
    if (!prev)
        wd_current = NULL;
}
