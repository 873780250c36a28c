#!/usr/bin/env python3
"""Checks the lesson files against the contract of assets/lessons/README.md, "Figures: every number
has a source", before the app's own test (LessonFigures.*) runs: every digit in a step's text is a
figure {NAME}, a worked formula in backticks whose equalities hold, a name mixing letters and
digits, or "seed NNN"; every measured.* figure matches exactly one bench record; every quote.*
figure exists in quotes.json, and every quote's digits stand in its excerpt, which stands in its
seed. Usage: scripts/check_lesson_text.py [--seeds DIR]  (exit 1 on any finding)."""
import argparse, glob, json, os, re, sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LESSONS = os.path.join(ROOT, 'assets', 'lessons')
MEASURED = os.path.join(ROOT, 'assets', 'measured')
RUN_METRICS = {'time', 'dram_bytes', 'dram_read_bytes', 'dram_write_bytes', 'l2_hit_rate', 'tflops',
               'bound', 'math_path', 'smem_layout', 'occupancy', 'programs_per_sm', 'waves',
               'tile_loads', 'register_bytes'}
PROBLEM = {'m', 'n', 'k', 'block_m', 'block_n', 'block_k', 'tiles_m', 'tiles_n', 'k_tiles', 'programs',
           'group_size_m', 'num_warps', 'stages', 'dtype', 'dtype_bytes', 'input_bytes',
           'output_bytes', 'shape'}
ORDERS = {'row-major', 'column-major', 'grouped'}
DTYPES = {'fp16', 'bf16', 'fp32'}


def bench(gpu, cache={}):
    if gpu not in cache:
        cache[gpu] = json.load(open(os.path.join(MEASURED, 'bench_%s.json' % gpu)))['records']
    return cache[gpu]


def measured_matches(parts):
    gpu, variant, *filters, field = parts
    if field not in ('ms', 'baseline_ms', 'tflops'):
        return None, 'unknown field ' + field
    out = []
    for r in bench(gpu):
        p = r['problem']
        if r['variant'] != variant or r['timed_runs'] == 0:
            continue
        ok = True
        for f in filters:
            if re.fullmatch(r'\d+', f):
                ok &= p['m'] == p['n'] == p['k'] == int(f)
            elif re.fullmatch(r'\d+x\d+x\d+', f) and max(map(int, f.split('x'))) > 256:
                m, n, k = map(int, f.split('x'))  # a shape: blocks are at most 256
                ok &= (p['m'], p['n'], p['k']) == (m, n, k)
            elif f in DTYPES:
                ok &= p['dtype'] == f
            elif f in ORDERS:
                ok &= p['order'] == f
            elif f in ('b-row-major', 'b-transposed'):
                ok &= p['b_layout'] == f[2:]
            elif re.fullmatch(r'\d+x\d+(x\d+)?', f):
                b = list(map(int, f.split('x')))
                ok &= [p['block_m'], p['block_n'], p['block_k']][:len(b)] == b
            else:
                return None, 'unknown filter ' + f
        if ok:
            out.append(r)
    return out, ''


def check_name(name, quotes):
    if ' / ' in name:
        return [e for part in name.split(' / ') for e in check_name(part.strip(), quotes)]
    parts = name.split('.')
    kind = parts[0]
    if kind == 'run':
        return [] if len(parts) == 2 and parts[1] in RUN_METRICS else ['bad run figure ' + name]
    if kind == 'compare':
        return [] if len(parts) == 3 and parts[1] in RUN_METRICS and parts[2] in ('a', 'b', 'ratio') else ['bad compare figure ' + name]
    if kind == 'now':
        return [] if len(parts) == 2 and parts[1] in ('dram_bytes', 'l2_hit_rate', 'time', 'events') else ['bad now figure ' + name]
    if kind == 'footprint':
        return [] if len(parts) == 3 and parts[1] in 'ab' and parts[2] in ('tiles', 'bytes') else ['bad footprint figure ' + name]
    if kind == 'problem':
        return [] if len(parts) == 2 and parts[1] in PROBLEM else ['bad problem figure ' + name]
    if kind == 'machine':
        return [] if len(parts) == 2 else ['bad machine figure ' + name]
    if kind == 'quote':
        return [] if '.'.join(parts[1:]) in quotes else ['unknown quote ' + name]
    if kind == 'measured':
        m, err = measured_matches(parts[1:])
        if err:
            return ['%s: %s' % (name, err)]
        if len(m) != 1:
            return ['%s matches %d records' % (name, len(m))]
        return []
    return ['unknown figure kind ' + name]


