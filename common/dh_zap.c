/*
 * dh_zap.c: see dh_zap.h.
 */
#include "dh_zap.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"

#define ZAP_ENDPOINT "inproc://zeromq.zap.01"
#define ZAP_FRAMES   7 /* version, request id, domain, address, identity, mechanism, key */
#define ZAP_POLL_MS  100

struct dh_zap {
    void *sock;
    pthread_t thread;
    dh_curve keys;
    dh_counter refused;
    atomic_bool stop;
};

/* The role a client key plays in domain, or NULL when the domain does not admit it. */
static const char *zap_role(const dh_zap *z, const char *domain, const uint8_t key[32])
{
    char z85[DH_CURVE_KEY_LEN + 1];
    if (!zmq_z85_encode(z85, key, 32))
        return NULL;
    bool mm = strcmp(domain, DH_CURVE_DOMAIN_MATCHMAKER) == 0;
    bool wk = strcmp(domain, DH_CURVE_DOMAIN_WORKER) == 0;
    if ((mm || wk) && z->keys.gateway_public[0] && strcmp(z85, z->keys.gateway_public) == 0)
        return DH_ZAP_ROLE_GATEWAY;
    if (mm && z->keys.worker_public[0] && strcmp(z85, z->keys.worker_public) == 0)
        return DH_ZAP_ROLE_WORKER;
    return NULL;
}

/* Count and (for the first ones) log a refusal. address and key may be NULL. */
static void zap_refused(dh_zap *z, const char *domain, const char *mechanism, zmq_msg_t *address,
                        zmq_msg_t *key)
{
    uint64_t n = atomic_fetch_add_explicit(&z->refused, 1, memory_order_relaxed) + 1;
    if (n > 10 && n % 1000 != 0)
        return;
    char addr[64] = "?", z85[DH_CURVE_KEY_LEN + 1] = "none";
    if (address) {
        size_t alen = zmq_msg_size(address) < sizeof addr ? zmq_msg_size(address) : sizeof addr - 1;
        memcpy(addr, zmq_msg_data(address), alen);
        addr[alen] = '\0';
        for (size_t i = 0; i < alen; i++)
            if ((unsigned char)addr[i] < 0x20 || (unsigned char)addr[i] > 0x7e)
                addr[i] = '?';
    }
    if (key && zmq_msg_size(key) == 32)
        zmq_z85_encode(z85, zmq_msg_data(key), 32);
    dh_warn("refused an internal connection from %s to %s: %s key %s is not the cluster's "
            "(%llu refused so far)",
            addr, domain, mechanism, z85, (unsigned long long)n);
}

/* Copy a frame into a C string buffer; false when it does not fit. */
static bool zap_text(zmq_msg_t *m, char *out, size_t cap)
{
    size_t n = zmq_msg_size(m);
    if (n >= cap)
        return false;
    memcpy(out, zmq_msg_data(m), n);
    out[n] = '\0';
    return true;
}

/* Answer one request of n frames, the first min(n, ZAP_FRAMES) of them in f. */
static void zap_answer(dh_zap *z, zmq_msg_t *f, int n)
{
    char version[8] = "", domain[64] = "?", mechanism[16] = "?";
    const char *role = NULL;
    bool whole = n == ZAP_FRAMES && zap_text(&f[0], version, sizeof version) &&
                 strcmp(version, "1.0") == 0 && zap_text(&f[2], domain, sizeof domain) &&
                 zap_text(&f[5], mechanism, sizeof mechanism);
    if (whole && strcmp(mechanism, "CURVE") == 0 && zmq_msg_size(&f[6]) == 32)
        role = zap_role(z, domain, zmq_msg_data(&f[6]));
    if (!role)
        zap_refused(z, domain, mechanism, n > 3 ? &f[3] : NULL, whole ? &f[6] : NULL);
    const char *status = role ? "200" : "400";
    const char *text = role ? "OK" : "unknown key";
    zmq_send(z->sock, "1.0", 3, ZMQ_SNDMORE);
    if (n >= 2)
        zmq_send(z->sock, zmq_msg_data(&f[1]), zmq_msg_size(&f[1]), ZMQ_SNDMORE);
    else
        zmq_send(z->sock, "", 0, ZMQ_SNDMORE);
    zmq_send(z->sock, status, 3, ZMQ_SNDMORE);
    zmq_send(z->sock, text, strlen(text), ZMQ_SNDMORE);
    zmq_send(z->sock, role ? role : "", role ? strlen(role) : 0, ZMQ_SNDMORE);
    zmq_send(z->sock, "", 0, 0);
}

/* Read one request (the first ZAP_FRAMES frames kept, any more dropped) and answer it. */
static void zap_serve_one(dh_zap *z)
{
    zmq_msg_t f[ZAP_FRAMES];
    int n = 0, more = 1;
    while (more) {
        zmq_msg_t extra, *m = n < ZAP_FRAMES ? &f[n] : &extra;
        zmq_msg_init(m);
        if (zmq_msg_recv(m, z->sock, 0) < 0) {
            zmq_msg_close(m);
            break;
        }
        more = zmq_msg_more(m);
        if (m == &extra)
            zmq_msg_close(m);
        n++;
    }
    if (n == 0)
        return;
    zap_answer(z, f, n);
    for (int i = 0; i < n && i < ZAP_FRAMES; i++)
        zmq_msg_close(&f[i]);
}

static void *zap_main(void *arg)
{
    dh_zap *z = arg;
    while (!atomic_load(&z->stop)) {
        zmq_pollitem_t item = {.socket = z->sock, .events = ZMQ_POLLIN};
        int rc = zmq_poll(&item, 1, ZAP_POLL_MS);
        if (rc > 0)
            zap_serve_one(z);
        else if (rc < 0 && zmq_errno() == ETERM)
            break;
    }
    zmq_close(z->sock);
    return NULL;
}

dh_zap *dh_zap_start(void *ctx, const dh_curve *c)
{
    dh_zap *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->keys = *c;
    z->sock = zmq_socket(ctx, ZMQ_REP);
    int zero = 0;
    if (!z->sock || zmq_setsockopt(z->sock, ZMQ_LINGER, &zero, sizeof zero) < 0 ||
        zmq_bind(z->sock, ZAP_ENDPOINT) < 0) {
        dh_error("cannot bind the ZAP handler at %s: %s", ZAP_ENDPOINT, zmq_strerror(zmq_errno()));
        goto err;
    }
    if (pthread_create(&z->thread, NULL, zap_main, z) != 0) {
        dh_error("cannot start the ZAP handler thread");
        goto err;
    }
    return z;
err:
    if (z->sock)
        zmq_close(z->sock);
    free(z);
    return NULL;
}

dh_counter *dh_zap_refused(dh_zap *z)
{
    return &z->refused;
}

void dh_zap_stop(dh_zap *z)
{
    if (!z)
        return;
    atomic_store(&z->stop, true);
    pthread_join(z->thread, NULL);
    free(z);
}
