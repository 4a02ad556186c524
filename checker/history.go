package main

import (
	"fmt"
	"math"
	"sort"

	"github.com/anishathalye/porcupine"
)

// Event is one line of a client history (client-lib's org.bftws.client.faults.History): an "invoke", then
// "ok" (with the result) or "info" (the outcome is unknown: timed out or failed).
type Event struct {
	T       int64  `json:"t"`
	Type    string `json:"type"`
	Process int    `json:"process"`
	F       string `json:"f"`
	Key     string `json:"key"`
	Arg     int64  `json:"arg"`
	Arg2    int64  `json:"arg2"`
	Result  int64  `json:"result"`
	Ok      bool   `json:"ok"`
	Error   string `json:"error"`
}

// Input is what a process asked: f on key with up to two arguments.
type Input struct {
	F    string
	Key  string
	Arg  int64
	Arg2 int64
}

// Output is what came back; Unknown when the operation timed out or failed (it may or may not have taken effect).
type Output struct {
	Unknown bool
	Result  int64
	Ok      bool
}

// Never is the return time of an operation whose outcome is unknown: it may take effect at any point after its
// invocation, so it is concurrent with everything that follows (as Jepsen treats :info operations).
const Never = math.MaxInt64 / 2

// ReadEvents reads a JSON-lines history; a malformed line is an error (the workload ends its lines cleanly).
func ReadEvents(path string) ([]Event, error) {
	return readLines[Event](path, true)
}

// Operations pairs each invocation with its process's next completion; an invocation without one (the client
// died) is unknown like an "info". Operations come back in order of invocation.
func Operations(events []Event) ([]porcupine.Operation, error) {
	open := map[int]int{} // process -> index of its pending operation
	var ops []porcupine.Operation
	for _, e := range events {
		switch e.Type {
		case "invoke":
			if _, busy := open[e.Process]; busy {
				return nil, fmt.Errorf("process %d invokes while an operation is pending", e.Process)
			}
			open[e.Process] = len(ops)
			ops = append(ops, porcupine.Operation{ClientId: e.Process, Input: Input{e.F, e.Key, e.Arg, e.Arg2},
				Call: e.T, Output: Output{Unknown: true}, Return: Never})
		case "ok", "info":
			i, busy := open[e.Process]
			if !busy {
				return nil, fmt.Errorf("process %d completes an operation it did not invoke", e.Process)
			}
			delete(open, e.Process)
			if e.Type == "ok" {
				ops[i].Output = Output{Result: e.Result, Ok: e.Ok}
				ops[i].Return = e.T
			}
		default:
			return nil, fmt.Errorf("unknown event type %q", e.Type)
		}
	}
	return ops, nil
}

// ByKey splits operations by key, keys sorted ("counter" and the registers' keys).
func ByKey(ops []porcupine.Operation) ([]string, map[string][]porcupine.Operation) {
	m := map[string][]porcupine.Operation{}
	for _, op := range ops {
		k := op.Input.(Input).Key
		m[k] = append(m[k], op)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, m
}
