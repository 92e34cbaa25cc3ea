#include "textflag.h"

// func dotRowsAVX2(q *float32, rows *float32, d, n int, out *float32)
//
// out[i] = q · row i, for n consecutive rows of d float32s, summed in the
// order of vek32.Dot's AVX2 kernel (Dot_AVX2_F32), so every result is bit
// for bit what dot returns: four 8-lane FMA accumulators over the first
// d &^ 31 components, added ((a0+a1)+a2)+a3, reduced 128-bit halves,
// then 64-bit halves, then lanes 0 and 1; then one scalar FMA per
// remaining component, in order. Two rows at a time share the loads of
// q and give the FMA units eight independent chains instead of four.
TEXT ·dotRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), DI
	MOVQ rows+8(FP), SI
	MOVQ d+16(FP), DX
	MOVQ n+24(FP), R8
	MOVQ out+32(FP), R9
	MOVQ DX, AX
	ANDQ $-32, AX          // AX = components summed by the vector loop
	LEAQ (SI)(DX*4), R10   // R10 = the second row of a pair
	MOVQ DX, R11
	SHLQ $3, R11           // R11 = bytes of two rows

pair:
	CMPQ R8, $2
	JLT single
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ CX, CX
	TESTQ AX, AX
	JZ pairtail0

pairloop:
	VMOVUPS (DI)(CX*4), Y8
	VMOVUPS 32(DI)(CX*4), Y9
	VMOVUPS 64(DI)(CX*4), Y10
	VMOVUPS 96(DI)(CX*4), Y11
	VFMADD231PS (SI)(CX*4), Y8, Y0
	VFMADD231PS 32(SI)(CX*4), Y9, Y1
	VFMADD231PS 64(SI)(CX*4), Y10, Y2
	VFMADD231PS 96(SI)(CX*4), Y11, Y3
	VFMADD231PS (R10)(CX*4), Y8, Y4
	VFMADD231PS 32(R10)(CX*4), Y9, Y5
	VFMADD231PS 64(R10)(CX*4), Y10, Y6
	VFMADD231PS 96(R10)(CX*4), Y11, Y7
	ADDQ $32, CX
	CMPQ CX, AX
	JNE pairloop

	VADDPS Y0, Y1, Y0
	VADDPS Y0, Y2, Y0
	VADDPS Y0, Y3, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VPERMILPD $1, X0, X1
	VADDPS X1, X0, X0
	VMOVSHDUP X0, X1
	VADDSS X1, X0, X0
	VADDPS Y4, Y5, Y4
	VADDPS Y4, Y6, Y4
	VADDPS Y4, Y7, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPS X5, X4, X4
	VPERMILPD $1, X4, X5
	VADDPS X5, X4, X4
	VMOVSHDUP X4, X5
	VADDSS X5, X4, X4

pairtail0:
	MOVQ AX, BX

pairtail:
	CMPQ BX, DX
	JEQ pairstore
	VMOVSS (SI)(BX*4), X1
	VFMADD231SS (DI)(BX*4), X1, X0
	VMOVSS (R10)(BX*4), X5
	VFMADD231SS (DI)(BX*4), X5, X4
	INCQ BX
	JMP pairtail

pairstore:
	VMOVSS X0, (R9)
	VMOVSS X4, 4(R9)
	ADDQ R11, SI
	ADDQ R11, R10
	ADDQ $8, R9
	SUBQ $2, R8
	JMP pair

single:
	TESTQ R8, R8
	JZ done
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ CX, CX
	TESTQ AX, AX
	JZ singletail0

singleloop:
	VMOVUPS (DI)(CX*4), Y8
	VMOVUPS 32(DI)(CX*4), Y9
	VMOVUPS 64(DI)(CX*4), Y10
	VMOVUPS 96(DI)(CX*4), Y11
	VFMADD231PS (SI)(CX*4), Y8, Y0
	VFMADD231PS 32(SI)(CX*4), Y9, Y1
	VFMADD231PS 64(SI)(CX*4), Y10, Y2
	VFMADD231PS 96(SI)(CX*4), Y11, Y3
	ADDQ $32, CX
	CMPQ CX, AX
	JNE singleloop

	VADDPS Y0, Y1, Y0
	VADDPS Y0, Y2, Y0
	VADDPS Y0, Y3, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VPERMILPD $1, X0, X1
	VADDPS X1, X0, X0
	VMOVSHDUP X0, X1
	VADDSS X1, X0, X0

singletail0:
	MOVQ AX, BX

singletail:
	CMPQ BX, DX
	JEQ singlestore
	VMOVSS (SI)(BX*4), X1
	VFMADD231SS (DI)(BX*4), X1, X0
	INCQ BX
	JMP singletail

singlestore:
	VMOVSS X0, (R9)

done:
	VZEROUPPER
	RET
