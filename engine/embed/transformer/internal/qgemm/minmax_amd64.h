// MINMAX_Y01 folds eight lanes to one: the least of Y0's lanes into X0's
// first and the greatest of Y1's into X1's (X2 and X3 are scratch). Every
// quantizer that scans a row for its range ends with it, whatever width
// the scan ran at.
#define MINMAX_Y01 \
	VEXTRACTF128 $1, Y0, X2; \
	VMINPS X2, X0, X0; \
	VEXTRACTF128 $1, Y1, X3; \
	VMAXPS X3, X1, X1; \
	VPSHUFD $0x4e, X0, X2; \
	VMINPS X2, X0, X0; \
	VPSHUFD $0x4e, X1, X3; \
	VMAXPS X3, X1, X1; \
	VPSHUFD $0xb1, X0, X2; \
	VMINPS X2, X0, X0; \
	VPSHUFD $0xb1, X1, X3; \
	VMAXPS X3, X1, X1
