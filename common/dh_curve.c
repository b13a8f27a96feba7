/*
 * dh_curve.c: see dh_curve.h.
 */
#include "dh_curve.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"
#include "dh_secret.h"

bool dh_curve_key_valid(const char *z85)
{
    uint8_t raw[32];
    return z85 && strlen(z85) == DH_CURVE_KEY_LEN && zmq_z85_decode(raw, z85) != NULL;
}

/* Key NAME ("server.public"): DECKHAND_CURVE_SERVER_PUBLIC(_FILE), else DIR/NAME. */
static int curve_key(const char *name, const char *dir, char out[DH_CURVE_KEY_LEN + 1])
{
    char var[96], path[4096], buf[128];
    snprintf(var, sizeof var, "DECKHAND_CURVE_%s", name);
    for (char *p = var; *p; p++)
        *p = *p == '.' ? '_' : (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
    long n = dh_secret_get(var, buf, sizeof buf);
    if (n == 0 && dir && dir[0]) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        n = dh_secret_file(path, buf, sizeof buf, strstr(name, ".secret") != NULL);
    }
    if (n == 0) {
        dh_error("CURVE key %s missing: set %s, %s_FILE or DECKHAND_CURVE_DIR (deckhand keygen "
                 "makes the keys; --insecure-internal runs without)",
                 name, var, var);
        return -1;
    }
    if (n < 0 || !dh_curve_key_valid(buf)) {
        dh_error("CURVE key %s is not 40 characters of Z85", name);
        return -1;
    }
    memcpy(out, buf, DH_CURVE_KEY_LEN + 1);
    return 0;
}

int dh_curve_load(dh_curve *c, dh_role role, const char *dir, bool insecure)
{
    memset(c, 0, sizeof *c);
    c->role = role;
    if (insecure) {
        dh_warn("INSECURE: --insecure-internal: ZeroMQ links are neither authenticated nor "
                "encrypted; any process that reaches this one's ports can act as a cluster "
                "member");
        return 0;
    }
    if (!zmq_has("curve")) {
        dh_error("this libzmq has no CURVE support (libsodium); use --insecure-internal");
        return -1;
    }
    if (!dir)
        dir = getenv("DECKHAND_CURVE_DIR");
    c->on = true;
    int rc = curve_key("server.public", dir, c->server_public);
    if (rc == 0 && role != DH_ROLE_GATEWAY) {
        rc |= curve_key("server.secret", dir, c->server_secret);
        rc |= curve_key("gateway.public", dir, c->gateway_public);
    }
    if (rc == 0 && role == DH_ROLE_MATCHMAKER)
        rc |= curve_key("worker.public", dir, c->worker_public);
    const char *own = role == DH_ROLE_WORKER ? "worker" : "gateway";
    if (rc == 0 && role != DH_ROLE_MATCHMAKER) {
        char pub[32], sec[32];
        snprintf(pub, sizeof pub, "%s.public", own);
        snprintf(sec, sizeof sec, "%s.secret", own);
        rc |= curve_key(pub, dir, c->own_public);
        rc |= curve_key(sec, dir, c->own_secret);
    }
    if (rc == 0)
        dh_info("internal links: CURVE on (server key %.8s...)", c->server_public);
    return rc ? -1 : 0;
}

int dh_curve_server(void *sock, const dh_curve *c, const struct dh_zap *zap, const char *domain)
{
    if (!c->on)
        return 0;
    /* Without a ZAP handler libzmq 4.3 admits any client key (ZMQ_ZAP_ENFORCE_DOMAIN is a
     * draft option Debian's build lacks): a server socket needs the handler running. */
    if (!zap) {
        dh_error("a CURVE server socket needs the ZAP handler (dh_zap_start) first");
        return -1;
    }
    int one = 1;
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVER, &one, sizeof one) < 0 ||
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, c->server_secret, DH_CURVE_KEY_LEN) < 0 ||
        zmq_setsockopt(sock, ZMQ_ZAP_DOMAIN, domain, strlen(domain)) < 0)
        return -1;
    return 0;
}

int dh_curve_client(void *sock, const dh_curve *c)
{
    if (!c->on)
        return 0;
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, c->server_public, DH_CURVE_KEY_LEN) < 0 ||
        zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, c->own_public, DH_CURVE_KEY_LEN) < 0 ||
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, c->own_secret, DH_CURVE_KEY_LEN) < 0)
        return -1;
    return 0;
}
