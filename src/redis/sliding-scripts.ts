// The Lua scripts of the sliding filter. Each call names every key of the
// filter (KEYS[1] the metadata hash, KEYS[1 + i] generation slot i's
// bitmap), all under one hash tag, so rotation, expiry and test-and-set run
// atomically in one slot, on the server's clock (TIME), never a worker's.
// Bit offsets arrive already mapped (see layout.ts), k per item, in order.
// EVAL semantics: https://redis.io/docs/latest/develop/interact/programmability/eval-intro/
// Shebang flags (a script flagged without `allow-oom` is refused with OOM
// before it runs, never halfway): https://redis.io/docs/latest/develop/interact/programmability/lua-api/#script-flags

import { createHash } from 'node:crypto';
import type { Script } from './scripts.js';

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

// Lua: `now`, the server's clock in whole ms (TIME's seconds and microseconds).
const SERVER_NOW = `local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)`;

// Lua: appends to `fields` the state of a filter that starts `now` in
// slot 0 with every slot empty (reserve makes it, clear returns to it).
const FRESH_STATE_FIELDS = `fields[#fields + 1] = 'current'; fields[#fields + 1] = '0'
fields[#fields + 1] = 'clock'; fields[#fields + 1] = string.format('%.0f', now)
fields[#fields + 1] = 'added'; fields[#fields + 1] = '0'
fields[#fields + 1] = 'adds'; fields[#fields + 1] = '0'
for i = 0, #KEYS - 2 do
  fields[#fields + 1] = 'n:' .. i; fields[#fields + 1] = '0'
  fields[#fields + 1] = 'start:' .. i; fields[#fields + 1] = i == 0 and string.format('%.0f', now) or '0'
  fields[#fields + 1] = 'last:' .. i; fields[#fields + 1] = '0'
end`;

