/*
 * deckhand_rules.c: `deckhand-rules BUNDLE_DIR [--game G] [--filter SUBSTR]`, the runner of
 * every game's rules tests (every GAME/tests/NAME.lua) on the real engine. The runner
 * itself is engine_rules_run (engine/engine_rules.c), shared with `deckhand scripts push`.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"

static int usage(void)
{
    fprintf(stderr, "usage: deckhand-rules BUNDLE_DIR [--game G] [--filter SUBSTR]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *only = NULL, *filter = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--game") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (argv[i][0] == '-' || dir)
            return usage();
        else
            dir = argv[i];
    }
    if (!dir)
        return usage();
    engine_error err = {0};
    engine_limits lim = {0, 0};
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
