# A test kernel: a copy whose pid map walks down a column of tiles first (pid_m = pid % num_pid_m)
# on a one-axis grid, written as a student would for the column-major lesson.
# launch: src=300x200:fp32 dst=300x200:fp32 M=300 N=200 BLOCK_M=64 BLOCK_N=32 grid=35
import triton
import triton.language as tl


@triton.jit
def column_major_copy(src, dst, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    pid_m = pid % num_pid_m
    pid_n = pid // num_pid_m
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    tile = tl.load(src + offs, mask=mask, other=0.0)
    tl.store(dst + offs, tile, mask=mask)
