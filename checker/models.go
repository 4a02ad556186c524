package main

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// CounterModel is the counter sample service: inc adds its argument and returns the new value, read returns it.
var CounterModel = porcupine.Model{
	Init: func() interface{} { return int64(0) },
	Step: func(state, input, output interface{}) (bool, interface{}) {
		s, in, out := state.(int64), input.(Input), output.(Output)
		switch in.F {
		case "inc":
			return out.Unknown || out.Result == s+in.Arg, s + in.Arg
		case "read":
			return out.Unknown || out.Result == s, s
		}
		return false, s
	},
	DescribeOperation: describe,
	DescribeState:     func(state interface{}) string { return fmt.Sprint(state) },
}

// RegisterModel is one key of the register sample service (every key starts at 0): write returns what it
// stored, read the value, cas (expected Arg, new Arg2) succeeds iff the value is Arg and returns the value after.
// An unknown cas is applied as it would be where it is placed; it can always be placed last, where it has no
// visible effect.
var RegisterModel = porcupine.Model{
	Init: func() interface{} { return int64(0) },
	Step: func(state, input, output interface{}) (bool, interface{}) {
		s, in, out := state.(int64), input.(Input), output.(Output)
		switch in.F {
		case "write":
			return out.Unknown || out.Result == in.Arg, in.Arg
		case "read":
			return out.Unknown || out.Result == s, s
		case "cas":
			next := s
			if s == in.Arg {
				next = in.Arg2
			}
			return out.Unknown || (out.Ok == (s == in.Arg) && out.Result == next), next
		}
		return false, s
	},
	DescribeOperation: describe,
	DescribeState:     func(state interface{}) string { return fmt.Sprint(state) },
}

// ModelFor is the model of a key's operations: the counter's, or a register's.
func ModelFor(key string) porcupine.Model {
	if key == "counter" {
		return CounterModel
	}
	return RegisterModel
}

func describe(input, output interface{}) string {
	in, out := input.(Input), output.(Output)
	args := ""
	switch in.F {
	case "inc", "write":
		args = fmt.Sprint(in.Arg)
	case "cas":
		args = fmt.Sprintf("%d->%d", in.Arg, in.Arg2)
	}
	if out.Unknown {
		return fmt.Sprintf("%s(%s) -> ?", in.F, args)
	}
	if in.F == "cas" {
		return fmt.Sprintf("cas(%s) -> %v, %d", args, out.Ok, out.Result)
	}
	return fmt.Sprintf("%s(%s) -> %d", in.F, args, out.Result)
}
