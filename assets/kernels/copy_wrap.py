# Tiled matrix copy with wrapped loads: rows % M and columns % N need no load mask;
# the store is masked so that only the M x N real elements are written.
@triton.jit
def copy_kernel(in_ptr, out_ptr, M, N, stride_row, stride_col,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    {launch_order}
    rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M             # (BLOCK_M,) wrapped
    cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N             # (BLOCK_N,) wrapped
    in_ptrs = in_ptr + rows[:, None] * stride_row + cols[None, :] * stride_col
    tile = tl.load(in_ptrs)                                          # (BLOCK_M, BLOCK_N)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    out_ptrs = out_ptr + offs_m[:, None] * stride_row + offs_n[None, :] * stride_col
    out_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(out_ptrs, tile, mask=out_mask)
