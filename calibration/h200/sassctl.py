#!/usr/bin/env python3
# sassctl.py SASS [FUNCTION]: prints each instruction of `cuobjdump -sass` output (encodings kept) with its
# control bits decoded, for reading ptxas's schedule: the stall count (cycles before the warp's next issue),
# the yield bit, the scoreboards the instruction sets (wb: when its result is written, rb: when its sources
# are read) and those it waits on (wt: a 6-bit mask, scoreboard 0 rightmost). FUNCTION picks the functions
# whose mangled names contain it. Volta-and-later encoding (Hopper included): bits 105-125 of the 128-bit word.
#   Columns: address  S<stall>  Y (yield) or -  wb<n>  rb<n>  wt<mask>  instruction
# The stall counts of a path, plus what its waits on variable-latency results cost, are its time: for example
# the batch loop of bulkbw.cu (docs/model.md, the copy-stream known misses).
import re, sys

def main():
    lines = open(sys.argv[1]).read().split('\n')
    want = sys.argv[2] if len(sys.argv) > 2 else None
    cur, i = None, 0
    while i < len(lines):
        m = re.search(r'Function : (\S+)', lines[i])
        if m:
            cur = m.group(1)
            if want is None or want in cur:
                print('##', cur)
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s+/\* (0x[0-9a-f]+) \*/', lines[i])
        if m and cur and (want is None or want in cur) and i + 1 < len(lines):
            hi = re.search(r'/\* (0x[0-9a-f]+) \*/', lines[i + 1])
            ctl = int(hi.group(1), 16) >> 41
            stall, yld = ctl & 0xf, (ctl >> 4) & 1
            wb, rb, wait = (ctl >> 5) & 7, (ctl >> 8) & 7, (ctl >> 11) & 0x3f
            print(f"{m.group(1)}  S{stall:<2} {'Y' if yld == 0 else '-'} wb{wb if wb != 7 else '-'} "
                  f"rb{rb if rb != 7 else '-'} wt{wait:06b}  {m.group(2).strip()}")
            i += 2
            continue
        i += 1

if __name__ == '__main__':
    main()
