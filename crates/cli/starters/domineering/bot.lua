-- Domineering (8x8, cell values) starter bot -- Lua 5.4 and LuaJIT (it
-- keeps to what both run: no integer division, no bit operators).
--
-- What it does: keeps its own copy of the board, and on every TURN places
-- the domino whose two cells are worth the most right now (one-ply greedy,
-- ties broken at random). It passes only when it has no placement left,
-- because a pass gives the opponent a free turn.
--
-- Run: lua5.4 bot.lua  or  luajit bot.lua   (stdin/stdout; debug to stderr)
--
-- Protocol summary (see GAMES.md section 2), coordinates 1-based, x = row:
--   judge: 8 lines of 8 values, then READY FIRST|SECOND   -> bot: OK
--   judge: TURN my_time opp_time                        -> bot: MOVE x y
--   judge: OPP x y time   (the opponent's move, -1 -1 = pass)
--   judge: FINISH         -> exit without output
-- FIRST places horizontal dominoes (x,y)+(x,y+1), SECOND vertical ones
-- (x,y)+(x+1,y); (x,y) is always the top-left cell of the domino.

-- data.bin: a data file sent with the source (e.g. weights) is in the
-- working folder at run time only (`versus match GAME src:bot.lua?data=FILE`):
--   local file = io.open("data.bin", "rb")
--   if file then local data = file:read("*a"); file:close()
--     io.stderr:write("data.bin: ", #data, " bytes\n") end

local N = 8
local value, covered = {}, {} -- value[x][y] and covered[x][y], 1-based as on the wire
for x = 1, N do
  value[x], covered[x] = {}, {}
  for y = 1, N do value[x][y], covered[x][y] = 0, false end
end

local function other_cell(x, y, vertical)
  if vertical then return x + 1, y end
  return x, y + 1
end

local function can_place(x, y, vertical)
  local x2, y2 = other_cell(x, y, vertical)
  return x2 <= N and y2 <= N and not covered[x][y] and not covered[x2][y2]
end

local function place(x, y, vertical)
  local x2, y2 = other_cell(x, y, vertical)
  covered[x][y], covered[x2][y2] = true, true
end

local function score_move(x, y, vertical)
  -- CHANGE HERE: the evaluation of a placement. Greedy takes the points it
  -- earns; a stronger bot would also count the placements it removes from
  -- the opponent, or search a few plies ahead.
  local x2, y2 = other_cell(x, y, vertical)
  return value[x][y] + value[x2][y2]
end

-- The best placement (x, y), or nil when there is none (then we pass).
-- Ties are broken uniformly at random (reservoir sampling).
local function choose_move(vertical)
  local cx, cy, best, ties = nil, nil, -1, 0
  for x = 1, N do
    for y = 1, N do
      if can_place(x, y, vertical) then
        local s = score_move(x, y, vertical)
        if s > best then
          cx, cy, best, ties = x, y, s, 1
        elseif s == best then
          ties = ties + 1
          if math.random(ties) == 1 then cx, cy = x, y end
        end
      end
    end
  end
  return cx, cy
end

local function say(line)
  io.write(line, "\n")
  io.stdout:flush()
end

math.randomseed(os.time())
local value_lines, vertical = 0, false
for line in io.lines() do
  local words = {}
  for word in line:gmatch("%S+") do words[#words + 1] = word end
  local cmd = words[1]
  if cmd == nil then
    -- an empty line
  elseif value_lines < N then
    -- The 8 value lines come before READY.
    value_lines = value_lines + 1
    for y = 1, N do value[value_lines][y] = tonumber(words[y]) end
  elseif cmd == "READY" then
    -- The second player places the vertical dominoes.
    vertical = words[2] == "SECOND"
    say("OK")
  elseif cmd == "TURN" then
    -- CHANGE HERE: time use. tonumber(words[2]) is what is left of the
    -- whole game's budget (ms); greedy needs almost none of it.
    local x, y = choose_move(vertical)
    if x then
      place(x, y, vertical)
      say(string.format("MOVE %d %d", x, y))
    else
      say("MOVE -1 -1")
    end
  elseif cmd == "OPP" then
    local x, y = tonumber(words[2]), tonumber(words[3])
    -- The opponent's dominoes lie the other way round.
    if x ~= -1 then place(x, y, not vertical) end
  elseif cmd == "FINISH" then
    break
  else
    io.stderr:write("unknown line: ", line, "\n")
  end
end
