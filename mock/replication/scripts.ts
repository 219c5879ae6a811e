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
 * The shared schedule is fair over tenants (docs/DESIGN.md, "Shared sandbox"; inferred, as for one process in
 * mock/webhooks/fair-slots.ts): each tenant's due attempts wait in a set of its own (`<jobs key>:due`, notification
 * id scored by the real time it falls due), and the global `due` set holds the tenants, each scored by its turn: the
 * later of its earliest due attempt and the time it was last served (`served` in its meta hash). A claim serves the
 * tenants whose turn came, oldest turn first, at most a quota of attempts from each, and puts each served tenant back
 * at the end of the line, so a tenant with thousands of due attempts is served one quota per round, like every other.
 */

/**
 * A tenant scheduled an attempt (the quadruple at ARGV[i] of append; locals `due`, `meta`): its turn comes no later
 * than the attempt's due time, but no sooner than it was last served (a busy tenant does not jump the line with each
 * new attempt).
 */
const TURN_NO_LATER_THAN = `
local dueAt = tonumber(ARGV[i + 3])
local turn = math.max(dueAt, tonumber(redis.call('HGET', meta, 'served') or '0'))
local current = redis.call('ZSCORE', due, ARGV[2])
if not current or tonumber(current) > turn then redis.call('ZADD', due, turn, ARGV[2]) end
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
local tenantDue = jobs .. ':due'
for i = 6 + 2 * n, #ARGV, 4 do
  if ARGV[i] == 's' then
    redis.call('HSET', jobs, ARGV[i + 1], ARGV[i + 2])
    redis.call('ZADD', tenantDue, ARGV[i + 3], ARGV[i + 1])
    ${TURN_NO_LATER_THAN}
  else
    redis.call('ZREM', tenantDue, ARGV[i + 1])
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
 * The epoch moves on (every replica drops its copy at its next request of the tenant); scheduled attempts go, and
 * the tenant leaves the line of the schedule (an attempt claimed before finds no job when its lease lapses).
 */
export const RESET = `
local meta, log, rate, jobs, due = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
redis.call('DEL', log, rate, jobs, jobs .. ':due')
redis.call('ZREM', due, ARGV[1])
redis.call('HDEL', meta, 'last', 'served')
return redis.call('HINCRBY', meta, 'epoch', 1)
`;

/**
 * claim: takes up to `max` due attempts, leased to this replica for `lease ms`, fairly over tenants: the tenants whose
 * turn came (oldest turn first), at most `per tenant` from each, minus what this replica already holds of the tenant
 * (pairs org, count: a tenant at its share here gets nothing more); each tenant served goes to the end of the line.
 * Attempts whose lease lapsed (a replica died making them) are due again first, and their tenant's turn is now. With
 * an org, only that tenant's attempts; with an org and a clock offset (ms), its waiting attempts are first moved to
 * the real time they are due after its clock jumped (tenant due time minus the offset), in the same step, so the
 * replica told of the jump claims what it made due. With a pace (limit per window ms: `--delivery-rate-per-tenant`),
 * a tenant's claims over all replicas take tokens of one bucket of its own (`t:{org}:pace`, as ../rate-limit.ts keeps
 * one per process: `limit` tokens, refilled at `limit` per window, forgotten once full again); a tenant whose bucket
 * is empty gets nothing, and its turn moves to when the next token comes.
 * KEYS due, leases, owners. ARGV now, lease ms, max, owner token prefix, key prefix, org ('' = any), offset ('' =
 * none), per tenant ('' = max), pace limit and pace window ms ('' = no pace), then pairs of (org, attempts this
 * replica holds of it).
 * Returns { claimed, next }: claimed a flat list of member (`org\nnotificationId`), job JSON, lease token, ...; next
 * the real time anything in the schedule is next due (a tenant's turn, or a lease that lapses), -1 when it is empty,
 * so a replica sleeps until then instead of polling.
 */
export const CLAIM = `
local due, leases, owners = KEYS[1], KEYS[2], KEYS[3]
local now, leaseMs, max, token, prefix, org = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]
local perTenant = tonumber(ARGV[8] or '') or max
local paceLimit, paceWindow = tonumber(ARGV[9] or ''), tonumber(ARGV[10] or '')
local held = {}
local heldOrgs = 0
for i = 11, #ARGV, 2 do
  held[ARGV[i]] = tonumber(ARGV[i + 1])
  heldOrgs = heldOrgs + 1
