/*
 * replay.c: the main() a fuzz target gets outside the fuzz build: it runs the target once on
 * each file named (a directory: on each file in it), so that the seed corpora and the
 * regression inputs are checked by every build and compiler, without libFuzzer.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Run the target on the file at path; 0, or -1 when it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                rc = -1;
                goto out;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        if (n == 0)
            break;
        len += n;
    }
    if (ferror(f)) {
        rc = -1;
        goto out;
    }
    /* an exact copy, so that a read past the input is past an allocation */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        rc = -1;
        goto out;
    }
    memcpy(exact, buf, len);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
out:
    free(buf);
    fclose(f);
    return rc;
}

/* Run every regular file of dir (in readdir order); the number run, or -1. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
            continue;
        if (replay_file(path) < 0) {
            n = -1;
            break;
        }
        n++;
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        int n = stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode) ? replay_dir(argv[i])
                : replay_file(argv[i]) == 0                    ? 1
                                                               : -1;
        if (n < 0) {
            fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
            return 1;
        }
        total += n;
    }
    printf("%s: %d inputs, no failure\n", argv[0], total);
    return total > 0 ? 0 : 1;
}
