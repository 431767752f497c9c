package sass

import "fmt"

// AttrID is the attribute code of one .nv.info record (EIATTR_*).
type AttrID uint8

// The attribute codes this package decodes. The numbering is NVIDIA's (cuobjdump -elf prints the
// names); it is not published in the CUDA documentation. The table in attrName follows the
// public EIATTR tables of cubin tools and of a reverse-engineering write-up of ptxas 13.0 (all
// agree on codes 0x00-0x5a), checked against the attributes ptxas 13.0 writes into the cubins of
// this repository and against the names cuobjdump -elf prints for three of them
// (TestAttributesMatchCuobjdump).
const (
	AttrMaxThreads            AttrID = 0x05
	AttrParamCBank            AttrID = 0x0a
	AttrCBankParamOffsets     AttrID = 0x0c
	AttrExterns               AttrID = 0x0f
	AttrReqNTID               AttrID = 0x10
	AttrFrameSize             AttrID = 0x11
	AttrMinStackSize          AttrID = 0x12
	AttrKParamInfo            AttrID = 0x17
	AttrCBankParamSize        AttrID = 0x19
	AttrMaxRegCount           AttrID = 0x1b
	AttrExitInstrOffsets      AttrID = 0x1c
	AttrS2RCTAIDInstrOffsets  AttrID = 0x1d
	AttrCRSStackSize          AttrID = 0x1e
	AttrMaxStackSize          AttrID = 0x23
	AttrLdCachemodOffsets     AttrID = 0x25
	AttrAtomSysInstrOffsets   AttrID = 0x27
	AttrCoopGroupInstrOffsets AttrID = 0x28
	AttrCoopGroupMaskRegIDs   AttrID = 0x29
	AttrRegCount              AttrID = 0x2f
	AttrIntWarpWideOffsets    AttrID = 0x31
	AttrSharedScratch         AttrID = 0x32
	AttrIndirectBranchTargets AttrID = 0x34
	AttrSWWar                 AttrID = 0x36
	AttrCUDAAPIVersion        AttrID = 0x37
	AttrNumMbarriers          AttrID = 0x38
	AttrMbarrierInstrOffsets  AttrID = 0x39
	AttrCTAPerCluster         AttrID = 0x3d
	AttrExplicitCluster       AttrID = 0x3e
	AttrMaxClusterRank        AttrID = 0x3f
	AttrReservedSmemUsed      AttrID = 0x41
	AttrReservedSmem0Size     AttrID = 0x42
	AttrKParamInfoV2          AttrID = 0x45
	AttrNumBarriers           AttrID = 0x4c
	AttrBlocksAreClusters     AttrID = 0x5b
	AttrMercuryISAVersion     AttrID = 0x5f
)

