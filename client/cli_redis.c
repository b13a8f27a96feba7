/*
 * cli_redis.c: how the deckhand commands that read the cluster's Redis (`scripts`,
 * `replay`) find it and load the bundles stored in it (dh_bundle.h), so that a match is
 * rebuilt here on exactly the Lua its worker ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dh_bundle.h"
#include "dh_client_env.h"

redisContext *cli_redis(const dh_flags *f, const char *who, dh_redis *r)
{
    char envurl[512];
    const char *url = dh_flags_str(f, "redis", "DECKHAND_REDIS_URL", NULL);
    if (!url &&
        dh_client_env_file(DH_CLIENT_ENV_FILE, "DECKHAND_REDIS_URL", envurl, sizeof envurl) == 0)
        url = envurl;
    if (!url)
        url = "redis://127.0.0.1:6390";
    if (dh_redis_init(r, url, 2000) < 0) {
        fprintf(stderr, "%s: bad Redis URL %s\n", who, url);
        return NULL;
    }
    redisContext *c = dh_redis_get(r, 0);
    if (!c)
        fprintf(stderr, "%s: cannot reach Redis at %s\n", who, url);
    return c;
}

engine_bundle *cli_redis_bundle(dh_redis *c, const char *sha, const char *who)
{
    dh_bundle_file *files = NULL;
    size_t nf = 0;
    engine_bundle *b = NULL;
    int st = dh_bundle_fetch(c, sha, &files, &nf);
    if (st != 1) {
        if (st == 0)
            fprintf(stderr, "%s: bundle %s is not in Redis\n", who, sha);
        else
            fprintf(stderr, "%s: cannot read bundle %s: redis unreachable\n", who, sha);
        goto out;
    }
    engine_error ee = {0};
    b = engine_bundle_load_files("bundle", files, nf, NULL, &ee);
    if (!b) {
        fprintf(stderr, "%s: bundle %.12s: %s\n", who, sha, ee.message);
    } else if (strcmp(engine_bundle_id(b), sha)) {
        /* as a worker refuses it (worker/bundles.c): not the Lua that id names */
        fprintf(stderr, "%s: bundle %.12s: its content hashes to %.12s\n", who, sha,
                engine_bundle_id(b));
        engine_bundle_free(b);
        b = NULL;
    }
out:
    dh_bundle_files_free(files, nf);
    return b;
}
