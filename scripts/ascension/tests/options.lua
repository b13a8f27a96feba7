-- Rules tests: ascension's rules have no variants, so it declares no options and the network
-- refuses any (T.check_options runs the engine's check, the one the matchmaker's workers use).
return {
  test_declares_no_options = function(T)
    T.eq(require("ascension.game").options, nil)
    T.ok(T.check_options {}, "no options: the game as it is")
  end,
  test_any_option_is_refused = function(T)
    local ok, why = T.check_options { kingdom = "random" }
    T.ok(not ok)
    T.eq(why, "ascension has no option 'kingdom'")
  end,
}
