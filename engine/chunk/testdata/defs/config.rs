use std::collections::HashMap;

/// Settings read from the environment.
#[derive(Debug, Default)]
pub struct Config {
    pub values: HashMap<String, String>,
}

impl Config {
    /// Reads the variables with the prefix.
    pub fn from_env(prefix: &str) -> Self {
        let mut values = HashMap::new();
        for (k, v) in std::env::vars() {
            if k.starts_with(prefix) {
                values.insert(k, v);
            }
        }
        Config { values }
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(|s| s.as_str())
    }
}

pub enum Mode {
    Fast,
    Safe,
}

pub fn parse_mode(s: &str) -> Mode {
    if s == "fast" { Mode::Fast } else { Mode::Safe }
}
