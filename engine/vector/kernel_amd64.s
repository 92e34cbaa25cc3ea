#include "textflag.h"

// func dotsVNNI(codes *byte, q *int8, stride, n int, out *int32)
//
// For each of n rows of stride bytes (a multiple of 64): out[i] = Σ_j
// uint8(row[j]) × int8(q[j]), with two accumulators per row over
// alternating 64-byte blocks, reduced horizontally at the end of the row.
TEXT ·dotsVNNI(SB), NOSPLIT, $0-40
	MOVQ codes+0(FP), SI
	MOVQ q+8(FP), DI
	MOVQ stride+16(FP), CX
	MOVQ n+24(FP), DX
	MOVQ out+32(FP), R8
	TESTQ DX, DX
	JZ done

row:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	XORQ AX, AX
	MOVQ CX, BX
	SUBQ $64, BX        // BX = last block start

pair:
	CMPQ AX, BX
	JGE last
	VMOVDQU8 (SI)(AX*1), Z2
	VMOVDQU8 64(SI)(AX*1), Z3
	VMOVDQU8 (DI)(AX*1), Z4
	VMOVDQU8 64(DI)(AX*1), Z5
	VPDPBUSD Z4, Z2, Z0
	VPDPBUSD Z5, Z3, Z1
	ADDQ $128, AX
	JMP pair

last:
	CMPQ AX, CX
	JGE reduce
	VMOVDQU8 (SI)(AX*1), Z2
	VMOVDQU8 (DI)(AX*1), Z4
	VPDPBUSD Z4, Z2, Z0

reduce:
	VPADDD Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4E, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xB1, X0, X1
	VPADDD X1, X0, X0
	MOVL X0, (R8)

	ADDQ CX, SI
	ADDQ $4, R8
	DECQ DX
	JNZ row

done:
	VZEROUPPER
	RET
