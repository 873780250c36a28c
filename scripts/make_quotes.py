#!/usr/bin/env python3
"""Writes assets/lessons/quotes.json, the seed figures and statements lessons quote ({quote.ID}).
Each excerpt is sliced from the seed file between two anchors of the seed's own words, never
retyped; the shown text is ours (English), and every digit run of it must stand in the excerpt.
Usage: scripts/make_quotes.py [--seeds DIR] [OUT]  (default OUT: assets/lessons/quotes.json)."""
import argparse, json, glob, os, re, sys
ap = argparse.ArgumentParser()
ap.add_argument('--seeds', default='/work/shared/seeds')
ap.add_argument('out', nargs='?', default=os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'assets', 'lessons', 'quotes.json'))
args = ap.parse_args()
seeds = {}
for p in glob.glob(os.path.join(args.seeds, '*.txt')):
    seeds[os.path.basename(p)[:3]] = open(p, encoding='utf-8').read()

def ex(seed, start, end):
    t = seeds[seed]
    i = t.find(start)
    assert i >= 0, (seed, start)
    j = t.find(end, i)
    assert j >= 0, (seed, end)
    return re.sub(r'\s+', ' ', t[i:j + len(end)]).strip()

Q = []
def q(id, seed, text, value, unit, start, end=None):
    e = ex(seed, start, end if end is not None else start)
    for run in re.findall(r'\d+', text):
        assert run in e, (id, run, e)
    Q.append({"id": seed + "." + id, "seed": seed, "text": text, "value": value, "unit": unit, "excerpt": e})

# seed 000: copy / transpose
q("transpose_block", "000", "BLOCK_SIZE = 32", 32, "count", "BLOCK_SIZE = 32")
q("copy_block", "000", "BLOCK_SIZE = 64", 64, "count", "BLOCK_SIZE = 64")
q("rows_lt_3", "000", "rows_[:, None] < 3", None, "text", "rows_[:, None] < 3 进行的操作是")
q("cols_lt_5", "000", "[[4, 5, 6, 7]] < 5  ->  [[T, F, F, F]]", None, "text", "[[4, 5, 6, 7]] < 5", "[[T, F, F, F]]")
q("broadcast_example", "000", "[[0], [4]] + [[0, 1]] = [[0, 1], [4, 5]]", None, "text", "[[0], [4]] + [[0, 1]]", "[4, 5]]")
q("broadcast_copies", "000", "\"Python copies the data so that the shapes match\"", None, "text", "广播机制指的是", "使它们形状匹配")
q("matmul_names", "000", "A is M x N, B is N x K, C is M x K (N is the reduction)", None, "text", "# A 是 M×N 矩阵", "# C 是 M×K 矩阵")

# seed 001: dataflow and block sizes
q("mma_sync", "001", "\"lowered to ... mma.sync\"", None, "text", "如果硬件支持", "mma.sync)")
q("acc_in_sram", "001", "the accumulator drawn inside on-chip SRAM", None, "text", "subgraph cluster_sram", "Acc [label=\"累加器")
q("chart_title", "001", "Throughput vs block configuration (Float16), \"a standard GPU architecture\"", None, "text", "下图展示了标准 GPU 架构上", "(Float16)")
q("chart_32", "001", "25.5 TFLOPS", 25.5, "TFLOPS", "\"x\": [\"32x32x32\"", "45.3]")
q("chart_64", "001", "68.2 TFLOPS", 68.2, "TFLOPS", "\"x\": [\"32x32x32\"", "45.3]")
q("chart_128", "001", "92.4 TFLOPS", 92.4, "TFLOPS", "\"x\": [\"32x32x32\"", "45.3]")
q("chart_128x256", "001", "88.1 TFLOPS", 88.1, "TFLOPS", "\"x\": [\"32x32x32\"", "45.3]")
q("chart_256", "001", "45.3 TFLOPS", 45.3, "TFLOPS", "\"x\": [\"32x32x32\"", "45.3]")
q("cache_line", "001", "\"aligned with 128-byte cache lines\"", 128, "B", "特定配置由于与硬件特性", "128 字节缓存行)")
q("balance_128", "001", "\"128x128x32 usually performs well\"", None, "text", "配置 128x128x32 通常表现良好", "寄存器压力之间取得了平衡")
q("autotune_config", "001", "num_stages=4, num_warps=4", None, "text", "triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4)")
q("num_stages", "001", "\"load iteration i+1 while computing iteration i\"", None, "text", "通过定义 num_stages", "隐藏全局内存延迟")
q("occupancy", "001", "\"too-large blocks may exceed shared memory or the register file, lowering occupancy\"", None, "text", "然而,过大的数据块可能超出", "(活动 warp 的数量)")

