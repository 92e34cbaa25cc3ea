// Package sample is a small file for the golden test.
package sample

import "fmt"

// MaxItems bounds a list.
const MaxItems = 10

// Node is a node of the tree.
type Node struct {
	Name string
}

type (
	ID    int
	Alias = string
)

// String names the node.
func (n *Node) String() string {
	return fmt.Sprint(n.Name)
}

// New makes a node.
func New(name string) *Node {
	return &Node{Name: name}
}
