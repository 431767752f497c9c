package ptx

// Exported for the external tests.
const (
	Cvt8E4M3 = cvt8E4M3
	Cvt8E5M2 = cvt8E5M2
	Cvt8Relu = cvt8Relu
)
