#!/usr/bin/env python3
"""redis_commit_variants.py VARIANT...: what variants of the worker's commit batch script
cost Redis, in instructions per commit (docs/BENCHMARKS.md, "Redis per answer, fifth
step"): for each variant, a redis-server 7 with its append-only file runs under valgrind's
callgrind twice, with 200 and 1,200 calls of batches of 20 commits (after 50 to warm up),
and the difference of its instruction totals over the 20,000 commits between is printed.
One commit in seven carries a 1,320-byte snapshot and 3 log entries; an answer is 5 bytes.
Variants (the scripts below; 'before' and 'after' are copies of dh_script_commit_batch
before and after that step, tests/unit/test_keys.c pins the real one):
  before   the format before: per commit 4 keys and 16 arguments, the answer sent twice
  slim     the worker once per call, the finish's fields only with a finish
  nofence  slim without the fence's HMGET (not safe: prices the fence)
  nolog    slim without the log's RPUSH for an answer (prices the log as the history's tail)
  packed   slim with each commit's arguments packed in one string (struct.unpack)
  after    the format after: the answer sent once for log and history
  empty    the format after with an empty commit body (the call, its arguments, the loop)
"""
import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

SCRIPTS = {
    'before': "local function commit(K, A, Z) local o = redis.call('HMGET', KEYS[K + 1], 'worker', 'epoch') if o[1] ~= ARGV[A + 1] or o[2] ~= ARGV[A + 2] then return redis.error_reply('FENCED match owned by ' .. tostring(o[1]) .. ' at epoch ' .. tostring(o[2])) end local e = A + 6 + tonumber(ARGV[A + 6]) + 1 if ARGV[e] == '2' and redis.call('LINDEX', KEYS[K + 4], -1) == ARGV[e + 1] then local m = redis.call('HMGET', KEYS[K + 1], 'rating_job', 'rated') if m[1] and m[2] ~= '1' then return 2 end return 1 end local i = A + 4 if ARGV[i] == '1' then redis.call('SET', KEYS[K + 2], ARGV[i + 1]) redis.call('DEL', KEYS[K + 3]) end i = i + 2 local n = tonumber(ARGV[i]) i = i + 1 for _ = 1, n do redis.call('RPUSH', KEYS[K + 3], ARGV[i]) i = i + 1 end if ARGV[i] ~= '0' then redis.call('RPUSH', KEYS[K + 4], ARGV[i + 1]) end i = i + 2 if ARGV[i] == '1' then redis.call('HSET', KEYS[K + 1], 'status', 'finished', 'ended_ms', ARGV[i + 1], 'result', ARGV[i + 2], 'final_hash', ARGV[i + 3]) if i + 4 <= Z and ARGV[i + 4] ~= '' then redis.call('HSET', KEYS[K + 1], 'end_reason', ARGV[i + 4]) end if i + 5 <= Z and ARGV[i + 5] ~= '' and redis.call('HGET', KEYS[K + 1], 'rated') ~= '1' then redis.call('HSET', KEYS[K + 1], 'rating_job', ARGV[i + 5]) return 2 end end return 1 end local out, k, a = {}, 0, 1 while a <= #ARGV do local n = tonumber(ARGV[a]) local ok, r = pcall(commit, k, a, a + n) if not ok then r = type(r) == 'table' and r or {err = tostring(r)} end out[#out + 1] = r k = k + 4 a = a + n + 1 end return out",
    'slim': "local W = ARGV[1]\nlocal function commit(K, A, Z)\nlocal o = redis.call('HMGET', KEYS[K + 1], 'worker', 'epoch')\nif o[1] ~= W or o[2] ~= ARGV[A + 1] then return redis.error_reply('FENCED match owned by ' .. tostring(o[1]) .. ' at epoch ' .. tostring(o[2])) end\nlocal kind = tonumber(ARGV[A + 2])\nlocal i = A + 3\nif kind % 2 == 1 then redis.call('SET', KEYS[K + 2], ARGV[i]) redis.call('DEL', KEYS[K + 3]) i = i + 1 end\nlocal n = tonumber(ARGV[i]) i = i + 1\nfor _ = 1, n do redis.call('RPUSH', KEYS[K + 3], ARGV[i]) i = i + 1 end\nif kind % 4 >= 2 then redis.call('RPUSH', KEYS[K + 4], ARGV[i]) i = i + 1 end\nreturn 1\nend\nlocal out, k, a = {}, 0, 2\nwhile a <= #ARGV do\nlocal n = tonumber(ARGV[a])\nlocal ok, r = pcall(commit, k, a, a + n)\nif not ok then r = type(r) == 'table' and r or {err = tostring(r)} end\nout[#out + 1] = r k = k + 4 a = a + n + 1 end\nreturn out",
    'nofence': "local W = ARGV[1]\nlocal function commit(K, A, Z)\nlocal kind = tonumber(ARGV[A + 2])\nlocal i = A + 3\nif kind % 2 == 1 then redis.call('SET', KEYS[K + 2], ARGV[i]) redis.call('DEL', KEYS[K + 3]) i = i + 1 end\nlocal n = tonumber(ARGV[i]) i = i + 1\nfor _ = 1, n do redis.call('RPUSH', KEYS[K + 3], ARGV[i]) i = i + 1 end\nif kind % 4 >= 2 then redis.call('RPUSH', KEYS[K + 4], ARGV[i]) i = i + 1 end\nreturn 1\nend\nlocal out, k, a = {}, 0, 2\nwhile a <= #ARGV do\nlocal n = tonumber(ARGV[a])\nlocal ok, r = pcall(commit, k, a, a + n)\nif not ok then r = type(r) == 'table' and r or {err = tostring(r)} end\nout[#out + 1] = r k = k + 4 a = a + n + 1 end\nreturn out",
    'packed': "local W = ARGV[1]\nlocal function commit(K, c)\nlocal ep, kind, p = struct.unpack('>Bc0B', c)\nlocal o = redis.call('HMGET', KEYS[K + 1], 'worker', 'epoch')\nif o[1] ~= W or o[2] ~= ep then return redis.error_reply('FENCED match owned by ' .. tostring(o[1]) .. ' at epoch ' .. tostring(o[2])) end\nlocal v\nif kind % 2 == 1 then v, p = struct.unpack('>I4c0', c, p) redis.call('SET', KEYS[K + 2], v) redis.call('DEL', KEYS[K + 3]) end\nlocal n n, p = struct.unpack('>H', c, p)\nfor _ = 1, n do v, p = struct.unpack('>Hc0', c, p) redis.call('RPUSH', KEYS[K + 3], v) end\nif kind % 4 >= 2 then v, p = struct.unpack('>Hc0', c, p) redis.call('RPUSH', KEYS[K + 4], v) end\nreturn 1\nend\nlocal out = {}\nfor a = 2, #ARGV do\nlocal ok, r = pcall(commit, (a - 2) * 4, ARGV[a])\nif not ok then r = type(r) == 'table' and r or {err = tostring(r)} end\nout[#out + 1] = r end\nreturn out",
    'after': "local W = ARGV[1] local function commit(K, A) local o = redis.call('HMGET', KEYS[K + 1], 'worker', 'epoch') if o[1] ~= W or o[2] ~= ARGV[A + 1] then return redis.error_reply('FENCED match owned by ' .. tostring(o[1]) .. ' at epoch ' .. tostring(o[2])) end local f = string.byte(ARGV[A + 2]) - 48 local snap, ans, xlog = f % 2 == 1, f % 4 >= 2, f >= 16 local i = A + 3 local s if snap then s = ARGV[i] i = i + 1 end local n = 0 if snap or xlog then n = tonumber(ARGV[i]) i = i + 1 end local l = i i = i + n local a if ans then a = ARGV[i] i = i + 1 end if ans and f % 8 >= 4 and redis.call('LINDEX', KEYS[K + 4], -1) == a then local m = redis.call('HMGET', KEYS[K + 1], 'rating_job', 'rated') if m[1] and m[2] ~= '1' then return 2 end return 1 end if snap then redis.call('SET', KEYS[K + 2], s) redis.call('DEL', KEYS[K + 3]) end for j = l, l + n - 1, 64 do redis.call('RPUSH', KEYS[K + 3], unpack(ARGV, j, math.min(j + 63, l + n - 1))) end if ans then if not (snap or xlog) then redis.call('RPUSH', KEYS[K + 3], a) end redis.call('RPUSH', KEYS[K + 4], a) end if f % 16 >= 8 then redis.call('HSET', KEYS[K + 1], 'status', 'finished', 'ended_ms', ARGV[i], 'result', ARGV[i + 1], 'final_hash', ARGV[i + 2]) if ARGV[i + 3] ~= '' then redis.call('HSET', KEYS[K + 1], 'end_reason', ARGV[i + 3]) end if ARGV[i + 4] ~= '' and redis.call('HGET', KEYS[K + 1], 'rated') ~= '1' then redis.call('HSET', KEYS[K + 1], 'rating_job', ARGV[i + 4]) return 2 end end return 1 end local out, k, a = {}, 0, 2 while a <= #ARGV do local ok, r = pcall(commit, k, a) if not ok then r = type(r) == 'table' and r or {err = tostring(r)} end out[#out + 1] = r k = k + 4 a = a + tonumber(ARGV[a]) + 1 end return out",
    'empty': "local W = ARGV[1] local function commit(K, A) do return 1 end local o = redis.call('HMGET', KEYS[K + 1], 'worker', 'epoch') if o[1] ~= W or o[2] ~= ARGV[A + 1] then return redis.error_reply('FENCED match owned by ' .. tostring(o[1]) .. ' at epoch ' .. tostring(o[2])) end local f = string.byte(ARGV[A + 2]) - 48 local snap, ans, xlog = f % 2 == 1, f % 4 >= 2, f >= 16 local i = A + 3 local s if snap then s = ARGV[i] i = i + 1 end local n = 0 if snap or xlog then n = tonumber(ARGV[i]) i = i + 1 end local l = i i = i + n local a if ans then a = ARGV[i] i = i + 1 end if ans and f % 8 >= 4 and redis.call('LINDEX', KEYS[K + 4], -1) == a then local m = redis.call('HMGET', KEYS[K + 1], 'rating_job', 'rated') if m[1] and m[2] ~= '1' then return 2 end return 1 end if snap then redis.call('SET', KEYS[K + 2], s) redis.call('DEL', KEYS[K + 3]) end for j = l, l + n - 1, 64 do redis.call('RPUSH', KEYS[K + 3], unpack(ARGV, j, math.min(j + 63, l + n - 1))) end if ans then if not (snap or xlog) then redis.call('RPUSH', KEYS[K + 3], a) end redis.call('RPUSH', KEYS[K + 4], a) end if f % 16 >= 8 then redis.call('HSET', KEYS[K + 1], 'status', 'finished', 'ended_ms', ARGV[i], 'result', ARGV[i + 1], 'final_hash', ARGV[i + 2]) if ARGV[i + 3] ~= '' then redis.call('HSET', KEYS[K + 1], 'end_reason', ARGV[i + 3]) end if ARGV[i + 4] ~= '' and redis.call('HGET', KEYS[K + 1], 'rated') ~= '1' then redis.call('HSET', KEYS[K + 1], 'rating_job', ARGV[i + 4]) return 2 end end return 1 end local out, k, a = {}, 0, 2 while a <= #ARGV do local ok, r = pcall(commit, k, a) if not ok then r = type(r) == 'table' and r or {err = tostring(r)} end out[#out + 1] = r k = k + 4 a = a + tonumber(ARGV[a]) + 1 end return out",
    'nolog': "local W = ARGV[1]\nlocal function commit(K, A, Z)\nlocal o = redis.call('HMGET', KEYS[K + 1], 'worker', 'epoch')\nif o[1] ~= W or o[2] ~= ARGV[A + 1] then return redis.error_reply('FENCED match owned by ' .. tostring(o[1]) .. ' at epoch ' .. tostring(o[2])) end\nlocal kind = tonumber(ARGV[A + 2])\nlocal i = A + 3\nif kind % 2 == 1 then redis.call('SET', KEYS[K + 2], ARGV[i]) redis.call('DEL', KEYS[K + 3]) i = i + 1 end\nlocal n = tonumber(ARGV[i]) i = i + 1\nfor _ = 1, n do redis.call('RPUSH', KEYS[K + 3], ARGV[i]) i = i + 1 end\nif kind % 4 >= 2 then redis.call('RPUSH', KEYS[K + 4], ARGV[i]) i = i + 1 end\nreturn 1\nend\nlocal out, k, a = {}, 0, 2\nwhile a <= #ARGV do\nlocal n = tonumber(ARGV[a])\nlocal ok, r = pcall(commit, k, a, a + n)\nif not ok then r = type(r) == 'table' and r or {err = tostring(r)} end\nout[#out + 1] = r k = k + 4 a = a + n + 1 end\nreturn out",
    'single': "local K, A, Z = 0, 0, #ARGV local o = redis.call('HMGET', KEYS[K + 1], 'worker', 'epoch') if o[1] ~= ARGV[A + 1] or o[2] ~= ARGV[A + 2] then return redis.error_reply('FENCED match owned by ' .. tostring(o[1]) .. ' at epoch ' .. tostring(o[2])) end local e = A + 6 + tonumber(ARGV[A + 6]) + 1 if ARGV[e] == '2' and redis.call('LINDEX', KEYS[K + 4], -1) == ARGV[e + 1] then local m = redis.call('HMGET', KEYS[K + 1], 'rating_job', 'rated') if m[1] and m[2] ~= '1' then return 2 end return 1 end local i = A + 4 if ARGV[i] == '1' then redis.call('SET', KEYS[K + 2], ARGV[i + 1]) redis.call('DEL', KEYS[K + 3]) end i = i + 2 local n = tonumber(ARGV[i]) i = i + 1 for _ = 1, n do redis.call('RPUSH', KEYS[K + 3], ARGV[i]) i = i + 1 end if ARGV[i] ~= '0' then redis.call('RPUSH', KEYS[K + 4], ARGV[i + 1]) end i = i + 2 if ARGV[i] == '1' then redis.call('HSET', KEYS[K + 1], 'status', 'finished', 'ended_ms', ARGV[i + 1], 'result', ARGV[i + 2], 'final_hash', ARGV[i + 3]) if i + 4 <= Z and ARGV[i + 4] ~= '' then redis.call('HSET', KEYS[K + 1], 'end_reason', ARGV[i + 4]) end if i + 5 <= Z and ARGV[i + 5] ~= '' and redis.call('HGET', KEYS[K + 1], 'rated') ~= '1' then redis.call('HSET', KEYS[K + 1], 'rating_job', ARGV[i + 5]) return 2 end end return 1",
}