def number_side(side):
    s = side.strip()
    s = re.sub(r'cdiv\(([^,()]+),([^()]+)\)', r'(-(-(\1)//(\2)))', s)
    s = s.replace(' x ', ' * ').replace('^', '**')
    if not s or re.search(r'[A-Za-z_\[\]:]', s.replace('min(', '').replace('max(', '')):
        return None
    if not re.fullmatch(r'[\d\s.+\-*/%()min,ax]+', s):
        return None
    s = re.sub(r'(\d+\.\d+|\d+)', lambda m: 'F("%s")' % m.group(1), s)
    s = re.sub(r'(?<![/])/(?![/])', '/', s)
    try:
        v = eval(s, {'F': Fraction, 'min': min, 'max': max})
    except Exception:
        return None
    return v


def check_formula(f):
    if '=' not in f or '==' in f or '<' in f or '>' in f:
        return []
    sides = [x for x in re.split(r'(?<![<>!=])=(?!=)', f)]
    vals = []
    for side in sides:
        v = number_side(side)
        if v is not None:
            decimals = re.fullmatch(r'\s*\d+\.(\d+)\s*', side)
            vals.append((v, len(decimals.group(1)) if decimals else None))
    if len(vals) < 2:
        return []
    exact = [v for v, d in vals if d is None]
    ref = exact[0] if exact else vals[0][0]
    errs = []
    for v, d in vals:
        if d is None:
            if v != ref:
                errs.append('false formula `%s`: %s != %s' % (f, v, ref))
        elif round(float(ref), d) != round(float(v), d):
            errs.append('false formula `%s`: %s != %s' % (f, float(v), float(ref)))
    return errs


def check_text(text, quotes):
    errs = []
    for name in re.findall(r'\{([^{}]*)\}', text):
        errs += check_name(name, quotes)
    rest = re.sub(r'\{[^{}]*\}', ' ', text)
    for f in re.findall(r'`([^`]*)`', rest):
        errs += check_formula(f)
    rest = re.sub(r'`[^`]*`', ' ', rest)
    # A word (letters, digits, a point between two of them) that starts with a letter is a name
    # (H100, fp16, L2); one that starts with a digit is a number (1.67x, 8192x4096), unless it is
    # the NNN of "seed NNN".
    prev = ''
    for w in re.findall(r'\w+(?:\.\w+)*', rest):
        if re.search(r'\d', w) and not (w[0].isalpha() or w[0] == '_'):
            if not (w.isdigit() and prev.lower() in ('seed', 'seeds')):
                errs.append('bare number %s' % w)
        prev = w
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', default='/work/shared/seeds')
    a = ap.parse_args()
    qfile = json.load(open(os.path.join(LESSONS, 'quotes.json'), encoding='utf-8'))
    quotes = {q['id']: q for q in qfile['quotes']}
    bad = 0
    seeds = {os.path.basename(p)[:3]: re.sub(r'\s+', ' ', open(p, encoding='utf-8').read())
             for p in glob.glob(os.path.join(a.seeds, '*.txt'))}
    for q in qfile['quotes']:
        for run in re.findall(r'\d+', q['text']):
            if run not in q['excerpt']:
                print('quotes.json %s: %s not in its excerpt' % (q['id'], run)); bad += 1
        if seeds and q['excerpt'] not in seeds.get(q['seed'], ''):
            print('quotes.json %s: excerpt not in seed %s' % (q['id'], q['seed'])); bad += 1
    for path in sorted(glob.glob(os.path.join(LESSONS, '*.json'))):
        if path.endswith('quotes.json'):
            continue
        lesson = json.load(open(path, encoding='utf-8'))
        name = os.path.basename(path)
        fields = [('title', lesson.get('title', ''))]
        for i, s in enumerate(lesson['steps'], 1):
            fields += [('step %d title' % i, s.get('title', '')), ('step %d narration' % i, s['narration'])]
            if len(s['narration']) > 600:
                print('%s step %d: narration is %d characters' % (name, i, len(s['narration']))); bad += 1
            if 'question' in s:
                fields += [('step %d question' % i, s['question']['text']), ('step %d answer' % i, s['question']['answer'])]
        for where, text in fields:
            for e in check_text(text, quotes):
                print('%s %s: %s' % (name, where, e)); bad += 1
    print('%d finding(s)' % bad)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
