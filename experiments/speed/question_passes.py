"""`netlm.benchmarks.bench_predict` with each question asked five times (every pass from no kept context, the first
compiling), its questions/s per pass printed as one JSON line: {question index: [q/s of passes 1-5]} (0 RTT, 1
ranking, 2 completion, 3 inverse). The bench itself times pass 2 alone, which moved by 1.5x between runs of one
commit here. From the repository root: `python experiments/speed/question_passes.py [probes=6 queries=90]`."""
import sys, time, json
import netlm.benchmarks as B
res = {}
def per_s(predictor, fn, groups, count):
    ts = []
    for _ in range(5):
        getattr(predictor.tree, 'cache', {}).clear()
        t0 = time.perf_counter(); fn(groups); ts.append(round(count / (time.perf_counter() - t0), 1))
    res[len(res)] = ts
    return ts[1], []
B._per_s = per_s
B.bench_predict(**{k: int(v) for k, v in (a.split('=') for a in sys.argv[1:])})
print(json.dumps(res))