PORT = int(os.environ.get('DH_BENCH_REDIS_PORT', '17412'))
SNAP = bytes(random.getrandbits(8) for _ in range(1320))
ANSWER = b'\x01\x01?\x01\x01'
PER = 20


def resp(args):
    out = [b'*%d\r\n' % len(args)]
    for a in args:
        a = a.encode() if isinstance(a, str) else a
        out.append(b'$%d\r\n%s\r\n' % (len(a), a))
    return b''.join(out)


class Conn:
    def __init__(self, port):
        self.sock = socket.create_connection(('127.0.0.1', port))
        self.f = self.sock.makefile('rb')

    def read(self):
        line = self.f.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b'-':
            raise RuntimeError(rest.decode())
        if kind == b'$':
            n = int(rest)
            return None if n < 0 else self.f.read(n + 2)[:-2]
        if kind == b'*':
            return [self.read() for _ in range(int(rest))]
        return rest

    def cmd(self, *args):
        self.sock.sendall(resp(args))
        return self.read()


def commit_args(variant, mid, snap):
    keys = ['match:{%s}' % mid, 'match:{%s}:snap' % mid, 'match:{%s}:log' % mid,
            'match:{%s}:history' % mid]
    logs = [ANSWER] * (3 if snap else 1)
    if variant in ('before', 'single'):
        a = ['wk-1', '1', mid, '1' if snap else '0', SNAP if snap else b'', str(len(logs))]
        a += logs + ['1', ANSWER, '0', '0', '', '', '', '']
        return keys, a if variant == 'single' else [str(len(a))] + a
    if variant in ('after', 'empty'):
        a = ['1', '3', SNAP, '3'] + logs + [ANSWER] if snap else ['1', '2', ANSWER]
        return keys, [str(len(a))] + a
    if variant == 'packed':
        b = struct.pack('>B', 1) + b'1' + struct.pack('>B', 3 if snap else 2)
        if snap:
            b += struct.pack('>I', len(SNAP)) + SNAP
        b += struct.pack('>H', len(logs)) + b''.join(struct.pack('>H', len(x)) + x for x in logs)
        return keys, [b + struct.pack('>H', len(ANSWER)) + ANSWER]
    if variant == 'nolog' and not snap:
        logs = []
    a = ['1', '3' if snap else '2'] + ([SNAP] if snap else []) + [str(len(logs))] + logs + [ANSWER]
    return keys, [str(len(a))] + a


