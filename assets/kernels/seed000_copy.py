# Seed 000 (Matrix Copy), pasted verbatim from the article: matcopy over a 2-d grid of
# BLOCK_SIZE x BLOCK_SIZE tiles, masked at the boundary. The article launches it from solve()
# with BLOCK_SIZE = 64 and grid = (cdiv(N, 64), cdiv(N, 64)); the launch below is that, at N = 574.
# launch: A_ptr=574x574:fp16 B_ptr=574x574:fp16 N=574 stride_row=574 stride_col=1
# launch: BLOCK_SIZE=64 grid=9,9 num_warps=4 num_stages=2
import torch
import triton
import triton.language as tl


@triton.jit
def matcopy(A_ptr, B_ptr,
            N,
            stride_row, stride_col,
            BLOCK_SIZE: tl.constexpr):
    pid0 = tl.program_id(0)
    pid1 = tl.program_id(1)

    offset0 = pid0 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offset1 = pid1 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)

    mask = (offset0[:, None] < N) & (offset1[None, :] < N)
    offset = offset0[:, None] * stride_row + offset1[None, :] * stride_col
    
    a_data = tl.load(A_ptr + offset, mask=mask)
    tl.store(B_ptr + offset, a_data, mask=mask)
 

# a, b are tensors on the GPU
def solve(a: torch.Tensor, b: torch.Tensor, N: int):
    BLOCK_SIZE = 64
    stride_row, stride_col = a.stride(0), a.stride(1)

    grid = (triton.cdiv(N, BLOCK_SIZE), triton.cdiv(N, BLOCK_SIZE))
    matcopy[grid](a, b,
                  N,
                  stride_row, stride_col,
                  BLOCK_SIZE)
