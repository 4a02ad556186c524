package main

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
)

// Verdict of one key's history.
type Verdict struct {
	Key    string
	Result porcupine.CheckResult
	Window string // for an illegal history: the operations around where every linearization stops
	Info   porcupine.LinearizationInfo
}

// CheckKey checks one key's operations with Porcupine (at most timeout; then the result is Unknown).
func CheckKey(key string, ops []porcupine.Operation, timeout time.Duration) Verdict {
	model := ModelFor(key)
	res, info := porcupine.CheckOperationsVerbose(model, ops, timeout)
	v := Verdict{Key: key, Result: res, Info: info}
	if res == porcupine.Illegal {
		v.Window = failingWindow(model, ops, info)
	}
	return v
}

// failingWindow names the longest linearizable prefix Porcupine found and lists the operations concurrent with
// the first operation (by invocation) it could not place: a minimal window to read the violation in.
func failingWindow(model porcupine.Model, ops []porcupine.Operation, info porcupine.LinearizationInfo) string {
	var longest []porcupine.Operation
	for _, partition := range info.PartialLinearizationsOperations() {
		for _, lin := range partition {
			if len(lin) > len(longest) {
				longest = lin
			}
		}
	}
	placed := map[int64]int{}
	for _, op := range longest {
		placed[op.Call]++
	}
	sorted := append([]porcupine.Operation(nil), ops...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Call < sorted[j].Call })
	var stuck *porcupine.Operation
	for i := range sorted {
		if placed[sorted[i].Call] > 0 {
			placed[sorted[i].Call]--
			continue
		}
		stuck = &sorted[i]
		break
	}
	var b strings.Builder
	state := model.Init()
	for _, op := range longest {
		_, state = model.Step(state, op.Input, op.Output)
	}
	fmt.Fprintf(&b, "longest linearizable prefix: %d of %d operations, state then %s\n", len(longest), len(ops),
		model.DescribeState(state))
	if stuck == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "first operation that cannot be placed: process %d %s\n", stuck.ClientId,
		model.DescribeOperation(stuck.Input, stuck.Output))
	b.WriteString("operations concurrent with it (call, return in ms from its call):\n")
	for _, op := range sorted {
		if op.Call <= stuck.Return && op.Return >= stuck.Call {
			ret := "never"
			if op.Return != Never {
				ret = fmt.Sprintf("%+.1f", float64(op.Return-stuck.Call)/1000)
			}
			fmt.Fprintf(&b, "  process %-4d %+9.1f %9s  %s\n", op.ClientId, float64(op.Call-stuck.Call)/1000, ret,
				model.DescribeOperation(op.Input, op.Output))
		}
	}
	return b.String()
}
