-- boardkit/grid.lua: positions on a board, for any game whose pieces stand on spaces.
--
-- Each player owns a grid of rows x columns; a space is the zone "<prefix>:<row>:<col>"
-- of its owner (row by name, column by number), holding at most one entity. So a
-- generic client lays a board out from the zone names of any view, with no
-- game-specific message: `board:front:3` owner 2 is player 2's front row, third column.
-- Columns are absolute: column c of one player faces column c of the other. The grid
-- object is constant data (built at load); the pieces live in the match's zones.

local grid = {}
grid.__index = grid

-- spec: rows (array of row names, nearest the middle of the table first), cols (count),
-- prefix (default "board"). The zone names and their parse table are built once here.
function grid.new(spec)
  local self = setmetatable({ rows = spec.rows, cols = spec.cols, nrows = #spec.rows,
                              prefix = spec.prefix or "board" }, grid)
  self.names, self.parse, self.spaces, self.zones = {}, {}, {}, {}
  for r, row in ipairs(spec.rows) do
    self.names[r] = {}
    for c = 1, spec.cols do
      local zone = self.prefix .. ":" .. row .. ":" .. c
      self.names[r][c] = zone
      self.parse[zone] = { r, c }
      self.spaces[#self.spaces + 1] = { r, c }
      self.zones[#self.zones + 1] = zone
    end
  end
  return self
end

-- The zone of row r (an index into rows), column c.
function grid:zone(r, c)
  return self.names[r][c]
end

-- Human-readable space name ("front 3").
function grid:label(r, c)
  return self.rows[r] .. " " .. c
end

-- The entity on player p's space (r, c), or nil.
function grid:at(g, p, r, c)
  return g:top(self.names[r][c], p)
end

-- Where an entity stands: row, column, owner; nil when it is not on the board.
function grid:pos(g, id)
  local zone, owner = g:zone_of(id)
  local rc = self.parse[zone]
  if not rc then return nil end
  return rc[1], rc[2], owner
end

-- Put an entity on player p's space (r, c); the space must be empty.
function grid:place(g, id, p, r, c)
  local zone = self.names[r][c]
  if g:count(zone, p) > 0 then error("boardkit: space " .. zone .. " is taken", 2) end
  g:move(id, zone, p)
end

function grid:empty(g, p, r, c)
  return g:count(self.names[r][c], p) == 0
end

-- Every space as {r, c}, rows in order, columns left to right (a constant list).
function grid:all_spaces()
  return self.spaces
end

-- The empty spaces of player p, in reading order (one g:tops call for the board).
function grid:free(g, p)
  local out = g:tops(self.zones, p, "empty")
  local spaces = self.spaces
  for i = 1, #out do out[i] = spaces[out[i]] end
  return out
end

-- Player p's pieces in reading order (first row left to right, then the next).
function grid:pieces(g, p)
  return g:tops(self.zones, p)
end

-- The pieces of players p1, p2, ... in turn (reading order each) whose attribute attr
-- is at most 0 or whose flag (false: none) is not 0: who a death check removes (one
-- g:fallen call).
function grid:fallen(g, attr, flag, ...)
  return g:fallen(self.zones, attr, flag, ...)
end

-- The first piece in column c of player p, searching from the first row (the one
-- nearest the middle), or nil: what stands in front in that column.
function grid:front(g, p, c)
  for r = 1, self.nrows do -- # of a frozen module table is a C call; nrows is a field
    local id = g:top(self.names[r][c], p)
    if id then return id, r end
  end
  return nil
end

-- Is any of player p's pieces in column c?
function grid:column_taken(g, p, c)
  return self:front(g, p, c) ~= nil
end

-- The spaces orthogonally next to (r, c) on the same side, as {r, c}.
function grid:adjacent(r, c)
  local out = {}
  if c > 1 then out[#out + 1] = { r, c - 1 } end
  if c < self.cols then out[#out + 1] = { r, c + 1 } end
  if r > 1 then out[#out + 1] = { r - 1, c } end
  if r < #self.rows then out[#out + 1] = { r + 1, c } end
  return out
end

-- The pieces of player p left and right of column c in row r (same row only).
function grid:beside(g, p, r, c)
  local out = {}
  if c > 1 then out[#out + 1] = g:top(self.names[r][c - 1], p) end
  if c < self.cols then out[#out + 1] = g:top(self.names[r][c + 1], p) end
  return out
end

-- The pieces orthogonally adjacent to (r, c) on player p's side.
function grid:neighbours(g, p, r, c)
  local out = {}
  for _, rc in ipairs(self:adjacent(r, c)) do
    local id = g:top(self.names[rc[1]][rc[2]], p)
    if id then out[#out + 1] = id end
  end
  return out
end

return grid
