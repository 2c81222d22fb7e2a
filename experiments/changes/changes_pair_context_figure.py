"""Draw images/changes_pair_context.png: one validation pair's RTTs, true changes, and the normal scores z of its pings
under the probe's and the pair's context, with each detector's alarms (C1's cached scores in runs/chg/); run from the
repository root: `python -m experiments.changes.changes_pair_context_figure nbs/images/changes_pair_context.png`."""
import sys
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import numpy as np
from experiments.common import scores, world   # C1's worlds and cache
from netlm.changes import detect_changes, pair_runs, pit_z
from netlm.config import CUSUM_DEFAULTS

m, truth = world(5, 0)
z = {c: pit_z(scores('val', m, c)['pit']) for c in ('probe', 'pair')}
found = {'probe': detect_changes(m, z['probe'], drift=1.5, threshold=4, hold=30), 'pair': detect_changes(m, z['pair'], **CUSUM_DEFAULTS)}
key = lambda t: np.char.add(np.char.add(t['src_addr'].to_numpy(zero_copy_only=False).astype(str), '|'),
                            t['dst_addr'].to_numpy(zero_copy_only=False).astype(str))
tk, routes = key(truth), truth['kind'].to_numpy(zero_copy_only=False).astype(str) == 'route'
order, bounds = pair_runs(m)
# the pair with the most true route changes among those the probe's context missed and the pair's found
best, best_n = None, -1
for a, b in zip(bounds[:-1], bounds[1:]):                 # a loop per pair (a figure, not a hot path)
    i = order[a:b]; k = f'{m.src[i[0]]}|{m.dst[i[0]]}'
    n_true = int(((tk == k) & routes).sum())
    if n_true and (m.rtt_ms[i] > 0).mean() > 0.9 and (key(found['pair']) == k).sum() >= n_true > (key(found['probe']) == k).sum():
        if n_true > best_n: best, best_n = (i, k), n_true
i, k = best
t = (m.t[i] - m.t[i][0]) / 3600
ts = lambda tab: (np.array([x.timestamp() for x in tab.filter(np.asarray(key(tab) == k))['event_time'].to_pylist()]) - m.t[i][0]) / 3600
fig, ax = plt.subplots(3, 1, figsize=(9, 6.5), sharex=True, gridspec_kw=dict(height_ratios=[1.4, 1, 1]))
ok = m.rtt_ms[i] > 0
ax[0].plot(t[ok], m.rtt_ms[i][ok], '.', ms=2.5, color='0.3')
ax[0].set_ylabel('RTT (ms)'); ax[0].set_title(f'{k.replace("|", " -> ")}: RTTs and true changes (dashed)', fontsize=10)
for j, (c, label) in enumerate((('probe', "z, the probe's context (before C1)"), ('pair', "z, the pair's context (now)")), 1):
    ax[j].plot(t, z[c][i], lw=0.6, color='C0' if c == 'probe' else 'C2')
    ax[j].set_ylim(-4.3, 4.3); ax[j].set_ylabel('z'); ax[j].set_title(label + ': alarms (red)', fontsize=10)
    for x in ts(found[c]): ax[j].axvline(x, color='C3', lw=1.5)
for a in ax:
    for x in ts(truth): a.axvline(x, color='k', ls='--', lw=0.8)
ax[-1].set_xlabel('hours')
fig.tight_layout(); fig.savefig(sys.argv[1], dpi=110)
print(k, best_n, len(i))
