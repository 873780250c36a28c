# Seed 003 (block_matmul): the article describes this kernel in prose (make_block_ptr per matrix,
# offsets (m_idx * BLOCK_SIZE, 0) for X, z_acc, a loop over N loading with boundary_check and
# padding_option, .advance along the shared dimension) but prints none of its code; the body
# below is scripts/triton/kernels.py's reconstruction, built from that prose and from the
# coalesced variant's printed lines. Seed 003's letters: X is M x N, Y is N x K, Z is M x K.
# launch: X_ptr=512x384:fp32 X_m_stride=384 X_n_stride=1 Y_ptr=384x256:fp32 Y_n_stride=256
# launch: Y_k_stride=1 Z_ptr=512x256:fp32 Z_m_stride=256 Z_k_stride=1 M=512 N=384 K=256
# launch: BLOCK_SIZE=64 grid=8,4 num_warps=4 num_stages=2
import triton
import triton.language as tl


@triton.jit
def block_matmul_kernel(
    X_ptr, X_m_stride, X_n_stride,
    Y_ptr, Y_n_stride, Y_k_stride,
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
        base=Y_ptr, shape=(N, K), strides=(Y_n_stride, Y_k_stride),
        offsets=(0, k_idx * BLOCK_SIZE), block_shape=(BLOCK_SIZE, BLOCK_SIZE), order=(1, 0))
    z_block_ptr = tl.make_block_ptr(
        base=Z_ptr, shape=(M, K), strides=(Z_m_stride, Z_k_stride),
        offsets=(m_idx * BLOCK_SIZE, k_idx * BLOCK_SIZE), block_shape=(BLOCK_SIZE, BLOCK_SIZE),
        order=(1, 0))
    z_acc = tl.zeros((BLOCK_SIZE, BLOCK_SIZE), dtype=tl.float32)
    for _ in range(0, N, BLOCK_SIZE):
        x = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
        y = tl.load(y_block_ptr, boundary_check=(0, 1), padding_option="zero")
        z_acc += tl.dot(x, y)
        x_block_ptr = tl.advance(x_block_ptr, offsets=(0, BLOCK_SIZE))
        y_block_ptr = tl.advance(y_block_ptr, offsets=(BLOCK_SIZE, 0))
    tl.store(pointer=z_block_ptr, value=z_acc, boundary_check=(0, 1))