// attrName returns the EIATTR name of code id without its prefix, or "" for codes it does not know.
func attrName(id AttrID) string {
	names := [...]string{ //nolint:gochecknoglobals // a constant table; Go has no constant arrays
		"ERROR", "PAD", "IMAGE_SLOT", "JUMPTABLE_RELOCS", "CTAIDZ_USED", "MAX_THREADS", "IMAGE_OFFSET",
		"IMAGE_SIZE", "TEXTURE_NORMALIZED", "SAMPLER_INIT", "PARAM_CBANK", "SMEM_PARAM_OFFSETS",
		"CBANK_PARAM_OFFSETS", "SYNC_STACK", "TEXID_SAMPID_MAP", "EXTERNS", "REQNTID", "FRAME_SIZE",
		"MIN_STACK_SIZE", "SAMPLER_FORCE_UNNORMALIZED", "BINDLESS_IMAGE_OFFSETS", "BINDLESS_TEXTURE_BANK",
		"BINDLESS_SURFACE_BANK", "KPARAM_INFO", "SMEM_PARAM_SIZE", "CBANK_PARAM_SIZE", "QUERY_NUMATTRIB",
		"MAXREG_COUNT", "EXIT_INSTR_OFFSETS", "S2RCTAID_INSTR_OFFSETS", "CRS_STACK_SIZE", "NEED_CNP_WRAPPER",
		"NEED_CNP_PATCH", "EXPLICIT_CACHING", "ISTYPEP_USED", "MAX_STACK_SIZE", "SUQ_USED",
		"LD_CACHEMOD_INSTR_OFFSETS", "LOAD_CACHE_REQUEST", "ATOM_SYS_INSTR_OFFSETS",
		"COOP_GROUP_INSTR_OFFSETS", "COOP_GROUP_MASK_REGIDS", "SW1850030_WAR", "WMMA_USED",
		"HAS_PRE_V10_OBJECT", "ATOMF16_EMUL_INSTR_OFFSETS", "ATOM16_EMUL_INSTR_REG_MAP", "REGCOUNT",
		"SW2393858_WAR", "INT_WARP_WIDE_INSTR_OFFSETS", "SHARED_SCRATCH", "STATISTICS",
		"INDIRECT_BRANCH_TARGETS", "SW2861232_WAR", "SW_WAR", "CUDA_API_VERSION", "NUM_MBARRIERS",
		"MBARRIER_INSTR_OFFSETS", "COROUTINE_RESUME_ID_OFFSETS", "SAM_REGION_STACK_SIZE",
		"PER_REG_TARGET_PERF_STATS", "CTA_PER_CLUSTER", "EXPLICIT_CLUSTER", "MAX_CLUSTER_RANK",
		"INSTR_REG_MAP", "RESERVED_SMEM_USED", "RESERVED_SMEM_0_SIZE", "UCODE_SECTION_DATA",
		"UNUSED_LOAD_BYTE_OFFSET", "KPARAM_INFO_V2", "SYSCALL_OFFSETS", "SW_WAR_MEMBAR_SYS_INSTR_OFFSETS",
		"GRAPHICS_GLOBAL_CBANK", "SHADER_TYPE", "VRC_CTA_INIT_COUNT", "TOOLS_PATCH_FUNC", "NUM_BARRIERS",
		"TEXMODE_INDEPENDENT", "PERF_STATISTICS", "AT_ENTRY_FRAGMENTS", "SPARSE_MMA_MASK",
		"TCGEN05_1CTA_USED", "TCGEN05_2CTA_USED", "GEN_ERRBAR_AT_EXIT", "REG_RECONFIG", "ANNOTATIONS",
		"UNKNOWN", "STACK_CANARY_TRAP_OFFSETS", "STUB_FUNCTION_KIND", "LOCAL_CTA_ASYNC_STORE_OFFSETS",
		"MERCURY_FINALIZER_OPTIONS",
		"BLOCKS_ARE_CLUSTERS", "SANITIZE", "SYSCALLS_FALLBACK", "CUDA_REQ", "MERCURY_ISA_VERSION",
	}
	if int(id) < len(names) {
		return names[id]
	}
	return ""
}

// String returns the attribute's EIATTR name.
func (a AttrID) String() string {
	if n := attrName(a); n != "" {
		return "EIATTR_" + n
	}
	return fmt.Sprintf("EIATTR_0x%02x", uint8(a))
}

// Format is the encoding of one .nv.info record (EIFMT_*): the byte before the attribute code.
type Format uint8

// Record formats. NVAL, BVAL and HVAL records are 4 bytes with the value in the last two; SVAL
// records carry a 16-bit payload size and then the payload.
const (
	FormatNVal Format = 1 // no value (a flag)
	FormatBVal Format = 2 // a byte value
	FormatHVal Format = 3 // a 16-bit value
	FormatSVal Format = 4 // a sized payload
)

// String returns the EIFMT name.
func (f Format) String() string {
	switch f {
	case FormatNVal:
		return "EIFMT_NVAL"
	case FormatBVal:
		return "EIFMT_BVAL"
	case FormatHVal:
		return "EIFMT_HVAL"
	case FormatSVal:
		return "EIFMT_SVAL"
	}
	return fmt.Sprintf("EIFMT_0x%02x", uint8(f))
}
