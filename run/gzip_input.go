package run

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// A kernel file may be kept gzipped (NAME.sass.gz, NAME.ptx.gz): SASS
// listings with their encodings run to megabytes and compress about
// eightfold. readKernelFile reads path, or path.gz where path does not exist,
// and returns the name its frontend and the files beside it go by (the name
// without .gz) and its bytes, uncompressed. The limit holds for the bytes a
// frontend reads, so a small archive cannot unpack past it.
func readKernelFile(path, what string, limit int64) (string, []byte, error) {
	gz := strings.HasSuffix(path, ".gz")
	if !gz {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			if _, err := os.Stat(path + ".gz"); err == nil {
				path, gz = path+".gz", true
			}
		}
	}
	src, err := ReadInput(path, what, limit)
	if err != nil || !gz {
		return path, src, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return path, nil, fmt.Errorf("%s: not a gzip file: %v", path, err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(io.LimitReader(zr, limit+1)); err != nil {
		return path, nil, fmt.Errorf("%s: %v", path, err)
	}
	if int64(out.Len()) > limit {
		return path, nil, fmt.Errorf("%s: larger than %s uncompressed, the limit for a %s", path, limitSize(limit), what)
	}
	return strings.TrimSuffix(path, ".gz"), out.Bytes(), nil
}
