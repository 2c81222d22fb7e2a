"""A bounded load test of `netlm serve` on loopback: concurrency 16, 300 mixed requests (info, RTT, cached RTT,
completion, exploration, ranking), optionally N slow inverse searches alongside; prints p50/p95 ms and errors per endpoint and
the server's resident memory before and after, as JSON. Run it by hand on a quiet machine (minutes; not a unit test):

    .venv/bin/python scripts/serve_loadtest.py REPO_ROOT RUN_DIR MEASUREMENTS.parquet PORT [--slow N]

REPO_ROOT's netlm is imported (PYTHONPATH), so two checkouts can be compared under the same load."""
import asyncio, json, os, random, subprocess, sys, time
import httpx, numpy as np

if len(sys.argv) < 5 or sys.argv[1] in ('-h', '--help'): sys.exit(__doc__)
root, workdir, data, port = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
slow = int(sys.argv[sys.argv.index('--slow') + 1]) if '--slow' in sys.argv else 0
env = os.environ | {'PYTHONPATH': root}
srv = subprocess.Popen([sys.executable, '-c', 'from netlm.cli import main; main()', 'serve', '--workdir', workdir, '--data', data,
                        '--port', str(port), '--timeout', '5'], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
base = f'http://127.0.0.1:{port}'
def rss():
    return int(open(f'/proc/{srv.pid}/status').read().split('VmRSS:')[1].split()[0]) / 1024
for _ in range(300):
    try: httpx.get(base + '/api/info', timeout=1); break
    except Exception: time.sleep(1)
info = httpx.get(base + '/api/info').json(); ex = info['examples']
probes = [p['src'] for p in httpx.get(base + '/api/probes').json()][:20]
dsts = {p: [d['dst'] for d in httpx.get(base + '/api/destinations', params=dict(src=p, limit=20)).json()] for p in probes}
rng = random.Random(0)
def request():
    kind = rng.choice(['info', 'rtt', 'rtt', 'rtt_cached', 'complete', 'explore', 'rank'])
    p = rng.choice(probes); d = rng.choice(dsts[p])
    if kind == 'info': return kind, '/api/info', {}
    if kind == 'rtt': return kind, '/api/rtt', dict(src=p, dst=d, t=rng.randrange(1, 10**9))
    if kind == 'rtt_cached': return kind, '/api/rtt', dict(src=ex['src'], dst=ex['dst'])
    if kind == 'complete': return kind, '/api/complete', dict(prefix=ex['prefix'], k=5)
    if kind == 'explore': return kind, '/api/explore', dict(src=p, limit=8)
    return kind, '/api/rank', dict(src=p, dst=','.join(dsts[p][:6]))
async def main():
    before = rss()
    sem, out = asyncio.Semaphore(16), []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        async def one(kind, path, params):
            async with sem:
                t0 = time.perf_counter()
                try: r = await client.get(path, params=params); status = r.status_code
                except Exception as e: status = type(e).__name__
                out.append((kind, status, time.perf_counter() - t0))
        async def slow_one(i):
            t0 = time.perf_counter()
            try: r = await client.get('/api/inverse', params=dict(rtt_ms=30 + i, src=rng.choice(probes), n=64, k=10)); status = r.status_code
            except Exception as e: status = type(e).__name__
            out.append(('inverse (slow)', status, time.perf_counter() - t0))
        jobs = [one(*request()) for _ in range(300)] + [slow_one(i) for i in range(slow)]
        await asyncio.gather(*jobs)
    res = {}
    for kind in sorted({k for k, _, _ in out}):
        s = [(st, t) for k, st, t in out if k == kind]; t = np.array([x for _, x in s])
        res[kind] = dict(n=len(s), p50_ms=round(1000 * np.median(t)), p95_ms=round(1000 * np.percentile(t, 95)),
                         errors={str(st): sum(1 for x, _ in s if x == st) for st in {x for x, _ in s} if st != 200})
    res['rss_mb'] = dict(before=round(before), after=round(rss()))
    print(json.dumps(res))
try: asyncio.run(main())
finally: srv.terminate(); srv.wait()
