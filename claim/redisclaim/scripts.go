package redisclaim

import "github.com/redis/go-redis/v9"

// Every script starts with preamble. KEYS[1] is the epoch key, KEYS[2] the
// recovery marker; ARGV[1] is the epoch the caller knows ("" at first),
// ARGV[2] a fresh random epoch, ARGV[3] the recovery window (ms). A Redis
// without an epoch lost its data (or is new): the script writes ARGV[2],
// and when the caller knew an epoch, starts the recovery window, during
// which no claim is granted. A caller whose epoch is not Redis's gets
// {'!epoch', e} and the script does nothing else: it must write back what
// it holds, tracks and marked done (see writeBack) before it acts.
//
// A script re-sent by go-redis after a broken connection (Redis ran it,
// the reply was lost) runs again with the same arguments; each answers as
// the first run did: a claim finds its own token, Done and Release are
// idempotent, ClaimDue returns the batch it claimed (kept under "b:<token>"
// for the lease), a re-sent epoch creation finds its own epoch.
const preamble = `
local e = redis.call('GET', KEYS[1])
if not e then
	e = ARGV[2]
	redis.call('SET', KEYS[1], e)
	if ARGV[1] ~= '' then redis.call('SET', KEYS[2], '1', 'PX', ARGV[3]) end
end
if e ~= ARGV[1] then return {'!epoch', e} end
`

// Values of a key "k:<key>": "c:<token>" while claimed, "d" while done.

// claimScript: KEYS[3] k:key; ARGV[4] token, ARGV[5] lease.
var claimScript = redis.NewScript(preamble + `
local v = redis.call('GET', KEYS[3])
if v == 'd' then return 'done' end
if v == 'c:' .. ARGV[4] then
	redis.call('PEXPIRE', KEYS[3], ARGV[5])
	return 'ok'
end
if v and string.sub(v, 1, 2) ~= 'c:' then return 'foreign' end
if v or redis.call('EXISTS', KEYS[2]) == 1 then return 'busy' end
redis.call('SET', KEYS[3], 'c:' .. ARGV[4], 'PX', ARGV[5])
return 'ok'
`)

// extendScript: KEYS[3] k:key, KEYS[4] due; ARGV[4] token, ARGV[5] lease,
// ARGV[6] key, ARGV[7] now+lease. A tracked key is put off as long, so
// ClaimDue does not look at it in vain.
var extendScript = redis.NewScript(preamble + `
local v = redis.call('GET', KEYS[3])
if v == 'd' then return 'done' end
if v ~= 'c:' .. ARGV[4] then return 'busy' end
redis.call('PEXPIRE', KEYS[3], ARGV[5])
redis.call('ZADD', KEYS[4], 'XX', ARGV[7], ARGV[6])
return 'ok'
`)

// doneScript: KEYS[3] k:key, KEYS[4] due, KEYS[5] t; ARGV[4] keep, ARGV[5]
// key.
var doneScript = redis.NewScript(preamble + `
redis.call('SET', KEYS[3], 'd', 'PX', ARGV[4])
redis.call('ZREM', KEYS[4], ARGV[5])
redis.call('HDEL', KEYS[5], ARGV[5])
return 'ok'
`)

// releaseScript: KEYS[3] k:key; ARGV[4] token.
var releaseScript = redis.NewScript(preamble + `
if redis.call('GET', KEYS[3]) == 'c:' .. ARGV[4] then redis.call('DEL', KEYS[3]) end
return 'ok'
`)

// trackScript: KEYS[3] k:key, KEYS[4] due, KEYS[5] t; ARGV[4] key,
// ARGV[5] due, ARGV[6] expires. The hash "t" holds "<polls>:<expires>".
var trackScript = redis.NewScript(preamble + `
if redis.call('GET', KEYS[3]) == 'd' then return 'done' end
if redis.call('HSETNX', KEYS[5], ARGV[4], '0:' .. ARGV[6]) == 0 then return 'tracked' end
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[4])
return 'ok'
`)

