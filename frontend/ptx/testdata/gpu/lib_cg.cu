// cooperative_groups as it lowers for sm_90.
#include "conf.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;
#define OUT(v) out[(i++) * N + t] = (uint64_t)(v)

__global__ void k_cg(uint64_t* out) {
  __shared__ unsigned elected;
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  auto t8 = cg::tiled_partition<8>(block);
  unsigned t = block.thread_rank(), i = 0;
  unsigned v = mix32(t * 31 + 7);
  if (t == 0) elected = 0;
  block.sync();
  OUT(cg::reduce(tile, (int)(v & 0xff), cg::plus<int>()));
  OUT(cg::reduce(t8, v, cg::greater<unsigned>()));
  OUT(cg::reduce(tile, v, cg::bit_xor<unsigned>()));
  OUT(tile.shfl_down(v, 3));
  OUT(t8.shfl_xor(v, 1));
  OUT(tile.ballot(v & 1));
  OUT(tile.any(v & 8) | tile.all(v != 0) << 1);
  OUT(tile.match_any(v & 7));
  OUT(cg::inclusive_scan(t8, (int)(v & 15)));
  OUT(cg::exclusive_scan(tile, v & 255));
  OUT(tile.meta_group_rank() | t8.meta_group_rank() << 8 | t8.thread_rank() << 16);
  cg::invoke_one(tile, [&] { atomicAdd(&elected, 1u); });
  block.sync();
  OUT(elected);
  OUT(block.size() | block.group_index().x << 16);
}

static const char* const texts[] = {"reduce plus", "reduce greater t8", "reduce xor", "shfl_down", "shfl_xor t8",
                                    "ballot", "any/all", "match_any", "inclusive_scan t8", "exclusive_scan",
                                    "ranks", "invoke_one", "block size"};

int main() {
  dump("k_cg", k_cg, sizeof texts / sizeof texts[0], texts);
  return 0;
}