// Shared prologue: checks, then reads the clock and the state. ARGV[1] the
// fingerprint, ARGV[2] a generation's bytes, ARGV[3] k, ARGV[4] c (adds per
// generation), ARGV[5] 'count' or 'time', ARGV[6] the window in ms, ARGV[7]
// P in ms; offsets from ARGV[8]. Everything is checked before anything is
// written: a foreign key type (WRONGTYPE), a re-reserved filter
// (BLOOMCONFIG) or a live generation deleted or evicted (BLOOMSHARD) fail
// the call with nothing changed.
const PROLOGUE = `
local meta = KEYS[1]
local have = redis.call('HGET', meta, 'fingerprint')
if have ~= ARGV[1] then
  return redis.error_reply('BLOOMCONFIG ' .. meta .. ' fingerprint is ' .. (have or 'missing') .. '; expected ' .. ARGV[1])
end
local bytes = tonumber(ARGV[2])
local k = tonumber(ARGV[3])
local c = tonumber(ARGV[4])
local timed = ARGV[5] == 'time'
local W = tonumber(ARGV[6])
local P = tonumber(ARGV[7])
local G = #KEYS - 1
-- The server's clock, never before a value an add read earlier (TIME can
-- step back when the server's clock is set): a generation never ends
-- before it started, and an item never outlives its window.
${SERVER_NOW}
local names = {'current', 'clock'}
for i = 0, G - 1 do
  names[#names + 1] = 'n:' .. i; names[#names + 1] = 'start:' .. i; names[#names + 1] = 'last:' .. i
end
local state = redis.call('HMGET', meta, unpack(names))
local cur = tonumber(state[1])
local latest = tonumber(state[2])
if latest and latest > now then now = latest end
local n, start, last = {}, {}, {}
for i = 0, G - 1 do
  n[i] = tonumber(state[3 + 3 * i]); start[i] = tonumber(state[4 + 3 * i]); last[i] = tonumber(state[5 + 3 * i])
  if not (n[i] and start[i] and last[i]) then
    return redis.error_reply('BLOOMCONFIG ' .. meta .. ' state of slot ' .. i .. ' is missing or damaged')
  end
end
if not cur or cur < 0 or cur >= G then
  return redis.error_reply('BLOOMCONFIG ' .. meta .. ' current is ' .. tostring(state[1]) .. '; expected a slot in [0, ' .. G .. ')')
end
-- A generation is live when it holds adds and, in a time window, its last
-- add is younger than the window: a query ignores an expired one at once.
local function live(i)
  return n[i] > 0 and (not timed or last[i] > now - W)
end
for i = 0, G - 1 do
  local key = KEYS[i + 2]
  local kind = redis.call('TYPE', key)['ok']
  if kind ~= 'string' and kind ~= 'none' then
    return redis.error_reply('WRONGTYPE ' .. key .. ' holds a ' .. kind .. ' where a generation bitmap (string) belongs')
  end
  if live(i) or i == cur then
    local size = redis.call('STRLEN', key)
    if size ~= bytes then
      return redis.error_reply('BLOOMSHARD ' .. key .. ' is ' .. size .. ' bytes; expected ' .. bytes)
    end
  end
end
-- Items per run: a run's BITFIELD SET takes 4 arguments per offset, and
-- unpack() stops near 8,000 values (LUAI_MAXCSTACK).
local per = math.max(1, math.floor(1500 / k))
local first = 8
local total = (#ARGV - first + 1) / k
local out = {}
-- found[j] = true when item j has all k bits in generation g; only the
-- items j in [a, b] not yet found are read, position by position: round t
-- reads the t-th bit of the items whose bits so far were all 1. A
-- never-added item drops out after about 2 reads instead of k (a
-- generation's bits are at most about half set), at one BITFIELD call per
-- round.
local function probe(cmd, g, a, b, found)
  local cand = {}
  for j = a, b do
    if not found[j] then cand[#cand + 1] = j end
  end
  for t = 0, k - 1 do
    if #cand == 0 then return end
    local ops = {}
    for q = 1, #cand do
      ops[3 * q - 2] = 'GET'; ops[3 * q - 1] = 'u1'; ops[3 * q] = ARGV[first + cand[q] * k + t]
    end
    local bits = redis.call(cmd, KEYS[g + 2], unpack(ops))
    local keep = {}
    for q = 1, #cand do
      if bits[q] == 1 then keep[#keep + 1] = cand[q] end
    end
    cand = keep
  end
  for q = 1, #cand do found[cand[q]] = true end
end
`;

/**
 * Rotation and test-and-set. Before each run of items it rotates when the
 * current generation is full (c adds) or, in a time window, has been
 * current for P ms and a free slot exists; dropping a generation is one
 * UNLINK of its bitmap (Redis 7 frees a string at once even under UNLINK,
 * as one allocation; docs/REDIS.md says what that costs). An item
 * is new when no live generation had all its k bits; its bits are always set
 * in the current generation (BITFIELD SET u1 returns the old bits, so items
 * earlier in the call count, exactly as in sequential adds). Replies a
 * string of '0'/'1' per item and writes the state back.
 */
