#!/usr/bin/env python3
"""Rebuild the dirty-input corpus: small damaged and odd inputs for `netlm ingest` and `netlm preprocess`.

    python corpus/make_corpus.py          # from the repository root (or anywhere: paths are relative to this file)

Every file is generated deterministically (fixed seeds, gzip mtime 0), so a rebuild gives the same
cases. What each case should give is written by hand in expected.json (not by running netlm), and
README.md says why; the notebooks' tests (nbs/09_ingest.ipynb, nbs/12_preprocess.ipynb) run every
case and compare. Needs only the standard library and pyarrow.
"""
import bz2
import gzip
import json
import lzma
import random
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
T0 = 1_700_000_000                     # 2023-11-14 22:13:20 UTC


def ping(i: int, **changes) -> dict:
    "A clean firmware-5080 ping result behind NAT (5 probes, 2 replies and a timeout), with `changes` applied."
    r = {"fw": 5080, "af": 4, "dst_addr": "193.0.14.129", "src_addr": f"192.168.1.{10 + i % 5}", "from": f"81.2.3.{10 + i % 5}",
         "msm_id": 1001, "prb_id": 6000 + i % 5, "timestamp": T0 + 240 * i, "type": "ping", "size": 48,
         "result": [{"rtt": round(10 + i * 7919 % 1000 / 100, 3)}, {"rtt": round(10.5 + i * 104729 % 1000 / 100, 3)}, {"x": "*"}],
         "sent": 3, "rcvd": 2}
    r.update(changes)
    return r


def jsonl(results) -> str:
    return ''.join((r if isinstance(r, str) else json.dumps(r, separators=(',', ':'))) + '\n' for r in results)


