-- Connexion starter bot -- Lua 5.4 and LuaJIT (it keeps to what both run).
--
-- What it does: one-ply greedy. For every tile in hand and every empty cell
-- it computes how much its OWN score would grow (first player: groups of the
-- same pattern; second player: groups of the same colour; score = sum of the
-- squared group sizes) and plays the best, breaking ties at random.
--
-- Run: lua5.4 bot.lua  or  luajit bot.lua
--
-- Protocol (one line in, at most one line out):
--   READY FIRST|SECOND -> OK
--   INIT A1..A5 B1..B5    own five tiles, then the opponent's five
--   TIME t_mine t_opp  -> PUT <cell> <tile>   e.g. PUT a1+ R1
--   GET T                 the tile we drew (X0: the bag was empty)
--   OPP p T1 T2 t         the opponent put T1 on p, drew T2, used t ms
--   FINISH                exit without printing anything
-- Debug output must go to stderr: stdout belongs to the judge.
-- The places to change are marked CHANGE HERE.

-- data.bin: a data file sent with the source (e.g. weights) is in the
-- working folder at run time only (`versus match GAME src:bot.lua?data=FILE`):
--   local file = io.open("data.bin", "rb")
--   if file then local data = file:read("*a"); file:close()
--     io.stderr:write("data.bin: ", #data, " bytes\n") end

local COLUMNS = "abcdef"
-- Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'), 0..71.
local MISSING = { ["a1-"] = true, ["a4-"] = true, ["c3+"] = true, ["c6+"] = true,
  ["d1-"] = true, ["d4-"] = true, ["f3+"] = true, ["f6+"] = true }

local function cell_name(i)
  local c = math.floor(i / 12)
  local r = math.floor(i / 2) % 6
  return COLUMNS:sub(c + 1, c + 1) .. (r + 1) .. (i % 2 == 1 and "+" or "-")
end

local function cell_index(name)
  local c = COLUMNS:find(name:sub(1, 1), 1, true) - 1
  return c * 12 + (tonumber(name:sub(2, 2)) - 1) * 2 + (name:sub(3, 3) == "+" and 1 or 0)
end

local EXISTS, NEIGHBOURS = {}, {}
for i = 0, 71 do EXISTS[i] = not MISSING[cell_name(i)] end
-- A '-' cell touches the '+' of its own square and the '+' cells to the
-- left and above; a '+' cell is the mirror image (right and below).
for i = 0, 71 do
  local c, r = math.floor(i / 12), math.floor(i / 2) % 6
  local near
  if i % 2 == 1 then
    near = { { c, r, 0 }, { c + 1, r, 0 }, { c, r + 1, 0 } }
  else
    near = { { c, r, 1 }, { c - 1, r, 1 }, { c, r - 1, 1 } }
  end
  NEIGHBOURS[i] = {}
  for _, n in ipairs(near) do
    local j = n[1] * 12 + n[2] * 2 + n[3]
    if n[1] >= 0 and n[1] < 6 and n[2] >= 0 and n[2] < 6 and EXISTS[j] then
      table.insert(NEIGHBOURS[i], j)
    end
  end
end

local board = {}        -- board[cell] = tile string ("R1") or nil
local hand = {}         -- our visible tiles
local opp_hand = {}     -- the opponent's visible tiles (not used by the greedy rule)
local me = 2            -- which character of a tile our groups share: 2 = pattern, 1 = colour

local function remove(list, tile)
  for k, t in ipairs(list) do
    if t == tile then table.remove(list, k); return end
  end
end

-- Size of the group of tiles with the same character `at` as `key` around `start`.
local function group_size(start, key, at, seen)
  local stack, size = { start }, 0
  seen[start] = true
  while #stack > 0 do
    local i = table.remove(stack)
    size = size + 1
    for _, j in ipairs(NEIGHBOURS[i]) do
      if not seen[j] and board[j] and board[j]:sub(at, at) == key then
        seen[j] = true
        table.insert(stack, j)
      end
    end
  end
  return size
end

-- How much the score grouping by character `at` grows if `tile` goes on `cell`.
local function gain(cell, tile, at)
  local key, seen, sum, squares = tile:sub(at, at), {}, 0, 0
  for _, j in ipairs(NEIGHBOURS[cell]) do
    if not seen[j] and board[j] and board[j]:sub(at, at) == key then
      local s = group_size(j, key, at, seen)
      sum, squares = sum + s, squares + s * s
    end
  end
  -- The new tile merges all those groups into one.
  return (1 + sum) * (1 + sum) - squares
end

local function choose_move()
  local best, moves, tried = -1, {}, {}
  for _, tile in ipairs(hand) do
    if not tried[tile] then -- a second copy of a tile adds nothing
      tried[tile] = true
      for cell = 0, 71 do
        if EXISTS[cell] and not board[cell] then
          -- CHANGE HERE: the evaluation. E.g. also subtract what the
          -- opponent would gain from the same tile: gain(cell, tile, 3 - me).
          local v = gain(cell, tile, me)
          if v > best then best, moves = v, {} end
          if v == best then table.insert(moves, { cell, tile }) end
        end
      end
    end
  end
  local m = moves[math.random(#moves)]
  return m[1], m[2]
end

local function say(line)
  io.write(line, "\n")
  io.stdout:flush()
end

-- A fixed seed: a game can be replayed exactly.
math.randomseed(20250101)
for line in io.lines() do
  local words = {}
  for word in line:gmatch("%S+") do words[#words + 1] = word end
  local cmd = words[1]
  if cmd == nil then
    -- an empty line
  elseif cmd == "READY" then
    me = words[2] == "FIRST" and 2 or 1
    say("OK")
  elseif cmd == "INIT" then
    hand, opp_hand = {}, {}
    for k = 2, 6 do table.insert(hand, words[k]) end
    for k = 7, 11 do table.insert(opp_hand, words[k]) end
  elseif cmd == "TIME" then
    -- CHANGE HERE: time use. tonumber(words[2]) is the ms left for the whole
    -- game; a deeper search should budget it over our remaining turns.
    local cell, tile = choose_move()
    board[cell] = tile
    remove(hand, tile)
    say("PUT " .. cell_name(cell) .. " " .. tile)
  elseif cmd == "GET" then
    if words[2] ~= "X0" then table.insert(hand, words[2]) end
  elseif cmd == "OPP" then
    board[cell_index(words[2])] = words[3]
    remove(opp_hand, words[3])
    if words[4] ~= "X0" then table.insert(opp_hand, words[4]) end
  elseif cmd == "FINISH" then
    break
  else
    io.stderr:write("unknown line: ", line, "\n")
  end
end
