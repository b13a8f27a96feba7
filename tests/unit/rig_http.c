/*
 * rig_http.c: a loopback HTTP client for the operator port's tests (rig_http.h).
 */
#include "rig_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dh_test.h"

int http_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

void send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w <= 0)
            return; /* the server may answer and close before reading it all */
        p += w;
        n -= (size_t)w;
    }
}

/* Everything the server sends until it closes (at most cap-1 bytes, 3 s). */
char *read_all(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    uint64_t deadline = dh_test_now_ms() + 3000;
    while (n + 1 < cap && dh_test_now_ms() < deadline) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    return buf;
}

/* Send req, return the whole response in buf. */
char *roundtrip(int port, const char *req, size_t len, char *buf, size_t cap)
{
    int fd = http_connect(port);
    CU_ASSERT_FATAL(fd >= 0);
    send_all(fd, req, len);
    read_all(fd, buf, cap);
    close(fd);
    return buf;
}
