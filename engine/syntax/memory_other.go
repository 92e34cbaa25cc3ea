//go:build !linux

package syntax

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator is nil off Linux: wazero's own memory (withMemory).
func memoryAllocator() experimental.MemoryAllocator { return nil }