# seed 003: naive vs blocked, hierarchy, coalescing, the B^T experiment
q("shapes", "003", "X (M, N) @ Y (N, K) = Z (M, K)", None, "text", "требуется умножить две матрицы X и Y", "будет иметь размер (M,K)")
q("naive_reads", "003", "M(K+1) reads", None, "text", "затем последовательно считывает все K столбцов из Y", "В итоге получается M(K+1) операций чтения")
q("column_reloaded", "003", "\"each column of Y is loaded M times\"", None, "text", "каждый столбец Y загружается M раз")
q("block_example", "003", "X (4, 6) @ Y (6, 4) = Z (4, 4)", None, "text", "Рассмотрим матрицы X и Y с размерами (4,6) и (6,4)", "матрицу Z размером (4,4)")
q("dot_split", "003", "Z[0:2, 0:2] = dot(X[0:2, 0:2], Y[0:2, 0:2]) + dot(X[0:2, 2:4], Y[2:4, 0:2]) + dot(X[0:2, 4:6], Y[4:6, 0:2])", None, "text", "Z[0:2, 0:2] = dot(X[0:2, 0:2]", "Y[4:6, 0:2])")
q("four_dots", "003", "4 dot products", 4, "count", "Для каждого блока 2×2 в X и Y вычисляется 4 скалярных произведения")
q("three_sub_blocks", "003", "3 sub-blocks", 3, "count", "Поскольку каждый блок включает 3 подблока")
q("two_dots", "003", "\"each row of X and column of Y takes part in two dot products\"", None, "text", "Для блоков (2,2) каждая строка X", "участвует в двух скалярных произведениях")
q("block32", "003", "(32, 32) blocks: about 32x fewer loads", 32, "x", "использование (32,32) сократит загрузки примерно в 32 раза")
q("a100_regs", "003", "256 KB", 256, "KB", "В A100 каждый SM предлагает 256 КБ пространства регистров")
q("a100_reg_count", "003", "65 536 x 32-bit registers", 65536, "count", "(65 536 × 32-битных регистров)")
q("a100_smem", "003", "192 KB", 192, "KB", "В A100 каждый SM оснащен 192 КБ SRAM")
q("a100_l2", "003", "about 40 MB", 40, "MB", "около 40 МБ, общих для всех SM в A100")
q("a100_hbm", "003", "40 GB or 80 GB", None, "text", "емкостью 40 ГБ или 80 ГБ")
q("a100_bw", "003", "up to 2 TB/s", None, "text", "до 2 ТБ/с в варианте 80 ГБ")
q("block64", "003", "BLOCK_SIZE of 64, \"a multiple of the warp size (32 threads), guaranteeing full use of the hardware\"", None, "text", "BLOCK_SIZE в 64", "гарантируя полную загрузку аппаратных ресурсов")
q("column_stride", "003", "\"elements of a column have a stride of 1 (separated by one element)\"", None, "text", "заметьте, что элементы одной строки соседни", "разделены одним элементом)")
q("transpose_advice", "003", "\"transpose Y to iterate over rows instead of columns\"", None, "text", "Однако для скалярных произведений нужны столбцы Y", "итерировать по строкам вместо столбцов")
q("problem", "003", "M = 8192, N = 6144, K = 4096, fp32", None, "text", "M = 8192 N = 6144 K = 4096", "dtype=torch.float32)")
q("gpu", "003", "T4 in Colab", None, "text", "(на GPU T4 в Colab)")
q("t4_plain_ms", "003", "130.7831 ms", 130.7831, "ms", "Median Latency: 130.7831 ± 1.794 ms")
q("t4_plain_tflops", "003", "3.1533 TFLOPS", 3.1533, "TFLOPS", "Throughput: 3.1533 ± 0.043 TeraFLOPS")
q("t4_bt_ms", "003", "261.9420 ms", 261.9420, "ms", "Median Latency: 261.9420 ± 0.858 ms")
q("t4_bt_tflops", "003", "1.5741 TFLOPS", 1.5741, "TFLOPS", "Throughput: 1.5741 ± 0.005 TeraFLOPS")
q("half", "003", "\"only half of the first\"", None, "text", "Поразительно, но пропускная способность второго ядра составляет лишь половину от первого")
q("bank_conflicts", "003", "\"the transpose inside the kernel causes bank conflicts\"", None, "text", "Конкретно, транспозиция провоцирует конфликты банков")
q("no_eligible", "003", "87.6%", 87.6, "%", "не находит подходящих варпов для запуска в 87,6% случаев")
q("bt_dram", "003", "8.20%", 8.20, "%", "DRAM Throughput % 8.20")
q("bt_sm", "003", "21.14%", 21.14, "%", "Compute (SM) Throughput % 21.14")
q("plain_dram", "003", "29.35%", 29.35, "%", "DRAM Throughput % 29.35")
q("plain_sm", "003", "74.39%", 74.39, "%", "Compute (SM) Throughput % 74.39")
q("latency_bound", "003", "\"latency-bound (neither memory nor compute)\"", None, "text", "Это свидетельствует о том, что ядро ограничено задержкой", "ни памятью, ни вычислениями")
q("compute_bound", "003", "\"the first kernel is compute-bound\"", None, "text", "В отличие от него, первое ядро ограничено вычислениями")

