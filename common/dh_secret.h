/*
 * dh_secret.h: reading a secret (a CURVE key, a Redis password, a token key) from the
 * environment or a file, so that none has to be given on a command line, where `ps` and
 * shell histories show it.
 *
 * Each secret NAME is looked for as the environment variable NAME, then as a file named
 * by NAME_FILE (a Kubernetes secret mounted as a volume, or a file the local cluster
 * scripts write with mode 600). A file's trailing newlines and spaces are dropped.
 */
#ifndef DECKHAND_DH_SECRET_H
#define DECKHAND_DH_SECRET_H

#include <stdbool.h>
#include <stddef.h>

/* Read the secret NAME into out (cap bytes, NUL-terminated). Returns its length, 0 when
 * neither NAME nor NAME_FILE is set, or -1 (logged) when the file cannot be read, or the
 * secret is empty or does not fit. */
long dh_secret_get(const char *name, char *out, size_t cap);

/* Read a whole file into out as above: its length, or -1 (logged). private: warn when
 * every user may read it (a public key need not be private). */
long dh_secret_file(const char *path, char *out, size_t cap, bool private);

#endif
