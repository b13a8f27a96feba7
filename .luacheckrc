-- luacheck settings for the Lua game bundles (scripts/): Lua 5.4, and no globals at
-- all, since the sandbox shares one VM between matches and state must live in `g`.
std = "lua54"
globals = {}
allow_defined = false
allow_defined_top = false
include_files = { "scripts/**/*.lua" }
max_line_length = 100
