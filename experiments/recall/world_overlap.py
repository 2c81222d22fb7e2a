"""Build experiments/recall/world_overlap.json: do the pretraining corpus's worlds share destination addresses or their
prefixes, and how many probes of one world measure each destination? (A measurement for planning issue 64's
"relabelling per world": where worlds share nothing, one bijection per world tells the model what no relabelling does,
less what the address bytes say across worlds.) From the repository root, after `netlm pretrain --workdir W ...` has
built W/worlds: `python -m experiments.recall.world_overlap runs/pt_r12c experiments/recall/world_overlap.json`."""
import datetime, ipaddress, json, sys
from collections import Counter
from pathlib import Path

import duckdb

from experiments.common import git


def prefix(addr: str, v4: int, v6: int) -> str:
    "The address's network of `v4` (IPv4) or `v6` (IPv6) bits, as text."
    a = ipaddress.ip_address(addr)
    return str(ipaddress.ip_network(f'{a}/{v4 if a.version == 4 else v6}', strict=False))


def main(workdir, out_path):
    worlds = sorted(Path(workdir, 'worlds').glob('world-*/measurements.parquet'))
    per_world = [duckdb.sql(f"select dst_addr, count(distinct src_addr) probes from '{p}' group by dst_addr").fetchall()
                 for p in worlds]
    shared = {}
    for name, (v4, v6) in dict(address=(32, 128), ipv4_24_ipv6_48=(24, 48), ipv4_16_ipv6_32=(16, 32),
                                ipv4_8_ipv6_12=(8, 12)).items():
        seen = Counter(p for rows in per_world for p in {prefix(d, v4, v6) for d, _ in rows})
        shared[name] = dict(distinct=len(seen), in_two_worlds_or_more=sum(c > 1 for c in seen.values()))
    probes = [n for rows in per_world for _, n in rows]
    record = dict(
        what='Destination addresses and their prefixes shared between the worlds of a pretraining corpus, and the '
             'probes per destination inside a world',
        date=str(datetime.date.today()), issue=64, corpus=str(workdir), worlds=len(worlds), commit=git('rev-parse', 'HEAD'),
        destinations=len(probes), shared=shared,
        probes_per_destination=dict(median=sorted(probes)[len(probes) // 2], one_probe_share=sum(n == 1 for n in probes) / len(probes),
                                    five_or_more_share=sum(n >= 5 for n in probes) / len(probes)),
        record=f'python -m experiments.recall.world_overlap {workdir} {out_path}')
    Path(out_path).write_text(json.dumps(record, indent=1) + '\n')
    print(json.dumps({k: record[k] for k in ('worlds', 'destinations', 'shared', 'probes_per_destination')}, indent=1))


if __name__ == '__main__': main(*sys.argv[1:])
