/*
 * engine_files.c: a bundle's script files, held in memory: read from a folder or copied
 * from the caller's buffers, sorted by path, hashed into the bundle id, and looked up by
 * path (for `require`).
 *
 * A bundle is read fully into memory: it is hashed for its id anyway, and `require` then
 * never touches the file system again.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "dh_grow.h"
#include "engine_internal.h"

static int file_cmp(const void *a, const void *b)
{
    return strcmp(((const engine_file *)a)->path, ((const engine_file *)b)->path);
}

static int read_all(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    if (!f)
        return -1;
    size_t cap = 0, n = 0;
    for (;;) {
        if (dh_grow(&buf, &cap, n + 1, 1, 4096) < 0)
            goto err;
        size_t r = fread(buf + n, 1, cap - n, f);
        if (r == 0)
            break;
        n += r;
    }
    if (ferror(f))
        goto err;
    fclose(f);
    *out = buf;
    *len = n;
    return 0;
err:
    free(buf);
    fclose(f);
    return -1;
}

int engine_ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Reads every .lua file under root/rel into b->files (skipping dot files and folders). */
static int scan_dir(engine_bundle *b, const char *root, const char *rel, size_t *cap, int depth)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
    if (depth > 16)
        return 0;
    DIR *d = opendir(path);
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char r[4096], full[4096];
        int n = snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        if (n < 0 || (size_t)n >= sizeof r)
            continue;
        n = snprintf(full, sizeof full, "%s/%s", root, r);
        if (n < 0 || (size_t)n >= sizeof full)
            continue;
        struct stat sb;
        if (stat(full, &sb) < 0)
            continue;
        if (S_ISDIR(sb.st_mode)) {
            if (scan_dir(b, root, r, cap, depth + 1) < 0)
                goto err;
            continue;
        }
        if (!S_ISREG(sb.st_mode) || !engine_ends_with(de->d_name, ".lua"))
            continue;
        if (dh_grow(&b->files, cap, b->nfiles + 1, sizeof *b->files, 32) < 0)
            goto err;
        engine_file *f = &b->files[b->nfiles];
        f->path = strdup(r);
        if (!f->path)
            goto err;
        if (read_all(full, &f->data, &f->len) < 0) {
            free(f->path);
            goto err;
        }
        b->nfiles++;
    }
    closedir(d);
    return 0;
err:
    closedir(d);
    return -1;
}

int engine_files_hash(engine_bundle *b)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c)
        return -1;
    if (EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1)
        goto err;
    /* Per file, in path order: the path, a NUL, the content length as 8 bytes
       big-endian, the content. Unambiguous, and the same on every machine. */
    for (size_t i = 0; i < b->nfiles; i++) {
        uint8_t len[8];
        for (int j = 0; j < 8; j++)
            len[j] = (uint8_t)((uint64_t)b->files[i].len >> (56 - 8 * j));
        if (EVP_DigestUpdate(c, b->files[i].path, strlen(b->files[i].path) + 1) != 1 ||
            EVP_DigestUpdate(c, len, sizeof len) != 1 ||
            EVP_DigestUpdate(c, b->files[i].data, b->files[i].len) != 1)
            goto err;
    }
    if (EVP_DigestFinal_ex(c, md, &mdlen) != 1)
        goto err;
    for (unsigned i = 0; i < mdlen && i < 32; i++)
        snprintf(b->id + 2 * i, 3, "%02x", md[i]);
    EVP_MD_CTX_free(c);
    return 0;
err:
    EVP_MD_CTX_free(c);
    return -1;
}

int engine_files_read(engine_bundle *b)
{
    size_t cap = 0;
    return scan_dir(b, b->dir, "", &cap, 0);
}

/* A relative path of '/'-separated names, none empty or starting with a dot (what
 * scan_dir would have produced). */
static int path_ok(const char *p)
{
    if (!*p || strlen(p) >= 1024)
        return 0;
    for (const char *s = p; *s;) {
        if (*s == '/' || *s == '.')
            return 0;
        while (*s && *s != '/')
            s++;
        if (*s == '/')
            s++;
        else
            break;
        if (!*s)
            return 0;
    }
    return 1;
}

int engine_files_copy(engine_bundle *b, const engine_file_in *files, size_t n, const char **bad)
{
    b->files = calloc(n ? n : 1, sizeof(engine_file));
    if (!b->files)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const engine_file_in *in = &files[i];
        if (!in->path || !path_ok(in->path)) {
            *bad = in->path;
            return -2;
        }
        if (!engine_ends_with(in->path, ".lua"))
            continue;
        engine_file *f = &b->files[b->nfiles];
        f->path = strdup(in->path);
        f->data = malloc(in->len ? in->len : 1);
        if (!f->path || !f->data) {
            free(f->path);
            free(f->data);
            return -1;
        }
        if (in->len)
            memcpy(f->data, in->data, in->len);
        f->len = in->len;
        b->nfiles++;
    }
    return 0;
}

const char *engine_files_sort(engine_bundle *b)
{
    qsort(b->files, b->nfiles, sizeof(engine_file), file_cmp);
    for (size_t i = 1; i < b->nfiles; i++)
        if (!strcmp(b->files[i - 1].path, b->files[i].path))
            return b->files[i].path;
    return NULL;
}

const engine_file *engine_files_find(const engine_bundle *b, const char *path)
{
    engine_file key = {(char *)path, NULL, 0};
    return bsearch(&key, b->files, b->nfiles, sizeof(engine_file), file_cmp);
}

void engine_files_free(engine_bundle *b)
{
    for (size_t i = 0; i < b->nfiles; i++) {
        free(b->files[i].path);
        free(b->files[i].data);
    }
    free(b->files);
    b->files = NULL;
    b->nfiles = 0;
}
