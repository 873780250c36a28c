# Tiled matrix transpose with wrapped loads (rows % M, columns % N); the store is masked.
@triton.jit
def transpose_kernel(in_ptr, out_ptr, M, N, stride_ir, stride_ic, stride_or, stride_oc,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    {launch_order}
    rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M             # (BLOCK_M,) wrapped
    cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N             # (BLOCK_N,) wrapped
    in_ptrs = in_ptr + rows[:, None] * stride_ir + cols[None, :] * stride_ic
    tile = tl.load(in_ptrs)                                          # (BLOCK_M, BLOCK_N)
    tile_t = tl.trans(tile)                                          # (BLOCK_N, BLOCK_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    out_ptrs = out_ptr + offs_n[:, None] * stride_or + offs_m[None, :] * stride_oc
    out_mask = (offs_n[:, None] < N) & (offs_m[None, :] < M)
    tl.store(out_ptrs, tile_t, mask=out_mask)