// claimDueScript: KEYS[3] due, KEYS[4] t, KEYS[5] b:token; ARGV[4] now,
// ARGV[5] n, ARGV[6] token, ARGV[7] lease, ARGV[8] prefix, ARGV[9]
// now+lease. It looks past keys held, up to 10n+10, and drops keys found
// done; it grants nothing while Redis recovers lost data.
var claimDueScript = redis.NewScript(preamble + `
local out = {}
local before = redis.call('SMEMBERS', KEYS[5])
if #before > 0 then
	for _, id in ipairs(before) do
		if redis.call('GET', ARGV[8] .. 'k:' .. id) == 'c:' .. ARGV[6] then
			table.insert(out, {id, redis.call('HGET', KEYS[4], id) or '0:0'})
		end
	end
	return out
end
if redis.call('EXISTS', KEYS[2]) == 1 then return out end
local n = tonumber(ARGV[5])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[4], 'LIMIT', 0, 10 * n + 10)) do
	if #out >= n then break end
	local k = ARGV[8] .. 'k:' .. id
	local v = redis.call('GET', k)
	if v == 'd' then
		redis.call('ZREM', KEYS[3], id)
		redis.call('HDEL', KEYS[4], id)
	elseif not v then
		redis.call('SET', k, 'c:' .. ARGV[6], 'PX', ARGV[7])
		redis.call('ZADD', KEYS[3], ARGV[9], id)
		redis.call('SADD', KEYS[5], id)
		table.insert(out, {id, redis.call('HGET', KEYS[4], id) or '0:0'})
	end
end
if #out > 0 then redis.call('PEXPIRE', KEYS[5], ARGV[7]) end
return out
`)

// rescheduleScript: KEYS[3] k:key, KEYS[4] due, KEYS[5] t; ARGV[4]
// token, ARGV[5] key, ARGV[6] due, ARGV[7] polls.
var rescheduleScript = redis.NewScript(preamble + `
if redis.call('GET', KEYS[3]) ~= 'c:' .. ARGV[4] then return 'ok' end
redis.call('DEL', KEYS[3])
local h = redis.call('HGET', KEYS[5], ARGV[5])
if h then
	redis.call('HSET', KEYS[5], ARGV[5], ARGV[7] .. ':' .. (string.match(h, ':(.*)$') or '0'))
	redis.call('ZADD', KEYS[4], ARGV[6], ARGV[5])
end
return 'ok'
`)

// untrackScript: KEYS[3] k:key, KEYS[4] due, KEYS[5] t; ARGV[4] token,
// ARGV[5] key.
var untrackScript = redis.NewScript(preamble + `
if redis.call('GET', KEYS[3]) ~= 'c:' .. ARGV[4] then return 'ok' end
redis.call('DEL', KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[5])
redis.call('HDEL', KEYS[5], ARGV[5])
return 'ok'
`)

// writeBackScript: KEYS[3] due, KEYS[4] t; ARGV[4] prefix, then records
// of five values: "d", key, keep, -, - (mark done); "c", key, token,
// lease, - (claim again if free); "t", key, due, expires, polls (track
// again unless tracked or done). It returns how many it wrote.
var writeBackScript = redis.NewScript(preamble + `
local n = 0
for i = 5, #ARGV, 5 do
	local kind, id = ARGV[i], ARGV[i + 1]
	local k = ARGV[4] .. 'k:' .. id
	if kind == 'd' then
		redis.call('SET', k, 'd', 'PX', ARGV[i + 2])
		redis.call('ZREM', KEYS[3], id)
		redis.call('HDEL', KEYS[4], id)
		n = n + 1
	elseif kind == 'c' then
		if redis.call('SET', k, 'c:' .. ARGV[i + 2], 'NX', 'PX', ARGV[i + 3]) then n = n + 1 end
	elseif redis.call('GET', k) ~= 'd' and redis.call('HSETNX', KEYS[4], id, ARGV[i + 4] .. ':' .. ARGV[i + 3]) == 1 then
		redis.call('ZADD', KEYS[3], ARGV[i + 2], id)
		n = n + 1
	end
end
return n
`)
