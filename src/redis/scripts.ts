// The Lua scripts that make test-and-set atomic on the server. Each runs on
// one shard's two keys, which share a hash tag, so a call touches one slot.
// Bit offsets arrive already mapped (see layout.ts), k per item, items in
// order. EVAL semantics: https://redis.io/docs/latest/develop/interact/programmability/eval-intro/

import { createHash } from 'node:crypto';

/** A script's source and its SHA1, the name EVALSHA calls it by. */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

// Shared prologue. KEYS[1] is the shard's bitmap, KEYS[2] its meta hash;
// ARGV[1] the configuration fingerprint, ARGV[2] the bitmap's byte length,
// ARGV[3] k. A filter re-reserved under another m, k, scheme or seed, or a
// shard that was deleted or evicted, must fail loudly instead of reporting
// every item as new, and must fail before any bit is touched.
const CHECKS = `
local have = redis.call('HGET', KEYS[2], 'config')
if have ~= ARGV[1] then
  return redis.error_reply('BLOOMCONFIG ' .. KEYS[2] .. ' config is ' .. (have or 'missing') .. '; expected ' .. ARGV[1])
end
local size = redis.call('STRLEN', KEYS[1])
if size ~= tonumber(ARGV[2]) then
  return redis.error_reply('BLOOMSHARD ' .. KEYS[1] .. ' is ' .. size .. ' bytes; expected ' .. ARGV[2])
end
local k = tonumber(ARGV[3])
-- Offsets per BITFIELD call, whole items only: unpack() stops near 8,000
-- values (LUAI_MAXCSTACK) and each offset takes 4 arguments.
local per = math.max(k, math.floor(1500 / k) * k)
local out = {}
local ops = {}
`;

/**
 * Test-and-set: BITFIELD SET u1 returns each bit's old value; an item is new
 * when any of its k old bits was 0. Bits set by an earlier item of the same
 * batch count as set, exactly as in sequential adds. Replies a string of
 * '0'/'1' per item and counts the new items in the meta hash.
 */
export const ADD_SCRIPT = script(`${CHECKS}
local fresh = 0
for first = 4, #ARGV, per do
  local last = math.min(first + per - 1, #ARGV)
  local n = 0
  for i = first, last do
    ops[n + 1] = 'SET'; ops[n + 2] = 'u1'; ops[n + 3] = ARGV[i]; ops[n + 4] = '1'
    n = n + 4
  end
  for i = #ops, n + 1, -1 do ops[i] = nil end
  local old = redis.call('BITFIELD', KEYS[1], unpack(ops))
  for j = 1, #old, k do
    local new = 0
    for t = j, j + k - 1 do
      if old[t] == 0 then new = 1; break end
    end
    out[#out + 1] = new
    fresh = fresh + new
  end
end
if fresh > 0 then redis.call('HINCRBY', KEYS[2], 'added', fresh) end
return table.concat(out)
`);

/** Read-only test with BITFIELD_RO: '1' per item whose k bits are all set. */
export const HAS_SCRIPT = script(`#!lua flags=no-writes
${CHECKS}
for first = 4, #ARGV, per do
  local last = math.min(first + per - 1, #ARGV)
  local n = 0
  for i = first, last do
    ops[n + 1] = 'GET'; ops[n + 2] = 'u1'; ops[n + 3] = ARGV[i]
    n = n + 3
  end
  for i = #ops, n + 1, -1 do ops[i] = nil end
  local bits = redis.call('BITFIELD_RO', KEYS[1], unpack(ops))
  for j = 1, #bits, k do
    local all = 1
    for t = j, j + k - 1 do
      if bits[t] == 0 then all = 0; break end
    end
    out[#out + 1] = all
  end
end
return table.concat(out)
`);

/**
 * Stores the configuration unless one exists; replies {} when it stored it,
 * else the existing hash (HGETALL) for the client to compare. KEYS[1] is the
 * configuration hash, ARGV its field/value pairs (a new one carries
 * `reserving` until its shards exist; see reserve.ts).
 */
export const RESERVE_SCRIPT = script(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV))
  return {}
end
return redis.call('HGETALL', KEYS[1])
`);

/**
 * Creates one shard: preallocates its bitmap with one SETBIT on the last bit
 * (so no later SETBIT far out has to grow the string while clients wait) and
 * writes its meta hash. Replies 1 when it created both keys, 0 when both
 * were there already with this fingerprint and size (a reserve that crashed
 * before writing the configuration, or a concurrent reserve of the same
 * filter). Anything else (keys of another configuration, a bitmap without
 * its meta hash or the reverse) is refused before writing anything.
 * ARGV[1] fingerprint, ARGV[2] bytes.
 */
export const CREATE_SHARD_SCRIPT = script(`
local have = redis.call('HGET', KEYS[2], 'config')
local size = redis.call('STRLEN', KEYS[1])
if not have and size == 0 and redis.call('EXISTS', KEYS[1], KEYS[2]) == 0 then
  redis.call('SETBIT', KEYS[1], tonumber(ARGV[2]) * 8 - 1, 0)
  redis.call('HSET', KEYS[2], 'config', ARGV[1], 'added', 0)
  return 1
end
if have ~= ARGV[1] then
  return redis.error_reply('BLOOMCONFIG ' .. KEYS[2] .. ' config is ' .. (have or 'missing') .. '; expected ' .. ARGV[1])
end
if size ~= tonumber(ARGV[2]) then
  return redis.error_reply('BLOOMSHARD ' .. KEYS[1] .. ' is ' .. size .. ' bytes; expected ' .. ARGV[2])
end
return 0
`);

/**
 * Undoes CREATE_SHARD_SCRIPT for a reserve that was refused: deletes the
 * shard's two keys, but only while they still carry this fingerprint and no
 * add has counted into them. Replies 1 when it deleted them. ARGV[1] fingerprint.
 */
export const DROP_NEW_SHARD_SCRIPT = script(`
if redis.call('HGET', KEYS[2], 'config') == ARGV[1] and redis.call('HGET', KEYS[2], 'added') == '0' then
  return redis.call('DEL', KEYS[1], KEYS[2]) > 0 and 1 or 0
end
return 0
`);

/**
 * Ends a reserve: removes the `reserving` mark from the configuration hash,
 * but only while it is still the one of this epoch. Replies 1, or
 * BLOOMGONE when the hash was deleted, evicted or replaced meanwhile.
 * KEYS[1] the configuration hash, ARGV[1] the epoch.
 */
export const FINISH_RESERVE_SCRIPT = script(`
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if epoch == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'reserving')
  return 1
end
return redis.error_reply('BLOOMGONE ' .. KEYS[1] .. ' ' .. (epoch and ('holds epoch ' .. epoch .. ', not ' .. ARGV[1]) or 'is missing'))
`);

/**
 * Undoes RESERVE_SCRIPT for a reserve that was refused: deletes the
 * configuration hash while it is still this epoch's and still marked
 * `reserving`. Replies 1 when it deleted it. KEYS[1] the configuration
 * hash, ARGV[1] the epoch.
 */
export const DROP_NEW_CONFIG_SCRIPT = script(`
if redis.call('HGET', KEYS[1], 'epoch') == ARGV[1] and redis.call('HEXISTS', KEYS[1], 'reserving') == 1 then
  return redis.call('DEL', KEYS[1])
end
return 0
`);
