/*
 * test_gateway_inmatch.c: the gateway's own checks of a chat line (gateway/inmatch.h): the
 * fixed list of emotes and the UTF-8 check a text must pass (overlong forms, surrogates,
 * code points past U+10FFFF and cut sequences refused). The rest of a chat line's path
 * (the cap, the flood limit, the relay) is pinned end to end by tests/e2e/test_chat.c.
 */
#include <string.h>

#include "dh_test.h"
#include "inmatch.h"

static bool utf8(const char *s)
{
    return inmatch_utf8_valid(s, strlen(s));
}

static void test_inmatch_emotes_are_the_fixed_list(void)
{
    static const char *const known[] = {"gg", "hi", "thanks", "oops", "wow", "think"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        CU_ASSERT_TRUE(inmatch_emote_known(known[i]));
    CU_ASSERT_FALSE(inmatch_emote_known(""));
    CU_ASSERT_FALSE(inmatch_emote_known("GG"));
    CU_ASSERT_FALSE(inmatch_emote_known("gg "));
    CU_ASSERT_FALSE(inmatch_emote_known("shout"));
}

static void test_inmatch_utf8_accepts_text_and_refuses_bad_sequences(void)
{
    CU_ASSERT_TRUE(utf8("good game"));
    CU_ASSERT_TRUE(utf8("caf\xc3\xa9, na\xc3\xafve")); /* two-byte */
    CU_ASSERT_TRUE(utf8("\xe2\x82\xac 5"));            /* three-byte: the euro sign */
    CU_ASSERT_TRUE(utf8("\xf0\x9f\x8e\xb2 roll"));     /* four-byte: a die */
    CU_ASSERT_TRUE(utf8("\xf4\x8f\xbf\xbf"));          /* U+10FFFF, the last */
    CU_ASSERT_FALSE(utf8("\xff"));                     /* never in UTF-8 */
    CU_ASSERT_FALSE(utf8("\xc0\xaf"));                 /* overlong '/' */
    CU_ASSERT_FALSE(utf8("\xe0\x80\xaf"));             /* overlong, three bytes */
    CU_ASSERT_FALSE(utf8("\xed\xa0\x80"));             /* a surrogate, U+D800 */
    CU_ASSERT_FALSE(utf8("\xf4\x90\x80\x80"));         /* past U+10FFFF */
    CU_ASSERT_FALSE(utf8("cut \xe2\x82"));             /* a sequence cut short */
    CU_ASSERT_FALSE(utf8("\x80 alone"));               /* a continuation byte alone */
    CU_ASSERT_FALSE(inmatch_utf8_valid("ab\xc3", 3));  /* cut at the end of the length */
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"inmatch_emotes_are_the_fixed_list", test_inmatch_emotes_are_the_fixed_list},
        {"inmatch_utf8_accepts_text_and_refuses_bad_sequences",
         test_inmatch_utf8_accepts_text_and_refuses_bad_sequences},
        {NULL, NULL},
    };
    return dh_test_main("gateway_inmatch", cases);
}
