/*
 * test_client_admin_token.c: one operator, one name in both audit trails. The admin token
 * `deckhand admin` sends and the name a script change records come from one lookup
 * (client/admin_token.c): its order (variable, file variable, the local cluster's
 * cluster.env), the matchmaker's line form, and the script actor's order (--by, else the
 * token's NAME, else $USER).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "admin_token.h"
#include "dh_flags.h"
#include "dh_test.h"
#include "scripts.h"

static void clear_env(void)
{
    unsetenv("DECKHAND_ADMIN_TOKEN");
    unsetenv("DECKHAND_ADMIN_TOKEN_FILE");
}

static void test_token_line_named_bare_and_after_comments(void)
{
    admin_token t;
    CU_ASSERT_EQUAL(admin_token_parse("# ops\n\nalice:0123456789abcdef0123\nbob:x\n", &t), 1);
    CU_ASSERT_STRING_EQUAL(t.name, "alice");
    CU_ASSERT_STRING_EQUAL(t.token, "0123456789abcdef0123");
    CU_ASSERT_EQUAL(admin_token_parse("0123456789abcdef0123\r\n", &t), 1);
    CU_ASSERT_STRING_EQUAL(t.name, "admin"); /* the matchmaker names a bare token "admin" */
    CU_ASSERT_STRING_EQUAL(t.token, "0123456789abcdef0123");
}

static void test_token_line_missing_or_nameless_is_no_token(void)
{
    admin_token t;
    CU_ASSERT_EQUAL(admin_token_parse("# only a comment\n\n", &t), 0);
    CU_ASSERT_EQUAL(admin_token_parse(":0123456789abcdef0123\n", &t), -1);
}

/* A directory with .run/cluster.env naming a token file holding text; chdir'd into. */
static char *local_cluster(const char *text)
{
    static char dir[] = "/tmp/dh-admin-token-XXXXXX";
    char path[256];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/.run", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/admin.token", dir);
    FILE *fp = fopen(path, "w");
    fputs(text, fp);
    fclose(fp);
    chmod(path, 0600);
    snprintf(path, sizeof path, "%s/.run/cluster.env", dir);
    fp = fopen(path, "w");
    fprintf(fp, "DECKHAND_ADMIN_TOKEN_FILE=%s/admin.token\n", dir);
    fclose(fp);
    CU_ASSERT_EQUAL(chdir(dir), 0);
    return dir;
}

static void leave_local_cluster(const char *dir, const char *back)
{
    char cmd[300];
    CU_ASSERT_EQUAL(chdir(back), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_token_found_variable_then_local_cluster(void)
{
    char back[512];
    admin_token t;
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(back, sizeof back));
    clear_env();
    const char *dir = local_cluster("local:0123456789abcdef0123\n");
    CU_ASSERT_EQUAL(admin_token_find(NULL, &t), 1);
    CU_ASSERT_STRING_EQUAL(t.name, "local");
    setenv("DECKHAND_ADMIN_TOKEN", "alice:fedcba9876543210fedc", 1);
    CU_ASSERT_EQUAL(admin_token_find(NULL, &t), 1);
    CU_ASSERT_STRING_EQUAL(t.name, "alice");
    CU_ASSERT_STRING_EQUAL(t.token, "fedcba9876543210fedc");
    clear_env();
    leave_local_cluster(dir, back);
    CU_ASSERT_EQUAL(admin_token_find(NULL, &t), 0);
}

/* The actor scripts_actor_init records with argv's flags. */
static void actor_of(char **argv, int argc, char *out, size_t cap)
{
    static const dh_flag_spec spec[] = {{"by", DH_FLAG_VALUE}, {"reason", DH_FLAG_VALUE}, {0}};
    dh_flags f;
    scripts_actor a;
    CU_ASSERT_EQUAL_FATAL(dh_flags_parse(&f, spec, argc, argv, "test", "usage"), DH_FLAGS_OK);
    CU_ASSERT_EQUAL_FATAL(scripts_actor_init(&a, &f, NULL), 0);
    snprintf(out, cap, "%s", a.by);
}

static void test_script_actor_by_then_token_name_then_user(void)
{
    char by[128], arg0[] = "push", arg1[] = "--by", arg2[] = "carol";
    char *with_by[] = {arg0, arg1, arg2, NULL}, *plain[] = {arg0, NULL};
    clear_env();
    setenv("USER", "bob", 1);
    setenv("DECKHAND_ADMIN_TOKEN", "# ops\nalice:fedcba9876543210fedc\n", 1);
    actor_of(with_by, 3, by, sizeof by);
    CU_ASSERT_STRING_EQUAL(by, "carol");
    actor_of(plain, 1, by, sizeof by);
    CU_ASSERT_STRING_EQUAL(by, "alice"); /* the token's name, not $USER */
    clear_env();
    actor_of(plain, 1, by, sizeof by);
    CU_ASSERT_STRING_EQUAL(by, "bob"); /* no token: $USER */
}

static void test_script_actor_unreadable_token_file_refused(void)
{
    static const dh_flag_spec spec[] = {{"by", DH_FLAG_VALUE}, {"reason", DH_FLAG_VALUE}, {0}};
    char arg0[] = "push", *argv[] = {arg0, NULL};
    dh_flags f;
    scripts_actor a;
    clear_env();
    setenv("DECKHAND_ADMIN_TOKEN_FILE", "/nonexistent/admin.token", 1);
    CU_ASSERT_EQUAL_FATAL(dh_flags_parse(&f, spec, 1, argv, "test", "usage"), DH_FLAGS_OK);
    CU_ASSERT_EQUAL(scripts_actor_init(&a, &f, NULL), -1);
    clear_env();
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"token_line_named_bare_and_after_comments", test_token_line_named_bare_and_after_comments},
        {"token_line_missing_or_nameless_is_no_token",
         test_token_line_missing_or_nameless_is_no_token},
        {"token_found_variable_then_local_cluster", test_token_found_variable_then_local_cluster},
        {"script_actor_by_then_token_name_then_user",
         test_script_actor_by_then_token_name_then_user},
        {"script_actor_unreadable_token_file_refused",
         test_script_actor_unreadable_token_file_refused},
        {NULL, NULL},
    };
    return dh_test_main("client_admin_token", cases);
}
