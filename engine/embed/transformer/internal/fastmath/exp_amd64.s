#include "textflag.h"

// Constants of expf (scalar.go), as float32 bit patterns.
DATA expc<>+0(SB)/4, $0x3fb8aa3b  // log2(e)
DATA expc<>+4(SB)/4, $0x3f318000  // ln2hi
DATA expc<>+8(SB)/4, $0xb95e8083  // ln2lo
DATA expc<>+12(SB)/4, $0x3ab60b61 // 1/720
DATA expc<>+16(SB)/4, $0x3c088889 // 1/120
DATA expc<>+20(SB)/4, $0x3d2aaaab // 1/24
DATA expc<>+24(SB)/4, $0x3e2aaaab // 1/6
DATA expc<>+28(SB)/4, $0x3f000000 // 1/2
DATA expc<>+32(SB)/4, $0x3f800000 // 1
DATA expc<>+36(SB)/4, $0xc2ae0000 // -87
DATA expc<>+40(SB)/4, $0x42b00000 // 88
DATA expc<>+44(SB)/4, $0x0000007f // 127 (exponent bias)
GLOBL expc<>(SB), RODATA|NOPTR, $48

// func exp8(x *float32, n int)
TEXT ·exp8(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	JZ   done
	VBROADCASTSS expc<>+0(SB), Y15
	VBROADCASTSS expc<>+4(SB), Y14
	VBROADCASTSS expc<>+8(SB), Y13
	VBROADCASTSS expc<>+12(SB), Y12
	VBROADCASTSS expc<>+16(SB), Y11
	VBROADCASTSS expc<>+20(SB), Y10
	VBROADCASTSS expc<>+24(SB), Y9
	VBROADCASTSS expc<>+28(SB), Y8
	VBROADCASTSS expc<>+32(SB), Y7
	VBROADCASTSS expc<>+36(SB), Y6
	VBROADCASTSS expc<>+40(SB), Y5
	VPBROADCASTD expc<>+44(SB), Y4

loop:
	VMOVUPS (SI), Y0
	VMAXPS Y6, Y0, Y0          // x = max(x, -87)
	VMINPS Y5, Y0, Y0          // x = min(x, 88)
	VMULPS Y15, Y0, Y1         // k = x·log2e
	VROUNDPS $0, Y1, Y1        // n = round(k), to nearest
	VFNMADD231PS Y14, Y1, Y0   // r = x - n·ln2hi
	VFNMADD231PS Y13, Y1, Y0   // r -= n·ln2lo
	VMOVAPS Y12, Y2            // p = 1/720
	VFMADD213PS Y11, Y0, Y2    // p = p·r + 1/120
	VFMADD213PS Y10, Y0, Y2    // p = p·r + 1/24
	VFMADD213PS Y9, Y0, Y2     // p = p·r + 1/6
	VFMADD213PS Y8, Y0, Y2     // p = p·r + 1/2
	VFMADD213PS Y7, Y0, Y2     // p = p·r + 1
	VFMADD213PS Y7, Y0, Y2     // p = p·r + 1
	VCVTPS2DQ Y1, Y3           // n as int32
	VPADDD Y4, Y3, Y3          // + 127
	VPSLLD $23, Y3, Y3         // 2ⁿ as float bits
	VMULPS Y3, Y2, Y2
	VMOVUPS Y2, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ  loop
	VZEROUPPER

done:
	RET
