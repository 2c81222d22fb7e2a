import sys, json, numpy as np
from netlm.infer import Predictor
from netlm.artefacts import resolve_model
p = Predictor.from_export(sys.argv[1]) if sys.argv[1] != 'base' else Predictor.from_pretrained('base')
rng = np.random.default_rng(0)
ctx = []
dsts = [f'198.51.100.{i}' for i in range(1, 9)]
t0 = 1_700_000_000
for i in range(30):
    ctx.append(dict(src='192.0.2.1', dst=dsts[i % 8], rtt_ms=float(10 + 5 * (i % 8) + rng.random()), t=t0 + 60 * i))
out = []
for d in dsts + ['203.0.113.5', '203.0.113.77']:
    r = p.predict_rtt('192.0.2.1', d, ctx)
    out.append([r.median_ms, r.p_fail] + list(map(float, r.quantile([0.1, 0.9]))))
c = p.complete_ip('198.51.', ctx, src='192.0.2.1')
json.dump(dict(rtt=out, complete=[[str(x) for x in row] for row in (c[:5] if isinstance(c, list) else [])]), open(sys.argv[2], 'w'))
print(out[:3])