# seed 004: grouped launch order and the legacy formula
q("cdiv", "004", "triton.cdiv(574,64) = 8.9 rounded up = 9", None, "text", "triton.cdiv(574,64) = 8.9向上取整数 = 9")
q("grid81", "004", "9*9 = 81 blocks, pid 0~80", 81, "count", "A,B形状是574*574", "pid就是0~80")
q("div_slip", "004", "574/64=9", None, "text", "这里用574/64=9")
q("group27", "004", "3*9, 27 blocks per group", 27, "count", "这里假设是3*9,所以一组27块")
q("row_col_slip", "004", "\"computing an element of C needs a column of A and a row of B\"", None, "text", "因为算一个矩阵c的元素", "和b矩阵的一行")
q("thirty", "004", "30//27=1", None, "text", "比如30//27=1")
q("legacy_wrong", "004", "\"the code before the official site's update is wrong ... the result is computed wrongly when the last row is not full\"", None, "text", "这里官网更新之前的代码是错误的", "计算会错误")
q("pid29_m", "004", "pid = 29 <----> pid_m = 3+2 = 5", None, "text", "假设pid = 29", "pid_m = 3+2 = 5")
q("slip", "004", "2 // 3 = 1", None, "text", "比如29%27就会得到2,然后2//3=1")
q("wrap746", "004", "offs_am = (1*64+[0,63])%746 = [64,127]", None, "text", "offs_am = (1*64+[0,63])%746 = [64,127]")
q("stride_is_n", "004", "\"stride_am ... is in fact n\"", None, "text", "stride_am的意思是说", "其实就是n")
q("left", "004", "\"one element to the left\"", None, "text", "往左边一个元素")
q("cache_claim", "004", "\"this order occupies less cache, so the hit rate is high\"", None, "text", "我们试图以第二种计算顺序来计算", "缓存命中率高")

json.dump({"quotes": Q}, open(args.out, 'w', encoding='utf-8'), ensure_ascii=False, indent=1)
print(len(Q), "quotes")
