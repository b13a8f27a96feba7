-- luacheck settings for the Lua game bundles (scripts/, or a copy of them anywhere: no
-- include_files, so `luacheck /tmp/hotfix` checks that folder's files, not none): Lua 5.4,
-- and no globals at all, since the sandbox shares one VM between matches and state must
-- live in `g`.
std = "lua54"
globals = {}
allow_defined = false
allow_defined_top = false
max_line_length = 100
