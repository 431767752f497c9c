package run

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/memory"
)

// The PTX nvcc wrote for wgmma_probe.cu, and the SASS the H200 ran, run as
// the H200 ran them: every kernel with every CTA the H200 launched, the
// same inputs, and every accumulator register compared bit for bit with the
// H200's (testdata/cuda/wgmma/wgmma_func.*, docs/wgmma.md).

const wgmmaImage = 16384

type wgmmaCTA struct {
	Variant string `json:"variant"`
	CTA     int    `json:"cta"`
	DescA   string `json:"desc_a"`
	DescB   string `json:"desc_b"`
	ScaleD  int32  `json:"scale_d"`
	NR      int    `json:"nr"`
	Offset  int64  `json:"offset"`
}

// loadWgmmaProbe returns the probe's CTAs by kernel, in launch order, and
// the raw records.
func loadWgmmaProbe(t *testing.T) (map[string][]wgmmaCTA, []string, []byte) {
	t.Helper()
	f, err := os.Open("../testdata/cuda/wgmma/wgmma_func.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	by := map[string][]wgmmaCTA{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// ref_err, the host's own check, is printed with %g: inf is not JSON
		line := strings.NewReplacer(":inf", ":null", ":-nan", ":null", ":nan", ":null").Replace(sc.Text())
		var c wgmmaCTA
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		if len(by[c.Variant]) == 0 {
			order = append(order, c.Variant)
		}
		by[c.Variant] = append(by[c.Variant], c)
	}
	raw, err := os.ReadFile("../testdata/cuda/wgmma/wgmma_func.bin.gz")
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return by, order, bin
}

func TestWgmmaProbePTXMatchesH200(t *testing.T) {
	testWgmmaProbe(t, "../calibration/h200/wgmma_probe.ptx")
}

func TestWgmmaProbeSASSMatchesH200(t *testing.T) {
	testWgmmaProbe(t, "../calibration/h200/wgmma_probe.sass")
}

func testWgmmaProbe(t *testing.T, file string) {
	by, order, bin := loadWgmmaProbe(t)
	for _, name := range order {
		cs := by[name]
		t.Run(name, func(t *testing.T) {
			n, nr := len(cs), cs[0].NR
			regBytes := 128 * nr * 4
			j, err := Spec{Kernel: "wg_" + name, Block: "128", Grid: strconv.Itoa(n), Smem: strconv.Itoa(wgmmaImage + 1024),
				Launches: 1, Config: "h200", Args: []string{
					fmt.Sprintf("buf:%d", n*wgmmaImage), fmt.Sprintf("buf:%d", n*2048), fmt.Sprintf("buf:%d", n*regBytes),
					fmt.Sprintf("buf:%d", n*regBytes), fmt.Sprintf("buf:%d", n*16), fmt.Sprintf("buf:%d", n*4),
					fmt.Sprintf("buf:%d", n*4)}}.Job(file)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(file, ".sass") != j.Prog.Scheduled {
				t.Fatalf("%s: loaded as a scheduled (SASS) program: %v", file, j.Prog.Scheduled)
			}
			j.Prep = func(gm *memory.Global, ps *Params) error {
				for i, c := range cs {
					rec := bin[c.Offset:]
					da, _ := strconv.ParseUint(c.DescA[2:], 16, 64)
					db, _ := strconv.ParseUint(c.DescB[2:], 16, 64)
					desc := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, da), db)
					for _, w := range []struct {
						buf string
						at  int
						b   []byte
					}{
						{"0", i * wgmmaImage, rec[:wgmmaImage]},
						{"1", i * 2048, rec[wgmmaImage : wgmmaImage+2048]},
						{"2", i * regBytes, rec[wgmmaImage+2048 : wgmmaImage+2048+regBytes]},
						{"4", i * 16, desc},
						{"5", i * 4, binary.LittleEndian.AppendUint32(nil, uint32(c.ScaleD))},
					} {
						if err := gm.Write(ps.Bufs[w.buf].Addr+uint64(w.at), w.b); err != nil {
							return err
						}
					}
				}
				return nil
			}
			out, err := Execute(j)
			if err != nil {
				t.Fatal(err)
			}
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			got := make([]byte, n*regBytes)
			if err := out.Global.Read(out.Params.Bufs["3"].Addr, got); err != nil {
				t.Fatal(err)
			}
			for i, c := range cs {
				want := bin[c.Offset+wgmmaImage+2048+int64(regBytes):][:regBytes]
				if g := got[i*regBytes : (i+1)*regBytes]; !bytes.Equal(g, want) {
					for k := 0; k < regBytes; k += 4 {
						if !bytes.Equal(g[k:k+4], want[k:k+4]) {
							t.Errorf("CTA %d: thread %d register %d: got %#08x, H200 %#08x", c.CTA, k/4/nr, k/4%nr,
								binary.LittleEndian.Uint32(g[k:]), binary.LittleEndian.Uint32(want[k:]))
							break
						}
					}
				}
			}
		})
	}
}
