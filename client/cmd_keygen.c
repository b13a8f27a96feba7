/*
 * cmd_keygen.c: `deckhand keygen DIR`, the secrets of one cluster in one folder: the CURVE
 * keypairs of the internal links (dh_curve.h: server, gateway, worker) and a Redis
 * password per role with the ACL file redis-server loads (dh_acl.h).
 *
 * A key or password file that exists already is kept, so running it again (a restart of
 * the local cluster) changes nothing; users.acl is always rewritten from the passwords.
 * Secret files are created with mode 600, public keys 644. Debian's libzmq ships no
 * curve_keygen, hence this command (zmq_curve_keypair, which uses libsodium).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "cli.h"
#include "dh_acl.h"
#include "dh_curve.h"
#include "dh_secret.h"
#include "dh_token.h"

#define KEYGEN_PASSWORD_BYTES 24

static const char keygen_usage[] =
    "usage: deckhand keygen DIR\n"
    "       deckhand keygen --acl-only PASSWORD_DIR --out FILE\n"
    "\n"
    "  Write the cluster's secrets into DIR (created if missing), keeping any that exist:\n"
    "  CURVE keypairs server.public/.secret, gateway.*, worker.* for the ZeroMQ links, and\n"
    "  redis-ROLE.password for the Redis users gateway, matchmaker, worker and default\n"
    "  (the operators'), with users.acl for redis-server --aclfile (docs/OPERATIONS.md).\n"
    "  --acl-only: only write the ACL file FILE from the redis-ROLE.password files that\n"
    "  PASSWORD_DIR holds (after changing a password: docs/OPERATIONS.md, \"Keys\").\n";

static const char keygen_who[] = "deckhand keygen";

/* Write text to DIR/name with mode, unless the file exists. 1 written, 0 kept, -1. */
static int keygen_write(const char *dir, const char *name, const char *text, mode_t mode,
                        bool replace)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int flags = O_WRONLY | O_CREAT | (replace ? O_TRUNC : O_EXCL);
    int fd = open(path, flags, mode);
    if (fd < 0 && errno == EEXIST)
        return 0;
    size_t n = strlen(text);
    if (fd < 0 || write(fd, text, n) != (ssize_t)n || write(fd, "\n", 1) != 1) {
        fprintf(stderr, "%s: cannot write %s: %s\n", keygen_who, path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 1;
}

/* NAME.public and NAME.secret, a fresh keypair unless NAME.secret exists. */
static int keygen_curve(const char *dir, const char *name)
{
    char pub[DH_CURVE_KEY_LEN + 1], sec[DH_CURVE_KEY_LEN + 1], file[64];
    if (zmq_curve_keypair(pub, sec) != 0) {
        fprintf(stderr, "%s: no CURVE in this libzmq: %s\n", keygen_who, zmq_strerror(errno));
        return -1;
    }
    snprintf(file, sizeof file, "%s.secret", name);
    int rc = keygen_write(dir, file, sec, 0600, false);
    if (rc <= 0)
        return rc;
    snprintf(file, sizeof file, "%s.public", name);
    return keygen_write(dir, file, pub, 0644, true) < 0 ? -1 : 0;
}

/* DIR/redis-USER.password (a new random one unless it exists, or create is false) into
 * out. */
static int keygen_password(const char *dir, const char *user, bool create, char *out, size_t cap)
{
    uint8_t raw[KEYGEN_PASSWORD_BYTES];
    char file[64], path[4096], hex[2 * KEYGEN_PASSWORD_BYTES + 1];
    if (dh_token_random_key(raw, sizeof raw) < 0)
        return -1;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(hex + 2 * i, 3, "%02x", raw[i]);
    snprintf(file, sizeof file, "redis-%s.password", user);
    if (create && keygen_write(dir, file, hex, 0600, false) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return dh_secret_file(path, out, cap, true) < 0 ? -1 : 0;
}

/* The ACL file out (DIR/users.acl when NULL): one "user NAME on >PASSWORD RULES" line
 * per role, the passwords from DIR (made when create). */
static int keygen_acl(const char *dir, bool create, const char *out)
{
    char text[8192] = "", pw[128];
    size_t used = 0;
    for (size_t i = 0; i < dh_acl_nroles; i++) {
        if (keygen_password(dir, dh_acl_roles[i].user, create, pw, sizeof pw) < 0)
            return -1;
        int n = snprintf(text + used, sizeof text - used, "%suser %s on >%s %s", i ? "\n" : "",
                         dh_acl_roles[i].user, pw, dh_acl_roles[i].rules);
        if (n < 0 || (size_t)n >= sizeof text - used)
            return -1;
        used += (size_t)n;
    }
    if (!out)
        return keygen_write(dir, "users.acl", text, 0600, true) < 0 ? -1 : 0;
    char outdir[4096];
    snprintf(outdir, sizeof outdir, "%s", out);
    char *slash = strrchr(outdir, '/');
    if (slash)
        *slash = '\0';
    return keygen_write(slash ? outdir : ".", slash ? slash + 1 : out, text, 0600, true) < 0 ? -1
                                                                                             : 0;
}

int cmd_keygen(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {
        {"acl-only", DH_FLAG_SWITCH}, {"out", DH_FLAG_VALUE}, {NULL, 0}};
    dh_flags f;
    int done = dh_flags_parse_main(&f, spec, argc, argv, keygen_who, keygen_usage, 1, 1);
    if (done >= 0)
        return done;
    const char *dir = f.pos[0];
    if (dh_flags_has(&f, "acl-only")) {
        const char *out = cli_required(&f, keygen_who, "out");
        if (!out)
            return 2;
        return keygen_acl(dir, false, out) < 0 ? 1 : 0;
    }
    if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
        fprintf(stderr, "%s: cannot create %s: %s\n", keygen_who, dir, strerror(errno));
        return 1;
    }
    static const char *const pairs[] = {"server", "gateway", "worker"};
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if (keygen_curve(dir, pairs[i]) < 0)
            return 1;
    return keygen_acl(dir, true, NULL) < 0 ? 1 : 0;
}
