"""The Triton kernels tilesim teaches, written as the seeds write them (/work/shared/seeds/).

Names follow the seeds; every kernel computes C = A @ B with A (M x K), B (K x N), C (M x N) in
tilesim's letters (seeds 000 and 003 call the reduction N and the output's columns K; the
wrappers below translate). Where a seed gives only a fragment, the missing lines are the
smallest ones that make it run, and the docstring says which.

- seed000_copy, seed000_transpose: 000's matcopy (BLOCK_SIZE 64) and matrix_transpose_kernel
  (BLOCK_SIZE 32; 000 gives the body as loose lines, wrapped here in its leetGPU signature).
- seed000_matmul: 000's fragment (grid over (pid_m, pid_k), loop over the reduction with masks,
  tl.dot(..., input_precision="ieee")); the masks' definitions are filled in.
- seed001_matmul: 001's kernel verbatim (pid_m = pid % num_pid_m, i.e. column-major launch,
  offsets wrapped with % M / % N, K masked); the store converts to C's dtype implicitly.
- seed003_block / seed003_coalesced: 003's make_block_ptr kernels (one BLOCK_SIZE for all
  three dimensions, fp32 in the seed); 003 shows only the coalesced kernel's Y pointer, loop and
  store, so the rest is mirrored from its prose. The coalesced kernel reads B^T stored
  contiguously (N x K) and computes tl.dot(x, y.T) as the seed does; its block pointer uses
  the contiguous array's true strides and order=(1, 0) (the seed's stride/order lines as
  printed would not address Y.T.contiguous() correctly except when the two sizes are equal).
- tutorial_matmul: Triton's tutorial 03 matmul, which seed 004 walks through (GROUP_SIZE_M
  grouping, offsets wrapped with % M / % N, K masked); with constexpr INPUT_PRECISION added and
  the store converting to C's dtype. B may be row-major (K x N) or transposed (stored N x K,
  passed through its strides).
"""
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


@triton.jit
def matrix_transpose_kernel(
    input, output,
    rows, cols,
    stride_ir, stride_ic,
    stride_or, stride_oc,
    BLOCK_SIZE: tl.constexpr,
):
    pid1 = tl.program_id(axis=0)
    pid2 = tl.program_id(axis=1)

    rows_ = pid1 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    cols_ = pid2 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)

    input_offsets = input + rows_[:, None] * stride_ir + cols_[None, :] * stride_ic
    input_mask = (rows_[:, None] < rows) & (cols_[None, :] < cols)
    output_offsets = output + cols_[:, None] * stride_or + rows_[None, :] * stride_oc
    output_mask = (cols_[:, None] < cols) & (rows_[None, :] < rows)

    matrix = tl.load(input_offsets, mask=input_mask)
    tl.store(output_offsets, tl.trans(matrix), mask=output_mask)


@triton.jit
def seed000_matmul_kernel(a, b, c, M, N, K,
                          stride_am, stride_an, stride_bn, stride_bk, stride_cm, stride_ck,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Seed 000's letters: A is M x N, B is N x K, C is M x K; the loop runs over N.
    pid_m = tl.program_id(0)
    pid_k = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    c_ptrs = c + (offs_m[:, None] * stride_cm + offs_k[None, :] * stride_ck)
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for n0 in range(0, N, BLOCK_N):
        offs_n = n0 + tl.arange(0, BLOCK_N)
        a_ptrs = a + (offs_m[:, None] * stride_am + offs_n[None, :] * stride_an)
        b_ptrs = b + (offs_n[:, None] * stride_bn + offs_k[None, :] * stride_bk)
        a_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        b_mask = (offs_n[:, None] < N) & (offs_k[None, :] < K)
        a_block = tl.load(a_ptrs, mask=a_mask, other=0.)
        b_block = tl.load(b_ptrs, mask=b_mask, other=0.)
        acc += tl.dot(a_block, b_block, input_precision="ieee")
    c_mask = (offs_m[:, None] < M) & (offs_k[None, :] < K)
    tl.store(c_ptrs, acc, mask=c_mask)


@triton.jit
def matmul_kernel(
        # Pointers to matrices
        a_ptr, b_ptr, c_ptr,
        # Matrix dimensions
        M, N, K,
        # Strides (memory layout)
        stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
        # Meta-parameters (constants at compile time)
        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
):
    # Seed 001's kernel.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    pid_m = pid % num_pid_m
    pid_n = pid // num_pid_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


@triton.jit
def block_matmul_kernel(
    X_ptr, X_m_stride, X_n_stride,
    Y_ptr, Y_n_stride, Y_k_stride,
    Z_ptr, Z_m_stride, Z_k_stride,
    M, N, K,
    BLOCK_SIZE: tl.constexpr,
):
    # Seed 003's letters: X is M x N, Y is N x K, Z is M x K; the loop runs over N.
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


@triton.jit
def coalesced_block_matmul_kernel(
    X_ptr, X_m_stride, X_n_stride,
    Y_ptr, Y_k_stride, Y_n_stride,
    Z_ptr, Z_m_stride, Z_k_stride,
    M, N, K,
    BLOCK_SIZE: tl.constexpr,
):
    # Y here is Y.T.contiguous(): K x N, rows of Y.T (columns of Y) contiguous.
    m_idx = tl.program_id(axis=0)
    k_idx = tl.program_id(axis=1)
    x_block_ptr = tl.make_block_ptr(
        base=X_ptr, shape=(M, N), strides=(X_m_stride, X_n_stride),
        offsets=(m_idx * BLOCK_SIZE, 0), block_shape=(BLOCK_SIZE, BLOCK_SIZE), order=(1, 0))
    y_block_ptr = tl.make_block_ptr(
        base=Y_ptr, shape=(K, N), strides=(Y_k_stride, Y_n_stride),
        offsets=(k_idx * BLOCK_SIZE, 0), block_shape=(BLOCK_SIZE, BLOCK_SIZE), order=(1, 0))
    z_block_ptr = tl.make_block_ptr(
        base=Z_ptr, shape=(M, K), strides=(Z_m_stride, Z_k_stride),
        offsets=(m_idx * BLOCK_SIZE, k_idx * BLOCK_SIZE), block_shape=(BLOCK_SIZE, BLOCK_SIZE),
        order=(1, 0))
    z_acc = tl.zeros((BLOCK_SIZE, BLOCK_SIZE), dtype=tl.float32)
    for _ in range(0, N, BLOCK_SIZE):
        x = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
        y = tl.load(y_block_ptr, boundary_check=(0, 1), padding_option="zero")
        z_acc += tl.dot(x, y.T)  # transpose Y back for dot product
        x_block_ptr = tl.advance(x_block_ptr, offsets=(0, BLOCK_SIZE))
        y_block_ptr = tl.advance(y_block_ptr, offsets=(0, BLOCK_SIZE))
    tl.store(pointer=z_block_ptr, value=z_acc, boundary_check=(0, 1))


@triton.jit
def tutorial_matmul_kernel(
        a_ptr, b_ptr, c_ptr,
        M, N, K,
        stride_am, stride_ak,
        stride_bk, stride_bn,
        stride_cm, stride_cn,
        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
        GROUP_SIZE_M: tl.constexpr, INPUT_PRECISION: tl.constexpr,
):
    # Triton tutorial 03 (seed 004).
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator, input_precision=INPUT_PRECISION)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)