def run(variant, calls, ids, conn, sha, k):
    for _ in range(calls):
        keys, args = [], [] if variant in ('before', 'single') else ['wk-1']
        for _ in range(1 if variant == 'single' else PER):
            kk, aa = commit_args(variant, ids[k % len(ids)], k % 7 == 6)
            keys += kk
            args += aa
            k += 1
        out = conn.cmd('EVALSHA', sha, str(len(keys)), *keys, *args)
        if not isinstance(out, list):
            out = [out]
        if any(x != b'1' for x in out):
            raise RuntimeError('a commit failed: %r' % out[:3])
    return k


def instructions(variant, calls):
    with tempfile.TemporaryDirectory() as d:
        proc = subprocess.Popen(
            ['valgrind', '--tool=callgrind', '--callgrind-out-file=%s/cg.out' % d,
             'redis-server', '--port', str(PORT), '--bind', '127.0.0.1', '--dir', d, '--save', '',
             '--appendonly', 'yes', '--appendfsync', 'everysec',
             '--hz', os.environ.get('DH_BENCH_HZ', '10')],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(150):
            try:
                conn = Conn(PORT)
                conn.cmd('PING')
                break
            except (OSError, RuntimeError):
                time.sleep(0.2)
        sha = conn.cmd('SCRIPT', 'LOAD', SCRIPTS[variant]).decode()
        ids = ['m-%016x' % random.getrandbits(64) for _ in range(200)]
        for mid in ids:
            conn.cmd('HSET', 'match:{%s}' % mid, 'worker', 'wk-1', 'epoch', '1', 'status', 'running')
        run(variant, calls + 50, ids, conn, sha, 0)
        try:
            conn.cmd('SHUTDOWN', 'NOSAVE')
        except (OSError, RuntimeError):
            pass
        proc.wait()
        if os.environ.get('DH_BENCH_CG_DIR'):
            shutil.copy('%s/cg.out' % d,
                        '%s/cg.%s.%d' % (os.environ['DH_BENCH_CG_DIR'], variant, calls))
        with open('%s/cg.out' % d) as f:
            for line in f:
                if line.startswith(('summary:', 'totals:')):
                    return int(line.split()[1])
    raise RuntimeError('no callgrind total')


def main():
    for variant in sys.argv[1:]:
        lo, hi = (int(x) for x in os.environ.get('DH_BENCH_CALLS', '200,1200').split(','))
        a, b = instructions(variant, lo), instructions(variant, hi)
        per = 1 if variant == 'single' else PER
        print('%s instructions_per_commit=%d' % (variant, (b - a) // ((hi - lo) * per)))


if __name__ == '__main__':
    main()
