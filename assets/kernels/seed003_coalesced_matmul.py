# Seed 003 (coalesced_block_matmul_kernel): the article prints the signature, Y's block pointer,
# the loop's dot and advances and the store, with "..." for the rest; those printed lines are
# verbatim below, the "..." filled as in scripts/triton/kernels.py. Y here is Y.T.contiguous()
# (K x N in seed 003's letters: B stored transposed). Y's strides are the contiguous array's
# true ones (the article's wrapper passes them swapped, which only works when N == K).
# launch: X_ptr=512x384:fp32 X_m_stride=384 X_n_stride=1 Y_ptr=256x384:fp32 Y_k_stride=384
# launch: Y_n_stride=1 Z_ptr=512x256:fp32 Z_m_stride=256 Z_k_stride=1 M=512 N=384 K=256
# launch: BLOCK_SIZE=64 grid=8,4 num_warps=4 num_stages=2
import triton
import triton.language as tl


@triton.jit
def coalesced_block_matmul_kernel(
    X_ptr, X_m_stride, X_n_stride,
    Y_ptr, Y_k_stride, Y_n_stride,
    Z_ptr, Z_m_stride, Z_k_stride,
    M, N, K,
    BLOCK_SIZE: tl.constexpr,
):
    m_idx = tl.program_id(axis=0)
    k_idx = tl.program_id(axis=1)
    x_block_ptr = tl.make_block_ptr(
        base=X_ptr, shape=(M, N), strides=(X_m_stride, X_n_stride),
        offsets=(m_idx * BLOCK_SIZE, 0), block_shape=(BLOCK_SIZE, BLOCK_SIZE), order=(1, 0))
    y_block_ptr = tl.make_block_ptr(
        base=Y_ptr, # flip the shape, strides and offsets to match Y.T
        shape=(K, N),
        strides=(Y_k_stride, Y_n_stride),
        offsets=(k_idx * BLOCK_SIZE, 0),
        block_shape=(BLOCK_SIZE, BLOCK_SIZE),
        order=(0, 1),
    )
    z_block_ptr = tl.make_block_ptr(
        base=Z_ptr, shape=(M, K), strides=(Z_m_stride, Z_k_stride),
        offsets=(m_idx * BLOCK_SIZE, k_idx * BLOCK_SIZE), block_shape=(BLOCK_SIZE, BLOCK_SIZE),
        order=(1, 0))
    z_acc = tl.zeros((BLOCK_SIZE, BLOCK_SIZE), dtype=tl.float32)
    for _ in range(0, N, BLOCK_SIZE):
        x = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
        y = tl.load(y_block_ptr, boundary_check=(0, 1), padding_option="zero")
        z_acc += tl.dot(x, y.T) # transpose Y back for dot product
        x_block_ptr = tl.advance(x_block_ptr, offsets=(0, BLOCK_SIZE))
        # advance the block pointer along columns of Y.T (i.e rows of Y)
        y_block_ptr = tl.advance(y_block_ptr, offsets=(0, BLOCK_SIZE))
    tl.store(pointer=z_block_ptr, value=z_acc, boundary_check=(0, 1))
