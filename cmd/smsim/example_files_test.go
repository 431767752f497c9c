package main

import (
	"os"
	"path/filepath"
)

func readExample(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	return string(b), err
}
