# Tiled matrix copy (seed 000): each program copies one (BLOCK_M, BLOCK_N) tile of `in` to `out`.
@triton.jit
def copy_kernel(in_ptr, out_ptr, M, N, stride_row, stride_col,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    {launch_order}
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)                 # (BLOCK_M,)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)                 # (BLOCK_N,)
    in_ptrs = in_ptr + offs_m[:, None] * stride_row + offs_n[None, :] * stride_col
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tile = tl.load(in_ptrs, mask=mask)                               # (BLOCK_M, BLOCK_N)
    out_ptrs = out_ptr + offs_m[:, None] * stride_row + offs_n[None, :] * stride_col
    tl.store(out_ptrs, tile, mask=mask)
