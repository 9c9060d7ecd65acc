-- Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7) --
-- Lua 5.4 and LuaJIT (it keeps to what both run).
--
-- Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
-- with the most pieces; on equal gain a division beats a leap (a leap leaves
-- a hole behind), and the remaining ties are broken at random. It passes only
-- when it has no legal move, because a pass is illegal while a move exists.
--
-- Run: lua5.4 bot.lua  or  luajit bot.lua   (the judge talks on stdin/stdout)
--
-- Protocol (coordinates are row then column, 1..7):
--   READY FIRST|SECOND     -> OK
--   TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
--   OPP x1 y1 x2 y2 time      the opponent's move: update the board
--   FINISH                    exit 0 without printing anything
-- Only protocol lines may go to stdout; print debug output to stderr.
-- The places meant to be changed are marked CHANGE HERE.

-- data.bin: a data file sent with the source (e.g. weights) is in the
-- working folder at run time only (`versus match GAME src:bot.lua?data=FILE`):
--   local file = io.open("data.bin", "rb")
--   if file then local data = file:read("*a"); file:close()
--     io.stderr:write("data.bin: ", #data, " bytes\n") end

local N = 7
local EMPTY, ME, OPP = 0, 1, 2
local board = {} -- board[r][c], 1-based as on the wire

local function inside(r, c)
  return r >= 1 and r <= N and c >= 1 and c <= N
end

local function dist(r1, c1, r2, c2)
  return math.max(math.abs(r1 - r2), math.abs(c1 - c2))
end

-- How many pieces of `who`'s opponent a piece landing on (r, c) would take.
local function captures(who, r, c)
  local n = 0
  for dr = -1, 1 do
    for dc = -1, 1 do
      if inside(r + dr, c + dc) and board[r + dr][c + dc] == 3 - who then n = n + 1 end
    end
  end
  return n
end

-- Plays a move for `who` (ME or OPP) on our board; a pass changes nothing.
local function apply_move(who, r1, c1, r2, c2)
  if r1 == -1 then return end
  if dist(r1, c1, r2, c2) == 2 then board[r1][c1] = EMPTY end -- a leap moves
  board[r2][c2] = who
  for dr = -1, 1 do
    for dc = -1, 1 do
      if inside(r2 + dr, c2 + dc) and board[r2 + dr][c2 + dc] == 3 - who then
        board[r2 + dr][c2 + dc] = who
      end
    end
  end
end

-- Our move as a list of four numbers, {-1, -1, -1, -1} to pass.
local function choose_move()
  local chosen, best, ties = { -1, -1, -1, -1 }, -1, 0
  for r2 = 1, N do
    for c2 = 1, N do
      if board[r2][c2] == EMPTY then
        -- Every own neighbour gives the same division: count it once per target.
        local division_seen = false
        for r1 = r2 - 2, r2 + 2 do
          for c1 = c2 - 2, c2 + 2 do
            if inside(r1, c1) and board[r1][c1] == ME then
              local division = dist(r1, c1, r2, c2) == 1
              if not (division and division_seen) then
                division_seen = division_seen or division
                -- CHANGE HERE: the evaluation. Pieces gained (new piece +
                -- captures), doubled so a division wins ties with a leap.
                local d = division and 1 or 0
                local score = 2 * (d + captures(ME, r2, c2)) + d
                if score > best then best, ties = score, 0 end
                -- Reservoir sampling: each of the k best is kept with chance 1/k.
                if score == best then
                  ties = ties + 1
                  if math.random(ties) == 1 then chosen = { r1, c1, r2, c2 } end
                end
              end
            end
          end
        end
      end
    end
  end
  return chosen
end

local function say(line)
  io.write(line, "\n")
  io.stdout:flush()
end

math.randomseed(os.time())
for line in io.lines() do
  local words = {}
  for word in line:gmatch("%S+") do words[#words + 1] = word end
  local cmd = words[1]
  if cmd == nil then
    -- an empty line
  elseif cmd == "READY" then
    local first = words[2] == "FIRST"
    for r = 1, N do
      board[r] = {}
      for c = 1, N do board[r][c] = EMPTY end
    end
    -- The first player starts on (1,1) and (7,7), the second on (1,7) and (7,1).
    board[1][1], board[N][N] = first and ME or OPP, first and ME or OPP
    board[1][N], board[N][1] = first and OPP or ME, first and OPP or ME
    say("OK")
  elseif cmd == "TURN" then
    -- CHANGE HERE: time use. tonumber(words[2]) is what is left of the 10 s
    -- for the whole game; greedy needs about a millisecond.
    local m = choose_move()
    apply_move(ME, m[1], m[2], m[3], m[4])
    say(string.format("MOVE %d %d %d %d", m[1], m[2], m[3], m[4]))
  elseif cmd == "OPP" then
    apply_move(OPP, tonumber(words[2]), tonumber(words[3]), tonumber(words[4]), tonumber(words[5]))
  elseif cmd == "FINISH" then
    break
  else
    io.stderr:write("unknown line: ", line, "\n")
  end
end
