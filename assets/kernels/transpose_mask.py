# Tiled matrix transpose (seed 000): out (N, M) = in (M, N)^T; one (BLOCK_M, BLOCK_N) tile each.
@triton.jit
def transpose_kernel(in_ptr, out_ptr, M, N, stride_ir, stride_ic, stride_or, stride_oc,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    {launch_order}
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)                 # rows of in, (BLOCK_M,)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)                 # cols of in, (BLOCK_N,)
    in_ptrs = in_ptr + offs_m[:, None] * stride_ir + offs_n[None, :] * stride_ic
    in_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tile = tl.load(in_ptrs, mask=in_mask)                            # (BLOCK_M, BLOCK_N)
    tile_t = tl.trans(tile)                                          # (BLOCK_N, BLOCK_M)
    out_ptrs = out_ptr + offs_n[:, None] * stride_or + offs_m[None, :] * stride_oc
    out_mask = (offs_n[:, None] < N) & (offs_m[None, :] < M)
    tl.store(out_ptrs, tile_t, mask=out_mask)
