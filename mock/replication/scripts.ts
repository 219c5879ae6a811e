/**
 * The Lua scripts of a replicated mock. Each runs atomically in Redis, so no two replicas interleave inside one
 * (no home-made consensus: Redis orders everything). ARGV and KEYS are documented per script; the TypeScript side is
 * ./redis-commands.ts.
 */

/**
 * A tenant reset by `POST /__mock/reset {"all":true}` on any replica is done lazily: the global epoch moves on, and
 * the next script touching a tenant whose recorded global epoch is older empties its log and bucket first.
 * Needs KEYS meta, log, rate at positions given by the caller (locals `meta`, `log`, `rate`, `gkey`).
 */
const LAZY_RESET_ALL = `
local g = redis.call('GET', gkey) or '0'
if (redis.call('HGET', meta, 'g') or '0') ~= g then
  redis.call('DEL', log, rate)
  redis.call('HINCRBY', meta, 'epoch', 1)
  redis.call('HSET', meta, 'g', g)
  redis.call('HDEL', meta, 'last')
end
local epoch = g .. ':' .. (redis.call('HGET', meta, 'epoch') or '0')
`;

/**
 * gate: what a replica does before answering a request of a tenant, in one round trip.
 * KEYS: meta, log, lock, rate, global epoch, instance. ARGV: known epoch, known last id, lock token ('' = no lock),
 * lock ms, rate limit (0 = none), rate window ms, the Redis instance id the replica knows.
 * Returns {'lost'} when Redis no longer holds that instance id (it lost its data: restarted without persistence, or
 * flushed).
 * Returns {'locked'} when another replica holds the write lock (and marks that someone waits), else {'ok', epoch,
 * entries, taken, value, waiting}: the entries after the known last id (every entry when the epoch changed), the
 * rate-limit take (1 + tokens left, or 0 + ms until a token), and whether another replica waits for the lock.
 */
export const GATE = `
local meta, log, lock, rate, gkey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
if redis.call('GET', KEYS[6]) ~= ARGV[7] then return {'lost'} end
if ARGV[3] ~= '' then
  if not redis.call('SET', lock, ARGV[3], 'NX', 'PX', ARGV[4]) then
    -- Tell the holder someone waits: its replica stops admitting new writers into its session.
    redis.call('SET', lock .. ':wait', '1', 'PX', 100)
    return {'locked'}
  end
end
${LAZY_RESET_ALL}
local entries = {}
if epoch ~= ARGV[1] then
  entries = redis.call('XRANGE', log, '-', '+')
else
  local last = redis.call('HGET', meta, 'last') or ''
  if last ~= ARGV[2] and last ~= '' then
    entries = redis.call('XRANGE', log, ARGV[2] == '' and '-' or '(' .. ARGV[2], '+')
  end
end
local taken, value = 1, -1
local limit = tonumber(ARGV[5])
if limit > 0 then
  local window = tonumber(ARGV[6])
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local b = redis.call('HMGET', rate, 'tokens', 'ts')
  local tokens = tonumber(b[1]) or limit
  local ts = tonumber(b[2]) or now
  tokens = math.min(limit, tokens + math.max(0, now - ts) * limit / window)
  if tokens >= 1 then
    tokens = tokens - 1
    value = math.floor(tokens)
  else
    taken = 0
    value = math.ceil((1 - tokens) * window / limit)
  end
  redis.call('HSET', rate, 'tokens', tostring(tokens), 'ts', tostring(now))
  redis.call('PEXPIRE', rate, window * 2 + 1000)
end
return {'ok', epoch, entries, taken, value, redis.call('EXISTS', lock .. ':wait')}
`;

/**
 * append: adds a replica's changes to a tenant's log, schedules or cancels its attempts (in the same step, so an
 * attempt is never claimable before the notification it delivers is in the log), and releases its write lock.
 * KEYS: meta, log, rate, global epoch, api keys, lock, jobs, due, instance. ARGV: lock token ('' = none), org, number
 * of changes, replica id, Redis instance id, then pairs of (change as JSON, API key value or ''), then quadruples
 * (kind 's' schedule or 'c' cancel, notification id, job JSON, real due time in epoch ms). {'lost'} as for gate.
 * Returns {last id before, epoch, ids, replica that wrote the last entry before}: when that entry is the replica's
 * own last known one, or its own, nothing unseen came in between.
 */
