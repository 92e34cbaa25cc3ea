//go:build !linux

package syntax

import "github.com/tetratelabs/wazero/experimental"

// mapsImage is whether instances map the image of the module's data
// (loadModule): not off Linux, where the module is loaded whole.
const mapsImage = false

// memoryAllocator is nil off Linux: wazero's own memory (withMemory).
func memoryAllocator(*image, *bool) experimental.MemoryAllocator { return nil }