def write(rel: str, data) -> Path:
    path = HERE / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def ingest_cases():
    # a clean file: IPv4 behind NAT, IPv6, a failed ping, a firmware-1 summary-only result
    good = [ping(0), ping(1),
            ping(2, af=6, dst_addr="2001:7fd::1", src_addr="2a02:8071:b85:4200::1", **{"from": "2a02:8071:b85:4200::1"}),
            ping(3, result=[{"x": "*"}, {"x": "*"}, {"x": "*"}], rcvd=0),
            {"fw": 1, "addr": "62.2.16.12", "name": "example.net", "from": "194.85.27.7", "msm_id": 1000192, "prb_id": 165,
             "timestamp": T0 + 5000, "avg": 124.572, "min": 120.1, "max": 130.2, "sent": 3, "rcvd": 3, "size": 48}]
    write('ingest/good.jsonl', jsonl(good))
    write('ingest/good_copy.jsonl', jsonl(good))              # the same bytes under another name

    # compressed files that are damaged: 600 results each (more than the 64k characters read ahead, so lines are parsed before the damage shows)
    text = jsonl(ping(i) for i in range(600)).encode()
    gz = gzip.compress(text, mtime=0)
    rng = random.Random(10)              # a seed whose garbage decodes into a line repeated from earlier (a timestamp twice)
    damage = bytes(rng.randrange(256) for _ in range(120))
    write('ingest/gzip_damaged_tail.jsonl.gz', gz[:len(gz) - 8 - 120] + damage + gz[-8:])   # plausible lines, garbage, then EOFError
    write('ingest/gzip_bad_crc.jsonl.gz', gz[:-8] + bytes(4) + gz[-4:])                     # every byte decodes; the CRC check fails
    write('ingest/gzip_truncated.jsonl.gz', gz[:len(gz) // 2])                               # a download cut in half
    write('ingest/bz2_truncated.jsonl.bz2', bz2.compress(text)[:-100])
    xz = bytearray(lzma.compress(text))
    xz[len(xz) // 2] ^= 0xFF
    write('ingest/xz_corrupt.jsonl.xz', bytes(xz))

    # RTTs that are not numbers, per packet (firmware 4500+) and in a summary-only result's avg (firmware 1)
    nan, inf = float('nan'), float('inf')
    packets = [
        ping(0, result=[{"rtt": 10.0}, {"rtt": "n/a"}, {"rtt": 12.0}]),                 # kept: (10+12)/2, one rtt_not_number dropped
        ping(1, result=[{"rtt": nan}, {"rtt": 11.0}, {"x": "*"}]),                       # kept: 11, one rtt_nan dropped
        ping(2, result=[{"rtt": inf}, {"rtt": -3.5}, {"rtt": 9.0}]),                     # kept: 9, rtt_nan and rtt_negative dropped
        ping(3, result=[{"rtt": None}, "lost", {"x": "*"}]),                             # kept as failed (a timeout): rtt_null, bad_packet dropped
        ping(4, result=[{"rtt": nan}, {"rtt": "fast"}]),                                 # rejected: rtt_nan, its first bad packet
        ping(5, result=[{"rtt": -1}, {"rtt": -2}]),                                      # rejected: rtt_negative
        ping(6, result=[{"rtt": "1e400"}]),                                              # rejected: rtt_nan (infinite as a float)
        ping(7)]                                                                         # clean
    write('ingest/bad_rtt_packets.jsonl', jsonl(packets))             # json writes NaN and Infinity as JavaScript does
    fw1 = {"fw": 1, "addr": "62.2.16.12", "from": "194.85.27.7", "msm_id": 1000192, "prb_id": 165, "sent": 3, "rcvd": 3, "size": 48}
    avgs = [dict(fw1, timestamp=T0 + 1, avg="abc"), dict(fw1, timestamp=T0 + 2, avg=nan), dict(fw1, timestamp=T0 + 3, avg=-5),
            dict(fw1, timestamp=T0 + 4, avg=inf), dict(fw1, timestamp=T0 + 5),                       # no avg at all
            dict(fw1, timestamp=T0 + 6, avg="abc", rcvd=0),                                          # nothing came back: failed
            dict(fw1, timestamp=T0 + 7, avg=-1),                                                     # RIPE's -1: failed
            dict(fw1, timestamp=T0 + 8, avg="58.042")]                                               # firmware 0 style text: fine
    write('ingest/bad_rtt_avg.jsonl', jsonl(avgs))

    # results without `type`: a traceroute and a DNS answer are not pings; an old firmware-4400 ping is
    untyped = [{"fw": 4790, "af": 4, "dst_addr": "193.0.14.129", "src_addr": "192.168.1.2", "from": "81.2.3.4", "msm_id": 5001,
                "prb_id": 6001, "timestamp": T0, "paris_id": 1,
                "result": [{"hop": 1, "result": [{"from": "192.168.1.1", "rtt": 1.2, "size": 28, "ttl": 64}]},
                           {"hop": 2, "result": [{"x": "*"}, {"x": "*"}, {"x": "*"}]}]},
               {"fw": 4790, "af": 4, "dst_addr": "193.0.14.129", "src_addr": "192.168.1.2", "from": "81.2.3.4", "msm_id": 10001,
                "prb_id": 6001, "timestamp": T0, "result": {"rt": 3.1, "size": 120, "abuf": "AAAA", "ID": 7, "ANCOUNT": 1}},
               {"fw": 4430, "addr": "193.0.14.129", "srcaddr": "81.2.3.4", "from": "81.2.3.4", "mode": "ICMP4", "msm_id": 1001,
                "prb_id": 6001, "timestamp": T0, "result": [{"rtt": 5.1}, {"rtt": 5.3}, {"x": "*"}]}]
    write('ingest/untyped_results.jsonl', jsonl(untyped))

    # integers that an int64 column cannot hold
    big = [ping(0, msm_id=2**63), ping(1, prb_id=2**64), ping(2, size=2**63), ping(3, af=2**70), ping(4, timestamp=2**63),
           ping(5, result=[], sent=2**70, rcvd=1, avg=12.5), ping(6)]
    write('ingest/big_integers.jsonl', jsonl(big))
    shutil.rmtree(HERE / 'ingest' / 'dir_big_integers', ignore_errors=True)
    write('ingest/dir_big_integers/a.jsonl', jsonl(big))
    write('ingest/dir_big_integers/b.jsonl', jsonl(good))

    # one result of each other problem, a line cut short and a value that is not an object
    bad = [ping(0), ping(1, dst_addr=""), ping(2, dst_addr="1.2.3"), ping(3, src_addr="", **{"from": ""}), ping(4, af=6),
           '{"af": 4, "avg": 1.0,', ping(5, timestamp=None), ping(6, timestamp="soon"), ping(7, msm_id="x"), ping(8, type="dns"),
           [1, 2], ping(9, result=[{"rtt": 400_000}]), ping(10, timestamp=86_400)]
    write('ingest/bad_results.jsonl', jsonl(bad))

    # empty inputs
    write('ingest/empty.jsonl', '')
    write('ingest/blank.jsonl', '\n  \n\n')
    write('ingest/empty_array.json', '[ ]')
    write('ingest/empty.jsonl.gz', gzip.compress(b'', mtime=0))


def _table(rows: list[dict], **types) -> pa.Table:
    schema = pa.schema([(f.name, types.get(f.name, f.type)) for f in MEASUREMENT_SCHEMA if f.name in rows[0]] if rows else MEASUREMENT_SCHEMA)
    return pa.Table.from_pylist(rows, schema=schema)


def _row(i: int, **changes) -> dict:
    r = dict(msm_id=1001, event_time=(T0 + 60 * i) * 10**9, src_addr=f"81.2.3.{10 + i % 3}", dst_addr="193.0.14.129", ip_version=4,
             rtt=10.0 + i, size=48, packet_error_count=0, prb_id=6000 + i % 3)
    r.update(changes)
    return r


MEASUREMENT_SCHEMA = pa.schema([
    ('msm_id', pa.int64()), ('event_time', pa.timestamp('ns', tz='UTC')), ('src_addr', pa.string()), ('dst_addr', pa.string()),
    ('ip_version', pa.int64()), ('rtt', pa.float64()), ('size', pa.int64()), ('packet_error_count', pa.int64()), ('prb_id', pa.int64())])
# the seed schema, spelled out here so that the corpus does not depend on the code it tests


def preprocess_cases():
    P = HERE / 'preprocess'
    shutil.rmtree(P, ignore_errors=True)
    P.mkdir(parents=True)
    good = [_row(i) for i in range(30)] + [_row(i, src_addr="2a02:8071::1", dst_addr="2001:7fd::1", ip_version=6) for i in range(30, 40)]
    pq.write_table(_table(good), P / 'good.parquet')
    dirty = [_row(0), _row(1, rtt=-1.0), _row(2, rtt=0.0),                      # clean: a failure and a 0 ms RTT are fine
             _row(3, event_time=None), _row(4, event_time=-5 * 10**9),          # no_time, bad_time (before 1970)
             _row(5, src_addr=""), _row(6, dst_addr=None),                      # empty_src, empty_dst
             _row(7, src_addr="x.y"), _row(8, dst_addr="300.1.2.3"),            # bad_src, bad_dst
             _row(9, ip_version=6), _row(10, dst_addr="2001:7fd::1"),          # version_mismatch twice
             _row(11, rtt=None), _row(12, rtt=float('nan')), _row(13, rtt=float('inf')),   # rtt_null, rtt_nan twice
             _row(14, rtt=-2.0), _row(15, rtt=1e10)]                            # rtt_negative, rtt_beyond_codec (~116 days)
    pq.write_table(_table(dirty), P / 'dirty_rows.parquet')
    pq.write_table(_table([dict(r, src_addr=i) for i, r in enumerate(good[:5])], src_addr=pa.int64()), P / 'src_addr_int64.parquet')
    pq.write_table(_table([dict(r, rtt=str(r['rtt'])) for r in good[:5]], rtt=pa.string()), P / 'rtt_text.parquet')
    pq.write_table(_table([dict(r, ip_version='four') for r in good[:5]], ip_version=pa.string()), P / 'ip_version_text.parquet')
    pq.write_table(_table([dict(r, event_time='2023-11-14T22:13:20Z') for r in good[:5]], event_time=pa.string()), P / 'event_time_text.parquet')
    pq.write_table(_table(good[:5]).drop_columns(['rtt']), P / 'no_rtt_column.parquet')
    pq.write_table(_table(good).slice(0, 0), P / 'empty_table.parquet')
    pq.write_table(_table([_row(i, ip_version=6) for i in range(5)]), P / 'all_rejected.parquet')
    (P / 'not_parquet.parquet').write_text('msm_id,event_time\n1001,2023-11-14\n')
    # a manifest cut short (as by a full disk), and a manifest part likewise
    manifest = {"format": "netlm probe rows", "partitions": 1, "row_format_version": 1, "source": ["good.parquet"], "source_rows": 40,
                "splits": {"train": {"measurements": 36, "records": 3, "shards": []}, "test": {"measurements": 4, "records": 1, "shards": []}}}
    (P / 'truncated_manifest').mkdir()
    (P / 'truncated_manifest' / 'manifest.json').write_text(json.dumps(manifest, indent=1)[:120])
    (P / 'truncated_part' / 'parts').mkdir(parents=True)
    (P / 'truncated_part' / 'parts' / 'part-00000-of-00001.json').write_text(json.dumps(dict(manifest, partition=0), indent=1)[:150])


if __name__ == '__main__':
    ingest_cases()
    preprocess_cases()
    files = sorted(f for f in HERE.rglob('*') if f.is_file())
    print(f'{len(files)} files, {sum(f.stat().st_size for f in files):,} bytes under {HERE}')
