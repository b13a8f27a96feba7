/*
 * dh_curve.h: the cluster's CURVE keys, and putting them on ZeroMQ sockets, so that only
 * processes holding the cluster's keys can talk to the matchmaker or a worker.
 *
 * One server keypair for the whole cluster (the matchmaker's and the workers' ROUTER
 * sockets), and one client keypair per role (gateway, worker) for the DEALER sockets.
 * A server socket hands every handshake to the ZAP handler (dh_zap.h), which admits only
 * the client public keys its domain allows: the matchmaker gateways and workers, a
 * worker's data socket only gateways. The role a key belongs to becomes the message's
 * "User-Id" property, and dh_zmq_recv drops a message its sender's role may not send
 * (a gateway's key cannot send WorkerHello or MatchStarted).
 *
 * Every key is 40 characters of Z85 (zmq_z85_encode), read by dh_secret_get from
 *   DECKHAND_CURVE_SERVER_PUBLIC  DECKHAND_CURVE_SERVER_SECRET
 *   DECKHAND_CURVE_GATEWAY_PUBLIC DECKHAND_CURVE_GATEWAY_SECRET
 *   DECKHAND_CURVE_WORKER_PUBLIC  DECKHAND_CURVE_WORKER_SECRET
 * or their *_FILE variants, else from the files server.public, server.secret,
 * gateway.public... in the directory DECKHAND_CURVE_DIR (--curve-dir), which
 * `deckhand keygen` writes and a Kubernetes secret mounts. A process reads only the keys
 * its role needs (dh_curve_load). --insecure-internal turns CURVE off (logged loudly).
 */
#ifndef DECKHAND_DH_CURVE_H
#define DECKHAND_DH_CURVE_H

#include <stdbool.h>

#define DH_CURVE_KEY_LEN 40 /* Z85 characters of a 32-byte key */

typedef enum {
    DH_ROLE_MATCHMAKER, /* binds: server keypair; admits gateways and workers */
    DH_ROLE_WORKER,     /* binds (admits gateways) and connects to the matchmaker */
    DH_ROLE_GATEWAY,    /* connects only */
} dh_role;

typedef struct {
    bool on; /* false: --insecure-internal, plaintext */
    dh_role role;
    char server_public[DH_CURVE_KEY_LEN + 1];
    char server_secret[DH_CURVE_KEY_LEN + 1]; /* matchmaker, worker */
    char own_public[DH_CURVE_KEY_LEN + 1];    /* worker, gateway: this role's client keys */
    char own_secret[DH_CURVE_KEY_LEN + 1];
    char gateway_public[DH_CURVE_KEY_LEN + 1]; /* matchmaker, worker: admitted clients */
    char worker_public[DH_CURVE_KEY_LEN + 1];  /* matchmaker */
} dh_curve;

/* Load the keys role needs, from the environment or dir (NULL: DECKHAND_CURVE_DIR).
 * insecure: no keys, CURVE off. 0, or -1 (logged: which key is missing or bad). */
int dh_curve_load(dh_curve *c, dh_role role, const char *dir, bool insecure);

struct dh_zap;
/* Make sock (before bind) a CURVE server whose handshakes zap, the process's running ZAP
 * handler (dh_zap.h), checks under domain (DH_CURVE_DOMAIN_*). No-op when CURVE is off.
 * 0, or -1 (also when zap is NULL: libzmq would then admit every key). */
int dh_curve_server(void *sock, const dh_curve *c, const struct dh_zap *zap, const char *domain);
/* Make sock (before connect) a CURVE client of the cluster's servers. 0, or -1. */
int dh_curve_client(void *sock, const dh_curve *c);

/* The ZAP domains of the two server sockets. */
#define DH_CURVE_DOMAIN_MATCHMAKER "matchmaker"
#define DH_CURVE_DOMAIN_WORKER     "worker"

/* True when a Z85 key of 40 characters decodes. */
bool dh_curve_key_valid(const char *z85);

#endif
