//! A small crate for the golden test.
use std::fmt;

/// The largest frame we accept.
pub const MAX_FRAME: usize = 1 << 20;

/// A node of the tree.
#[derive(Debug, Clone)]
pub struct Node {
    name: String,
}

pub enum Kind {
    Leaf,
    Branch,
}

type Result<T> = std::result::Result<T, Error>;

pub trait Visit {
    fn visit(&self, n: &Node);
}

impl fmt::Display for Node {
    // fmt writes the name.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

mod inner {
    pub fn helper() -> u32 {
        42
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}
