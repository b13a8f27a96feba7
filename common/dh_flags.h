/*
 * dh_flags.h: command-line flags for every binary and `deckhand` subcommand, parsed with
 * getopt_long from a table the caller declares, each with an environment-variable
 * equivalent and a default looked up in that order.
 *
 *   static const dh_flag_spec spec[] = {
 *       {"redis", DH_FLAG_VALUE}, {"capacity", DH_FLAG_INT}, {"detach", DH_FLAG_SWITCH}, {0}};
 *   dh_flags f;
 *   int rc = dh_flags_parse(&f, spec, argc, argv, "deckhand-worker", usage);
 *   if (rc != DH_FLAGS_OK) return rc == DH_FLAGS_HELP ? 0 : 2;
 *   const char *url = dh_flags_str(&f, "redis", "DECKHAND_REDIS_URL", "redis://...");
 *
 * Values come as "--redis URL" or "--redis=URL". An unknown flag, a flag without its value
 * (including "--name --ws": a value that starts with "--" must be written "--name=--ws"),
 * a switch given a value, or an integer flag that does not parse prints what is wrong
 * and the usage on stderr: the caller exits 2. "--help" and "-h" print the usage on
 * stdout. Arguments that are not flags are left, in order, as the positionals.
 */
#ifndef DECKHAND_DH_FLAGS_H
#define DECKHAND_DH_FLAGS_H

#include <stdbool.h>

#define DH_FLAGS_MAX 32

typedef enum {
    DH_FLAG_VALUE,  /* --name VALUE */
    DH_FLAG_INT,    /* --name N, checked to be an integer */
    DH_FLAG_SWITCH, /* --name, no value */
} dh_flag_kind;

typedef struct {
    const char *name; /* without the leading "--"; a {0} entry ends the table */
    dh_flag_kind kind;
} dh_flag_spec;

typedef struct {
    const dh_flag_spec *spec;
    const char *value[DH_FLAGS_MAX]; /* per spec entry: the last value given, or NULL */
    bool given[DH_FLAGS_MAX];
    char **pos; /* the positionals, in order (pointers into argv) */
    int npos;
} dh_flags;

enum { DH_FLAGS_OK = 0, DH_FLAGS_HELP = 1, DH_FLAGS_ERROR = 2 };

/* Parse argv[1..] (argv[0] is the program or subcommand name). Reorders argv. Returns
 * DH_FLAGS_OK, DH_FLAGS_HELP (usage printed on stdout) or DH_FLAGS_ERROR (message and
 * usage printed on stderr; exit 2). who prefixes the message. */
int dh_flags_parse(dh_flags *f, const dh_flag_spec *spec, int argc, char **argv, const char *who,
                   const char *usage);

/* dh_flags_parse for a main() or a subcommand, which also wants between min_pos and
 * max_pos positional arguments. -1: go on; else the exit status (0 after --help, 2 on bad
 * usage, what is wrong and the usage printed on stderr). */
int dh_flags_parse_main(dh_flags *f, const dh_flag_spec *spec, int argc, char **argv,
                        const char *who, const char *usage, int min_pos, int max_pos);
/* The flag's value, else the variable's (when env is not NULL and it is set and not
 * empty), else def. Points into argv, environ or def: do not free it. Asking for a flag
 * the spec does not declare is a programming error (assert). */
const char *dh_flags_str(const dh_flags *f, const char *name, const char *env, const char *def);
/* Same, as an integer; an environment value that does not parse yields def. */
long dh_flags_int(const dh_flags *f, const char *name, const char *env, long def);
/* True when the switch was given. */
bool dh_flags_has(const dh_flags *f, const char *name);

/* Split "host:port" into its parts; returns 0 on success. */
int dh_flags_hostport(const char *s, char *host, int hostlen, int *port);

#endif
