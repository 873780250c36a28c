# Seed 000 (Matrix Multiplication): the article shows the kernel's core as a fragment; its lines
# are verbatim below (seed 000's letters: A is M x N, B is N x K, C is M x K, the loop runs over
# N). The fragment never defines the signature, pid_m / pid_k, acc or the three masks; the lines
# marked "(added)" are the smallest that make it run (as scripts/triton/kernels.py does).
# launch: a=512x384:fp32 b=384x256:fp32 c=512x256:fp32 M=512 N=384 K=256
# launch: stride_am=384 stride_an=1 stride_bn=256 stride_bk=1 stride_cm=256 stride_ck=1
# launch: BLOCK_M=64 BLOCK_N=32 BLOCK_K=64 grid=8,4 num_warps=4 num_stages=2
import triton
import triton.language as tl


@triton.jit  # (added)
def seed000_matmul_kernel(a, b, c, M, N, K,  # (added)
                          stride_am, stride_an, stride_bn, stride_bk, stride_cm, stride_ck,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)  # (added)
    pid_k = tl.program_id(1)  # (added)
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)  # (added)

    # 计算当前线程块负责的行和列索引范围
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)  # 当前块处理的M维度索引 [BLOCK_M]
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)  # 当前块处理的K维度索引 [BLOCK_K]

    # 预先计算输出矩阵C的指针位置(形状:BLOCK_M × BLOCK_K)
    c_ptrs = c + (offs_m[:, None] * stride_cm + offs_k[None, :] * stride_ck)
    c_mask = (offs_m[:, None] < M) & (offs_k[None, :] < K)  # (added)

    # 沿着N维度(规约维度)循环,将矩阵乘法分解为多个小块
    for n0 in range(0, N, BLOCK_N):
        # 计算当前迭代处理的N维度索引范围
        offs_n = n0 + tl.arange(0, BLOCK_N)  # [BLOCK_N]
        
        # 计算A矩阵块的指针(形状:BLOCK_M × BLOCK_N)
        # A[offs_m, offs_n] - 取A矩阵的部分行和部分列
        a_ptrs = a + (offs_m[:, None]*stride_am + offs_n[None, :]*stride_an)
        
        # 计算B矩阵块的指针(形状:BLOCK_N × BLOCK_K)
        # B[offs_n, offs_k] - 取B矩阵的部分行和部分列
        b_ptrs = b + (offs_n[:, None]*stride_bn + offs_k[None, :]*stride_bk)
        a_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)  # (added)
        b_mask = (offs_n[:, None] < N) & (offs_k[None, :] < K)  # (added)

        # 从全局内存加载数据块到寄存器/共享内存
        a_block = tl.load(a_ptrs, mask=a_mask, other=0.)  # 加载A块,越界位置填充0
        b_block = tl.load(b_ptrs, mask=b_mask, other=0.)  # 加载B块,越界位置填充0
        
        # 执行块矩阵乘法并累加结果
        # acc[BLOCK_M, BLOCK_K] += a_block[BLOCK_M, BLOCK_N] @ b_block[BLOCK_N, BLOCK_K]
        acc += tl.dot(a_block, b_block, input_precision="ieee")

    # 将累加结果写入全局内存中的C矩阵
    tl.store(c_ptrs, acc, mask=c_mask)