end
local function jobsOf(o) return prefix .. 't:{' .. o .. '}:jobs' end
local function metaOf(o) return prefix .. 't:{' .. o .. '}:meta' end
local function paceOf(o) return prefix .. 't:{' .. o .. '}:pace' end
-- When a tenant's pace bucket holding \`tokens\` (fewer than one) has its next whole token.
local function nextToken(tokens) return now + math.ceil((1 - tokens) * paceWindow / paceLimit) end
-- A tenant's place in line after its due set changed: its earliest attempt, but not before the time given; gone when empty.
local function reline(o, after)
  local first = redis.call('ZRANGE', jobsOf(o) .. ':due', 0, 0, 'WITHSCORES')
  if #first == 0 then redis.call('ZREM', due, o) else redis.call('ZADD', due, math.max(tonumber(first[2]), after), o) end
end
for _, m in ipairs(redis.call('ZRANGEBYSCORE', leases, '-inf', now, 'LIMIT', 0, max)) do
  redis.call('ZREM', leases, m)
  redis.call('HDEL', owners, m)
  local cut = string.find(m, '\\n', 1, true)
  local o = string.sub(m, 1, cut - 1)
  redis.call('ZADD', jobsOf(o) .. ':due', 'NX', now, string.sub(m, cut + 1))
  local turn = redis.call('ZSCORE', due, o)
  if not turn or tonumber(turn) > now then redis.call('ZADD', due, now, o) end
end
if org ~= '' and ARGV[7] ~= nil and ARGV[7] ~= '' then
  local jobs = redis.call('HGETALL', jobsOf(org))
  local tenantDue = jobsOf(org) .. ':due'
  for i = 1, #jobs, 2 do
    if redis.call('ZSCORE', tenantDue, jobs[i]) then
      redis.call('ZADD', tenantDue, cjson.decode(jobs[i + 1]).dueAt - tonumber(ARGV[7]), jobs[i])
    end
  end
  reline(org, 0)
end
local orgs
if org == '' then
  orgs = redis.call('ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, max + heldOrgs)
else
  orgs = { org }
end
local out = {}
local taken = 0
local n = redis.call('INCR', owners .. ':seq')
for _, o in ipairs(orgs) do
  if taken >= max then break end
  local quota = math.min(perTenant - (held[o] or 0), max - taken)
  local tokens = 0
  if paceLimit and quota > 0 then
    local bucket = redis.call('HMGET', paceOf(o), 'tokens', 'at')
    local since = math.max(0, now - (tonumber(bucket[2]) or now))
    tokens = math.min(paceLimit, (tonumber(bucket[1]) or paceLimit) + since * paceLimit / paceWindow)
    quota = math.min(quota, math.floor(tokens))
    if quota <= 0 then reline(o, nextToken(tokens)) end
  end
  if quota > 0 then
    local got = 0
    local jobs = jobsOf(o)
    local tenantDue = jobs .. ':due'
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', tenantDue, '-inf', now, 'LIMIT', 0, quota)) do
      redis.call('ZREM', tenantDue, id)
      local job = redis.call('HGET', jobs, id)
      if job then
        taken = taken + 1
        got = got + 1
        local m = o .. '\\n' .. id
        local t = token .. ':' .. n .. ':' .. taken
        redis.call('ZADD', leases, now + leaseMs, m)
        redis.call('HSET', owners, m, t)
        out[#out + 1] = m
        out[#out + 1] = job
        out[#out + 1] = t
      end
    end
    local turn = now + 1
    if paceLimit then
      tokens = tokens - got
      redis.call('HSET', paceOf(o), 'tokens', tostring(tokens), 'at', tostring(now))
      redis.call('PEXPIRE', paceOf(o), paceWindow)
      if tokens < 1 then turn = nextToken(tokens) end
    end
    redis.call('HSET', metaOf(o), 'served', now + 1)
    reline(o, turn)
  end
end
local next = -1
local turn = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
if #turn > 0 then next = tonumber(turn[2]) end
local lapse = redis.call('ZRANGE', leases, 0, 0, 'WITHSCORES')
if #lapse > 0 and (next < 0 or tonumber(lapse[2]) < next) then next = tonumber(lapse[2]) end
return { out, next }
`;

/**
 * complete: a claimed attempt was made and recorded. KEYS leases, owners, jobs, due (unused: the tenant's own due
 * set is `<jobs>:due`). ARGV member, lease token, id.
 * Drops the lease if it is still this replica's, and the job unless a next attempt was scheduled meanwhile.
 */
export const COMPLETE = `
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
if not redis.call('ZSCORE', KEYS[3] .. ':due', ARGV[3]) then redis.call('HDEL', KEYS[3], ARGV[3]) end
return 1
`;

/** due count: attempts waiting in the shared schedule, over every tenant in line. KEYS due. ARGV key prefix. */
export const DUE_COUNT = `
local n = 0
for _, o in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  n = n + redis.call('ZCARD', ARGV[1] .. 't:{' .. o .. '}:jobs:due')
end
return n
`;
