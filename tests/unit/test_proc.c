/*
 * test_proc.c: process metrics (common/dh_proc.c): a /proc/PID/stat line parsed past a
 * command name holding spaces and parentheses; the live process sampled with sane values
 * (CPU time, resident memory, descriptors under the limit, a start time near now); and
 * the six standard series in /metrics with their types.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_ops.h"
#include "dh_proc.h"
#include "dh_test.h"

static void test_proc_parses_stat_past_an_odd_command_name(void)
{
    const char *line = "4242 (dh (x) y) S 1 4242 4242 0 -1 4194560 500 0 0 0 "
                       "250 75 0 0 20 0 3 0 123456 104857600 2560 18446744073709551615 1 1 0 "
                       "0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n";
    dh_proc_stat st;
    CU_ASSERT_EQUAL_FATAL(dh_proc_parse_stat(line, &st), 0);
    CU_ASSERT_EQUAL(st.utime, 250);
    CU_ASSERT_EQUAL(st.stime, 75);
    CU_ASSERT_EQUAL(st.starttime, 123456);
    CU_ASSERT_EQUAL(st.vsize, 104857600);
    CU_ASSERT_EQUAL(st.rss, 2560);
    CU_ASSERT_EQUAL(dh_proc_parse_stat("4242 (no end", &st), -1);
    CU_ASSERT_EQUAL(dh_proc_parse_stat("4242 (short) S 1 2 3", &st), -1);
}

static void test_proc_samples_this_process(void)
{
    dh_proc p;
    memset(&p, 0, sizeof p);
    volatile double spin = 0;
    for (int i = 0; i < 20000000; i++)
        spin += i;
    CU_ASSERT_EQUAL_FATAL(dh_proc_sample(&p), 0);
    CU_ASSERT(p.cpu_seconds > 0);
    CU_ASSERT(p.resident_bytes > 1 << 20);
    CU_ASSERT(p.virtual_bytes >= p.resident_bytes);
    CU_ASSERT(p.open_fds >= 3);
    CU_ASSERT(p.max_fds < 0 || p.open_fds < p.max_fds);
    double now = (double)time(NULL);
    CU_ASSERT(p.start_time > now - 600 && p.start_time <= now + 1);
}

static void test_proc_metrics_are_in_every_operator_port(void)
{
    dh_ops o;
    dh_ops_init(&o);
    size_t len;
    char *text = dh_metrics_render(&o.metrics, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    static const char *const want[] = {
        "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total ",
        "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes ",
        "# TYPE process_virtual_memory_bytes gauge\n",
        "# TYPE process_open_fds gauge\nprocess_open_fds ",
        "# TYPE process_max_fds gauge\nprocess_max_fds ",
        "# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds ",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(text, want[i]));
    CU_ASSERT_PTR_NULL(strstr(text, "process_open_fds 0\n")); /* sampled at the render */
    free(text);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"proc_parses_stat_past_an_odd_command_name",
         test_proc_parses_stat_past_an_odd_command_name},
        {"proc_samples_this_process", test_proc_samples_this_process},
        {"proc_metrics_are_in_every_operator_port", test_proc_metrics_are_in_every_operator_port},
        {NULL, NULL},
    };
    return dh_test_main("proc", cases);
}
