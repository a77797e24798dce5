package scsidev

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type params struct{ N int }

func TestParamsOf(t *testing.T) {
	def := params{N: 1}
	var nilp *params
	tests := []struct {
		name string
		in   any
		want params
		err  string
	}{
		{"nil: defaults", nil, def, ""},
		{"value", params{N: 2}, params{N: 2}, ""},
		{"pointer", &params{N: 3}, params{N: 3}, ""},
		{"nil pointer: defaults", nilp, def, ""},
		{"wrong type", 4, def, "SCSI ID 5 (x): parameters of type int, want scsidev.params"},
	}
	for _, tt := range tests {
		got, err := ParamsOf(Spec{ID: 5, Type: "x", Params: tt.in}, def)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}