export const APPEND = `
local meta, log, rate, gkey, keys, lock, jobs, due = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
if redis.call('GET', KEYS[9]) ~= ARGV[5] then return {'lost'} end
${LAZY_RESET_ALL}
local before = redis.call('HGET', meta, 'last') or ''
local beforeBy = redis.call('HGET', meta, 'by') or ''
local ids = {}
local n = tonumber(ARGV[3])
for i = 6, 5 + 2 * n, 2 do
  ids[#ids + 1] = redis.call('XADD', log, '*', 'c', ARGV[i])
  if ARGV[i + 1] ~= '' then redis.call('HSET', keys, ARGV[i + 1], ARGV[2]) end
end
if #ids > 0 then redis.call('HSET', meta, 'last', ids[#ids], 'by', ARGV[4]) end
for i = 6 + 2 * n, #ARGV, 4 do
  local member = ARGV[2] .. '\\n' .. ARGV[i + 1]
  if ARGV[i] == 's' then
    redis.call('HSET', jobs, ARGV[i + 1], ARGV[i + 2])
    redis.call('ZADD', due, ARGV[i + 3], member)
  else
    redis.call('ZREM', due, member)
    redis.call('HDEL', jobs, ARGV[i + 1])
  end
end
if ARGV[1] ~= '' and redis.call('GET', lock) == ARGV[1] then redis.call('DEL', lock) end
return {before, epoch, ids, beforeBy}
`;

/** unlock: KEYS lock; ARGV token. Releases the lock only if this replica still holds it. */
export const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * reset: forgets one tenant everywhere. KEYS meta, log, rate, jobs, due. ARGV org.
 * The epoch moves on (every replica drops its copy at its next request of the tenant); scheduled attempts go.
 */
export const RESET = `
local meta, log, rate, jobs, due = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
for _, id in ipairs(redis.call('HKEYS', jobs)) do redis.call('ZREM', due, ARGV[1] .. '\\n' .. id) end
redis.call('DEL', log, rate, jobs)
redis.call('HDEL', meta, 'last')
return redis.call('HINCRBY', meta, 'epoch', 1)
`;

/**
 * claim: takes up to `max` attempts due by `now`, each leased to this replica for `lease ms`; attempts whose lease
 * lapsed (a replica died making them) are due again first. With an org, only that tenant's attempts; with an org and
 * a clock offset (ms), its waiting attempts are first moved to the real time they are due after its clock jumped
 * (tenant due time minus the offset), in the same step, so the replica told of the jump claims what it made due.
 * KEYS due, leases, owners. ARGV now, lease ms, max, owner token prefix, key prefix, org ('' = any), offset ('' = none).
 * Returns a flat list: member, job JSON, lease token, ...
 */
export const CLAIM = `
local due, leases, owners = KEYS[1], KEYS[2], KEYS[3]
local now, leaseMs, max, token, prefix, org = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]
for _, m in ipairs(redis.call('ZRANGEBYSCORE', leases, '-inf', now, 'LIMIT', 0, max)) do
  redis.call('ZREM', leases, m)
  redis.call('HDEL', owners, m)
  redis.call('ZADD', due, 'NX', now, m)
end
if org ~= '' and ARGV[7] ~= nil and ARGV[7] ~= '' then
  local jobs = redis.call('HGETALL', prefix .. 't:{' .. org .. '}:jobs')
  for i = 1, #jobs, 2 do
    local m = org .. '\\n' .. jobs[i]
    if redis.call('ZSCORE', due, m) then
      redis.call('ZADD', due, cjson.decode(jobs[i + 1]).dueAt - tonumber(ARGV[7]), m)
    end
  end
end
local members
if org == '' then
  members = redis.call('ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, max)
else
  members = {}
  for _, id in ipairs(redis.call('HKEYS', prefix .. 't:{' .. org .. '}:jobs')) do
    local m = org .. '\\n' .. id
    local s = redis.call('ZSCORE', due, m)
    if s and tonumber(s) <= now and #members < max then members[#members + 1] = m end
  end
end
local out = {}
local n = redis.call('INCR', owners .. ':seq')
for i, m in ipairs(members) do
  redis.call('ZREM', due, m)
  local cut = string.find(m, '\\n', 1, true)
  local job = redis.call('HGET', prefix .. 't:{' .. string.sub(m, 1, cut - 1) .. '}:jobs', string.sub(m, cut + 1))
  if job then
    local t = token .. ':' .. n .. ':' .. i
    redis.call('ZADD', leases, now + leaseMs, m)
    redis.call('HSET', owners, m, t)
    out[#out + 1] = m
    out[#out + 1] = job
    out[#out + 1] = t
  end
end
return out
`;

/**
 * complete: a claimed attempt was made and recorded. KEYS leases, owners, jobs, due. ARGV member, lease token, id.
 * Drops the lease if it is still this replica's, and the job unless a next attempt was scheduled meanwhile.
 */
export const COMPLETE = `
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
if not redis.call('ZSCORE', KEYS[4], ARGV[1]) then redis.call('HDEL', KEYS[3], ARGV[3]) end
return 1
`;
