/*
 * cmd_leaderboard.c: `deckhand leaderboard --game G [--mode M]`, the best rated accounts
 * of a game and mode, asked of a gateway (LeaderboardRequest, docs/PROTOCOL.md); with
 * --account NAME (password from DECKHAND_PASSWORD) --history, that account's recent rated
 * matches instead, each with the match id `deckhand replay` takes.
 *
 * Output, one line per entry after a header:
 *   RANK NAME ORDINAL MU SIGMA MATCHES
 *   MATCH_ID GAME MODE PLACE/PLAYERS ORDINAL_BEFORE->ORDINAL_AFTER vs OPPONENTS
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dh_client.h"
#include "dh_client_account.h"

static const char lb_who[] = "deckhand leaderboard";

static const char lb_usage[] =
    "usage: deckhand leaderboard --game G [--mode M] [--limit N] [--gateway ADDR] [--ws]\n"
    "                            [--account NAME [--register]]\n"
    "       deckhand leaderboard --history --account NAME [--limit N] [--gateway ADDR]\n"
    "  The best rated accounts of game G in mode M (default casual), by ordinal\n"
    "  (mu - 3 sigma), highest first; --limit 1..100 (default 10). With --history, the\n"
    "  recent rated matches of the account NAME. --account logs in to NAME (password in\n"
    "  DECKHAND_PASSWORD; --register creates it first) instead of as a guest.\n";

static void lb_print_board(const Deckhand__Leaderboard *lb)
{
    printf("leaderboard %s %s\n", lb->game, lb->mode);
    printf("%-5s %-24s %8s %8s %7s %7s\n", "rank", "name", "ordinal", "mu", "sigma", "matches");
    for (size_t i = 0; i < lb->n_entries; i++) {
        const Deckhand__LeaderboardEntry *e = lb->entries[i];
        printf("%-5u %-24s %8.2f %8.2f %7.3f %7u\n", e->rank, e->name, e->ordinal, e->mu, e->sigma,
               e->matches);
    }
}

static void lb_print_history(const Deckhand__History *h)
{
    for (size_t i = 0; i < h->n_entries; i++) {
        const Deckhand__HistoryEntry *e = h->entries[i];
        printf("%s %s %s %u/%u %.2f->%.2f vs", e->match_id, e->game, e->mode, e->place, e->players,
               e->ordinal_before, e->ordinal_after);
        for (size_t j = 0; j < e->n_opponents; j++)
            printf("%s%s", j ? "," : " ", e->opponents[j]);
        printf("\n");
    }
}

int cmd_leaderboard(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},
                                        {"mode", DH_FLAG_VALUE},
                                        {"limit", DH_FLAG_INT},
                                        {"history", DH_FLAG_SWITCH},
                                        CLI_FLAGS_GATEWAY,
                                        CLI_FLAGS_ACCOUNT,
                                        {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, lb_who, lb_usage, 0, 0);
    if (done >= 0)
        return done;
    bool history = dh_flags_has(f, "history");
    const char *account = dh_flags_str(f, "account", NULL, NULL);
    const char *game = history ? NULL : cli_required(f, lb_who, "game");
    long limit;
    char addr[512], err[256], token[512];
    if ((!history && !game) || (history && !account) ||
        cli_int(f, lb_who, "limit", 10, 1, 100, &limit) < 0 ||
        cli_gateway(f, lb_who, addr, sizeof addr) < 0) {
        if (history && !account)
            fprintf(stderr, "%s: --history needs --account\n", lb_who);
        return 2;
    }
    dh_client *c = cli_connect(lb_who, addr, account, dh_flags_has(f, "register"), "leaderboard",
                               token, sizeof token);
    if (!c)
        return 1;
    int rc = 1;
    Deckhand__ServerMessage *m = NULL;
    if (history ? dh_client_history(c, (unsigned)limit, &m, err, sizeof err)
                : dh_client_leaderboard(c, game, dh_flags_str(f, "mode", NULL, ""), (unsigned)limit,
                                        &m, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", lb_who, err);
        goto out;
    }
    if (history)
        lb_print_history(m->history);
    else
        lb_print_board(m->leaderboard);
    deckhand__server_message__free_unpacked(m, NULL);
    rc = 0;
out:
    dh_client_close(c);
    return rc;
}
