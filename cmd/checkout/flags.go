package main

import (
	"flag"
	"fmt"
	"strings"
)

// envFlags records which flags may come from an environment variable, so
// that a flag given on the command line wins and --help never prints a
// secret taken from the environment as a default.
type envFlags struct {
	fs      *flag.FlagSet
	env     func(string) string
	vars    map[string]string // flag name -> variable
	fromEnv map[string]bool   // flag name -> set from its variable by apply
}

func newEnvFlags(fs *flag.FlagSet, env func(string) string) *envFlags {
	return &envFlags{fs: fs, env: env, vars: map[string]string{}, fromEnv: map[string]bool{}}
}

// source names where the value of flag name came from, for a message
// about it: the variable when apply took it from there, else "--name".
func (e *envFlags) source(name string) string {
	if e.fromEnv[name] {
		return e.vars[name]
	}
	return "--" + name
}

// String declares a string flag that falls back to the variable v.
func (e *envFlags) String(name, v, def, help string) *string {
	e.vars[name] = v
	return e.fs.String(name, def, help+" (env "+v+")")
}

// apply sets, from their variables, the flags not given on the command
// line. Call it after Parse.
func (e *envFlags) apply() error {
	given := map[string]bool{}
	e.fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, v := range e.vars {
		if given[name] {
			continue
		}
		if val := e.env(v); val != "" {
			if err := e.fs.Set(name, val); err != nil {
				return fmt.Errorf("%s: %w", v, err)
			}
			e.fromEnv[name] = true
		}
	}
	return nil
}

// list splits a comma-separated flag value, dropping empty items and
// spaces around them.
func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
