/*
 * deckhand_rules.c: `deckhand-rules BUNDLE_DIR [--game G] [--filter SUBSTR] [--budget-ms MS]`,
 * the runner of every game's rules tests (every GAME/tests/NAME.lua) on the real engine. The
 * runner itself is engine_rules_run (engine/engine_rules.c), shared with `deckhand scripts
 * push`. --budget-ms sets the call budget (default: a worker's, 250 ms); the sanitized test
 * build passes a wider one, since its Lua runs several times slower than a worker's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: deckhand-rules BUNDLE_DIR [--game G] [--filter SUBSTR] [--budget-ms MS]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *only = NULL, *filter = NULL;
    unsigned long budget_ms = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--game") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--budget-ms") && i + 1 < argc) {
            char *end;
            budget_ms = strtoul(argv[++i], &end, 10);
            if (*end || budget_ms == 0 || budget_ms > 60000)
                return usage();
        } else if (argv[i][0] == '-' || dir)
            return usage();
        else
            dir = argv[i];
    }
    if (!dir)
        return usage();
    engine_error err = {0};
    engine_limits lim = {0, (uint32_t)budget_ms};
    engine_bundle *b = engine_bundle_load(dir, &lim, &err);
    if (!b) {
        fprintf(stderr, "deckhand-rules: %s\n", err.message);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    engine_rules_report rep;
    engine_rules_run(b, only, filter, stdout, &rep);
    printf("%d passed, %d failed\n", rep.passed, rep.failed);
    engine_bundle_free(b);
    return rep.failed || !rep.passed ? 1 : 0;
}
