/*
 * test_client_arena.c: the bump allocator a load generator's connections decode into
 * (client/lib/dh_client_arena.h): aligned memory, a chunk of its own for a large
 * allocation, the memory reused after a reset, protobuf-c unpacking into it, and a
 * release that frees only what is not the arena's.
 */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dh_client_arena.h"
#include "dh_test.h"

static void test_arena_gives_aligned_memory_it_owns(void)
{
    dh_arena a;
    dh_arena_init(&a);
    char *one = dh_arena_alloc(&a, 1), *two = dh_arena_alloc(&a, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(one);
    CU_ASSERT_PTR_NOT_NULL_FATAL(two);
    CU_ASSERT_EQUAL((uintptr_t)one % alignof(max_align_t), 0);
    CU_ASSERT_EQUAL((uintptr_t)two % alignof(max_align_t), 0);
    CU_ASSERT_TRUE(two >= one + 1);
    CU_ASSERT_TRUE(dh_arena_owns(&a, one));
    CU_ASSERT_TRUE(dh_arena_owns(&a, two + 2));
    int local;
    CU_ASSERT_FALSE(dh_arena_owns(&a, &local));
    dh_arena_free(&a);
}

static void test_arena_takes_an_allocation_larger_than_a_chunk(void)
{
    dh_arena a;
    dh_arena_init(&a);
    char *small = dh_arena_alloc(&a, 16);
    char *big = dh_arena_alloc(&a, DH_ARENA_CHUNK * 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    memset(big, 'x', DH_ARENA_CHUNK * 2); /* ASan: all of it is there */
    CU_ASSERT_TRUE(dh_arena_owns(&a, small));
    CU_ASSERT_TRUE(dh_arena_owns(&a, big + DH_ARENA_CHUNK * 2 - 1));
    dh_arena_free(&a);
}

static void test_arena_reuses_its_memory_after_a_reset(void)
{
    dh_arena a;
    dh_arena_init(&a);
    void *first = dh_arena_alloc(&a, 100);
    for (int i = 0; i < 3 * DH_ARENA_CHUNK / 1024; i++) /* three chunks' worth */
        CU_ASSERT_PTR_NOT_NULL(dh_arena_alloc(&a, 1024));
    void *last = dh_arena_alloc(&a, 100);
    dh_arena_reset(&a);
    CU_ASSERT_FALSE(dh_arena_owns(&a, first)); /* older chunks are given back */
    void *again = dh_arena_alloc(&a, 100);
    CU_ASSERT_TRUE(dh_arena_owns(&a, again));
    CU_ASSERT_TRUE(dh_arena_owns(&a, last)); /* the newest chunk stays, reused */
    dh_arena_free(&a);
    CU_ASSERT_FALSE(dh_arena_owns(&a, again));
}

static void test_arena_holds_a_protobuf_unpack_and_release_frees_only_the_rest(void)
{
    Deckhand__Reply rep = DECKHAND__REPLY__INIT;
    Deckhand__Error err = DECKHAND__ERROR__INIT;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    rep.cmd_id = 9;
    err.code = DECKHAND__ERROR_CODE__OVERLOADED;
    err.message = "busy";
    rep.error = &err;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    m.reply = &rep;
    uint8_t buf[256];
    size_t len = deckhand__server_message__pack(&m, buf);
    dh_arena a;
    dh_arena_init(&a);
    Deckhand__ServerMessage *in = deckhand__server_message__unpack(&a.pa, len, buf);
    Deckhand__ServerMessage *out = deckhand__server_message__unpack(NULL, len, buf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_TRUE(dh_arena_owns(&a, in));
    CU_ASSERT_TRUE(dh_arena_owns(&a, in->reply->error->message));
    CU_ASSERT_EQUAL(in->reply->cmd_id, 9);
    CU_ASSERT_STRING_EQUAL(in->reply->error->message, "busy");
    CU_ASSERT_FALSE(dh_arena_owns(&a, out));
    dh_arena_release(&a, in);  /* the arena's: nothing until the reset */
    dh_arena_release(&a, out); /* malloc's: freed (ASan: no leak) */
    dh_arena_release(NULL, NULL);
    dh_arena_free(&a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"arena_gives_aligned_memory_it_owns", test_arena_gives_aligned_memory_it_owns},
        {"arena_takes_an_allocation_larger_than_a_chunk",
         test_arena_takes_an_allocation_larger_than_a_chunk},
        {"arena_reuses_its_memory_after_a_reset", test_arena_reuses_its_memory_after_a_reset},
        {"arena_holds_a_protobuf_unpack_and_release_frees_only_the_rest",
         test_arena_holds_a_protobuf_unpack_and_release_frees_only_the_rest},
        {NULL, NULL},
    };
    return dh_test_main("client_arena", cases);
}
