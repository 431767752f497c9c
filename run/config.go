package run

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/smsim/smsim/sm"
)

// BuiltinConfigs lists the named machine configurations.
func BuiltinConfigs() map[string]func() sm.Config {
	return map[string]func() sm.Config{"h200": sm.DefaultConfig}
}

// ConfigNames lists the built-in configurations' names, sorted, ", " between.
func ConfigNames() string {
	var ns []string
	for n := range BuiltinConfigs() {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

// LoadConfig returns a built-in configuration or one read from a file of
// "key = value" lines (as 'smsim config show' writes), with --set overrides.
func LoadConfig(name string, sets []string) (sm.Config, error) {
	var cfg sm.Config
	if mk, ok := BuiltinConfigs()[name]; ok {
		cfg = mk()
	} else {
		if _, err := os.Stat(name); err != nil {
			if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(name, `./\`) {
				// A bare word is most likely a misspelt built-in name.
				return cfg, &UsageError{Msg: fmt.Sprintf("--config %q: not a built-in configuration (%s) or an existing file", name, ConfigNames())}
			}
			return cfg, configReadError(name, err)
		}
		data, err := ReadInput(name, "--config file", MaxConfigBytes)
		if err != nil {
			return cfg, &InputError{Err: fmt.Errorf("--config %w", err)}
		}
		cfg, err = ReadConfigFile(name, bytes.NewReader(data))
		if err != nil {
			return cfg, &InputError{Err: err}
		}
	}
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return cfg, &UsageError{Msg: fmt.Sprintf("--set %q: want KEY=VALUE", s)}
		}
		if err := cfg.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return cfg, &UsageError{Msg: err.Error()}
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, &UsageError{Msg: err.Error()}
	}
	return cfg, nil
}

// configReadError is the input error for a --config file that cannot be read.
func configReadError(name string, err error) error {
	return &InputError{Err: fmt.Errorf("--config %s: cannot read: %w", name, UnwrapPath(err))}
}

// ReadConfigFile parses "key = value" lines; "#" starts a comment. A "name"
// key names the configuration; the keys modify h200's values.
func ReadConfigFile(name string, r io.Reader) (sm.Config, error) {
	cfg := sm.DefaultConfig()
	cfg.Name = name
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		k, v, ok := strings.Cut(text, "=")
		if !ok {
			return cfg, fmt.Errorf("%s:%d:1: want key = value", name, line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "name" {
			cfg.Name = v
			continue
		}
		if err := cfg.Set(k, v); err != nil {
			return cfg, fmt.Errorf("%s:%d:1: %v", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return cfg, configReadError(name, err)
	}
	return cfg, nil
}

// WriteConfig writes every key of cfg as a loadable configuration file.
func WriteConfig(w io.Writer, cfg sm.Config) error {
	var b strings.Builder
	fmt.Fprintf(&b, "name = %s\n", cfg.Name)
	for _, p := range cfg.Params() {
		fmt.Fprintf(&b, "%-28s = %s\n", p.Key, p.Value())
	}
	_, err := io.WriteString(w, b.String())
	return err
}