export const SLIDING_ADD_SCRIPT = script(`#!lua
${PROLOGUE}
local function free(i)
  redis.call('UNLINK', KEYS[i + 2])
  n[i] = 0; start[i] = 0; last[i] = 0
end
-- Expired generations (time window): their slots are free again.
if timed then
  for i = 0, G - 1 do
    if i ~= cur and n[i] > 0 and last[i] <= now - W then free(i) end
  end
end
-- A fresh generation in slot i (UNLINK of the old one, if any), allocated
-- in full by one SETBIT on its last bit, so no add far into it grows the
-- string later.
local function take(i)
  free(i)
  redis.call('SETBIT', KEYS[i + 2], bytes * 8 - 1, 0)
  cur = i; start[i] = now; last[i] = now
end
-- The rules of src/sliding/generations.ts (beginAdds), which the in-memory
-- SlidingBloomFilter follows, so both rotate at the same adds.
local function rotate()
  if n[cur] == 0 then
    -- An empty current generation starts at its first add.
    start[cur] = now; last[cur] = now
    return
  end
  if not timed then
    -- Count window: the next slot holds the oldest generation, dropped.
    if n[cur] >= c then take((cur + 1) % G) end
    return
  end
  -- A current generation whose last add is a window old starts again in its slot.
  if not live(cur) then take(cur); return end
  if n[cur] < c and now - start[cur] < P then return end
  for d = 1, G - 1 do
    local i = (cur + d) % G
    if not live(i) then take(i); return end
  end
  -- No free slot: more than the capacity was added in one window. Keep
  -- adding to the current generation (overload); the rate rises.
end
local fresh = 0
local j = 0
while j < total do
  rotate()
  local room = c - n[cur]
  if room <= 0 then room = total end
  local a = j
  local b = j + math.min(room, per, total - j) - 1
  -- The current generation first: BITFIELD SET u1 sets the bits and
  -- returns the old ones; after rotate() it is live or empty, so an item
  -- whose k old bits were all 1 is present. Only the others are read in
  -- the other live generations, newest first.
  local ops = {}
  for q = a, b do
    local base = first + q * k
    local at = (q - a) * k * 4
    for t = 0, k - 1 do
      ops[at + 4 * t + 1] = 'SET'; ops[at + 4 * t + 2] = 'u1'; ops[at + 4 * t + 3] = ARGV[base + t]; ops[at + 4 * t + 4] = '1'
    end
  end
  local old = redis.call('BITFIELD', KEYS[cur + 2], unpack(ops))
  local found = {}
  for q = a, b do
    local all = true
    for t = (q - a) * k + 1, (q - a + 1) * k do
      if old[t] == 0 then all = false; break end
    end
    if all then found[q] = true end
  end
  for d = 1, G - 1 do
    local g = (cur - d) % G
    if live(g) then probe('BITFIELD', g, a, b, found) end
  end
  for q = a, b do
    local new = found[q] and '0' or '1'
    out[#out + 1] = new
    if new == '1' then fresh = fresh + 1 end
  end
  n[cur] = n[cur] + (b - a + 1)
  last[cur] = now
  j = b + 1
end
local fields = {'current', cur, 'clock', string.format('%.0f', now)}
for i = 0, G - 1 do
  fields[#fields + 1] = 'n:' .. i; fields[#fields + 1] = string.format('%.0f', n[i])
  fields[#fields + 1] = 'start:' .. i; fields[#fields + 1] = string.format('%.0f', start[i])
  fields[#fields + 1] = 'last:' .. i; fields[#fields + 1] = string.format('%.0f', last[i])
end
redis.call('HSET', meta, unpack(fields))
if fresh > 0 then redis.call('HINCRBY', meta, 'added', fresh) end
redis.call('HINCRBY', meta, 'adds', total)
return table.concat(out)
`);

/**
 * Read-only test: '1' per item that has all k bits in some live generation.
 * It rotates nothing (a rotation drops nothing that a read should still
 * see: expiry is by the clock, which it reads).
 */
export const SLIDING_HAS_SCRIPT = script(`#!lua flags=no-writes
${PROLOGUE}
for a = 0, total - 1, per do
  local b = math.min(a + per, total) - 1
  local found = {}
  for d = 0, G - 1 do
    local g = (cur - d) % G
    if live(g) then probe('BITFIELD_RO', g, a, b, found) end
  end
  for j = a, b do out[#out + 1] = found[j] and '1' or '0' end
end
return table.concat(out)
`);

/**
 * The state as one atomic read, on the server's clock: replies the time the
 * scripts would use now in ms (a string) and the metadata hash (HGETALL).
 * Read-only.
 */
export const SLIDING_STATE_SCRIPT = script(`#!lua flags=no-writes
${SERVER_NOW}
local latest = tonumber(redis.call('HGET', KEYS[1], 'clock') or '')
if latest and latest > now then now = latest end
return {string.format('%.0f', now), redis.call('HGETALL', KEYS[1])}
`);

/**
 * Creates the filter, or replies the existing metadata hash for the client
 * to compare. ARGV[1] is a generation's bytes, ARGV[2] '1' to start over
 * (every key named is deleted first), ARGV[3..] the configuration's
 * field/value pairs. Replies {} when it created the filter, else {the
 * metadata hash (HGETALL), the generation keys that the metadata says hold
 * adds (live, or current) but that are missing or of another size}. A
 * generation key without the metadata hash is what is left of a filter
 * whose metadata was evicted, expired or deleted, or someone else's:
 * refused (BLOOMLEFT, naming them all), with nothing written. Otherwise
 * slot 0 is allocated and made current, and the metadata written, in one
 * step: no worker can see half a filter.
 */
export const SLIDING_RESERVE_SCRIPT = script(`#!lua
if ARGV[2] == '1' then redis.call('DEL', unpack(KEYS)) end
${SERVER_NOW}
if redis.call('EXISTS', KEYS[1]) == 1 then
  local meta = redis.call('HGETALL', KEYS[1])
  local get = function(f) return tonumber(redis.call('HGET', KEYS[1], f) or '') end
  local bits, W, cur, latest = get('bits'), get('windowMs'), get('current'), get('clock')
  local timed = redis.call('HGET', KEYS[1], 'mode') == 'time'
  if latest and latest > now then now = latest end
  local damaged = {}
  if bits and W and cur then
    local bytes = math.ceil(bits / 8)
    for i = 0, #KEYS - 2 do
      local n, last = get('n:' .. i), get('last:' .. i)
      local live = n and last and n > 0 and (not timed or last > now - W)
      if (live or i == cur) and redis.call('STRLEN', KEYS[i + 2]) ~= bytes then damaged[#damaged + 1] = KEYS[i + 2] end
    end
  end
  return {meta, damaged}
end
local left = {}
for i = 2, #KEYS do
  local kind = redis.call('TYPE', KEYS[i])['ok']
  if kind ~= 'string' and kind ~= 'none' then
    return redis.error_reply('WRONGTYPE ' .. KEYS[i] .. ' holds a ' .. kind .. ' where a generation bitmap (string) belongs')
  end
  if kind == 'string' then left[#left + 1] = KEYS[i] end
end
if #left > 0 then
  return redis.error_reply('BLOOMLEFT ' .. KEYS[1] .. ' ' .. table.concat(left, ' '))
end
redis.call('SETBIT', KEYS[2], tonumber(ARGV[1]) * 8 - 1, 0)
local fields = {}
for i = 3, #ARGV do fields[#fields + 1] = ARGV[i] end
${FRESH_STATE_FIELDS}
redis.call('HSET', KEYS[1], unpack(fields))
return {}
`);

/**
 * Forgets every item: UNLINKs every generation and starts over in slot 0,
 * keeping the configuration. ARGV[1] the fingerprint, ARGV[2] a
 * generation's bytes. Refused (BLOOMCONFIG) when the filter was re-reserved
 * with another shape; a foreign key type is refused before anything is
 * unlinked.
 */
export const SLIDING_CLEAR_SCRIPT = script(`#!lua
local have = redis.call('HGET', KEYS[1], 'fingerprint')
if have ~= ARGV[1] then
  return redis.error_reply('BLOOMCONFIG ' .. KEYS[1] .. ' fingerprint is ' .. (have or 'missing') .. '; expected ' .. ARGV[1])
end
for i = 2, #KEYS do
  local kind = redis.call('TYPE', KEYS[i])['ok']
  if kind ~= 'string' and kind ~= 'none' then
    return redis.error_reply('WRONGTYPE ' .. KEYS[i] .. ' holds a ' .. kind .. ' where a generation bitmap (string) belongs')
  end
end
${SERVER_NOW}
redis.call('UNLINK', unpack(KEYS, 2))
redis.call('SETBIT', KEYS[2], tonumber(ARGV[2]) * 8 - 1, 0)
local fields = {}
${FRESH_STATE_FIELDS}
redis.call('HSET', KEYS[1], unpack(fields))
return 1
`);
